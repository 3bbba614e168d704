// Two priorities in the one thread where the engine runs (the worker, or the main thread without one). The
// simulated schedule (schedule-shared.ts: a simulation of seconds, then a quick-fix search of up to
// SUGGESTION_LIMIT_MS) is background work nobody is waiting on; a comparison, a preview, a dashboard grid or a
// diagnostics pass is a request a user is waiting for. The schedule runs in slices (simulateScheduleInSlices) and
// between them awaits `pause`, which lets the thread read its messages and then holds the schedule while any
// request is in flight. Without it, a comparison asked for while the schedule ran waited for all of it: the Task
// Changes tree of the 200-address mesh took 5.25x its two expansions (bench/README.md, issue 22).

export class JobPriority {
  private running = 0;
  private waiting: (() => void)[] = [];
  /** Pauses that had to wait for a request (for tests). */
  yielded = 0;

  /** Runs `job` as a request: the schedule's slices wait until it and every other request have settled. */
  async request<T>(job: () => Promise<T>): Promise<T> {
    this.running++;
    try {
      return await job();
    } finally {
      this.running--;
      if (this.running === 0) for (const wake of this.waiting.splice(0)) wake();
    }
  }

  /**
   * What background work awaits between its slices: first a turn of the event loop (messages that arrived are read,
   * and requests they start are counted), then as long as any request is running.
   */
  readonly pause = async (): Promise<void> => {
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (this.running === 0) return;
    this.yielded++;
    while (this.running > 0) await new Promise<void>((resolve) => this.waiting.push(resolve));
  };
}
