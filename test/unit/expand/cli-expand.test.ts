// `psconfig-tools expand` on the real example templates, through the built CLI (node dist/cli.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { examplesDir as examples, repoRoot as findRoot } from '../../fixtures';

const repoRoot = findRoot();
const cli = join(repoRoot, 'dist', 'cli.js');
const env = { ...process.env, JQ_PATH: process.env.JQ_PATH || '/usr/bin/jq' };

function run(...args: string[]): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [cli, 'expand', ...args], {
    encoding: 'utf8',
    env,
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

interface JsonElement {
  task: string;
  addresses: string[];
  agent?: string;
  flip?: boolean;
  pscheduler?: {
    test: { type: string; spec: Record<string, unknown> };
    archives: unknown[];
    schedule: unknown;
    reference: { psconfig: unknown };
  };
  error?: string;
  refused?: { part: string; plugin?: string; name?: string; problems: string[] }[];
}

test('json format: one element per combination, in pSConfig order, with the agent and flip', () => {
  const r = run(join(examples, 'perl-shared--client-psconfig-mesh.json'));
  assert.equal(r.code, 0, r.err);
  const out = JSON.parse(r.out) as JsonElement[];
  assert.deepEqual(
    out.map((e) => `${String(e.pscheduler?.test.spec.source)}->${String(e.pscheduler?.test.spec.dest)}`),
    ['host-a', 'host-a', 'host-b', 'host-b', 'host-c', 'host-c'].map(
      (s, i) => `${s}.perfsonar.net->${['host-b', 'host-c', 'host-a', 'host-c', 'host-a', 'host-b'][i]}.perfsonar.net`,
    ),
  );
  for (const e of out) {
    assert.deepEqual(Object.keys(e), ['task', 'addresses', 'agent', 'flip', 'pscheduler']);
    assert.equal(e.flip, false);
    assert.deepEqual(e.pscheduler?.reference.psconfig, {
      'created-by': { 'user-agent': 'psconfig-pscheduler-agent', 'agent-hostname': e.agent, uuid: '<preview>' },
    });
  }
});

test('--agent restricts to what that agent schedules, flipped tasks included', () => {
  const r = run(join(examples, 'perl-shared--client-psconfig-noagent.json'), '--agent', 'HOST-A.perfsonar.net');
  assert.equal(r.code, 0, r.err);
  const out = JSON.parse(r.out) as JsonElement[];
  assert.ok(out.length >= 12);
  assert.ok(out.every((e) => e.agent === 'host-a.perfsonar.net'));
  assert.ok(out.some((e) => e.flip === true));
});

test('pscheduler format: the bare array of task JSON, archives and schedule always present', () => {
  // (example-1 used to be this test's input: pScheduler refuses every one of its tasks, see the refusal tests)
  const r = run(join(examples, 'perl-shared--client-psconfig-mesh.json'), '--format', 'pscheduler');
  assert.equal(r.code, 0, r.err);
  const out = JSON.parse(r.out) as Record<string, unknown>[];
  assert.ok(out.length > 0);
  for (const t of out) {
    assert.ok('test' in t && 'archives' in t && 'schedule' in t && 'reference' in t);
    assert.equal(JSON.stringify(t).includes('{%'), false, 'every variable expanded');
  }
});

test('every example template runs through the CLI (exit 0, or 1 with per-combination errors)', () => {
  for (const f of [
    'psconfig--example-2-testbed.json',
    'psconfig--example-3-circuits.json',
    'psconfig--example-5-classes.json',
    'qa--psconfig-netsage-mesh.json',
    'pwa--opn-all-expected.json',
    'pwa--import3-i2-ap-rex-expected.json',
  ]) {
    const r = run(join(examples, f));
    assert.ok(r.code === 0 || r.code === 1, `${f}: exit ${r.code} ${r.err}`);
    assert.ok(r.out.startsWith('['), `${f}: no JSON on stdout (exit ${r.code}): ${r.err}`);
    const out = JSON.parse(r.out) as JsonElement[];
    if (r.code === 1) assert.ok(out.some((e) => e.error) || /error: |agent rejects this template/.test(r.err), f);
  }
  // Two real templates name objects they do not define: pSConfig's agent rejects each whole (validate_refs,
  // psconfig config.py ~246-340; base_agent.py ~388-402). Checked with pSConfig 5.2.4's own Config.validate_refs:
  // these are its first sentences for them.
  for (const [f, sentence] of [
    ['qa--psconfig-netsage-mesh.json', 'Group group_2 references an address object 62.40.106.8 that does not exist.'],
    [
      'pwa--import3-i2-ap-rex-expected.json',
      'Task Manlan to PacWave Latency Testspec references an archive config-archive0 that does not exist.',
    ],
  ]) {
    const r = run(join(examples, f));
    assert.equal(r.code, 1, r.err);
    assert.deepEqual(JSON.parse(r.out), []);
    assert.ok(r.err.includes(`psconfig_ref_validation_error): ${sentence}`), r.err);
  }
});

test('exit 1 with a pSConfig-worded error for a failing combination; exit 2 for unreadable or invalid files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'expand-cli-'));
  const bad = join(dir, 'bad.json');
  writeFileSync(
    bad,
    JSON.stringify({
      addresses: { a: { address: 'a' } },
      groups: { g: { type: 'list', addresses: [{ name: 'a' }] } },
      tests: { t: { type: 'rtt', spec: { dest: '{% address[1] %}' } } },
      tasks: { task: { group: 'g', test: 't' } },
    }),
  );
  const r = run(bad);
  assert.equal(r.code, 1);
  assert.deepEqual(JSON.parse(r.out), [
    {
      task: 'task',
      addresses: ['a'],
      error:
        'task=task,addresses=a,error=Error expanding test specification: Unable to expand variable address[1]: Index is too big in group[1] template variable',
    },
  ]);
  assert.match(r.err, /note: task task: .*IndexError/);
  const broken = join(dir, 'broken.json');
  writeFileSync(broken, '{\n  "addresses": {,\n}');
  const b = run(broken);
  assert.equal(b.code, 2);
  assert.match(b.err, /broken\.json: JSON syntax error at line 2, column \d+/);
  assert.equal(run(join(dir, 'missing.json')).code, 2);
  const noArchive = join(dir, 'no-archive.json');
  writeFileSync(
    noArchive,
    JSON.stringify({
      addresses: { a: { address: 'a' }, b: { address: 'b' } },
      groups: { g: { type: 'mesh', addresses: [{ name: 'a' }, { name: 'b' }] } },
      tests: { t: { type: 'rtt', spec: { dest: '{% address[1] %}' } } },
      tasks: { task: { group: 'g', test: 't', archives: ['nope'] } },
    }),
  );
  const na = run(noArchive, '--format', 'pscheduler');
  assert.equal(na.code, 1);
  assert.deepEqual(JSON.parse(na.out), []);
  assert.match(na.err, /agent rejects this template.*: Task task references an archive nope that does not exist\.$/m);
  assert.equal(run(bad, '--format', 'yaml').code, 2);
});

