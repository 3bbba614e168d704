// pSConfig's agent around pScheduler (perfsonar/psconfig 5.2.4, psconfig/client/pscheduler/task_manager.py add_task
// ~205-228 and _evaluate_task ~372-411, psconfig/pscheduler/agent.py ~112): tasks posted one after another, each with
// an until, renewed by a successor that starts at the old until. Each expectation worked out by hand from those rules
// and pScheduler's (DB/schedule.sql schedule_runs_to_schedule, api_proposed_times; SCHED main_program).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { simulateSchedule } from '../../../server/src/template/schedule/simulate';
import {
  NONSTART_REASONS,
  reasonText,
  RUN_SCHEDULED,
  type RunLog,
} from '../../../server/src/template/schedule/run-log';
import { combo, modelOf } from './helpers';

/** Task `task`'s runs wanted in [from, to): [wanted, start, 'S' | reason]. */
function runsOf(log: RunLog, task: number, from: number, to: number): [number, number, string][] {
  const out: [number, number, string][] = [];
  for (let r = 0; r < log.length; r++)
    if (log.task[r] === task && log.wanted[r] >= from && log.wanted[r] < to)
      out.push([
        log.wanted[r],
        log.start[r],
        log.state[r] === RUN_SCHEDULED ? 'S' : (reasonText(log.reason[r]) as string),
      ]);
  return out.sort((x, y) => x[0] - y[0]);
}

test('a no-slip hourly throughput pair under renewal loses the runs of its successor tried at the horizon edge: 6 of 24 a day', () => {
  // Defaults: horizon P1D, check interval PT1H, task-min-ttl P1D, fudge 0.25, one POST 2 s, the scheduler's turn
  // 10.025 s; one agent (a, phase 0), one host leading (a, phase 0). iperf3 books 19 s.
  // - First pass at 0: the task is created at 2, until 0 + max(86,400, 2 x 3,600) = 86,400.
  // - The pass at p renews it when 86,400 <= p + 3,600 + 86,400 x 0.25, first at p = 61,200: the successor is
  //   created at 61,202 with start 86,400 and until 172,800; its runs are wanted at 86,400 + 3,600k, k = 0..23.
  // - Its first run is tried at creation. Then one run a turn of a's loop: the first turn after 61,202 is
  //   6,105 x 10.025 = 61,202.625, so run k is tried at 61,202.625 + 10.025 (k - 1) unless it is not yet due:
  //   it is due once 86,400 + 3,600k < now + 86,400, at 3,600k.
  // - k <= 16: due before the fill reaches it; tried at the fill, hours inside the horizon: it fits.
  //   k = 17: due at 61,200 but the fill reaches it at 61,363.0: the horizon then ends at 61,363 + 86,400 = 147,763,
  //   past 147,600 + 19: it fits.
  //   k = 18..23: tried at the first turn after 3,600k, less than 10.025 s later: the window [T, T + 19) is cut at
  //   now + horizon < T + 10.03: "No times available for this run." Six of 24 lost, a quarter.
  const model = modelOf([combo({ spec: { source: 'a', dest: 'b' }, schedule: { repeat: 'PT1H' } })]);
  const sim = simulateSchedule(model, { days: 1 });
  assert.deepEqual([sim.wanted[0], sim.scheduled[0], sim.nonstart[0]], [24, 18, 6]);
  const day = runsOf(sim.runs, 0, 86_400, 172_800);
  assert.deepEqual(
    day.map((r) => r[0]),
    Array.from({ length: 24 }, (_, k) => 86_400 + 3600 * k),
  );
  assert.deepEqual(
    day.map((r) => r[2]),
    [...Array<string>(18).fill('S'), ...Array<string>(6).fill(NONSTART_REASONS.noTimes)],
  );
  assert.equal(sim.horizonCut[0], 6);
  // The same pair without renewal (the task lives for ever): every run after the first day's fill is tried at the
  // edge; only the first of the day, reached by the fill late (the 24th turn after creation, 240.6 s, is after it
  // became due at 12 s), fits.
  const forever = simulateSchedule(
    modelOf([combo({ spec: { source: 'a', dest: 'b' }, schedule: { repeat: 'PT1H' } })], { agentRenewal: false }),
    { days: 1 },
  );
  assert.equal(forever.scheduled[0], 1);
});

