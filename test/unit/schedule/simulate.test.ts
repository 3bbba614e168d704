// The simulation, checked on meshes small enough to work out by hand (the reasoning is in the comments), and on the
// single facts of reference §2 it follows. Times are seconds from the start of the warm-up.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  effectiveSlip,
  gridPointsIn,
  ScheduleCancelled,
  simulateSchedule,
} from '../../../server/src/template/schedule/simulate';
import { NONSTART_REASONS, reasonText, RUN_SCHEDULED } from '../../../server/src/template/schedule/run-log';
import type { RunLog } from '../../../server/src/template/schedule/run-log';
import type { ScheduleModel } from '../../../server/src/template/schedule/task-model';
import { combo, modelOf, PSCHEDULER_ALONE, throughputMesh } from './helpers';

/** The first `n` runs of the log as [task, start, end, 'S' | reason]. */
function firstRuns(log: RunLog, n: number): [number, number, number, string][] {
  const out: [number, number, number, string][] = [];
  for (let r = 0; r < Math.min(n, log.length); r++)
    out.push([
      log.task[r],
      log.start[r],
      log.end[r],
      log.state[r] === RUN_SCHEDULED ? 'S' : (reasonText(log.reason[r]) as string),
    ]);
  return out;
}

const NO_TIMES = NONSTART_REASONS.noTimes;
const GAVE_UP = NONSTART_REASONS.gaveUp;

test('three hosts, throughput every minute (slip PT1M, earliest gap): the first 14 runs worked out by hand', () => {
  // Tasks in pSConfig order: 0 a→b, 1 a→c, 2 b→a, 3 b→c, 4 c→a, 5 c→b; iperf3 at its defaults books 19 s. Any two of
  // them share a host, so at most one runs at a time: at most 3 of the 6 fit in a minute. slip PT1M is cut to
  // repeat - duration = 41 s (SCHED run_post), so a run must lie in [wanted, wanted + 60).
  // Everything is created at 0; within the horizon every run is due at once (now = 0), taken by wanted time, then
  // task age (schedule_runs_to_schedule ORDER BY trynext, added).
  // First runs (wanted 0): the first-run offset for two participants pushes the window to [10, 70).
  //   0 a→b  free everywhere                               → [10, 29)
  //   1 a→c  a busy to 29                                  → [29, 48)
  //   2 b→a  a busy to 48, b free after 29                 → [48, 67)
  //   3 b→c  b free [29,48) (19 s), c free [10,29) and [48,70): the common parts only touch → no time
  //   4 c→a  a free [67,70) only                          → no time
  //   5 c→b  c free [10,29) [48,70), b free [29,48) [67,70): touching again → no time
  // A non-starter is posted at [wanted, wanted + 19) and anchors the grid at 0, so 3, 4, 5 want 60 next; 0, 1, 2
  // want 70, 89, 108 (their first start + 60). Each next run is tried at its lead's next loop turn (one try per task a
  // turn; turns every 10.025 s from a phase per host: a at 0, b at 0.618 x 10.025 = 6.196, c at 0.236 x 10.025 =
  // 2.367), so c's tasks go first, then b's, then a's; within a turn by wanted time, then task age.
  //   4 c→a  @60, window [60,120): a busy to 67 (2 b→a [48,67))                      → [67, 86)
  //   5 c→b  @60: c busy [67,86); b busy [48,67): common from 86                      → [86, 105)
  //   3 b→c  @60: b free [67,86) and [105,120) (15 s), c free [60,67) and [105,120): the common parts are 0 and
  //          15 s → no time
  //   2 b→a  @108, window [108,168): b free from 105, a from 86                        → [108, 127)
  //   0 a→b  @70, window [70,130): a free [86,108) and [127,130), b free [70,86), [105,108), [127,130): at most
  //          3 s in common → no time
  //   1 a→c  @89, window [89,149): a free [89,108) and [127,149), c free from 105      → [127, 146)
  //   4 c→a  @127 (next turn of c, 12.392), window [127,187): a busy to 146            → [146, 165)
  //   5 c→b  @120 (anchored at 0), window [120,180): c free [120,127) (1 a→c holds [127,146)) and [165,180) (15 s)
  //          → no time
  const model = modelOf(throughputMesh(['a', 'b', 'c'], { repeat: 'PT1M', slip: 'PT1M' }), PSCHEDULER_ALONE);
  assert.ok(model.tasks.every((t) => t.durationSeconds === 19));
  const sim = simulateSchedule(model, { days: 1 });
  assert.deepEqual(firstRuns(sim.runs, 14), [
    [0, 10, 29, 'S'],
    [1, 29, 48, 'S'],
    [2, 48, 67, 'S'],
    [3, 0, 19, NO_TIMES],
    [4, 0, 19, NO_TIMES],
    [5, 0, 19, NO_TIMES],
    [4, 67, 86, 'S'],
    [5, 86, 105, 'S'],
    [3, 60, 79, NO_TIMES],
    [2, 108, 127, 'S'],
    [0, 70, 89, NO_TIMES],
    [1, 127, 146, 'S'],
    [4, 146, 165, 'S'],
    [5, 120, 139, NO_TIMES],
  ]);
  // Any two of the 6 tasks share a host, so no two runs overlap; a run wanted in the reported day lies within
  // [wanted, wanted + 60), so within 86,400 + 60 s: at most 86,460 / 19 = 4,550 runs.
  let scheduled = 0;
  let wanted = 0;
  for (let i = 0; i < sim.scheduled.length; i++) {
    scheduled += sim.scheduled[i];
    wanted += sim.wanted[i];
  }
  assert.equal(wanted, 6 * 1440);
  assert.ok(scheduled <= Math.floor(86_460 / 19), `${scheduled} scheduled`);
});

