// The psconfig/schedule answer (template/schedule-view/answer.ts) on small simulated meshes: agents' loads, runs a
// day per template task, and the bound on the runs one answer carries (hosts filled in whole, the rest counted).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { simulateSchedule } from '../../../server/src/template/schedule';
import { scheduleAnswer } from '../../../server/src/template/schedule-view';
import { scheduleLensTitle } from '../../../server/src/template/navigation/code-lenses';
import { combo, modelOf, PSCHEDULER_ALONE, throughputMesh } from '../schedule/helpers';

const EPOCH = Date.UTC(2026, 10, 26);

// Four hosts, throughput every hour with a 10-minute slip: 12 pScheduler tasks, each host in 6 (3 as source, 3 as
// destination) → 6 × 19 s an hour, everything fits. Plus an rtt from a to b every 10 minutes (background class).
const combos = [
  ...throughputMesh(['a', 'b', 'c', 'd'], { repeat: 'PT1H', slip: 'PT10M' }),
  combo({ task: 'ping', type: 'rtt', spec: { source: 'a', dest: 'b' }, schedule: { repeat: 'PT10M' } }),
];

test('loads per agent and runs a day per template task, without runs unless asked', () => {
  const model = modelOf(combos, PSCHEDULER_ALONE);
  const sim = simulateSchedule(model, { days: 2 });
  const a = scheduleAnswer(model, sim, EPOCH, {});
  assert.equal(a.runs, undefined);
  assert.equal(a.tasks.length, 13);
  // The span: two days after the warm-up day.
  assert.deepEqual(a.span, { start: '2026-11-27T00:00:00.000Z', end: '2026-11-29T00:00:00.000Z' });
  assert.deepEqual(
    a.templateTasks.map((t) => [t.task, t.combinations, t.wantedPerDay, t.scheduledPerDay, t.losing]),
    [
      ['mesh', 12, 12 * 24, 12 * 24, 0],
      ['ping', 1, 144, 144, 0],
    ],
  );
  // Each agent leads its own host; a's exclusive load: 6 runs of 19 s an hour.
  const agentA = a.agents.find((x) => x.agent === 'a')!;
  assert.deepEqual(agentA.hosts, ['a']);
  assert.ok(Math.abs(agentA.exclusiveLoad - (6 * 19) / 3600) < 1e-9, String(agentA.exclusiveLoad));
  assert.deepEqual(scheduleAnswer(model, sim, EPOCH, { noTasks: true }).tasks, []);
});

test('runs bounded: the asked task’s hosts first, whole hosts only, what is left out counted', () => {
  const model = modelOf(combos, PSCHEDULER_ALONE);
  const sim = simulateSchedule(model, { days: 2 });
  const all = scheduleAnswer(model, sim, EPOCH, { runs: true });
  // 12 × 48 throughput runs + 288 pings in the span.
  assert.equal(all.runs!.length, 12 * 48 + 288);
  assert.equal(all.runsLeftOut, undefined);
  // Room for one host's runs: a (6 × 48 throughput runs + 288 pings = 576) when the ping task is asked for.
  const one = scheduleAnswer(model, sim, EPOCH, { runs: true, task: 'ping' }, 600);
  assert.deepEqual(
    one.hosts.map((h) => h.address),
    ['a'],
  );
  assert.equal(one.runs!.length, 6 * 48 + 288);
  assert.ok(one.runs!.every((r) => r.participants.includes('a')));
  // Left out: the throughput runs a takes no part in (6 of the 12 tasks).
  assert.equal(one.runsLeftOut, 6 * 48);
  // Too small for any host: the first host still comes, cut to the bound, and the cut runs are counted.
  const cut = scheduleAnswer(model, sim, EPOCH, { runs: true, task: 'ping' }, 100);
  assert.equal(cut.runs!.length, 100);
  assert.equal(cut.runsLeftOut, 6 * 48 + (6 * 48 + 288 - 100));
  // A host filter: only that host's runs, case-insensitive.
  const onlyD = scheduleAnswer(model, sim, EPOCH, { runs: true, hosts: ['D'] });
  assert.deepEqual(
    onlyD.hosts.map((h) => h.address),
    ['d'],
  );
  assert.equal(onlyD.runs!.length, 6 * 48);
});

test('a task without a repeat (latencybg as meshes write it) runs once when created: its lens says so, not "no run"', () => {
  const latency = [
    ...throughputMesh(['a', 'b'], { repeat: 'PT1H', slip: 'PT10M' }),
    combo({ task: 'owamp', type: 'latencybg', spec: { source: 'a', dest: 'b' }, schedule: {} }),
    combo({ task: 'owamp', type: 'latencybg', spec: { source: 'b', dest: 'a' }, schedule: {} }),
  ];
  const model = modelOf(latency, PSCHEDULER_ALONE);
  const a = scheduleAnswer(model, simulateSchedule(model, { days: 2 }), EPOCH, {});
  const owamp = a.templateTasks.find((t) => t.task === 'owamp')!;
  // Its one run falls on the warm-up day, before the reported span: nothing wanted in the span, both tasks "once".
  assert.deepEqual([owamp.combinations, owamp.once, owamp.wantedPerDay], [2, 2, 0]);
  assert.equal(scheduleLensTitle('owamp', a.templateTasks), 'schedule: one run, when the task is created (no repeat)');
  const mesh = a.templateTasks.find((t) => t.task === 'mesh')!;
  assert.equal(mesh.once, 0);
  assert.equal(scheduleLensTitle('mesh', a.templateTasks), 'schedule: 48 runs a day, all fit');
  // Renewed by pSConfig's agent (the default), each posted task runs once: agent a's passes at 0, 3,600, ... give a
  // successor starting at 86,400 and one at 172,800; agent b's (phase 0.618 x 3,600 = 2,224 s) at 88,624 and
  // 175,024: two runs of each combination in the two reported days, 2 a day for the template task.
  const renewed = modelOf(latency);
  const r = scheduleAnswer(renewed, simulateSchedule(renewed, { days: 2 }), EPOCH, {});
  const owampRenewed = r.templateTasks.find((t) => t.task === 'owamp')!;
  assert.deepEqual([owampRenewed.once, owampRenewed.wantedPerDay, owampRenewed.scheduledPerDay], [2, 2, 2]);
  assert.equal(
    scheduleLensTitle('owamp', r.templateTasks),
    'schedule: no repeat, one run per task pSConfig posts: 2 a day, all fit',
  );
});
