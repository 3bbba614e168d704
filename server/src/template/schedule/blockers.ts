// Which tasks took a non-starter's slots, host by host: the runs that sat in its search window on each participant
// when it was tried (posted before it, overlapping the window, of a class it must avoid). Worked out on request from
// the simulation's run log, so the tries themselves keep no per-run index and a report that shows no blockers pays
// nothing for them (an overloaded 40,000-task mesh has tens of thousands of non-starters).
import { isAnytime, mustAvoid, type SchedulingClass } from './participants';
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

/**
 * What blocker questions about one run log keep between them: each task's distinct hosts in flat arrays (read once
 * per task: reaching a task object and its participants array from each run, in the log's order, costs a cache miss
 * per run), and per host, once some question is about it, its scheduled runs that can conflict (anytime runs never
 * do), ordered by start. Hosts are collected for a whole batch of questions in one pass over the log (a day of a
 * 200-host mesh is over half a million runs): findings ask about the hosts of their 50 worst tasks, a part of a
 * mesh's hundreds.
 */
interface HostIndex {
  /** Task i's distinct hosts (none for anytime tasks): taskHosts[first[i]] … taskHosts[first[i + 1] - 1]. */
  first: Int32Array;
  taskHosts: Int32Array;
  /** Per host, once asked: its runs ordered by start. */
  runs: (HostRuns | undefined)[];
  /** Per class a task may propose: which tasks' runs it must avoid (1) or may share time with (0). */
  avoided: Map<SchedulingClass, Uint8Array>;
}

/** One host's runs ordered by start (equal starts in posting order): their times, run-log indices and tasks. */
interface HostRuns {
  start: Float64Array;
  end: Float64Array;
  run: Int32Array;
  task: Int32Array;
  /** The longest run, so a run overlapping t starts no earlier than t - longest. */
  longest: number;
}

const indexes = new WeakMap<RunLog, HostIndex>();

/** The queries grouped by task, in their order: task i's are queries[order[first[i]]] … queries[order[first[i + 1] - 1]]. */
interface QueriesByTask {
  first: Int32Array;
  order: Int32Array;
}

const grouped = new WeakMap<readonly BlockerQuery[], QueriesByTask>();

/** A counting sort by task (a simulation of an overloaded mesh has a hundred thousand non-starters to group). */
function byTask(queries: readonly BlockerQuery[], tasks: number): QueriesByTask {
  let g = grouped.get(queries);
  if (!g) {
    const first = new Int32Array(tasks + 1);
    for (const q of queries) first[q.task + 1]++;
    for (let i = 0; i < tasks; i++) first[i + 1] += first[i];
    const order = new Int32Array(queries.length);
    const fill = first.slice(0, tasks);
    for (let k = 0; k < queries.length; k++) order[fill[queries[k].task]++] = k;
    grouped.set(queries, (g = { first, order }));
  }
  return g;
}

/** Whether the k-th participant is the first mention of its host (a host named twice holds a run once). */
function firstMention(participants: readonly number[], k: number): boolean {
  const h = participants[k];
  for (let j = 0; j < k; j++) if (participants[j] === h) return false;
  return true;
}

function indexOf(model: ScheduleModel, log: RunLog): HostIndex {
  let index = indexes.get(log);
  if (index) return index;
  const first = new Int32Array(model.tasks.length + 1);
  let total = 0;
  for (const t of model.tasks) {
    if (!isAnytime(t.class))
      for (let k = 0; k < t.participants.length; k++) if (firstMention(t.participants, k)) total++;
    first[t.index + 1] = total;
  }
  const taskHosts = new Int32Array(total);
  for (const t of model.tasks) {
    if (isAnytime(t.class)) continue;
    let at = first[t.index];
    for (let k = 0; k < t.participants.length; k++)
      if (firstMention(t.participants, k)) taskHosts[at++] = t.participants[k];
  }
  index = { first, taskHosts, runs: new Array<HostRuns | undefined>(model.hosts.length), avoided: new Map() };
  indexes.set(log, index);
  return index;
}

/**
 * Collect the runs of every host the tasks take part in that no question asked about before: one pass over the log
 * to count them, one to place their times, tasks and run indices, then each host's sorted by start.
 */
function collectHosts(index: HostIndex, log: RunLog, tasks: readonly number[]): void {
  const { first, taskHosts } = index;
  const hosts = index.runs.length;
  const slot = new Int32Array(hosts).fill(-1);
  const missing: number[] = [];
  for (const task of tasks)
    for (let k = first[task]; k < first[task + 1]; k++) {
      const h = taskHosts[k];
      if (index.runs[h] === undefined && slot[h] < 0) slot[h] = missing.push(h) - 1;
    }
  if (missing.length === 0) return;
  const counts = new Int32Array(missing.length + 1);
  for (let r = 0; r < log.length; r++) {
    if (log.state[r] !== RUN_SCHEDULED) continue;
    const task = log.task[r];
    for (let k = first[task]; k < first[task + 1]; k++) {
      const m = slot[taskHosts[k]];
      if (m >= 0) counts[m + 1]++;
    }
  }
  for (let m = 0; m < missing.length; m++) counts[m + 1] += counts[m];
  const size = counts[missing.length];
  const runs = new Int32Array(size);
  const starts = new Float64Array(size);
  const ends = new Float64Array(size);
  const tasksOf = new Int32Array(size);
  const fill = counts.slice(0, missing.length);
  for (let r = 0; r < log.length; r++) {
    if (log.state[r] !== RUN_SCHEDULED) continue;
    const task = log.task[r];
    for (let k = first[task]; k < first[task + 1]; k++) {
      const m = slot[taskHosts[k]];
      if (m < 0) continue;
      const at = fill[m]++;
      runs[at] = r;
      starts[at] = log.start[r];
      ends[at] = log.end[r];
      tasksOf[at] = task;
    }
  }
  for (let m = 0; m < missing.length; m++) {
    const from = counts[m];
    const order = startOrder(starts.subarray(from, counts[m + 1]));
    const n = order.length;
    const out: HostRuns = {
      start: new Float64Array(n),
      end: new Float64Array(n),
      run: new Int32Array(n),
      task: new Int32Array(n),
      longest: 0,
    };
    for (let k = 0; k < n; k++) {
      const at = from + order[k];
      out.start[k] = starts[at];
      out.end[k] = ends[at];
      out.run[k] = runs[at];
      out.task[k] = tasksOf[at];
      if (ends[at] - starts[at] > out.longest) out.longest = ends[at] - starts[at];
    }
    index.runs[missing[m]] = out;
  }
}