test('the same three hosts every 5 minutes fit: every run of the reported day is scheduled, none is lost', () => {
  // 4 tasks per host x 19 s = 76 s in 300 s: exclusive load 0.25, and 6 x 19 = 114 s of the 300 s are needed even
  // if no two runs could ever overlap.
  const model = modelOf(throughputMesh(['a', 'b', 'c'], { repeat: 'PT5M', slip: 'PT5M' }), PSCHEDULER_ALONE);
  const sim = simulateSchedule(model, { days: 1 });
  for (let t = 0; t < 6; t++) {
    assert.equal(sim.wanted[t], 288, `task ${t}`);
    assert.equal(sim.scheduled[t], 288, `task ${t}`);
    assert.equal(sim.nonstart[t], 0);
  }
});

test('slip is cut to repeat - duration, floored at 0 (SCHED run_post ~441-452; the floor: pscheduler#1412)', () => {
  assert.equal(effectiveSlip(300, 19, 60), 41);
  assert.equal(effectiveSlip(41, 19, 60), 41, 'slip + duration = repeat exactly is cut too (>=), to the same');
  assert.equal(effectiveSlip(10, 19, 60), 10);
  assert.equal(effectiveSlip(0, 86_402, 86_400), 0, 'a 24 h latencybg repeating daily: never negative');
  assert.equal(effectiveSlip(3600, 19, undefined), 3600, 'no repeat: nothing to cut');
});

test('the repeat grid is anchored at the first run and the next run is the first grid point after the latest end (DB/task.sql task_next_run, DB/run.sql:568)', () => {
  assert.equal(gridPointsIn(10, 60, 0, 60), 1);
  assert.equal(gridPointsIn(10, 60, 70, 130), 1, 'half-open: 70 in, 130 out');
  assert.equal(gridPointsIn(10, 60, 0, 86_400), 1440);
  // One task alone: its runs start exactly on the grid anchored at its first run (10 s after creation).
  const sim = simulateSchedule(
    modelOf([combo({ spec: { source: 'a', dest: 'b' }, schedule: { repeat: 'PT1H' } })], PSCHEDULER_ALONE),
    {
      days: 1,
    },
  );
  const starts = Array.from(sim.runs.start.subarray(0, 4));
  assert.deepEqual(starts, [10, 3610, 7210, 10_810]);
});

