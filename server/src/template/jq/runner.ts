// The one way jq is run (template variables, address-class filters, compile checks of every jq program; the
// language server, its worker and the CLI). We spawn jq ourselves rather than through node-jq's run():
//  - node-jq reads JQ_PATH once, when it is first loaded, so a changed `psconfig.jq.path` setting would be ignored;
//  - it spawns without an 'error' listener (a missing or non-executable binary kills the process);
//  - it has no limits at all.
// Every run is contained (contained.ts: time, memory, output, process group, lifeline), waits for one of the
// process's N jq slots (limits.ts), gets the program on a pipe (`-f /dev/fd/4`: no argv length limit, nothing in
// `ps`), `-L` naming a directory that cannot exist (no module search path; program-check.ts refuses module words),
// and stdin either closed (/dev/null) or a pipe carrying the input and then closed.
import { runContained, SIDE_INPUT, supervised, type ContainedOutcome } from './contained';
import { acquireJqSlot, DEFAULT_JQ_LIMITS, type JqLimits } from './limits';
import { refusedJqFeature } from './program-check';
import { JqBinary, resolveJqBinary } from './resolve';

export { DEFAULT_JQ_TIMEOUT_MS } from './limits';

/** Why a run gave no result. `refused`/`unavailable` never started a process. */
export type JqFailureKind =
  'unavailable' | 'refused' | 'start' | 'timeout' | 'memory' | 'output' | 'cancelled' | 'failed';

export type JqRunOutcome = { ok: true; stdout: string } | { ok: false; error: string; kind: JqFailureKind };

export interface JqRunOptions {
  /** Replaces the runner's time limit for this run. */
  timeoutMs?: number;
}

/** What the expansion engine needs from jq; tests and the server share one implementation. */
export interface JqRunner {
  /**
   * Runs one program over `input` (JSON text given on stdin; null: `-n`, one null input). Never rejects: failures
   * come back as `{ ok: false, error, kind }`.
   */
  run(program: string, input: string | null, options?: JqRunOptions): Promise<JqRunOutcome>;
  /**
   * Compiles `program` without ever evaluating it: jq gets no input at all (stdin is /dev/null and no `-n`), so it
   * parses and compiles the program and exits before the first evaluation. ok = it compiles.
   */
  compile(program: string): Promise<JqRunOutcome>;
  /** The same runner whose runs are killed once `isCancelled()` returns true (polled every 50 ms). */
  cancellable(isCancelled: (() => boolean) | undefined): JqRunner;
  /** Why jq cannot run at all (binary not found, restricted workspace), or undefined when it can. */
  readonly unavailable: string | undefined;
  readonly binary: JqBinary | undefined;
  readonly limits: JqLimits;
  /** Number of jq processes started by this runner (benchmarks and tests read it). */
  readonly processesStarted: number;
  /** `jq --version` output (e.g. "jq-1.6"), for error messages about builtins missing in old versions. */
  version(): Promise<string | undefined>;
}

/** A path below a regular file cannot exist: jq gets no module directory at all. */
const NO_MODULES = '/dev/null/psconfig-no-modules';

interface Shared {
  started: number;
  versionPromise?: Promise<string | undefined>;
}

class ContainedJqRunner implements JqRunner {
  constructor(
    readonly binary: JqBinary | undefined,
    readonly unavailable: string | undefined,
    readonly limits: JqLimits,
    private readonly shared: Shared,
    private readonly isCancelled: (() => boolean) | undefined,
    private readonly pollMemory: boolean,
  ) {}

  get processesStarted(): number {
    return this.shared.started;
  }

  cancellable(isCancelled: (() => boolean) | undefined): JqRunner {
    if (!isCancelled) return this;
    const outer = this.isCancelled;
    const both = outer ? () => outer() || isCancelled() : isCancelled;
    return new ContainedJqRunner(this.binary, this.unavailable, this.limits, this.shared, both, this.pollMemory);
  }

  version(): Promise<string | undefined> {
    this.shared.versionPromise ??= this.spawn(['--version'], undefined, undefined, {}).then((r) =>
      r.ok ? r.stdout.trim() : undefined,
    );
    return this.shared.versionPromise;
  }

  run(program: string, input: string | null, options: JqRunOptions = {}): Promise<JqRunOutcome> {
    const refused = refusedJqFeature(program);
    if (refused) return Promise.resolve({ ok: false, error: refused, kind: 'refused' });
    const args = ['-c', '-L', NO_MODULES, ...(input === null ? ['-n'] : []), '-f', SIDE_INPUT];
    return this.spawn(args, program, input ?? undefined, options);
  }

