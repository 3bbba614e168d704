// Every run a simulation posted, in the order it posted them, in typed arrays (a day of a 200-host mesh is a quarter
// of a million runs): the task, the times, the grid point it was wanted at, and for a non-starter pScheduler's
// reason.

/** pScheduler's own words for a run that does not start (SCHED run_post, schedule_task). */
export const NONSTART_REASONS = {
  noTimes: 'No times available for this run.',
  gaveUp: 'Gave up after too many scheduling conflicts.',
} as const;

export const RUN_SCHEDULED = 0;
export const RUN_NONSTART = 1;
export const REASON_NONE = 0;
export const REASON_NO_TIMES = 1;
export const REASON_GAVE_UP = 2;

/** The reason text of a REASON_* code (undefined for REASON_NONE). */
export function reasonText(code: number): string | undefined {
  return code === REASON_NO_TIMES
    ? NONSTART_REASONS.noTimes
    : code === REASON_GAVE_UP
      ? NONSTART_REASONS.gaveUp
      : undefined;
}

export class RunLog {
  task = new Int32Array(1024);
  /** Seconds from the start of the simulation: [start, end). */
  start = new Float64Array(1024);
  end = new Float64Array(1024);
  /** The grid point the run was wanted at (pScheduler's trynext). */
  wanted = new Float64Array(1024);
  /** When the scheduler tried it (the simulation's clock). */
  tried = new Float64Array(1024);
  /** RUN_SCHEDULED or RUN_NONSTART. */
  state = new Uint8Array(1024);
  /** REASON_* (non-starters). */
  reason = new Uint8Array(1024);
  length = 0;

  push(task: number, start: number, end: number, wanted: number, tried: number, state: number, reason: number): void {
    if (this.length === this.task.length) this.grow();
    const n = this.length++;
    this.task[n] = task;
    this.start[n] = start;
    this.end[n] = end;
    this.wanted[n] = wanted;
    this.tried[n] = tried;
    this.state[n] = state;
    this.reason[n] = reason;
  }

  private grow(): void {
    const size = this.task.length * 2;
    const task = new Int32Array(size);
    task.set(this.task);
    this.task = task;
    const start = new Float64Array(size);
    start.set(this.start);
    this.start = start;
    const end = new Float64Array(size);
    end.set(this.end);
    this.end = end;
    const wanted = new Float64Array(size);
    wanted.set(this.wanted);
    this.wanted = wanted;
    const tried = new Float64Array(size);
    tried.set(this.tried);
    this.tried = tried;
    const state = new Uint8Array(size);
    state.set(this.state);
    this.state = state;
    const reason = new Uint8Array(size);
    reason.set(this.reason);
    this.reason = reason;
  }
}