test('with slip 0 the horizon cuts every window of a repeating exclusive task below its duration: "No times available" (DB/schedule.sql schedule_runs_to_schedule + api_proposed_times)', () => {
  // A run is due when trynext < now + horizon - slip, and tried at the lead's first loop turn after that, 0 to
  // 10.025 s later (one turn); api_proposed_times cuts the window [trynext, trynext + 19) at now + horizon: with
  // slip 0 at most 10 s are left, no 19 s gap.
  // The first day's 24 runs are tried right after creation (one a turn: at 0, 10.025, ..., 230.6 s), when the
  // horizon is a day away, and fit. The reported day's first run (86,410) became due at 10 s, but the task's try
  // came at its next turn, 24 x 10.025 = 240.6 s, leaving [86,410, 86,640): it fits. Every later run is tried at
  // the edge: 23 non-starters, each with a window the horizon cut below the run.
  const model = modelOf([combo({ spec: { source: 'a', dest: 'b' }, schedule: { repeat: 'PT1H' } })], PSCHEDULER_ALONE);
  const sim = simulateSchedule(model, { days: 1 });
  assert.equal(sim.wanted[0], 24);
  assert.equal(sim.scheduled[0], 1);
  assert.equal(sim.nonstart[0], 23);
  assert.equal(sim.horizonCut[0], 23);
  assert.equal(reasonText(sim.runs.reason[sim.runs.length - 1]), NO_TIMES);
  // A slip of the run's duration always leaves enough: the run is due at trynext - horizon + 19 and tried after it,
  // so now + horizon is past trynext + 19 (whole seconds: trynext is whole).
  const fits = (slip: string) =>
    simulateSchedule(
      modelOf([combo({ spec: { source: 'a', dest: 'b' }, schedule: { repeat: 'PT1H', slip } })], PSCHEDULER_ALONE),
      { days: 1 },
    ).scheduled[0];
  assert.equal(fits('PT19S'), 24);
  // A slip of 9 s needs a lag of at least 10 s of the 10.025 s turn: only the run tried late by the fill fits.
  assert.equal(fits('PT9S'), 1);
});

test('background runs never block and are never blocked (DB/run.sql run_conflictable: NOT anytime)', () => {
  // An rtt every minute from a (ping books 10 s) and a latencybg from a (powstream 24 h + 2 s), beside a throughput
  // a→b every minute with slip: the throughput runs land on their grid points as if alone, and the rtt runs at
  // exactly their wanted times although throughput runs overlap them.
  const model = modelOf(
    [
      combo({ task: 'bw', spec: { source: 'a', dest: 'b' }, schedule: { repeat: 'PT1M', slip: 'PT1M' } }),
      combo({ task: 'rtt', type: 'rtt', spec: { source: 'a', dest: 'b' }, schedule: { repeat: 'PT1M' } }),
      combo({ task: 'owd', type: 'latencybg', spec: { source: 'a', dest: 'b' } }),
    ],
    PSCHEDULER_ALONE,
  );
  assert.deepEqual(
    model.tasks.map((t) => [t.class, t.durationSeconds]),
    [
      ['exclusive', 19],
      ['background', 10],
      ['background-multi', 86_402],
    ],
  );
  const sim = simulateSchedule(model, { days: 1 });
  assert.equal(sim.scheduled[0], 1440, 'every throughput run');
  assert.equal(sim.scheduled[1], 1440, 'every rtt run');
  for (let r = 0; r < sim.runs.length; r++) {
    assert.equal(sim.runs.state[r], RUN_SCHEDULED);
    if (sim.runs.task[r] === 0) assert.equal((sim.runs.start[r] - 10) % 60, 0, 'throughput on its grid');
    // The rtt's first run is pushed 5 s (single participant), the grid follows it.
    if (sim.runs.task[r] === 1) assert.equal((sim.runs.start[r] - 5) % 60, 0, 'rtt on its grid');
  }
});

