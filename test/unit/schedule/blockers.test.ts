// Who took a non-starter's slots: the indexed answer (hosts collected per batch, runs sorted by start) against the
// definition read straight off the run log, on whole-second times (the numeric sort) and on fractional ones (the
// comparator it falls back to).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { blockersOf, blockersOfEach, type BlockerQuery } from '../../../server/src/template/schedule/blockers';
import { mustAvoid } from '../../../server/src/template/schedule/participants';
import { RUN_SCHEDULED, RunLog } from '../../../server/src/template/schedule/run-log';
import { simulateSchedule } from '../../../server/src/template/schedule/simulate';
import type { ScheduleModel } from '../../../server/src/template/schedule/task-model';
import { modelOf, throughputMesh } from './helpers';

/**
 * The definition: for each query of the task, in order, each distinct participant, every scheduled run posted before
 * it on that host that overlaps its window and is of a class it must avoid; hosts in the order of their first such
 * run, tasks by runs (most first), then id.
 */
function byDefinition(model: ScheduleModel, log: RunLog, queries: readonly BlockerQuery[], task: number) {
  const t = model.tasks[task];
  const hosts = [...new Set(t.participants)];
  const counts = new Map<number, Map<number, number>>();
  for (const q of queries) {
    if (q.task !== task) continue;
    for (const h of hosts)
      for (let r = 0; r < q.run; r++) {
        if (log.state[r] !== RUN_SCHEDULED || log.start[r] >= q.to || log.end[r] <= q.from) continue;
        const other = model.tasks[log.task[r]];
        if (!other.participants.includes(h) || !mustAvoid(t.class, other.class)) continue;
        if (!counts.has(h)) counts.set(h, new Map());
        const m = counts.get(h)!;
        m.set(other.index, (m.get(other.index) ?? 0) + 1);
      }
  }
  return [...counts].map(([host, m]) => ({
    host,
    tasks: [...m].map(([id, runs]) => ({ task: id, runs })).sort((x, y) => y.runs - x.runs || x.task - y.task),
  }));
}

function overloadedMesh() {
  const model = modelOf(throughputMesh(['a', 'b', 'c', 'd'], { repeat: 'PT2M', slip: 'PT1M', sliprand: true }));
  const sim = simulateSchedule(model, { days: 1, seed: 3 });
  const asked = [...new Set(sim.blockerQueries.map((q) => q.task))];
  assert.ok(sim.blockerQueries.length > 100 && asked.length > 4, 'the mesh loses runs');
  return { model, sim, asked };
}

test('blockers by the index equal the definition, one task at a time or in a batch', () => {
  const { model, sim, asked } = overloadedMesh();
  const batch = blockersOfEach(model, sim.runs, sim.blockerQueries, asked);
  asked.forEach((task, k) => {
    const expected = byDefinition(model, sim.runs, sim.blockerQueries, task);
    assert.ok(expected.length > 0);
    assert.deepEqual(batch[k], expected);
    assert.deepEqual(blockersOf(model, sim.runs, sim.blockerQueries, task), expected);
  });
  // A task without non-starters has no blockers (and does not need the index).
  const none = model.tasks.findIndex((t) => !asked.includes(t.index));
  if (none >= 0) assert.deepEqual(blockersOf(model, sim.runs, sim.blockerQueries, none), []);
});

test('fractional run times: the sort falls back to a comparator and the answers still follow the definition', () => {
  const { model, sim, asked } = overloadedMesh();
  // The same log shifted by a third of a second: no start is a whole number any more.
  const log = new RunLog();
  for (let r = 0; r < sim.runs.length; r++)
    log.push(
      sim.runs.task[r],
      sim.runs.start[r] + 1 / 3,
      sim.runs.end[r] + 1 / 3,
      sim.runs.wanted[r],
      sim.runs.tried[r],
      sim.runs.state[r],
      sim.runs.reason[r],
    );
  const queries = sim.blockerQueries.map((q) => ({ ...q, from: q.from + 1 / 3, to: q.to + 1 / 3 }));
  const batch = blockersOfEach(model, log, queries, asked);
  asked.forEach((task, k) => assert.deepEqual(batch[k], byDefinition(model, log, queries, task)));
});