test('--agent that matches no agent says so and lists the agents there are', () => {
  const file = join(examples, 'perl-shared--client-psconfig-mesh.json');
  const none = run(file, '--agent', 'no-such-host.example.net');
  assert.equal(none.code, 2);
  assert.equal(none.out.trim(), '[]');
  assert.match(none.err, /--agent no-such-host\.example\.net matches none of the agents that schedule tasks in /);
  const agents = /Agents \((\d+)\): (.*)\./.exec(none.err);
  assert.ok(agents, none.err);
  const listed = agents[2].split(', ');
  assert.equal(listed.length, Number(agents[1]));
  // Each listed agent is a real one: asking for it gives tasks, and a typo next to a real one is only a warning.
  const one = run(file, '--agent', listed[0], '--agent', 'typo.example.net');
  assert.equal(one.code, 0, one.err);
  assert.ok((JSON.parse(one.out) as unknown[]).length > 0);
  assert.match(one.err, /--agent typo\.example\.net matches none/);
});

test('refused tasks: in json format with the reason and their task JSON; exit 1', () => {
  // example-1's http archive keeps `_meta` inside `data`: pScheduler's http archiver refuses it on every task.
  const r = run(join(examples, 'psconfig--example-1-simple.json'));
  assert.equal(r.code, 1, r.err);
  const out = JSON.parse(r.out) as JsonElement[];
  assert.ok(out.length > 0);
  for (const e of out) {
    assert.deepEqual(Object.keys(e), ['task', 'addresses', 'agent', 'flip', 'pscheduler', 'error', 'refused']);
    assert.match(
      e.error ?? '',
      /^pScheduler would refuse this task: archive example-archive-central \(http, schema 2\): /,
    );
    assert.equal(e.refused?.[0].part, 'archive');
    assert.equal(e.refused?.[0].name, 'example-archive-central');
    assert.match(e.refused?.[0].problems[0] ?? '', /does not take `_meta`/);
    assert.ok(e.pscheduler?.test.spec, 'the task JSON is still shown');
  }
});