test('a normal (latency) run blocks exclusive runs on its one participant; two normal runs may overlap', () => {
  // Created in this order: owping from a (22 s), owping from a again, throughput a→b. Both latency runs start at 5
  // (first-run offset, one participant): normal runs ignore each other. The throughput run avoids them: [27, 46).
  const model = modelOf(
    [
      combo({
        task: 'l1',
        type: 'latency',
        spec: { source: 'a', dest: 'b' },
        schedule: { repeat: 'PT1M', slip: 'PT1M' },
      }),
      combo({
        task: 'l2',
        type: 'latency',
        spec: { source: 'a', dest: 'c' },
        schedule: { repeat: 'PT1M', slip: 'PT1M' },
      }),
      combo({ task: 'bw', spec: { source: 'a', dest: 'b' }, schedule: { repeat: 'PT1M', slip: 'PT1M' } }),
    ],
    PSCHEDULER_ALONE,
  );
  const sim = simulateSchedule(model, { days: 1 });
  assert.deepEqual(firstRuns(sim.runs, 3), [
    [0, 5, 27, 'S'],
    [1, 5, 27, 'S'],
    [2, 27, 46, 'S'],
  ]);
});

test("pScheduler's gap walk takes each run's end in turn: a short normal run inside a long one lets a proposal into the long one, the insert conflicts, and five tries later the run gives up (DB/schedule.sql api_proposed_times `last_end := upper(run_record.times)`, SCHED schedule_task)", () => {
  // l1: owping of 1000 packets (121 s) from a, daily; l2: owping (22 s) from a every 50 s; bw: throughput a→b every
  // minute, slip PT1M (cut to 41 s), earliest gap.
  //   l1 @0 → [5, 126); l2 @0 → [5, 27); bw @0 → window [10, 70): a is busy (l2 then l1, by start then end) → no time.
  //   l2 @55 → [55, 77) (normal runs may overlap).
  //   bw @60 → window [60, 120). a's runs in it, ordered by times: l1 [5,126), then l2 [55,77). The walk sets
  //   last_end to 126, then to 77, and proposes [77, 120). The insert finds l1 there (run_has_conflicts): a conflict,
  //   retried with the same earliest start until the tries run out.
  const model = modelOf(
    [
      combo({
        task: 'l1',
        type: 'latency',
        spec: { source: 'a', dest: 'b', 'packet-count': 1000, 'packet-interval': 0.1 },
        schedule: { repeat: 'P1D' },
      }),
      combo({ task: 'l2', type: 'latency', spec: { source: 'a', dest: 'c' }, schedule: { repeat: 'PT50S' } }),
      combo({ task: 'bw', spec: { source: 'a', dest: 'b' }, schedule: { repeat: 'PT1M', slip: 'PT1M' } }),
    ],
    PSCHEDULER_ALONE,
  );
  assert.deepEqual(
    model.tasks.map((t) => t.durationSeconds),
    [121, 22, 19],
  );
  const sim = simulateSchedule(model, { days: 1 });
  assert.deepEqual(firstRuns(sim.runs, 5), [
    [0, 5, 126, 'S'],
    [1, 5, 27, 'S'],
    [2, 0, 19, NO_TIMES],
    [1, 55, 77, 'S'],
    [2, 60, 79, GAVE_UP],
  ]);
});

