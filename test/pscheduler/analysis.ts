// What a live run shows, per scenario and per pScheduler task, computed from the REST answers alone (pure: the
// unit tests run it on the recorded fixtures). Times are seconds from the agent's first pass (t0), which is
// `until - task-min-ttl` of the first task the agent created: psconfig/client/pscheduler/task_manager.py
// `add_task` sets a new task's until to the pass's start time plus max(task-min-ttl, repeat x task-min-runs).
import type { LiveRun, LiveTask } from './harness/collect';

/** ISO 8601 duration (PnDTnHnMnS, the forms pScheduler and pSConfig write) in seconds. */
export function isoSeconds(iso: string): number {
  const m = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(iso);
  if (!m || iso === 'P' || iso.endsWith('T')) throw new Error(`not an ISO 8601 duration: ${iso}`);
  return Number(m[1] ?? 0) * 86_400 + Number(m[2] ?? 0) * 3600 + Number(m[3] ?? 0) * 60 + Number(m[4] ?? 0);
}

const NONSTART = 'nonstart';

/**
 * Non-starters that are pScheduler failing under load, not a scheduling verdict: the scheduler's run_post could not
 * get or put the participants' run data in time (SCHED run_post ~684-714: "Failed to get run data from ...",
 * "Failed to post run data to all participants"), e.g. a plug-in program past its limit on a loaded machine, or
 * found its own lead run gone from the database right after posting it (SCHED ~658-669: "Failed to get lead run
 * data: Got 0 rows of lead participant data instead of 1.", seen on a run at load 8-10, 2026-11-28 11:19 UTC).
 */
export function isLoadFailure(reason: string | null): boolean {
  return reason !== null && /^Failed to (get|post) (lead )?run data/.test(reason);
}

export interface RunView {
  /** The run's start, seconds from t0. */
  t: number;
  state: string;
  errors: string | null;
  /**
   * Seconds of search window the scheduler had when it decided the run: decision time (`added`) + horizon - start.
   * pScheduler asks for [T, T + duration + slip) and api_proposed_times cuts that at now + horizon
   * (DB/schedule.sql), so an exclusive or normal run without slip fits only if this is at least its duration.
   */
  window: number | null;
  /**
   * Seconds between the moment the run became due (schedule_runs_to_schedule: T - horizon + slip, DB/schedule.sql)
   * and its decision: the scheduler loop's lag. null when the run was not decided near its due time (a new task's
   * runs inside the horizon are all due at once and scheduled one per loop).
   */
  lag: number | null;
}

export interface TaskView {
  uuid: string;
  test: string;
  durationSeconds: number;
  slipSeconds: number;
  repeatSeconds: number | null;
  /** Seconds from t0: when the task was stored, its schedule.start (null: none) and until. */
  added: number;
  start: number | null;
  until: number | null;
  /** Whether every run of the task was decided when the instance was read (so its counts are final). */
  complete: boolean;
  runs: RunView[];
  scheduled: number;
  nonstart: number;
  /** Non-starters per pScheduler reason. */
  reasons: Record<string, number>;
  /** Grid points of [first run, until) with no run at all (a run lost before it was stored). */
  absent: number;
}

export interface ScenarioView {
  t0: string | null;
  tasks: TaskView[];
  /** The most pScheduler tasks of this agent alive at one time ([added or start, until) overlapping). */
  maxConcurrentTasks: number;
  /** Lags of the runs decided at their due time, over all tasks. */
  lags: number[];
}

/** A run is "decided at its due time" when its lag is under this: two scheduler loops (--refresh PT10S) and load. */
const DUE_LAG_LIMIT = 30;

function sec(iso: string, t0: number): number {
  return (Date.parse(iso) - t0) / 1000;
}

