// The bounds every jq run gets, and the per-process gate that keeps at most N of them running at once.
// (The language server runs jq only in its background worker, or in-process without one, so a module-level gate
// is one per server; the CLI has its own.)

export interface JqLimits {
  /** Wall-clock limit of one run, from the moment the process starts (not while it waits for the gate). */
  timeoutMs: number;
  /** Address-space limit of the jq process (0: none). */
  memoryLimitMb: number;
  /** The run is stopped when its output passes this many bytes. */
  maxOutputBytes: number;
}

export const DEFAULT_JQ_TIMEOUT_MS = 10_000; // Perl's perfSONAR_PS::Utils::JQ uses 10 s per jq run.
/**
 * jq's peak resident size on the 300-address bench mesh (89,700 combinations in two batches) is 24 MB, its address
 * space a little more; 256 MB leaves ten times that and keeps the default concurrency of 2 under 512 MB in all.
 */
export const DEFAULT_JQ_MEMORY_MB = 256;
export const DEFAULT_JQ_MAX_OUTPUT_BYTES = 64 * 1024 * 1024;
export const DEFAULT_JQ_CONCURRENCY = 2;

export const DEFAULT_JQ_LIMITS: JqLimits = {
  timeoutMs: DEFAULT_JQ_TIMEOUT_MS,
  memoryLimitMb: DEFAULT_JQ_MEMORY_MB,
  maxOutputBytes: DEFAULT_JQ_MAX_OUTPUT_BYTES,
};

class Gate {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(public max: number) {}

  /** Resolves with the function that gives the slot back (call it exactly once). */
  async acquire(): Promise<() => void> {
    if (this.active >= this.max) await new Promise<void>((r) => this.waiting.push(r));
    else this.active++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next && this.active <= this.max) next();
      else this.active--;
    };
  }

  resize(max: number): void {
    this.max = max;
    while (this.active < this.max && this.waiting.length) {
      this.active++;
      this.waiting.shift()?.();
    }
  }

  get running(): number {
    return this.active;
  }
}

const gate = new Gate(DEFAULT_JQ_CONCURRENCY);

/** At most `n` jq processes at once in this process (the setting `psconfig.jq.maxConcurrent`). */
export function setJqConcurrency(n: number): void {
  gate.resize(Number.isInteger(n) && n >= 1 ? Math.min(n, 64) : DEFAULT_JQ_CONCURRENCY);
}

export function acquireJqSlot(): Promise<() => void> {
  return gate.acquire();
}

/** jq processes running now (holding a slot). */
export function jqRunsActive(): number {
  return gate.running;
}
