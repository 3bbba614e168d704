// Findings for the editor and the CLI, and suggestions found by re-simulating.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scheduleFindings, type ScheduleFinding } from '../../../server/src/template/schedule/findings';
import { templateTaskSchedules, taskTotals } from '../../../server/src/template/schedule/report';
import { simulateSchedule } from '../../../server/src/template/schedule/simulate';
import { suggestScheduleFixes } from '../../../server/src/template/schedule/suggestions';
import { isoSeconds } from '../../../server/src/template/pscheduler/tools';
import type { ScheduleModel } from '../../../server/src/template/schedule/task-model';
import { combo, modelOf, PSCHEDULER_ALONE, throughputMesh } from './helpers';

function kinds(f: ScheduleFinding[]): string[] {
  return f.map((x) => `${x.kind}:${x.task ?? x.host}`);
}

test('an overloaded mesh: lost runs with who took their slots, and every host over an exclusive load of 1', () => {
  const model = modelOf(throughputMesh(['a', 'b', 'c'], { repeat: 'PT1M', slip: 'PT1M' }), PSCHEDULER_ALONE);
  const sim = simulateSchedule(model, { days: 1 });
  const findings = scheduleFindings(model, sim);
  assert.deepEqual(kinds(findings), [
    'lost-runs:mesh',
    'slip-cut:mesh',
    'host-overloaded:a',
    'host-overloaded:b',
    'host-overloaded:c',
  ]);
  const lost = findings[0];
  assert.equal(lost.runs!.wanted, 6 * 1440);
  assert.ok(lost.runs!.scheduled <= Math.floor(86_460 / 19), 'one run at a time (simulate.test.ts)');
  assert.equal(lost.combinations.length, 6);
  // Every one of the six competes with the others: the slots went to 'mesh' tasks on each host.
  assert.ok(lost.blockers!.length > 0);
  for (const b of lost.blockers!) assert.ok(b.tasks.every((t) => t.task === 'mesh' && t.runs > 0));
  assert.match(lost.message, /of 8,640 runs of 'mesh' would run in 1 simulated day/);
  assert.match(lost.message, /Their slots went to 'mesh' /);
  assert.match(findings[2].message, /^a: its exclusive runs need 127 % of the time/);
  // Every task in that count is exclusive (this mesh's are throughput, but the count is of the exclusive class).
  assert.match(findings[2].message, /, 4 exclusive tasks\): pScheduler runs one at a time/);
  const summary = templateTaskSchedules(model, sim)[0];
  assert.deepEqual(
    [summary.combinations, summary.wantedPerDay, summary.losing, summary.tools, summary.classes],
    [6, [8640], 6, ['iperf3'], ['exclusive']],
  );
});

test('slip shorter than the run: the horizon-cut finding explains the non-starters', () => {
  const model = modelOf([combo({ spec: { source: 'a', dest: 'b' }, schedule: { repeat: 'PT1H' } })]);
  const findings = scheduleFindings(model, simulateSchedule(model, { days: 1 }));
  assert.deepEqual(kinds(findings), ['lost-runs:t', 'horizon-cut:t']);
  assert.match(findings[1].message, /^slip 0 s is shorter than a run of 't' \(19 s with iperf3\)/);
});

test("a run as long as the repeat (pscheduler#1412's latencybg), and the slip cut of the usual PT4H/PT4H schedule", () => {
  const model = modelOf([
    combo({
      task: 'owd',
      type: 'latencybg',
      spec: { source: 'a', dest: 'b' },
      schedule: { repeat: 'P1D', slip: 'PT3M' },
    }),
    combo({ task: 'bw', spec: { source: 'a', dest: 'b' }, schedule: { repeat: 'PT4H', slip: 'PT4H', sliprand: true } }),
  ]);
  const findings = scheduleFindings(model, simulateSchedule(model, { days: 1 }));
  const byKind = Object.fromEntries(findings.map((f) => [`${f.kind}:${f.task}`, f]));
  assert.equal(byKind['duration-reaches-repeat:owd'].severity, 'warning');
  assert.match(
    byKind['duration-reaches-repeat:owd'].message,
    /takes 1 d 2 s \(powstream\) but the task repeats every 1 d/,
  );
  assert.equal(byKind['slip-cut:bw'].severity, 'information');
  assert.match(byKind['slip-cut:bw'].message, /cuts the slip to 3 h 59 min 41 s/);
  assert.equal(byKind['lost-runs:bw'], undefined, 'one run every 4 h fits');
});

