// The preview's check of each combination's task JSON as pScheduler would receive it: refusals fail the
// combination with a reason naming the part, plug-in, field and expectation, keep the task JSON, and leave counts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { examplesDir } from '../../fixtures';
import { TaskChecker } from '../../../server/src/template/pscheduler/task-check';
import { addrs, expand, sel } from './helpers';

type Obj = Record<string, unknown>;

function mesh(parts: { tests: Obj; archives?: Obj; contexts?: Obj; task?: Obj; addresses?: Obj }): Obj {
  const addresses = parts.addresses ?? addrs('host-a.example.net', 'host-b.example.net');
  return {
    addresses,
    groups: { g: { type: 'mesh', addresses: sel(...Object.keys(addresses)) } },
    tests: parts.tests,
    ...(parts.archives ? { archives: parts.archives } : {}),
    ...(parts.contexts ? { contexts: parts.contexts } : {}),
    tasks: { t: { group: 'g', test: Object.keys(parts.tests)[0], ...(parts.task ?? {}) } },
  };
}

const throughput = (spec: Obj): Obj => ({
  tp: { type: 'throughput', spec: { source: '{% address[0] %}', dest: '{% address[1] %}', ...spec } },
});

test('a spec pScheduler accepts: no refusal, counts unchanged', async () => {
  const r = await expand(mesh({ tests: throughput({ duration: 'PT10S' }) }));
  assert.equal(r.combinations.length, 2);
  for (const c of r.combinations) {
    assert.equal(c.error, undefined);
    assert.equal(c.refused, undefined);
  }
  assert.equal(r.tasks[0].count, 2);
  assert.equal(r.tasks[0].refused, undefined);
});

test('"10 seconds": every combination refused with the reason, its task JSON kept, the task counts none', async () => {
  const r = await expand(mesh({ tests: throughput({ duration: '10 seconds' }) }));
  assert.equal(r.combinations.length, 2);
  for (const c of r.combinations) {
    assert.match(
      c.error ?? '',
      /^pScheduler would refuse this task: test throughput \(schema 1\): `duration` must be an ISO 8601 duration.*not "10 seconds"\.$/,
    );
    assert.deepEqual(
      c.refused?.map((x) => [x.part, x.plugin, x.version, x.name]),
      [['test', 'throughput', 1, 'tp']],
    );
    assert.equal(c.pscheduler?.test.spec.duration, '10 seconds', 'the JSON pScheduler would receive is still there');
  }
  assert.equal(r.tasks[0].count, 0);
  assert.equal(r.tasks[0].refused, 2);
});

test('each refusal names the field and what pScheduler expects; several problems are all listed', async () => {
  const r = await expand(mesh({ tests: throughput({ durration: 'PT10S', parallel: 1.5 }) }));
  const problems = r.combinations[0].refused?.[0].problems ?? [];
  assert.equal(problems.length, 2, problems.join('\n'));
  assert.ok(problems.some((p) => /does not take `durration`\. Did you mean `duration`\?/.test(p)));
  assert.ok(problems.some((p) => /`parallel` must be .*not 1\.5/.test(p)));
  assert.match(r.combinations[0].error ?? '', /\(and 1 more problem\)$/);
});

test('a variable giving a bad value only in some combinations: only those are refused', async () => {
  // `dest` must be a host; the list's second address is a URL, so only the pairs sending it there are refused.
  const r = await expand(
    mesh({
      addresses: { a: { address: 'a.example.net' }, b: { address: 'b.example.net' }, u: { address: 'http://u/' } },
      tests: { rtt: { type: 'rtt', spec: { dest: '{% address[1] %}' } } },
    }),
  );
  const verdicts = r.combinations.map((c) => `${c.addressValues.join('->')} ${c.refused ? 'refused' : 'ok'}`);
  assert.deepEqual(verdicts, [
    'a.example.net->b.example.net ok',
    'a.example.net->http://u/ refused',
    'b.example.net->a.example.net ok',
    'b.example.net->http://u/ refused',
    'http://u/->a.example.net ok',
    'http://u/->b.example.net ok',
  ]);
  const refused = r.combinations.find((c) => c.refused);
  assert.match(refused?.error ?? '', /test rtt \(schema \d+\): `dest` must be .*not "http:\/\/u\/"/);
  assert.equal(r.tasks[0].count, 4);
  assert.equal(r.tasks[0].refused, 2);
});

test('archives: archiver data and archive fields as pScheduler checks them, named after the template archive', async () => {
  const r = await expand(
    mesh({
      tests: throughput({}),
      archives: {
        good: { archiver: 'http', data: { schema: 2, _url: 'https://ma.example.net/logstash', op: 'put' } },
        meta: { archiver: 'http', data: { schema: 2, _url: 'https://ma.example.net/', _meta: { x: 1 } } },
        log: { archiver: 'syslog', data: { ident: 'x', facility: 'nowhere' } },
      },
      task: { archives: ['good', 'meta', 'log'] },
    }),
  );
  const refused = r.combinations[0].refused ?? [];
  assert.deepEqual(
    refused.map((x) => [x.part, x.name, x.index, x.plugin]),
    [
      ['archive', 'meta', 1, 'http'],
      ['archive', 'log', 2, 'syslog'],
    ],
  );
  assert.match(refused[0].problems[0], /does not take `_meta`/);
  assert.match(refused[1].problems[0], /facility/);
  assert.match(r.combinations[0].error ?? '', /^pScheduler would refuse this task: archive meta \(http, schema 2\): /);
  // An archive `ttl` that is not an ISO 8601 duration already fails the official schema (ArchiveSpecification's
  // ttl: Duration pattern), so pSConfig's agent rejects the whole template before pScheduler sees a task.
  const ttl = await expand(
    mesh({
      tests: throughput({}),
      archives: { ttl: { archiver: 'syslog', data: { ident: 'x' }, ttl: '3 days' } },
      task: { archives: ['ttl'] },
    }),
  );
  assert.equal(ttl.rejected, true);
  assert.match(ttl.error ?? '', /JSON Path: archives\/ttl\/ttl: '3 days' does not match/);
  assert.deepEqual(ttl.combinations, []);
});

