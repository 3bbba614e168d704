// The simulation and the quick-fix search in slices (what the editor's worker runs, pausing for requests between
// slices) give exactly what the one-piece forms give: slicing only cuts the same loop.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ScheduleCancelled,
  simulateSchedule,
  simulateScheduleInSlices,
  type SimulationResult,
} from '../../../server/src/template/schedule/simulate';
import { suggestScheduleFixes, suggestScheduleFixesInSlices } from '../../../server/src/template/schedule/suggestions';
import { modelOf, throughputMesh } from './helpers';

/** Everything a simulation reports, as plain arrays (the run log's columns included). */
function facts(sim: SimulationResult): unknown {
  const r = sim.runs;
  const runs = Array.from({ length: r.length }, (_, k) => [r.task[k], r.start[k], r.end[k], r.state[k], r.reason[k]]);
  return {
    wanted: [...sim.wanted],
    scheduled: [...sim.scheduled],
    nonstart: [...sim.nonstart],
    horizonCut: [...sim.horizonCut],
    runs,
    blockerQueries: sim.blockerQueries,
  };
}

test('in slices of 256 tries, with a pause between each, the simulation is the same run for run', async () => {
  // Eight hosts, throughput every minute with sliprand: 56 tasks, tens of thousands of tries, random choices too.
  const model = modelOf(
    throughputMesh(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'], { repeat: 'PT1M', slip: 'PT1M', sliprand: true }),
  );
  const whole = simulateSchedule(model, { days: 1, seed: 3 });
  let pauses = 0;
  const sliced = await simulateScheduleInSlices(
    model,
    { days: 1, seed: 3 },
    async () => {
      pauses++;
      await new Promise((r) => setImmediate(r));
    },
    0, // every check of the clock ends the slice: 256 tries each
  );
  assert.ok(whole.runs.length > 10_000, `${whole.runs.length} runs`);
  assert.ok(pauses > whole.runs.length / 256, `${pauses} pauses`);
  assert.deepEqual(facts(sliced), facts(whole));
});

test('a sliced simulation stops when cancelled between slices', async () => {
  const model = modelOf(throughputMesh(['a', 'b', 'c', 'd'], { repeat: 'PT1M', slip: 'PT1M' }));
  let stop = false;
  const run = simulateScheduleInSlices(
    model,
    { days: 1, isCancelled: () => stop },
    async () => {
      stop = true; // the edit that arrives while the worker answers something else
      await new Promise((r) => setImmediate(r));
    },
    0,
  );
  await assert.rejects(run, ScheduleCancelled);
});

test('the quick-fix search in slices finds the same schedule changes', async () => {
  const model = modelOf(throughputMesh(['a', 'b', 'c'], { repeat: 'PT1M', slip: 'PT1M', sliprand: true }));
  const base = simulateSchedule(model, { days: 1 });
  const whole = suggestScheduleFixes(model, base, { task: 'mesh', days: 1 });
  let pauses = 0;
  const sliced = await suggestScheduleFixesInSlices(model, base, { task: 'mesh', days: 1 }, async () => {
    pauses++;
    await new Promise((r) => setImmediate(r));
  });
  assert.ok(whole.length > 0, 'the overloaded mesh has a fix');
  assert.deepEqual(sliced, whole);
  assert.ok(pauses >= 1, 'each re-simulation pauses before it starts');
});