test('throughput over the default remote limits: duration over 60 s, more than 6 streams, UDP without bandwidth or over 50 Mb/s (perfsonar/toolkit pscheduler_limits.conf)', () => {
  const schedule = { repeat: 'PT6H', slip: 'PT6H', sliprand: true };
  const model = modelOf([
    combo({ task: 'long', spec: { source: 'a', dest: 'b', duration: 'PT90S', parallel: 8 }, schedule }),
    combo({ task: 'udp', spec: { source: 'a', dest: 'c', udp: true }, schedule }),
    combo({ task: 'udp-ok', spec: { source: 'a', dest: 'c', udp: true, bandwidth: 50_000_000 }, schedule }),
    combo({ task: 'single', spec: { source: 'a', dest: 'b', duration: 'PT90S', 'single-ended': true }, schedule }),
  ]);
  const findings = scheduleFindings(model, simulateSchedule(model, { days: 1 })).filter(
    (f) => f.kind === 'remote-limits',
  );
  assert.deepEqual(
    findings.map((f) => [f.task, f.limits]),
    [
      [
        'long',
        [
          'Duration for throughput must be 60 seconds or less.',
          'Throughput may only have six or fewer parallel streams.',
        ],
      ],
      ['udp', ['UDP throughput bandwidth must be less than 50 Mb/s']],
    ],
  );
});

/** Simulate with a change applied to every pScheduler task of `task`, as the suggestion did. */
function withChange(model: ScheduleModel, task: string, change: { repeat?: string; slip?: string; sliprand?: true }) {
  const o = {
    repeatSeconds: change.repeat ? isoSeconds(change.repeat) : undefined,
    slipSeconds: change.slip ? isoSeconds(change.slip) : undefined,
    sliprand: change.sliprand,
  };
  const overrides = new Map(model.tasks.filter((t) => t.task === task).map((t) => [t.index, o]));
  return simulateSchedule(model, { days: 1, overrides });
}

test('suggestions come from re-simulating: the smallest repeat at which the overloaded mesh fits (its slip, cut to the repeat, grows with it), and nothing smaller fits', () => {
  const model = modelOf(throughputMesh(['a', 'b', 'c'], { repeat: 'PT1M', slip: 'PT1M', sliprand: true }));
  const base = simulateSchedule(model, { days: 1 });
  const fixes = suggestScheduleFixes(model, base, { task: 'mesh', days: 1 });
  const repeatFix = fixes.find((f) => f.change.repeat)!;
  assert.ok(repeatFix, JSON.stringify(fixes));
  assert.equal(
    repeatFix.change.slip,
    repeatFix.change.repeat,
    'slip PT1M filled the PT1M repeat: it fills the new one',
  );
  const after = withChange(model, 'mesh', repeatFix.change);
  for (const t of model.tasks) {
    const r = taskTotals(after, t.index);
    assert.equal(r.scheduled, r.wanted, `${t.addresses.join('→')} fits with repeat ${repeatFix.change.repeat}`);
  }
  // The ladder value below it does not fit (it is the smallest).
  const ladder = ['PT1M', 'PT2M', 'PT5M', 'PT10M', 'PT15M', 'PT20M', 'PT30M', 'PT1H'];
  const below = ladder[ladder.indexOf(repeatFix.change.repeat!) - 1];
  if (below !== 'PT1M') {
    const smaller = withChange(model, 'mesh', { repeat: below, slip: below });
    assert.ok(model.tasks.some((t) => taskTotals(smaller, t.index).scheduled < taskTotals(smaller, t.index).wanted));
  }
  assert.match(
    repeatFix.message,
    /^With repeat PT\d+M, slip PT\d+M, all \d[\d,]* runs of 'mesh' fit in the re-simulated template/,
  );
  // Without sliprand's luck the same holds for another seed: the suggestion is re-simulated with the seed given.
  const seeded = suggestScheduleFixes(model, simulateSchedule(model, { days: 1, seed: 7 }), {
    task: 'mesh',
    days: 1,
    seed: 7,
  }).find((f) => f.change.repeat)!;
  const check = simulateSchedule(model, {
    days: 1,
    seed: 7,
    overrides: new Map(
      model.tasks.map((t) => [
        t.index,
        { repeatSeconds: isoSeconds(seeded.change.repeat!), slipSeconds: isoSeconds(seeded.change.slip!) },
      ]),
    ),
  });
  assert.ok(model.tasks.every((t) => taskTotals(check, t.index).scheduled === taskTotals(check, t.index).wanted));
});

