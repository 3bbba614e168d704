// `psconfig-tools schedule` run as built (dist/cli.js), alone and in pipelines: the JSON shape of the issue, exit
// codes, --host, --runs, a closed pipe, a template from standard input.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../../fixtures';
import type { ScheduleReport } from '../../../common/protocol';

const cliJs = join(repoRoot(), 'dist', 'cli.js');
const env = { ...process.env, JQ_PATH: process.env.JQ_PATH || '/usr/bin/jq' };
const dir = mkdtempSync(join(tmpdir(), 'schedule-pipeline-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A throughput mesh of `n` hosts with the given schedule (iperf3 at its defaults: 19 s a run). */
function mesh(n: number, schedule: Record<string, unknown>): string {
  const names = Array.from({ length: n }, (_, i) => `h${i}`);
  return JSON.stringify({
    addresses: Object.fromEntries(names.map((a) => [a, { address: `${a}.example.net` }])),
    groups: { g: { type: 'mesh', addresses: names.map((name) => ({ name })) } },
    tests: { bw: { type: 'throughput', spec: { source: '{% address[0] %}', dest: '{% address[1] %}' } } },
    schedules: { s: schedule },
    tasks: { mesh: { group: 'g', test: 'bw', schedule: 's' } },
  });
}

function run(args: string[], input?: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [cliJs, 'schedule', ...args], {
    encoding: 'utf8',
    env,
    input,
    timeout: 120_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('a mesh that fits: exit 0, the JSON shape of the issue, runs only with --runs, the same seed the same runs', () => {
  const file = join(dir, 'fits.json');
  writeFileSync(file, mesh(4, { repeat: 'PT1H', slip: 'PT1H', sliprand: true }));
  const r = run([file, '--format', 'json', '--days', '1', '--start', '2026-03-01']);
  assert.equal(r.status, 0, r.stderr);
  const report = JSON.parse(r.stdout) as ScheduleReport;
  assert.deepEqual(Object.keys(report), ['hosts', 'tasks']);
  assert.deepEqual(report.hosts[0], { address: 'h0.example.net', exclusiveLoad: 0.0317, normalLoad: 0, tasks: 6 });
  assert.deepEqual(report.tasks[0], {
    task: 'mesh',
    addresses: ['h0', 'h1'],
    agent: 'h0.example.net',
    wanted: 24,
    scheduled: 24,
    nonstart: 0,
    durationSeconds: 19,
    tool: 'iperf3',
    class: 'exclusive',
  });
  const withRuns = run([file, '--format', 'json', '--days', '1', '--start', '2026-03-01', '--runs', '--seed', '3']);
  const withRunsReport = JSON.parse(withRuns.stdout) as ScheduleReport;
  const runs = withRunsReport.runs!;
  // pSConfig's agent renews each task a day after its pass, its successor's grid starting at the old until: a day
  // holds the 24 runs of the successor, and one more of the old task when its grid (anchored where sliprand put its
  // first run) has a point between midnight and the until.
  assert.ok(withRunsReport.tasks.every((t) => t.wanted === 24 || t.wanted === 25));
  assert.equal(
    runs.length,
    withRunsReport.tasks.reduce((n, t) => n + t.wanted, 0),
  );
  assert.deepEqual(Object.keys(runs[0]), ['task', 'addresses', 'participants', 'class', 'start', 'end', 'state']);
  assert.match(runs[0].start, /^2026-03-02T\d\d:\d\d:\d\dZ$/, 'the span starts after the warm-up day');
  const again = run([file, '--format', 'json', '--days', '1', '--start', '2026-03-01', '--runs', '--seed', '3']);
  assert.equal(again.stdout, withRuns.stdout, 'deterministic for a seed');
});

test("an overloaded mesh: exit 1, non-starters in pScheduler's words, findings on stderr; the table names the hosts over 1", () => {
  const file = join(dir, 'busy.json');
  writeFileSync(file, mesh(3, { repeat: 'PT1M', slip: 'PT1M' }));
  const r = run([file, '--format', 'json', '--days', '1', '--runs']);
  assert.equal(r.status, 1, r.stderr);
  const report = JSON.parse(r.stdout) as ScheduleReport;
  assert.ok(report.hosts.every((h) => h.exclusiveLoad > 1));
  const words = ['No times available for this run.', 'Gave up after too many scheduling conflicts.'];
  assert.ok(report.runs!.some((x) => x.state === 'nonstart' && words.includes(x.reason!)));
  assert.ok(report.runs!.every((x) => x.state === 'scheduled' || words.includes(x.reason!)));
  assert.match(r.stderr, /^warning: .* runs of 'mesh' would run in 1 simulated day/m);
  const table = run([file, '--days', '1']);
  assert.equal(table.status, 1);
  assert.match(table.stdout, /^h0\.example\.net\s+1\.267 !/m);
  assert.match(table.stdout, /tasks lose runs/);
});

test('--suggest: the change it prints makes the template fit when the command is run again on the changed template', () => {
  const file = join(dir, 'suggest.json');
  writeFileSync(file, mesh(3, { repeat: 'PT1M', slip: 'PT1M', sliprand: true }));
  const r = run([file, '--days', '1', '--suggest', '--seed', '2']);
  assert.equal(r.status, 1);
  const m = /^suggestion: mesh: With repeat (PT\w+), slip (PT\w+), all [\d,]+ runs of 'mesh' fit/m.exec(r.stdout);
  assert.ok(m, r.stdout);
  const fixed = join(dir, 'suggest-fixed.json');
  writeFileSync(fixed, mesh(3, { repeat: m[1], slip: m[2], sliprand: true }));
  const again = run([fixed, '--days', '1', '--seed', '2', '--format', 'json']);
  assert.equal(again.status, 0, again.stderr);
  const report = JSON.parse(again.stdout) as ScheduleReport;
  assert.ok(report.tasks.every((t) => t.scheduled === t.wanted && t.nonstart === 0));
});

test('--host keeps one host and its tasks (exit status judged on them); an unknown host is an error naming the hosts', () => {
  const file = join(dir, 'host.json');
  writeFileSync(file, mesh(3, { repeat: 'PT1H', slip: 'PT1H', sliprand: true }));
  const r = run([file, '--format', 'json', '--host', 'H2.example.net']);
  assert.equal(r.status, 0, r.stderr);
  const report = JSON.parse(r.stdout) as ScheduleReport;
  assert.deepEqual(
    report.hosts.map((h) => h.address),
    ['h2.example.net'],
  );
  assert.equal(report.tasks.length, 4);
  const bad = run([file, '--host', 'nowhere.example.net']);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--host nowhere\.example\.net takes part in no task .* Hosts \(3\): h0\.example\.net/);
  assert.equal(run([file, '--days', '0']).status, 2);
  assert.equal(run([file, '--format', 'xml']).status, 2);
});

test('in a pipeline: from standard input, and into a reader that closes early (| head -c 100)', () => {
  const text = mesh(20, { repeat: 'PT4H', slip: 'PT4H', sliprand: true });
  const fromStdin = run(['-', '--format', 'json', '--days', '1'], text);
  assert.equal(fromStdin.status, 0, fromStdin.stderr);
  assert.equal((JSON.parse(fromStdin.stdout) as ScheduleReport).tasks.length, 380);
  const file = join(dir, 'pipe.json');
  writeFileSync(file, text);
  const piped = spawnSync(
    'bash',
    [
      '-o',
      'pipefail',
      '-c',
      `"${process.execPath}" "${cliJs}" schedule "${file}" --format json --runs | head -c 100 >/dev/null`,
    ],
    { encoding: 'utf8', env, timeout: 120_000 },
  );
  assert.equal(piped.status, 0, piped.stderr);
  // Nothing but the information that PT4H of slip is cut to fit the PT4H repeat: no EPIPE, no stack.
  assert.deepEqual(
    piped.stderr.split('\n').filter((l) => l && !l.startsWith('information: slip 4 h plus the run (19 s)')),
    [],
  );
  // jq reads the JSON as it is printed: the hosts whose exclusive load is over a tenth.
  const jq = spawnSync(
    'bash',
    [
      '-o',
      'pipefail',
      '-c',
      `"${process.execPath}" "${cliJs}" schedule "${file}" --format json | "${env.JQ_PATH}" -r '.hosts[] | select(.exclusiveLoad > 0.05) | .address' | wc -l`,
    ],
    { encoding: 'utf8', env, timeout: 120_000 },
  );
  assert.equal(jq.status, 0, jq.stderr);
  assert.equal(jq.stdout.trim(), '20');
});

test('no task would run: exit 1 with the reason, never "0 of 0 tasks lose runs"', () => {
  // Every combination refused by pScheduler (a spec key the throughput test does not take), and a template with no
  // task at all: each is a verdict a CI must see.
  const refused = join(dir, 'refused.json');
  const t = JSON.parse(mesh(2, { repeat: 'PT1H' })) as { tests: { bw: { spec: Record<string, unknown> } } };
  t.tests.bw.spec['no-such-key'] = 1;
  writeFileSync(refused, JSON.stringify(t));
  const r = run([refused, '--format', 'json']);
  assert.equal(r.status, 1);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /no task would run: of the template's 2 combinations, 2 pScheduler would refuse/);
  assert.match(r.stderr, /does not take `no-such-key`/);
  const empty = join(dir, 'empty.json');
  writeFileSync(empty, JSON.stringify({ addresses: {}, groups: {}, tests: {}, tasks: {} }));
  const e = run([empty]);
  assert.equal(e.status, 1);
  assert.match(e.stderr, /no task would run: the template expands to no combination/);
});

test('--assume changes one assumption of the model; an unknown name or a bad value is a usage error naming them', () => {
  // One hourly throughput pair without slip: with the agent's renewal it loses the runs tried at the horizon edge
  // (simulate-renewal.test.ts derives 18 of 24 a day); without renewal every run after the first day is tried there.
  const file = join(dir, 'assume.json');
  writeFileSync(file, mesh(2, { repeat: 'PT1H' }));
  const renewed = JSON.parse(run([file, '--format', 'json', '--days', '1']).stdout) as ScheduleReport;
  const kept = JSON.parse(
    run([file, '--format', 'json', '--days', '1', '--assume', 'agentRenewal=false']).stdout,
  ) as ScheduleReport;
  assert.equal(renewed.tasks[0].scheduled, 18);
  assert.ok(kept.tasks[0].scheduled <= 1, `${kept.tasks[0].scheduled}`);
  const bad = run([file, '--assume', 'horizon=3']);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--assume horizon: no such assumption; names: horizonSeconds, /);
  assert.equal(run([file, '--assume', 'agentRenewal=yes']).status, 2);
  assert.equal(run([file, '--assume', 'postSeconds=-1']).status, 2);
  assert.equal(run([file, '--assume', 'postSeconds']).status, 2);
});