test('the NULL-priority defect: tasks renewed in one pass start at the same second, proposals ignore the pending run there, and the second task gives up every run (DB/run.sql api_run_post, DB/schedule.sql api_proposed_times, task_manager.py add_task)', () => {
  // ab and ac, both led by a, every 10 minutes with slip PT10M (cut to 581 s), no sliprand. The agent's first pass
  // (at 0) gives both until = 0 + max(P1D, 2 x PT10M) = 86,400; the pass at 61,200 is the first whose
  // now + check-interval + TTL x fudge (61,200 + 3,600 + 21,600 = 86,400) reaches it, so it posts both successors,
  // ab at 61,202 and ac at 61,204 (one POST of 2 s each), both starting at 86,400 (the old until).
  // ab's successor: its first run is tried at creation, window [86,400, 86,400 + 600): nothing is there → [86,400,
  // 86,419). ac's: with the defect a pending run is invisible to proposals (only runs running at `now`, 61,204 and
  // the back-offs after it, would count), so it is offered 86,400 again, the insert conflicts, and every retry asks
  // for the same window: "Gave up", posted at [86,400, 86,419), which anchors its grid there too. From then on both
  // want the same grid points; ab's tries come at the same turn of a's loop as ac's or earlier (ab's worker
  // finished first), ties go to the older task, so ab books each point and ac gives up each: 0 of the day's 144.
  const schedule = { repeat: 'PT10M', slip: 'PT10M' };
  const combos = [
    combo({ task: 'ab', spec: { source: 'a', dest: 'b' }, schedule }),
    combo({ task: 'ac', spec: { source: 'a', dest: 'c' }, schedule }),
  ];
  const defect = simulateSchedule(modelOf(combos), { days: 1 });
  assert.deepEqual([defect.wanted[0], defect.scheduled[0]], [144, 144]);
  assert.deepEqual([defect.wanted[1], defect.scheduled[1], defect.nonstart[1]], [144, 0, 144]);
  const first = firstOfDay(defect.runs, 1, 86_400);
  assert.deepEqual(first, [86_400, 86_419, GAVE_UP]);
  // Without the defect the proposal leaves ab's run out: ac's successor starts at 86,419 and everything fits.
  const ideal = simulateSchedule(modelOf(combos, { nullPriorityDefect: false }), { days: 1 });
  assert.deepEqual([ideal.scheduled[0], ideal.scheduled[1]], [144, 144]);
  assert.deepEqual(firstOfDay(ideal.runs, 1, 86_400), [86_419, 86_438, 'S']);
  // With sliprand each retry draws again inside the window, and most runs find a free start within the five tries.
  const rand = simulateSchedule(
    modelOf(combos.map((c) => ({ ...c, pscheduler: { ...c.pscheduler!, schedule: { ...schedule, sliprand: true } } }))),
    { days: 1 },
  );
  assert.ok(rand.scheduled[1] > 130, `${rand.scheduled[1]} of 144`);
});

/** [start, end, 'S' | reason] of task `task`'s first run wanted at or after `from`. */
function firstOfDay(log: RunLog, task: number, from: number): [number, number, string] | undefined {
  for (let r = 0; r < log.length; r++)
    if (log.task[r] === task && log.wanted[r] >= from)
      return [log.start[r], log.end[r], log.state[r] === RUN_SCHEDULED ? 'S' : (reasonText(log.reason[r]) as string)];
  return undefined;
}

test('sliprand: a uniformly chosen common range and a whole-second offset that never reaches the last start (SCHED ~507-530); the same seed gives the same schedule', () => {
  const mesh = throughputMesh(['a', 'b', 'c', 'd'], { repeat: 'PT10M', slip: 'PT10M', sliprand: true });
  const one = simulateSchedule(modelOf(mesh, PSCHEDULER_ALONE), { days: 1, seed: 7 });
  const again = simulateSchedule(modelOf(mesh, PSCHEDULER_ALONE), { days: 1, seed: 7 });
  const other = simulateSchedule(modelOf(mesh, PSCHEDULER_ALONE), { days: 1, seed: 8 });
  assert.deepEqual(
    Array.from(one.runs.start.subarray(0, one.runs.length)),
    Array.from(again.runs.start.subarray(0, again.runs.length)),
  );
  assert.notDeepEqual(Array.from(one.runs.start.subarray(0, 50)), Array.from(other.runs.start.subarray(0, 50)));
  for (let r = 0; r < one.runs.length; r++) {
    assert.ok(Number.isInteger(one.runs.start[r]), 'whole seconds');
    const wanted = one.runs.wanted[r];
    const from = wanted === 0 ? 10 : wanted;
    // Window [from, from + 600): the latest start a random offset can give is from + 600 - 19 - 1.
    assert.ok(one.runs.start[r] >= from && one.runs.start[r] <= from + 600 - 19 - 1, `run ${r}`);
  }
});

test('a task without repeat runs once, at creation; the simulation can be cancelled', () => {
  const sim = simulateSchedule(modelOf([combo({ spec: { source: 'a', dest: 'b' } })], PSCHEDULER_ALONE), { days: 1 });
  assert.equal(sim.runs.length, 1);
  assert.equal(sim.wanted[0], 0, 'nothing wanted in the reported day');
  let polls = 0;
  assert.throws(
    () =>
      simulateSchedule(modelOf(throughputMesh(['a', 'b', 'c'], { repeat: 'PT1M', slip: 'PT1M' }), PSCHEDULER_ALONE), {
        days: 1,
        isCancelled: () => ++polls > 3,
      }),
    ScheduleCancelled,
  );
});

export type { ScheduleModel };