/** Which tasks' runs a run of class `proposed` must avoid (mustAvoid against each task's class), by task id. */
function avoidedBy(index: HostIndex, model: ScheduleModel, proposed: SchedulingClass): Uint8Array {
  let out = index.avoided.get(proposed);
  if (!out) {
    out = new Uint8Array(model.tasks.length);
    for (const t of model.tasks) out[t.index] = mustAvoid(proposed, t.class) ? 1 : 0;
    index.avoided.set(proposed, out);
  }
  return out;
}

/**
 * The positions of `start` ordered by value, equal values in position order (runs posted earlier first). Whole
 * seconds, as the simulation makes them, are sorted as the numbers `start * 2^bits + position` (a numeric sort calls
 * no comparator: several times faster for a host's thousands of runs); any other value falls back to a comparator.
 */
function startOrder(start: Float64Array): Int32Array {
  const n = start.length;
  const order = new Int32Array(n);
  const bits = Math.max(1, Math.ceil(Math.log2(n + 1)));
  const scale = 2 ** bits;
  const keys = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const s = start[k];
    order[k] = k;
    if (!Number.isInteger(s) || s < 0 || s * scale + k > Number.MAX_SAFE_INTEGER) {
      for (let j = 0; j < n; j++) order[j] = j;
      return order.sort((x, y) => start[x] - start[y] || x - y);
    }
    keys[k] = s * scale + k;
  }
  keys.sort();
  // position = key - start * scale, with start = floor(key / scale): exact, and cheaper than `%` on doubles.
  const inverse = 1 / scale;
  for (let k = 0; k < n; k++) order[k] = keys[k] - Math.floor(keys[k] * inverse) * scale;
  return order;
}

/**
 * The tasks whose runs filled the windows of task `task`'s non-starters (the queries are the simulation's
 * `blockerQueries`), per participant host, most runs first; hosts in the order their first blocker was met (query by
 * query, participant by participant).
 */
export function blockersOf(
  model: ScheduleModel,
  log: RunLog,
  queries: readonly BlockerQuery[],
  task: number,
): HostBlockers[] {
  return blockersOfEach(model, log, queries, [task])[0];
}

/** blockersOf for each of several tasks, their hosts' runs collected in one pass over the log. */
export function blockersOfEach(
  model: ScheduleModel,
  log: RunLog,
  queries: readonly BlockerQuery[],
  tasks: readonly number[],
): HostBlockers[][] {
  const { first, order } = byTask(queries, model.tasks.length);
  const asked = tasks.filter((task) => first[task] !== first[task + 1]);
  if (asked.length === 0) return tasks.map(() => []);
  const index = indexOf(model, log);
  collectHosts(index, log, asked);
  // Each blocking task's runs tallied in `tally`, host by host (reset through `touched`).
  const tally = new Int32Array(model.tasks.length);
  const touched: number[] = [];
  return tasks.map((task) => {
    if (first[task] === first[task + 1]) return [];
    const t = model.tasks[task];
    const avoided = avoidedBy(index, model, t.class);
    const p = t.participants;
    const found: { host: number; firstHit: number; tasks: { task: number; runs: number }[] }[] = [];
    for (let k = 0; k < p.length; k++) {
      if (!firstMention(p, k)) continue;
      const h = p[k];
      const { start, end, run, task: runTask, longest } = index.runs[h]!;
      let firstHit = Infinity;
      for (let qi = 0; qi < first[task + 1] - first[task]; qi++) {
        const q = queries[order[first[task] + qi]];
        let lo = 0;
        let hi = start.length;
        const from = q.from - longest;
        while (lo < hi) {
          const mid = (lo + hi) >>> 1;
          if (start[mid] < from) lo = mid + 1;
          else hi = mid;
        }
        for (let j = lo; j < start.length && start[j] < q.to; j++) {
          if (run[j] >= q.run || end[j] <= q.from) continue;
          const other = runTask[j];
          if (avoided[other] === 0) continue;
          if (tally[other]++ === 0) touched.push(other);
          if (firstHit === Infinity) firstHit = qi * p.length + k;
        }
      }
      if (touched.length === 0) continue;
      const hostTasks = touched.map((id) => ({ task: id, runs: tally[id] }));
      hostTasks.sort((x, y) => y.runs - x.runs || x.task - y.task);
      for (const id of touched) tally[id] = 0;
      touched.length = 0;
      found.push({ host: h, firstHit, tasks: hostTasks });
    }
    found.sort((x, y) => x.firstHit - y.firstHit);
    return found.map(({ host, tasks: hostTasks }) => ({ host, tasks: hostTasks }));
  });
}