test('an unknown archiver, test type or context is refused with the closest name', async () => {
  const r = await expand(
    mesh({
      tests: { x: { type: 'througput', spec: { dest: '{% address[1] %}' } } },
      archives: { a: { archiver: 'htp', data: {} } },
      task: { archives: ['a'] },
    }),
  );
  const refused = r.combinations[0].refused ?? [];
  assert.deepEqual(
    refused.map((x) => x.part),
    ['test', 'archive'],
  );
  assert.match(refused[0].problems[0], /no test type `througput`; did you mean `throughput`\?/);
  assert.match(refused[1].problems[0], /no archiver `htp`; did you mean `http`\?/);
});

test('contexts: each participant context checked by its context plug-in', async () => {
  const r = await expand(
    mesh({
      addresses: {
        a: { address: 'a.example.net', contexts: ['ns'] },
        b: { address: 'b.example.net', contexts: ['bad'] },
      },
      tests: throughput({}),
      contexts: {
        ns: { context: 'linuxnns', data: { namespace: 'blue' } },
        bad: { context: 'linuxnns', data: { namspace: 'blue' } },
      },
    }),
  );
  const ab = r.combinations.find((c) => c.addressValues[0] === 'a.example.net');
  assert.deepEqual(
    ab?.refused?.map((x) => [x.part, x.name, x.participant, x.index, x.plugin]),
    [['context', 'bad', 1, 0, 'linuxnns']],
  );
  assert.match(ab?.error ?? '', /context bad of participant 2 \(linuxnns\): .*needs `namespace`/);
});

test("tools: the task's tools must include one that can run the test; none means refusal", async () => {
  const latency = { lat: { type: 'latency', spec: { source: '{% address[0] %}', dest: '{% address[1] %}' } } };
  const ok = await expand(mesh({ tests: latency, task: { tools: ['iperf3', 'owping'] } }));
  assert.equal(ok.combinations[0].refused, undefined, ok.combinations[0].error);
  const r = await expand(mesh({ tests: latency, task: { tools: ['iperf3'] } }));
  assert.deepEqual(
    r.combinations[0].refused?.map((x) => [x.part, x.plugin]),
    [['tools', 'latency']],
  );
  assert.match(r.combinations[0].error ?? '', /tools for the latency test: none of the task's tools can run/);
  // A tool pScheduler 5.x does not ship is offered by no participant: pick_tool finds none in common and the lead
  // refuses the task (pschedulerapiserver/tasks.py pick_tool ~38-107, ~463-490).
  const own = await expand(mesh({ tests: latency, task: { tools: ['my-own-tool'] } }));
  assert.deepEqual(
    own.combinations[0].refused?.map((x) => [x.part, x.problems[0]]),
    [['tools', "none of the task's tools can run this latency spec: pScheduler 5.x has no tool `my-own-tool`."]],
  );
});

test('verdicts are cached per part: a mesh checks each distinct spec, archive and context once', () => {
  const checker = new TaskChecker();
  const archive = { archiver: 'http', data: { schema: 2, _url: 'https://ma.example.net/' } };
  for (let i = 0; i < 50; i++) {
    const task = {
      test: { type: 'rtt', spec: { dest: `h${i % 5}.example.net` } },
      archives: [{ ...archive }, archive],
    };
    assert.deepEqual(checker.check(task), []);
  }
  // 5 distinct specs + 1 distinct archive text (a copy and the shared object)
  assert.equal(checker.checked, 6);
});

// The example templates with what pScheduler refuses in them (docs/checks.md: What the example templates show).
const examples: [string, RegExp][] = [
  ['psconfig--example-1-simple.json', /archive example-archive-central \(http, schema 2\): .*`_meta`/],
  ['psconfig--example-2-testbed.json', /archive iu-central-archive \(http, schema 2\): .*`_meta`/],
  ['psconfig--example-3-circuits.json', /archive archive-\w+ \(http, schema 2\): .*`_meta`/],
  ['psconfig--example-5-classes.json', /archive example-archive-central \(http, schema 2\): .*`_meta`/],
  ['psconfig--example-4-snmp.json', /test snmpget: `version` must be `"3"`, not 3\./],
  ['psconfig--skeleton.json', /`source` must be a host name or an IP address .*FILL_IN_HOSTNAME_OR_IP/],
];
for (const [file, reason] of examples) {
  test(`example ${file}: the tasks pScheduler would refuse, and why`, async () => {
    const r = await expand(JSON.parse(readFileSync(join(examplesDir, file), 'utf8')));
    const refused = r.combinations.filter((c) => c.refused);
    assert.ok(refused.length > 0);
    for (const c of refused) assert.ok(c.pscheduler, 'a refused combination keeps its task JSON');
    assert.ok(
      refused.some((c) => reason.test(c.error ?? '')),
      refused.map((c) => c.error).join('\n'),
    );
    const perTask = new Map<string, number>();
    for (const c of refused) perTask.set(c.task, (perTask.get(c.task) ?? 0) + 1);
    for (const t of r.tasks) assert.equal(t.refused, perTask.get(t.task), t.task);
  });
}