  compile(program: string): Promise<JqRunOutcome> {
    const refused = refusedJqFeature(program);
    if (refused) return Promise.resolve({ ok: false, error: refused, kind: 'refused' });
    // No input and no -n: jq compiles, finds no input, exits 0 without evaluating anything.
    return this.spawn(['-c', '-L', NO_MODULES, '-f', SIDE_INPUT], program, undefined, {});
  }

  private async spawn(
    args: string[],
    program: string | undefined,
    stdin: string | undefined,
    options: JqRunOptions,
  ): Promise<JqRunOutcome> {
    const binary = this.binary;
    if (!binary) return { ok: false, error: this.unavailable ?? 'jq is not available', kind: 'unavailable' };
    if (this.isCancelled?.()) return { ok: false, error: 'cancelled', kind: 'cancelled' };
    const release = await acquireJqSlot();
    try {
      if (this.isCancelled?.()) return { ok: false, error: 'cancelled', kind: 'cancelled' };
      const timeoutMs = options.timeoutMs ?? this.limits.timeoutMs;
      this.shared.started++;
      const outcome = await runContained({
        command: binary.path,
        args,
        stdin,
        sideInput: program,
        timeoutMs,
        memoryLimitMb: this.limits.memoryLimitMb,
        maxOutputBytes: this.limits.maxOutputBytes,
        isCancelled: this.isCancelled,
        pollMemory: this.pollMemory,
      });
      return this.outcomeOf(outcome, binary, timeoutMs);
    } finally {
      release();
    }
  }

  private outcomeOf(o: ContainedOutcome, binary: JqBinary, timeoutMs: number): JqRunOutcome {
    switch (o.kind) {
      case 'exit':
        if (o.code === 0) return { ok: true, stdout: o.stdout };
        return { ok: false, kind: 'failed', error: o.stderr.trim() || `jq exited with code ${o.code}` };
      case 'start':
        return {
          ok: false,
          kind: 'start',
          error: `Unable to start jq (${binary.path}, from ${binary.source}): ${o.message}`,
        };
      case 'timeout':
        return { ok: false, kind: 'timeout', error: `Timeout executing jq command (no result after ${timeoutMs} ms)` };
      case 'memory':
        return {
          ok: false,
          kind: 'memory',
          error: `jq stopped: ${o.message} (setting psconfig.jq.memoryLimitMb)`,
        };
      case 'output':
        return { ok: false, kind: 'output', error: `jq stopped: ${o.message}` };
      case 'cancelled':
        return { ok: false, kind: 'cancelled', error: 'cancelled' };
    }
  }
}

export interface JqRunnerOptions {
  /** The `psconfig.jq.path` setting; empty means JQ_PATH, node-jq's binary, then PATH. A bare name is looked up on PATH. */
  jqPath?: string;
  timeoutMs?: number;
  memoryLimitMb?: number;
  maxOutputBytes?: number;
  env?: NodeJS.ProcessEnv;
  /** When set, jq never runs and this is the reason given (a restricted workspace). */
  disabled?: string;
  /** Enforce the memory limit by watching the resident size (as on macOS) even where `ulimit -v` works. */
  pollMemory?: boolean;
}

/** A runner bound to one resolved binary; resolution happens now, so a missing jq is reported, not spawned. */
export function createJqRunner(options: JqRunnerOptions = {}): JqRunner {
  const limits: JqLimits = {
    timeoutMs: options.timeoutMs ?? DEFAULT_JQ_LIMITS.timeoutMs,
    memoryLimitMb: options.memoryLimitMb ?? DEFAULT_JQ_LIMITS.memoryLimitMb,
    maxOutputBytes: options.maxOutputBytes ?? DEFAULT_JQ_LIMITS.maxOutputBytes,
  };
  if (options.disabled)
    return new ContainedJqRunner(undefined, options.disabled, limits, { started: 0 }, undefined, false);
  const r = resolveJqBinary(options.jqPath, options.env);
  return new ContainedJqRunner(
    r.ok ? r.binary : undefined,
    r.ok ? undefined : r.error,
    limits,
    { started: 0 },
    undefined,
    options.pollMemory === true,
  );
}

/** Whether memory limits are enforced on this platform (false on Windows: see docs/task-preview.md). */
export const jqMemoryLimitEnforced = supervised;