test('a fixed start that collides gets a slip and sliprand suggestion that the re-simulation confirms; a task that fits gets none', () => {
  // Four iperf3 tasks led by a (19 s a run), repeat 10 min, slip 20 s, all created at 0.
  // At creation (first runs pushed to 10 s, window [10, 49)) they are tried in order: ab [10, 29), ac [29, 48); ad
  // and ae find a busy until 48: non-starters posted at their wanted time 0, so their grids are anchored at 0
  // (DB/run.sql first_start), ab's at 10 and ac's at 29.
  // Each task then gets one try a turn of a's loop (every 10.025 s): run k at turn k, by wanted time (ad, ae at
  // 600k, ab at 600k + 10, ac at 600k + 29). The reported day's runs are k = 144.. (86,400 = 600 x 144); run k is
  // due at 600k - 86,400 + 20, so the fill reaches k = 144, 145, 146 after they became due (10.025k > 600k -
  // 86,380 up to k = 146): their windows are whole, and ae fits behind ad ([T + 19, T + 38) of [T, T + 39)).
  // From k = 147 each is tried at the first turn after it became due: the window is cut at now + horizon, T + 20
  // plus at most 10 s: ad, first at T, fits; ae, the same T, has [T + 19, T + 20 + 10) at most: 11 s, never enough.
  // So ad keeps all 144 runs, ae 3.
  const schedule = { repeat: 'PT10M', slip: 'PT20S' };
  const model = modelOf(
    ['b', 'c', 'd', 'e'].map((x) => combo({ task: `a${x}`, spec: { source: 'a', dest: x }, schedule })),
    PSCHEDULER_ALONE,
  );
  const base = simulateSchedule(model, { days: 1 });
  assert.equal(taskTotals(base, 2).scheduled, 144, 'ad');
  assert.equal(taskTotals(base, 3).scheduled, 3, 'ae');
  assert.deepEqual(suggestScheduleFixes(model, base, { task: 'ad', days: 1 }), [], 'ad loses nothing');
  const fixes = suggestScheduleFixes(model, base, { task: 'ae', days: 1 });
  assert.ok(fixes.length >= 1);
  const slipFix = fixes[0];
  // sliprand alone keeps the window [T, T + 30) at most; the first change that can fit is a slip with sliprand.
  assert.deepEqual(slipFix.change, { slip: 'PT1M', sliprand: true }, JSON.stringify(slipFix));
  // Re-simulated here on its own: ae loses nothing, and no task loses more than it did before.
  const after = withChange(model, 'ae', slipFix.change);
  assert.equal(taskTotals(after, 3).scheduled, 144);
  for (const t of model.tasks)
    assert.ok(taskTotals(after, t.index).scheduled >= taskTotals(base, t.index).scheduled, t.task);
  assert.deepEqual(slipFix.before, { wanted: 144, scheduled: 3 });
  assert.deepEqual(slipFix.after, { wanted: 144, scheduled: 144 });
});
