// The report: the JSON shape (hosts, tasks, runs with ISO 8601 UTC times and pScheduler's reasons), filtered
// by host.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isoTime, scheduleReport } from '../../../server/src/template/schedule/report';
import { simulateSchedule } from '../../../server/src/template/schedule/simulate';
import { combo, modelOf, PSCHEDULER_ALONE, throughputMesh } from './helpers';

const EPOCH = Date.UTC(2026, 0, 1);

test('hosts, tasks and runs in the shape the CLI prints and the panel reads', () => {
  const model = modelOf(
    [
      ...throughputMesh(['a', 'b', 'c'], { repeat: 'PT1M', slip: 'PT1M' }),
      combo({ task: 'ping', type: 'rtt', spec: { source: 'c', dest: 'd' }, schedule: { repeat: 'PT1H' } }),
    ],
    PSCHEDULER_ALONE,
  );
  const sim = simulateSchedule(model, { days: 1 });
  const report = scheduleReport(model, sim, { epochMs: EPOCH, runs: true });
  assert.deepEqual(Object.keys(report), ['hosts', 'tasks', 'runs']);
  assert.deepEqual(report.hosts[0], { address: 'a', exclusiveLoad: 1.2667, normalLoad: 0, tasks: 4 });
  assert.deepEqual(
    report.hosts.map((h) => h.address),
    ['a', 'b', 'c'],
    'd is no participant: an rtt runs on its source only',
  );
  const first = report.tasks[0];
  assert.deepEqual(Object.keys(first), [
    'task',
    'addresses',
    'agent',
    'wanted',
    'scheduled',
    'nonstart',
    'durationSeconds',
    'tool',
    'class',
  ]);
  assert.equal(first.wanted, 1440);
  assert.equal(first.durationSeconds, 19);
  assert.equal(first.tool, 'iperf3');
  assert.equal(first.class, 'exclusive');
  assert.deepEqual(report.tasks[6], {
    task: 'ping',
    addresses: ['c', 'd'],
    agent: 'c',
    wanted: 24,
    scheduled: 24,
    nonstart: 0,
    durationSeconds: 10,
    tool: 'ping',
    class: 'background',
  });
  const runs = report.runs!;
  assert.equal(
    runs.length,
    report.tasks.reduce((n, t) => n + t.scheduled + t.nonstart, 0),
  );
  for (let k = 1; k < runs.length; k++) assert.ok(runs[k - 1].start <= runs[k].start, 'by start time');
  const nonstart = runs.find((r) => r.state === 'nonstart')!;
  assert.equal(nonstart.reason, 'No times available for this run.');
  assert.match(nonstart.start, /^2026-01-0[23]T\d\d:\d\d:\d\dZ$/, 'the span starts after the warm-up day');
  const scheduled = runs.find((r) => r.state === 'scheduled' && r.class === 'exclusive')!;
  assert.equal(scheduled.participants.length, 2);
  assert.equal('reason' in scheduled, false);
});

test('--host keeps the hosts named and the tasks and runs they take part in', () => {
  const model = modelOf(throughputMesh(['a', 'b', 'c'], { repeat: 'PT10M', slip: 'PT10M' }));
  const sim = simulateSchedule(model, { days: 1 });
  const report = scheduleReport(model, sim, { epochMs: EPOCH, hosts: ['C'], runs: true });
  assert.deepEqual(
    report.hosts.map((h) => h.address),
    ['c'],
  );
  assert.deepEqual(
    report.tasks.map((t) => t.addresses.join('→')),
    ['a→c', 'b→c', 'c→a', 'c→b'],
  );
  assert.ok(report.runs!.every((r) => r.participants.includes('c')));
  assert.equal(scheduleReport(model, sim, { epochMs: EPOCH }).runs, undefined, 'runs only when asked');
});

test('times are ISO 8601 UTC in whole seconds', () => {
  assert.equal(isoTime(EPOCH, 86_410), '2026-01-02T00:00:10Z');
});
