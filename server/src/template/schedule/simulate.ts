// pScheduler's scheduler, simulated over a span of days after a warm-up: every task's runs on its repeat grid, each
// tried when the scheduler would find it due, in the window its slip allows, on every participant's timeline at once;
// and pSConfig's agent around it, posting each agent's tasks one after another and renewing them before they expire
// (psconfig/client/pscheduler/task_manager.py, see assumptions.ts), so a template combination (a slot) is a chain of
// pScheduler tasks, each with its own grid and until.
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
// - insert: DB/run.sql run_has_conflicts on the lead, then every participant; a conflict is retried after a random
//   back-off, up to `--retries` (schedule_task ~773-795); otherwise the run is a non-starter, posted on the lead at
//   [trynext, trynext + duration): it blocks nothing but counts as the task's latest run, so its window is lost
//   (SchedulerWorker.__call__ ~866-883, DB/run.sql api_run_post);
// - when: the scheduler's loop (main_program ~941-1019) turns every refresh, one try per task a turn; a new task's
//   insert wakes it (DB/task.sql task_alter_notify).
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
  runningInto,
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
  private readonly days: number;
  private readonly spanStart: number;
  private readonly spanEnd: number;
  private readonly rng: SeededRandom;
  private readonly timelines: HostTimeline[];
  private readonly repeat: (number | undefined)[];
  private readonly slip: number[];
  private readonly sliprand: boolean[];
  /** The scheduler loop's turn, and each lead host's phase in it (assumptions.loopOverheadSeconds). */
  private readonly period: number;
  private readonly phase: Float64Array;
  /** Per slot (template combination): the agent it belongs to, and the until of its newest pScheduler task (NaN). */
  private readonly agentOf: Int32Array;
  /** Per agent: when its first pass is (assumptions.agentsInStep). */
  private readonly agentPhase: number[] = [];
  private readonly slotUntil: Float64Array;
  // Per entry, one pScheduler task of a slot (a slot has a new one each time the agent renews it): its slot, the
  // schedule's start (NaN: none) and until (Infinity: none), the grid anchor (first run's start), the latest run's
  // end, runs posted, the next run's grid point, when the scheduler tries it next and when its last worker finished.
  private readonly slotOf: Int32Array;
  private readonly start: Float64Array;
  private readonly until: Float64Array;
  private readonly anchor: Float64Array;
  private readonly latest: Float64Array;
  private readonly runCount: Int32Array;
  private readonly trynext: Float64Array;
  private readonly due: Float64Array;
  private readonly busyUntil: Float64Array;
  private readonly added: Float64Array;
  private readonly free: number[] = [];
  private readonly queue: DueQueue;
  /** The agents' passes still to come: pass time -> the slots whose task it renews (creations at 0). */
  private readonly passes = new Map<number, number[]>();
  private passTimes: number[] = [];
  /** Every pScheduler task that ran at least once: its slot, grid anchor and until (for the runs wanted a day). */
  private readonly lives: { slot: number; anchor: number; until: number }[] = [];
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
  /** Set by freeTime: the answer was the whole window (the defect saw nothing running). */
  private wholeWindow = false;
  private readonly wanted: Int32Array;
  private readonly scheduled: Int32Array;
  private readonly nonstart: Int32Array;
  private readonly horizonCut: Int32Array;

  constructor(
    private readonly model: ScheduleModel,
    private readonly options: SimulationOptions,
  ) {
    const a = (this.a = model.assumptions);
    const n = model.tasks.length;
    this.days = Math.max(0, Math.floor(options.days ?? 2));
    this.rng = new SeededRandom(options.seed ?? 1);
    this.spanStart = a.warmupSeconds;
    this.spanEnd = this.spanStart + this.days * DAY;
    this.timelines = model.hosts.map(() => new HostTimeline());
    const o = options.overrides;
    this.repeat = model.tasks.map((t) => o?.get(t.index)?.repeatSeconds ?? t.repeatSeconds);
    this.slip = model.tasks.map((t) => Math.floor(o?.get(t.index)?.slipSeconds ?? t.slipSeconds));
    this.sliprand = model.tasks.map((t) => o?.get(t.index)?.sliprand ?? t.sliprand);
    this.period = a.refreshSeconds + a.loopOverheadSeconds;
    // Lead hosts' loops turn out of step with each other: phases spread by the golden ratio over the period.
    this.phase = Float64Array.from(model.hosts, (_, h) => ((h * 0.6180339887498949) % 1) * this.period);
    const agents = new Map<string, number>();
    this.agentOf = Int32Array.from(model.tasks, (t) => {
      let id = agents.get(t.agent);
      if (id === undefined) {
        agents.set(t.agent, (id = agents.size));
        // Agents start when their hosts do: first passes spread over the check interval by the golden ratio.
        this.agentPhase.push(a.agentsInStep ? 0 : Math.floor(((id * 0.6180339887498949) % 1) * a.checkIntervalSeconds));
      }
      return id;
    });
    this.slotUntil = new Float64Array(n).fill(NaN);
    // A slot has at most three tasks alive at once (the one running, its successor, and a stray one when lifetimes
    // are shorter than the check interval); entries are reused once a task has no more runs to try.
    const cap = 3 * n;
    this.slotOf = new Int32Array(cap);
    this.start = new Float64Array(cap);
    this.until = new Float64Array(cap);
    this.anchor = new Float64Array(cap);
    this.latest = new Float64Array(cap);
    this.runCount = new Int32Array(cap);
    this.trynext = new Float64Array(cap);
    this.due = new Float64Array(cap);
    this.busyUntil = new Float64Array(cap);
    this.added = new Float64Array(cap);
    for (let e = cap - 1; e >= 0; e--) this.free.push(e);
    this.queue = new DueQueue(this.due, this.trynext, this.added, this.slotOf);
    const cells = n * this.days;
    this.wanted = new Int32Array(cells);
    this.scheduled = new Int32Array(cells);
    this.nonstart = new Int32Array(cells);
    this.horizonCut = new Int32Array(n);
  }

  private started = false;

  /**
   * Runs the agents' passes and the scheduling attempts in time order until every slot's runs in the span are
   * placed (true) or, checked every 256 attempts, the clock passes `sliceEndsAt` (false: call again).
   */
  advance(sliceEndsAt: number): boolean {
    if (!this.started) {
      this.started = true;
      // Every agent's first pass creates all of its tasks (SIMPLIFICATIONS 'creation').
      for (const t of this.model.tasks) this.addToPass(this.agentPhase[this.agentOf[t.index]], [t.index]);
    }
    let tries = 0;
    for (;;) {
      if ((++tries & 255) === 0) {
        if (this.options.isCancelled?.()) throw new ScheduleCancelled();
        if (sliceEndsAt !== Infinity && Date.now() >= sliceEndsAt) return false;
      }
      const passAt = this.passTimes.length > 0 ? this.passTimes[0] : Infinity;
      const dueAt = this.queue.length > 0 ? this.due[this.queue.peek()] : Infinity;
      if (passAt === Infinity && dueAt === Infinity) return true;
      if (passAt <= dueAt) {
        this.runPass(passAt);
        continue;
      }
      const e = this.queue.pop();
      if (this.trynext[e] >= this.spanEnd) {
        this.free.push(e);
        continue;
      }
      this.tryRun(e, dueAt);
      this.planNext(e, dueAt);
    }
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

  private addToPass(at: number, slots: number[]): void {
    const list = this.passes.get(at);
    if (list) {
      list.push(...slots);
      return;
    }
    this.passes.set(at, slots);
    let k = this.passTimes.length;
    while (k > 0 && this.passTimes[k - 1] > at) k--;
    this.passTimes.splice(k, 0, at);
  }

  /**
   * One pass of every agent at `p` (pscheduler/agent.py _run_start, task_manager.py add_task + _create_tasks): each
   * agent posts, one after another in pSConfig's order, a task for each slot that needs one: a first task, or the
   * successor of one whose until is near.
   */
  private runPass(p: number): void {
    this.passTimes.shift();
    const slots = this.passes.get(p) ?? [];
    this.passes.delete(p);
    slots.sort((x, y) => x - y);
    const posted = new Map<number, number>();
    for (const i of slots) {
      const agent = this.agentOf[i];
      const k = (posted.get(agent) ?? 0) + 1;
      posted.set(agent, k);
      this.createTask(i, p, p + k * this.a.postSeconds);
    }
  }

  /** Slot i's new pScheduler task, decided by the pass at `p` and created (its POST answered) at `created`. */
  private createTask(i: number, p: number, created: number): void {
    const a = this.a;
    // _evaluate_task: the successor starts at the old until when that is still ahead, else at once (no start).
    const prevUntil = this.slotUntil[i];
    const start = prevUntil > p ? prevUntil : NaN;
    if (start >= this.spanEnd) return;
    const e = this.free.pop();
    if (e === undefined) throw new Error('schedule model: more live tasks per slot than the model keeps');
    const repeat = this.repeat[i];
    // add_task: until = start (or the pass's time) + the greater of task-min-ttl and repeat x task-min-runs.
    const life = Math.max(a.taskMinTtlSeconds, repeat !== undefined ? repeat * a.taskMinRuns : 0);
    const until = a.agentRenewal ? (Number.isNaN(start) ? p : start) + life : Infinity;
    this.slotUntil[i] = until;
    this.slotOf[e] = i;
    this.start[e] = start;
    this.until[e] = until;
    this.anchor[e] = NaN;
    this.latest[e] = -Infinity;
    this.runCount[e] = 0;
    // schedule_runs_to_schedule: a task without runs is wanted at greatest(start, now); the insert's NOTIFY
    // task_change wakes the scheduler at once.
    this.trynext[e] = Number.isNaN(start) ? created : start;
    this.due[e] = created;
    this.busyUntil[e] = created;
    this.added[e] = created;
    this.queue.push(e);
    if (until !== Infinity) {
      // The agent's first pass after this one at which until <= now + check-interval + task-min-ttl x fudge.
      const c = a.checkIntervalSeconds;
      const phase = this.agentPhase[this.agentOf[i]];
      const k = Math.max(
        Math.round((p - phase) / c) + 1,
        Math.ceil((until - c - a.taskMinTtlSeconds * a.renewalFudgeFactor - phase) / c),
      );
      if (phase + k * c < this.spanEnd) this.addToPass(phase + k * c, [i]);
    }
  }

  /** One scheduling attempt for entry e's next run, as SchedulerWorker does it at time `now`. */
  private tryRun(e: number, now: number): void {
    const i = this.slotOf[e];
    const t = this.model.tasks[i];
    const a = this.a;
    const wanted = this.trynext[e];
    const duration = t.durationSeconds;
    const repeat = this.repeat[i];
    const slip = effectiveSlip(this.slip[i], duration, repeat);
    let from = wanted;
    if (this.runCount[e] === 0) {
      const offset = t.participants.length === 1 ? a.firstRunOffsetSingleSeconds : a.firstRunOffsetMultiSeconds;
      from = Math.max(from, now + offset);
    }
    const windowEnd = from + duration + slip;
    const inSpan = wanted >= this.spanStart && wanted < this.spanEnd;
    let start = NaN;
    let reason = REASON_NONE;
    let at = now;
    if (isAnytime(t.class)) {
      // api_proposed_times answers the whole window for anytime tasks, and nothing can conflict.
      start = this.pick(from, windowEnd, duration, this.sliprand[i]);
    } else {
      const exclusive = t.class === 'exclusive';
      let rangeStart = 0;
      let rangeEnd = 0;
      let triesLeft = a.retries;
      // The window start of the last try when the defect let it see nothing running and its earliest start
      // conflicted (NaN otherwise).
      let sameAgain = NaN;
      while (triesLeft > 0) {
        triesLeft--;
        const horizonEnd = at + a.horizonSeconds;
        rangeStart = Math.floor(Math.max(from, at + a.runStartMarginSeconds));
        rangeEnd = Math.floor(Math.min(windowEnd, horizonEnd));
        if (rangeStart === sameAgain && this.longestRun(t.participants, exclusive) < rangeStart - at) {
          // Nothing running now can reach the window, its start has not moved and its end only grew: the proposal
          // and the earliest start are the last try's, on an unchanged timeline, so is the conflict. Only the
          // back-off is drawn, as the try would.
          if (triesLeft > 0) at += a.retryBackoffSeconds * this.rng.next();
          continue;
        }
        const common = this.freeTime(t.participants, rangeStart, rangeEnd, horizonEnd, duration, exclusive, at);
        if (common.length === 0) {
          reason = REASON_NO_TIMES;
          break;
        }
        start = this.pickRange(common, duration, this.sliprand[i]);
        if (!this.conflicts(t.participants, start, start + duration, exclusive)) break;
        sameAgain = this.wholeWindow && !this.sliprand[i] ? rangeStart : NaN;
        start = NaN;
        // SCHED schedule_task ~788: sleep conflict_retry_backoff * random.random() before the next try.
        if (triesLeft > 0) at += a.retryBackoffSeconds * this.rng.next();
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
    this.busyUntil[e] = at;
    const scheduled = !Number.isNaN(start);
    const runStart = scheduled ? start : wanted;
    const runEnd = runStart + duration;
    this.runs.push(i, runStart, runEnd, wanted, now, scheduled ? RUN_SCHEDULED : RUN_NONSTART, reason);
    if (this.runCount[e] === 0) {
      this.anchor[e] = runStart; // DB/run.sql:568 first_start: the first run's start
      this.lives.push({ slot: i, anchor: runStart, until: this.until[e] });
    }
    this.runCount[e]++;
    if (runEnd > this.latest[e]) this.latest[e] = runEnd; // run_latest: every run, non-starters included
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
    this.wholeWindow = false;
    if (this.a.nullPriorityDefect && !this.anyRunningInto(participants, now, rangeStart, exclusive)) {
      this.wholeWindow = true;
      // With the defect only runs running at `now` are avoided, and usually none reaches into the window (it lies
      // ahead): every participant then answers the whole window, and so does their intersection.
      if (rangeEnd - rangeStart >= duration) this.common.push(rangeStart, rangeEnd);
      return this.common;
    }
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

  /** The longest run a try of this class must avoid on any of the participants. */
  private longestRun(participants: number[], exclusive: boolean): number {
    let longest = 0;
    for (let k = 0; k < participants.length; k++) {
      const tl = this.timelines[participants[k]];
      longest = Math.max(longest, tl.exclusive.maxLength, exclusive ? tl.normal.maxLength : 0);
    }
    return longest;
  }

  private anyRunningInto(participants: number[], now: number, from: number, exclusive: boolean): boolean {
    for (let k = 0; k < participants.length; k++)
      if (runningInto(this.timelines[participants[k]], now, from, exclusive)) return true;
    return false;
  }

  /**
   * The usual case without the NULL-priority defect: what the try must avoid is exclusive runs only (a normal try,
   * or no participant holds normal runs). Exclusive runs never overlap each other on a host, so each host's gaps are
   * its free time, and the ranges fetch_proposals keeps are the stretches free on all participants.
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

  /**
   * The next grid point after the latest run (DB/task.sql task_next_run from greatest(now, start, latest)), and the
   * turn of the lead's loop that tries it: the first after the run is due (schedule_runs_to_schedule: trynext < now
   * + horizon - slip; background-multi always) and after the task's last worker finished. A run at or past the
   * task's until is not scheduled (schedule_runs_to_schedule `trynext < until`): the task is done.
   */
  private planNext(e: number, now: number): void {
    const i = this.slotOf[e];
    const repeat = this.repeat[i];
    const anchor = this.anchor[e];
    const start = this.start[e];
    let next = Infinity;
    if (repeat !== undefined) {
      const after = Math.max(now, this.latest[e], Number.isNaN(start) ? -Infinity : start);
      next = anchor + repeat * (Math.trunc((after - anchor) / repeat) + 1);
    }
    if (next >= this.until[e] || next === Infinity) {
      this.free.push(e);
      return;
    }
    this.trynext[e] = next;
    const t = this.model.tasks[i];
    const dueAt = t.class === 'background-multi' ? -Infinity : next - this.a.horizonSeconds + this.slip[i];
    this.due[e] = this.nextTurn(t.participants[0], Math.max(this.busyUntil[e], dueAt));
    this.queue.push(e);
  }

  /** The first turn of host h's scheduler loop strictly after t. */
  private nextTurn(h: number, t: number): number {
    const phase = this.phase[h];
    // The epsilon keeps a turn computed from a turn from landing on itself through rounding.
    return phase + (Math.floor((t - phase) / this.period + 1e-9) + 1) * this.period;
  }

  /** Grid points of each pScheduler task's anchored grid, within its life, in each day of the span. */
  private countWanted(): void {
    for (const life of this.lives) {
      const repeat = this.repeat[life.slot];
      for (let d = 0; d < this.days; d++) {
        const from = this.spanStart + d * DAY;
        const to = Math.min(from + DAY, life.until);
        if (to <= from) continue;
        this.wanted[life.slot * this.days + d] +=
          repeat === undefined
            ? life.anchor >= from && life.anchor < to
              ? 1
              : 0
            : gridPointsIn(life.anchor, repeat, from, to);
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