test("identical untils: one agent's tasks created in one pass share an until, so their successors start at the same second", () => {
  // Agent a posts ab (created 2) and ac (created 4) in its first pass at 0: both until 86,400 (add_task takes the
  // pass's time, not the POST's); b, the second agent (phase 0.618 x 3,600 = 2,224), posts ba at 2,226, until
  // 88,624. Successors: ab and ac at 86,400, ba at 88,624, each created 7 h before (passes at 61,200 and 63,424).
  const schedule = { repeat: 'PT1H', slip: 'PT1H', sliprand: true };
  const model = modelOf([
    combo({ task: 'ab', spec: { source: 'a', dest: 'b' }, schedule }),
    combo({ task: 'ac', spec: { source: 'a', dest: 'c' }, schedule }),
    combo({ task: 'ba', spec: { source: 'b', dest: 'a' }, schedule }),
  ]);
  const sim = simulateSchedule(model, { days: 1 });
  const firstTry = (task: number, from: number) => {
    for (let r = 0; r < sim.runs.length; r++)
      if (sim.runs.task[r] === task && sim.runs.wanted[r] >= from) return [sim.runs.wanted[r], sim.runs.tried[r]];
    return undefined;
  };
  assert.deepEqual(firstTry(0, 86_400), [86_400, 61_202]);
  assert.deepEqual(firstTry(1, 86_400), [86_400, 61_204]);
  assert.deepEqual(firstTry(2, 88_624), [88_624, 63_426]);
});

test('tasks posted one after another (task_manager.py _create_tasks): equal repeats get grids postSeconds apart, not one grid', () => {
  // One agent, three exclusive tasks every 10 minutes without slip, a POST taking 25 s: created at 25, 50, 75 (the
  // pass at 0), each first run tried at creation and pushed out by the first-run offset (10 s, two participants):
  // [35, 54), [60, 79), [85, 104), every later run on those grids: none collides before the first renewal.
  const schedule = { repeat: 'PT10M' };
  const model = modelOf(
    ['b', 'c', 'd'].map((x) => combo({ task: `a${x}`, spec: { source: 'a', dest: x }, schedule })),
    { postSeconds: 25 },
  );
  const sim = simulateSchedule(model, { days: 1 });
  const first = [0, 1, 2].map((task) => runsOf(sim.runs, task, 0, 600)[0]);
  assert.deepEqual(first, [
    [25, 35, 'S'],
    [50, 60, 'S'],
    [75, 85, 'S'],
  ]);
  for (const task of [0, 1, 2])
    assert.ok(
      runsOf(sim.runs, task, 600, 20_000).every((r) => r[2] === 'S' && (r[0] - first[task][1]) % 600 === 0),
      `task ${task} on its own grid`,
    );
});

test('a conflict is retried after a random back-off (SCHED schedule_task ~773-791): the retry asks at a later now, and a run that has started by then is seen', () => {
  // All at once (postSeconds 0), ab then ac, both led by a, slip PT5M, both first runs wanted from 10 (creation 0 +
  // offset 10), windows [10, 10 + 19 + 300).
  // ab takes [10, 29). ac's proposal ignores ab's pending run (the defect) and is offered 10: a conflict. Each retry
  // comes up to 10 s later; the window's start moves to now + 3 once that passes 10, and once now >= 10 ab's run is
  // running, so proposals avoid it and offer 29. Whatever the back-offs, ac's first run is either taken at 29 or
  // later, or given up after the fifth try; it is never placed on top of ab's run.
  for (let seed = 1; seed <= 20; seed++) {
    const model = modelOf(
      ['b', 'c'].map((x) =>
        combo({ task: `a${x}`, spec: { source: 'a', dest: x }, schedule: { repeat: 'PT10M', slip: 'PT5M' } }),
      ),
      { postSeconds: 0 },
    );
    const sim = simulateSchedule(model, { days: 1, seed });
    const [wanted, start, state] = runsOf(sim.runs, 1, 0, 600)[0];
    assert.equal(wanted, 0);
    assert.ok((state === 'S' && start >= 29) || state === NONSTART_REASONS.gaveUp, `seed ${seed}: ${start} ${state}`);
    assert.ok(sim.runs.tried[1] === 0, 'tried at creation');
  }
});
