// Which tasks took a non-starter's slots, host by host: the runs that sat in its search window on each participant
// when it was tried (posted before it, overlapping the window, of a class it must avoid). Worked out on request from
// the simulation's run log, so the tries themselves keep no per-run index and a report that shows no blockers pays
// nothing for them (an overloaded 40,000-task mesh has tens of thousands of non-starters).
import { isAnytime, mustAvoid } from './participants';
import { RUN_SCHEDULED, type RunLog } from './run-log';
import type { ScheduleModel } from './task-model';

/** A non-starter to explain: its index in the run log, its task and the window it searched. */
export interface BlockerQuery {
  run: number;
  task: number;
  from: number;
  to: number;
}

/** Who held a task's slots on one host: blocking task ids with the number of their runs found in its windows. */
export interface HostBlockers {
  host: number;
  tasks: { task: number; runs: number }[];
}

/** Per host: its scheduled runs that can conflict, as run-log indices ordered by start, and the longest of them. */
interface HostIndex {
  runs: Int32Array[];
  longest: number[];
}

const indexes = new WeakMap<RunLog, HostIndex>();
const grouped = new WeakMap<readonly BlockerQuery[], Map<number, BlockerQuery[]>>();

function byTask(queries: readonly BlockerQuery[]): Map<number, BlockerQuery[]> {
  let m = grouped.get(queries);
  if (!m) {
    m = new Map();
    for (const q of queries) {
      const list = m.get(q.task);
      if (list) list.push(q);
      else m.set(q.task, [q]);
    }
    grouped.set(queries, m);
  }
  return m;
}

function indexOf(model: ScheduleModel, log: RunLog): HostIndex {
  let index = indexes.get(log);
  if (index) return index;
  const perHost: number[][] = model.hosts.map(() => []);
  for (let r = 0; r < log.length; r++) {
    if (log.state[r] !== RUN_SCHEDULED) continue;
    const t = model.tasks[log.task[r]];
    if (isAnytime(t.class)) continue;
    t.participants.forEach((h, k) => {
      if (t.participants.indexOf(h) === k) perHost[h].push(r);
    });
  }
  const runs = perHost.map((list) => Int32Array.from(list).sort((x, y) => log.start[x] - log.start[y]));
  const longest = runs.map((list) => list.reduce((m, r) => Math.max(m, log.end[r] - log.start[r]), 0));
  indexes.set(log, (index = { runs, longest }));
  return index;
}

/**
 * The tasks whose runs filled the windows of task `task`'s non-starters (the queries are the simulation's
 * `blockerQueries`), per participant host, most runs first.
 */
export function blockersOf(
  model: ScheduleModel,
  log: RunLog,
  queries: readonly BlockerQuery[],
  task: number,
): HostBlockers[] {
  const mine = byTask(queries).get(task);
  if (!mine) return [];
  const index = indexOf(model, log);
  const t = model.tasks[task];
  const counts = new Map<number, Map<number, number>>();
  for (const q of mine) {
    t.participants.forEach((h, k) => {
      if (t.participants.indexOf(h) !== k) return;
      const list = index.runs[h];
      let lo = 0;
      let hi = list.length;
      const from = q.from - index.longest[h];
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (log.start[list[mid]] < from) lo = mid + 1;
        else hi = mid;
      }
      for (let k2 = lo; k2 < list.length && log.start[list[k2]] < q.to; k2++) {
        const r = list[k2];
        if (r >= q.run || log.end[r] <= q.from) continue;
        const other = log.task[r];
        if (!mustAvoid(t.class, model.tasks[other].class)) continue;
        let perHost = counts.get(h);
        if (!perHost) counts.set(h, (perHost = new Map()));
        perHost.set(other, (perHost.get(other) ?? 0) + 1);
      }
    });
  }
  return [...counts].map(([host, m]) => ({
    host,
    tasks: [...m].map(([id, runs]) => ({ task: id, runs })).sort((x, y) => y.runs - x.runs || x.task - y.task),
  }));
}