export function viewScenario(
  tasks: readonly LiveTask[],
  options: { horizonSeconds: number; ttlSeconds: number; collectedAt: string },
): ScenarioView {
  if (tasks.length === 0) return { t0: null, tasks: [], maxConcurrentTasks: 0, lags: [] };
  const first = [...tasks].sort((a, b) => Date.parse(a.added) - Date.parse(b.added))[0];
  if (!first.until) throw new Error(`task ${first.uuid} has no until: not created by pSConfig's agent`);
  const t0ms = Date.parse(first.until) - options.ttlSeconds * 1000;
  const H = options.horizonSeconds;
  const collected = sec(options.collectedAt, t0ms);
  const views = tasks.map((task) => viewTask(task, t0ms, H, collected));
  const intervals = views.map((v) => [v.start ?? v.added, v.until ?? Infinity] as const);
  let maxConcurrent = 0;
  for (const [s] of intervals) {
    // At each interval's start, count the intervals covering that instant.
    maxConcurrent = Math.max(maxConcurrent, intervals.filter(([a, b]) => a <= s && s < b).length);
  }
  return {
    t0: new Date(t0ms).toISOString(),
    tasks: views,
    maxConcurrentTasks: maxConcurrent,
    lags: views.flatMap((v) => v.runs.flatMap((r) => (r.lag === null ? [] : [r.lag]))),
  };
}

function viewTask(task: LiveTask, t0ms: number, H: number, collected: number): TaskView {
  const durationSeconds = task.duration ? isoSeconds(task.duration) : 0;
  const repeatSeconds = task.repeat ? isoSeconds(task.repeat) : null;
  // pScheduler cuts a slip that would reach the next repeat (DB/task.sql: slip limited to repeat - duration).
  const slipRaw = task.slip ? isoSeconds(task.slip) : 0;
  const slipSeconds =
    repeatSeconds === null ? slipRaw : Math.max(0, Math.min(slipRaw, repeatSeconds - durationSeconds));
  const runs = task.runs.map((r) => viewRun(r, t0ms, H, slipSeconds));
  const until = task.until ? sec(task.until, t0ms) : null;
  const reasons: Record<string, number> = {};
  for (const r of runs)
    if (r.state === NONSTART) reasons[r.errors ?? '(none)'] = (reasons[r.errors ?? '(none)'] ?? 0) + 1;
  let absent = 0;
  if (repeatSeconds && runs.length && until !== null) {
    const from = runs[0].t;
    const last = Math.min(until, collected);
    const gridPoints = Math.ceil((last - from) / repeatSeconds - 1e-9);
    absent = Math.max(0, gridPoints - runs.filter((r) => r.t < last).length);
  }
  return {
    uuid: task.uuid,
    test: task.testType,
    durationSeconds,
    slipSeconds,
    repeatSeconds,
    added: sec(task.added, t0ms),
    start: task.start ? sec(task.start, t0ms) : null,
    until,
    // The last run is due at until - H + slip; a loop and some load later it is decided.
    complete: until !== null && until - H + slipSeconds + DUE_LAG_LIMIT < collected,
    runs,
    scheduled: runs.filter((r) => r.state !== NONSTART).length,
    nonstart: runs.filter((r) => r.state === NONSTART).length,
    reasons,
    absent,
  };
}

function viewRun(r: LiveRun, t0ms: number, H: number, slip: number): RunView {
  const t = sec(r.start, t0ms);
  const window = r.added === null ? null : sec(r.added, t0ms) + H - t;
  const lag = window === null ? null : window - slip;
  return {
    t,
    state: r.state,
    errors: r.errors,
    window,
    lag: lag !== null && lag >= -5 && lag < DUE_LAG_LIMIT ? lag : null,
  };
}

/**
 * Runs pScheduler gave up ("Gave up after too many scheduling conflicts.") whose time overlaps a kept run of the task
 * they renew (the pScheduler task whose `until` is their task's `start`): a successor's first run meeting its
 * predecessor's last one. Seen live with slip PT50S (05:44 UTC, 2026-11-28, load 0.4-1.1): under the NULL-priority
 * defect (DB/schedule.sql api_proposed_times) the run did not slip past the other and was given up. The schedule
 * model does not simulate this meeting; the comparisons that count lost runs say so instead of failing.
 */
export function renewalOverlapGiveUps(v: ScenarioView): { task: string; t: number }[] {
  const out: { task: string; t: number }[] = [];
  for (const t of v.tasks) {
    if (t.start === null) continue;
    const before = v.tasks.filter((o) => o !== t && o.until === t.start);
    for (const r of t.runs) {
      if (r.state !== 'nonstart' || !/Gave up after too many scheduling conflicts/.test(r.errors ?? '')) continue;
      const meets = before.some((o) =>
        o.runs.some((k) => k.state !== 'nonstart' && k.t < r.t + t.durationSeconds && r.t < k.t + o.durationSeconds),
      );
      if (meets) out.push({ task: t.uuid, t: r.t });
    }
  }
  return out;
}
