// pScheduler's scheduler, simulated over a span of days after a warm-up: every task's runs on its repeat grid, each
// tried when the scheduler would find it due, in the window its slip allows, on every participant's timeline at once.
//
// Sources (perfsonar/pscheduler at the commit of assumptions.ts; DB/ = pscheduler-server/pscheduler-server/database/,
// SCHED = .../daemons/scheduler):
// - which run is due, and when: DB/schedule.sql `schedule_runs_to_schedule` (trynext = the next grid point after
//   the latest run's end, DB/task.sql task_next_run, the grid anchored at the first run, DB/run.sql:568; due when
//   `trynext < now + schedule_horizon - slip`, background-multi always; ORDER BY trynext, added);
// - the window: SCHED run_post (~433-462): [trynext, trynext + duration + slip), slip cut to `repeat - duration`
//   (floored at 0) for a repeating task; a first run is pushed out by the first-run offset (schedule_task ~756);
// - free time: DB/schedule.sql api_proposed_times per participant (window clipped to now + run_start_margin and
//   now + horizon, gaps >= duration), intersected by SCHED fetch_proposals / find_overlaps;
// - the pick: earliest common range, or with `sliprand` a range chosen uniformly, then a whole-second offset
//   (SCHED ~507-544);
// - insert: DB/run.sql run_has_conflicts on the lead, then every participant; a conflict is retried up to
//   `--retries` (schedule_task ~773-795); otherwise the run is a non-starter, posted on the lead at
//   [trynext, trynext + duration): it blocks nothing but counts as the task's latest run, so its window is lost
//   (SchedulerWorker.__call__ ~866-883, DB/run.sql api_run_post).
// What the model decides where a template cannot tell is in assumptions.ts (ScheduleAssumptions, SIMPLIFICATIONS).
import type { ScheduleAssumptions } from './assumptions';
import type { BlockerQuery } from './blockers';
import { DueQueue } from './due-queue';
import { isAnytime } from './participants';
import { SeededRandom } from './random';
import { REASON_GAVE_UP, REASON_NO_TIMES, REASON_NONE, RUN_NONSTART, RUN_SCHEDULED, RunLog } from './run-log';
import type { ScheduleModel } from './task-model';
import {
  commonFreeTime,
  hasConflict,
  HostTimeline,
  intersectRanges,
  proposedTimes,
  RangeList,
  type ProposalQuery,
} from './timeline';

/** A different schedule for some tasks (suggestions re-simulate the template with one). */
export interface ScheduleOverride {
  repeatSeconds?: number;
  slipSeconds?: number;
  sliprand?: boolean;
}

export interface SimulationOptions {
  /** Days reported after the warm-up (default 2). */
  days?: number;
  /** Seed of the random choices `sliprand` makes (default 1). */
  seed?: number;
  /** Polled every few hundred tries: true stops the simulation with ScheduleCancelled. */
  isCancelled?: () => boolean;
  /** Schedules changed for some tasks, by task index. */
  overrides?: ReadonlyMap<number, ScheduleOverride>;
}

/** Thrown when `isCancelled` says the result is no longer wanted (the template changed meanwhile). */
export class ScheduleCancelled extends Error {
  constructor() {
    super('schedule simulation cancelled');
  }
}

export interface SimulationResult {
  /** Seconds from the start of the warm-up: the reported span is [spanStart, spanEnd). */
  spanStart: number;
  spanEnd: number;
  days: number;
  seed: number;
  /** Per task and day (index task * days + day), counted by the grid point each run was wanted at. */
  wanted: Int32Array;
  scheduled: Int32Array;
  nonstart: Int32Array;
  /** Per task: non-starters in the span whose window the horizon cut below the run's duration (docs/schedule.md). */
  horizonCut: Int32Array;
  /** Every run posted, warm-up included. */
  runs: RunLog;
  /** The non-starters of the span with the windows they searched: blockers.ts blockersOf says who held them. */
  blockerQueries: BlockerQuery[];
  /** The schedule each task was simulated with (overrides applied). */
  repeatSeconds: (number | undefined)[];
  slipSeconds: number[];
  sliprand: boolean[];
}

const DAY = 86_400;

export function simulateSchedule(model: ScheduleModel, options: SimulationOptions = {}): SimulationResult {
  const sim = new Simulation(model, options);
  while (!sim.advance(Infinity));
  return sim.result();
}

/** Wall time a slice of a cooperative simulation runs before it lets the thread answer other work. */
export const SLICE_MS = 20;

/**
 * The same simulation in slices of about SLICE_MS, awaiting `pause` between them: the language server's worker runs
 * it at a lower priority than the requests a user is waiting for (comparisons, previews, lenses), which its pause
 * lets through. The result is the one simulateSchedule gives: the slices only cut the same loop.
 */