test('refused tasks in pscheduler format: left out and reported on stderr; --include-refused prints them too', () => {
  const file = join(examples, 'psconfig--example-4-snmp.json');
  const r = run(file, '--format', 'pscheduler');
  assert.equal(r.code, 1, r.err);
  const out = JSON.parse(r.out) as unknown[];
  const refusedLines = r.err.split('\n').filter((l) => l.startsWith('refused: '));
  assert.ok(refusedLines.length > 0, r.err);
  for (const l of refusedLines)
    assert.match(
      l,
      /^refused: task=task-snmp,addresses=[^:]+: pScheduler would refuse this task: test snmpget: `version`/,
    );
  const all = run(file, '--format', 'pscheduler', '--include-refused');
  assert.equal(all.code, 1, all.err);
  const every = JSON.parse(all.out) as { test: { type: string } }[];
  assert.equal(every.length, out.length + refusedLines.length);
  assert.ok(every.some((t) => t.test.type === 'snmpget'));
  const json = JSON.parse(run(file).out) as JsonElement[];
  assert.deepEqual(
    every,
    json.map((e) => e.pscheduler),
    '--include-refused prints every task JSON the json format shows, in the same order',
  );
  const bad = run(file, '--include-refused');
  assert.equal(bad.code, 2);
  assert.match(bad.err, /--include-refused goes with --format pscheduler/);
});

test('identical tasks: json marks the second with identicalTo and why; pscheduler posts it once and says so', () => {
  // A list group naming its address twice: pSConfig's agent creates the task once (task_manager.py
  // _need_new_task: duplicate_new_task_map), so the second combination is not a task of its own, and no failure.
  const dir = mkdtempSync(join(tmpdir(), 'expand-identical-'));
  const file = join(dir, 'twice.json');
  writeFileSync(
    file,
    JSON.stringify({
      addresses: { a: { address: 'host-a.example.net' } },
      groups: { g: { type: 'list', addresses: [{ name: 'a' }, { name: 'a' }] } },
      tests: { ping: { type: 'rtt', spec: { dest: '{% address[0] %}' } } },
      tasks: { ping: { group: 'g', test: 'ping' } },
    }),
  );
  const json = run(file);
  assert.equal(json.code, 0, json.err);
  const out = JSON.parse(json.out) as (JsonElement & { identicalTo?: unknown; notCreated?: string })[];
  assert.equal(out.length, 2);
  assert.equal(out[0].identicalTo, undefined);
  assert.deepEqual(out[1].identicalTo, { task: 'ping', addresses: ['a'], addressValues: ['host-a.example.net'] });
  assert.equal(out[1].notCreated, 'identical to ping host-a.example.net (same task JSON): pSConfig creates it once');
  assert.deepEqual(out[1].pscheduler, out[0].pscheduler);
  const posted = run(file, '--format', 'pscheduler');
  assert.equal(posted.code, 0, posted.err);
  assert.equal((JSON.parse(posted.out) as unknown[]).length, 1);
  assert.match(
    posted.err,
    /^identical: task=ping,addresses=host-a\.example\.net: identical to ping host-a\.example\.net \(same task JSON\): pSConfig creates it once$/m,
  );
});