export async function simulateScheduleInSlices(
  model: ScheduleModel,
  options: SimulationOptions,
  pause: () => Promise<void>,
  sliceMs = SLICE_MS,
): Promise<SimulationResult> {
  const sim = new Simulation(model, options);
  await pause();
  while (!sim.advance(Date.now() + sliceMs)) await pause();
  return sim.result();
}

class Simulation {
  private readonly a: ScheduleAssumptions;
  private readonly n: number;
  private readonly days: number;
  private readonly spanStart: number;
  private readonly spanEnd: number;
  private readonly rng: SeededRandom;
  private readonly timelines: HostTimeline[];
  private readonly repeat: (number | undefined)[];
  private readonly slip: number[];
  private readonly sliprand: boolean[];
  // Per task: the grid anchor (first run's start), the latest run's end, runs posted, the next run's grid point and
  // when it becomes due.
  private readonly anchor: Float64Array;
  private readonly latest: Float64Array;
  private readonly runCount: Int32Array;
  private readonly trynext: Float64Array;
  private readonly due: Float64Array;
  private readonly queue: DueQueue;
  private readonly runs = new RunLog();
  private readonly blockerQueries: BlockerQuery[] = [];
  // Scratch for the free-time questions.
  private common = new RangeList();
  private spare = new RangeList();
  private readonly one = new RangeList();
  private readonly query: ProposalQuery = {
    rangeStart: 0,
    rangeEnd: 0,
    horizonEnd: 0,
    duration: 0,
    exclusive: true,
    onlyRunningAt: NaN,
  };
  private readonly wanted: Int32Array;
  private readonly scheduled: Int32Array;
  private readonly nonstart: Int32Array;
  private readonly horizonCut: Int32Array;

  constructor(
    private readonly model: ScheduleModel,
    private readonly options: SimulationOptions,
  ) {
    this.a = model.assumptions;
    const n = (this.n = model.tasks.length);
    this.days = Math.max(0, Math.floor(options.days ?? 2));
    this.rng = new SeededRandom(options.seed ?? 1);
    this.spanStart = this.a.warmupSeconds;
    this.spanEnd = this.spanStart + this.days * DAY;
    this.timelines = model.hosts.map(() => new HostTimeline());
    const o = options.overrides;
    this.repeat = model.tasks.map((t) => o?.get(t.index)?.repeatSeconds ?? t.repeatSeconds);
    this.slip = model.tasks.map((t) => Math.floor(o?.get(t.index)?.slipSeconds ?? t.slipSeconds));
    this.sliprand = model.tasks.map((t) => o?.get(t.index)?.sliprand ?? t.sliprand);
    this.anchor = new Float64Array(n).fill(NaN);
    this.latest = new Float64Array(n);
    this.runCount = new Int32Array(n);
    this.trynext = new Float64Array(n);
    this.due = new Float64Array(n);
    this.queue = new DueQueue(this.due, this.trynext);
    const cells = n * this.days;
    this.wanted = new Int32Array(cells);
    this.scheduled = new Int32Array(cells);
    this.nonstart = new Int32Array(cells);
    this.horizonCut = new Int32Array(n);
  }

  private started = false;

  /**
   * Runs scheduling attempts until every task's runs in the span are placed (true) or, checked every 256 attempts,
   * the clock passes `sliceEndsAt` (false: call again).
   */
  advance(sliceEndsAt: number): boolean {
    if (!this.started) {
      this.started = true;
      // Every task is created at 0 in the agents' order (SIMPLIFICATIONS 'creation'): its first run is due at once,
      // wanted "now"; equal keys come out in id order.
      for (let i = 0; i < this.n; i++) this.queue.push(i);
    }
    let tries = 0;
    while (this.queue.length > 0) {
      if ((++tries & 255) === 0) {
        if (this.options.isCancelled?.()) throw new ScheduleCancelled();
        if (sliceEndsAt !== Infinity && Date.now() >= sliceEndsAt) return false;
      }
      const i = this.queue.pop();
      const now = this.due[i];
      if (this.trynext[i] >= this.spanEnd) continue;
      this.tryRun(i, now);
      this.planNext(i, now);
    }
    return true;
  }

  /** The counts of a finished simulation (advance returned true). */
  result(): SimulationResult {
    this.countWanted();
    if (this.options.isCancelled?.()) throw new ScheduleCancelled();
    return {
      spanStart: this.spanStart,
      spanEnd: this.spanEnd,
      days: this.days,
      seed: this.options.seed ?? 1,
      wanted: this.wanted,
      scheduled: this.scheduled,
      nonstart: this.nonstart,
      horizonCut: this.horizonCut,
      runs: this.runs,
      blockerQueries: this.blockerQueries,
      repeatSeconds: this.repeat,
      slipSeconds: this.slip,
      sliprand: this.sliprand,
    };
  }

  /** One scheduling attempt for task i's next run, as SchedulerWorker does it at time `now`. */
  private tryRun(i: number, now: number): void {
    const t = this.model.tasks[i];
    const a = this.a;
    const wanted = this.trynext[i];
    const duration = t.durationSeconds;
    const repeat = this.repeat[i];
    const slip = effectiveSlip(this.slip[i], duration, repeat);
    let from = wanted;
    if (this.runCount[i] === 0) {
      const offset = t.participants.length === 1 ? a.firstRunOffsetSingleSeconds : a.firstRunOffsetMultiSeconds;
      from = Math.max(from, now + offset);
    }
    const windowEnd = from + duration + slip;
    const inSpan = wanted >= this.spanStart && wanted < this.spanEnd;
    let start = NaN;
    let reason = REASON_NONE;
    if (isAnytime(t.class)) {
      // api_proposed_times answers the whole window for anytime tasks, and nothing can conflict.
      start = this.pick(from, windowEnd, duration, this.sliprand[i]);
    } else {
      const exclusive = t.class === 'exclusive';
      const horizonEnd = now + a.horizonSeconds;
      const rangeStart = Math.floor(Math.max(from, now + a.runStartMarginSeconds));
      const rangeEnd = Math.floor(Math.min(windowEnd, horizonEnd));
      let triesLeft = a.retries;
      while (triesLeft > 0) {
        triesLeft--;
        const common = this.freeTime(t.participants, rangeStart, rangeEnd, horizonEnd, duration, exclusive, now);
        if (common.length === 0) {
          reason = REASON_NO_TIMES;
          break;
        }
        start = this.pickRange(common, duration, this.sliprand[i]);
        if (!this.conflicts(t.participants, start, start + duration, exclusive)) break;
        start = NaN;
      }
      // SCHED schedule_task tests tries_left after the loop: a success on the last try is reported as giving up.
      if (triesLeft === 0) {
        reason = REASON_GAVE_UP;
        start = NaN;
      }
      if (!Number.isNaN(start)) this.occupy(t.participants, start, start + duration, i, exclusive);
      else if (inSpan) {
        if (rangeStart < rangeEnd)
          this.blockerQueries.push({ run: this.runs.length, task: i, from: rangeStart, to: rangeEnd });
        if (rangeEnd - rangeStart < duration && windowEnd - Math.max(from, rangeStart) >= duration)
          this.horizonCut[i]++;
      }
    }
    const scheduled = !Number.isNaN(start);
    const runStart = scheduled ? start : wanted;
    const runEnd = runStart + duration;
    this.runs.push(i, runStart, runEnd, wanted, now, scheduled ? RUN_SCHEDULED : RUN_NONSTART, reason);
    if (this.runCount[i] === 0) this.anchor[i] = runStart; // DB/run.sql:568 first_start: the first run's start
    this.runCount[i]++;
    if (runEnd > this.latest[i]) this.latest[i] = runEnd; // run_latest: every run, non-starters included
    if (inSpan) {
      const cell = i * this.days + Math.floor((wanted - this.spanStart) / DAY);
      if (scheduled) this.scheduled[cell]++;
      else this.nonstart[cell]++;
    }
  }

  /** The free ranges every participant has in common (empty: none, or some participant has none). */
  private freeTime(
    participants: number[],
    rangeStart: number,
    rangeEnd: number,
    horizonEnd: number,
    duration: number,
    exclusive: boolean,
    now: number,
  ): RangeList {
    this.common.clear();
    // api_proposed_times answers nothing for a window in the past, beyond the horizon or emptied by the clipping.
    if (rangeEnd <= now || rangeStart > horizonEnd || rangeStart >= rangeEnd) return this.common;
    const q = this.query;
    q.rangeStart = rangeStart;
    q.rangeEnd = rangeEnd;
    q.horizonEnd = horizonEnd;
    q.duration = duration;
    q.exclusive = exclusive;
    q.onlyRunningAt = this.a.nullPriorityDefect ? now : NaN;
    if (participants.length === 2 && participants[0] !== participants[1] && this.fastPath(participants, exclusive)) {
      commonFreeTime(
        this.timelines[participants[0]].exclusive,
        this.timelines[participants[1]].exclusive,
        q,
        this.common,
      );
      return this.common;
    }
    proposedTimes(this.timelines[participants[0]], q, this.common);
    for (let p = 1; p < participants.length && this.common.length > 0; p++) {
      proposedTimes(this.timelines[participants[p]], q, this.one);
      intersectRanges(this.common, this.one, duration, this.spare);
      const swap = this.common;
      this.common = this.spare;
      this.spare = swap;
    }
    return this.common;
  }

  /**
   * The usual case: what the try must avoid is exclusive runs only (a normal try, or no participant holds normal
   * runs) and the NULL-priority defect is not modelled. Exclusive runs never overlap each other on a host, so each
   * host's gaps are its free time, and the ranges fetch_proposals keeps are the stretches free on all participants.
   */
  private fastPath(participants: number[], exclusive: boolean): boolean {
    if (this.a.nullPriorityDefect) return false;
    if (exclusive) for (const h of participants) if (this.timelines[h].normal.length > 0) return false;
    return true;
  }

  /**
   * run_has_conflicts on every participant. Ranges from the fast path were free on every participant a moment ago
   * and nothing has changed since, so only the run-list path (where pScheduler's gap walk can propose time a long
   * normal run still holds, or the defect hides pending runs) can meet a conflict.
   */
  private conflicts(participants: number[], start: number, end: number, exclusive: boolean): boolean {
    if (this.fastPath(participants, exclusive)) return false;
    for (const h of participants) if (hasConflict(this.timelines[h], start, end, exclusive)) return true;
    return false;
  }

  /** Insert the run on each participant's timeline (a host named twice holds it once). */
  private occupy(participants: number[], start: number, end: number, task: number, exclusive: boolean): void {
    for (let k = 0; k < participants.length; k++) {
      if (participants.indexOf(participants[k]) !== k) continue;
      const tl = this.timelines[participants[k]];
      (exclusive ? tl.exclusive : tl.normal).insert(start, end, task);
    }
  }

  /** SCHED ~507-544: the earliest range's start, or with sliprand a random range and a whole-second offset. */
  private pickRange(ranges: RangeList, duration: number, sliprand: boolean): number {
    if (!sliprand) return ranges.lowers[0];
    const k = this.rng.below(ranges.length);
    return this.pick(ranges.lowers[k], ranges.uppers[k], duration, true);
  }

  /** A start in [lower, upper - duration): random.randrange(0, increments) whole seconds, or lower. */
  private pick(lower: number, upper: number, duration: number, sliprand: boolean): number {
    if (!sliprand) return lower;
    const increments = Math.floor(upper - lower - duration);
    return increments > 0 ? lower + this.rng.below(increments) : lower;
  }

  /** The next grid point after the latest run (DB/task.sql task_next_run), and when the scheduler finds it due. */
  private planNext(i: number, now: number): void {
    const repeat = this.repeat[i];
    if (repeat === undefined) return; // no repeat: max_runs 1
    const anchor = this.anchor[i];
    const after = Math.max(now, this.latest[i]);
    const next = anchor + repeat * (Math.trunc((after - anchor) / repeat) + 1);
    this.trynext[i] = next;
    this.due[i] =
      this.model.tasks[i].class === 'background-multi'
        ? now
        : Math.max(now, next - this.a.horizonSeconds + this.slip[i] + this.a.pickDelaySeconds);
    this.queue.push(i);
  }

  /** Grid points of each task's anchored grid in each day of the span (what the schedule asks for). */
  private countWanted(): void {
    for (let i = 0; i < this.n; i++) {
      const anchor = this.anchor[i];
      if (Number.isNaN(anchor)) continue;
      const repeat = this.repeat[i];
      for (let d = 0; d < this.days; d++) {
        const from = this.spanStart + d * DAY;
        const to = from + DAY;
        this.wanted[i * this.days + d] =
          repeat === undefined ? (anchor >= from && anchor < to ? 1 : 0) : gridPointsIn(anchor, repeat, from, to);
      }
    }
  }
}

/**
 * SCHED run_post (~441-452): "If the task is a repeater, the run can't be slipped so far that it would overlap with
 * the next interval": slip + duration >= repeat cuts the slip to repeat - duration, floored at 0 (the floor is the fix
 * of pscheduler#1412, commit 8c0552c38).
 */
export function effectiveSlip(slip: number, duration: number, repeat: number | undefined): number {
  return repeat !== undefined && slip + duration >= repeat ? Math.max(0, repeat - duration) : slip;
}

/** How many of anchor + k * repeat (k >= 0) lie in [from, to). */
export function gridPointsIn(anchor: number, repeat: number, from: number, to: number): number {
  const first = Math.max(0, Math.ceil((from - anchor) / repeat));
  const last = Math.max(0, Math.ceil((to - anchor) / repeat)); // exclusive
  return Math.max(0, last - first);
}
