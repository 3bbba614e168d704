// Heavy work runs in a worker thread so the main thread keeps answering completion, hovers and the rest:
// diagnostics of a large template, task counts for code lenses, and task expansion (which may start jq).
// The worker is the same bundle (dist/server.js) started with workerData { psconfigWorker: true };
// the entry point (server/src/server.ts) sees that and serves these jobs instead of LSP.
import { Worker, parentPort, workerData, isMainThread } from 'node:worker_threads';
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import type {
  CompareTaskJsonParams,
  CompareTaskJsonResult,
  CompareTasksResult,
  DashboardPairsResult,
  ExpandTasksResult,
  HeapFigures,
  HostRead,
  ScheduleParams,
  ScheduleResult,
} from '../../../common/protocol';
import { countCombinations } from '../template/expand';
import { parseTemplate, toValue } from '../template/parse';
import type { TaskFact } from '../template/navigation/hover';
import type { TemplateDiagnostic } from '../template/rules/diagnostic';
import { computeDiagnostics } from './diagnostics-source';
import type { EngineInput } from './expansion-engine';
import { runAlone, SharedExpansions, type HostsComparison } from './expansion-shared';
import { SharedSchedules } from './schedule-shared';
import { JobPriority } from './job-priority';
import { TaskComparisons, type CompareJob } from './task-comparison';
import type { Logger } from './guard';
import { WORKER_RESOURCE_LIMITS } from './worker-heap';
import { collectGarbage, heapFigures } from './memory-report';
import type { JqConfig } from '../template/jq/config';
import type { IncludeScope } from '../template/includes/scope';
import type { SeverityCounts } from '../template/diagnostic-cap';
import type { SeverityOverrides } from '../template/severity-overrides';
import type { CheckSettings } from '../template/diagnostics';

type JobBody =
  | {
      kind: 'diagnostics';
      text: string;
      jq: JqConfig | undefined;
      includeScope: IncludeScope;
      cancel?: SharedArrayBuffer;
      overrides?: SeverityOverrides;
      checks?: CheckSettings;
    }
  | { kind: 'counts'; text: string }
  | { kind: 'expand'; input: EngineInput; cancel?: SharedArrayBuffer; shared: boolean; firstsOnly: boolean }
  | { kind: 'pairs'; input: EngineInput; tasks?: string[] }
  | { kind: 'hosts'; input: EngineInput; reads: HostRead[] }
  | { kind: 'schedule'; input: EngineInput; params: ScheduleParams; cancel?: SharedArrayBuffer }
  | { kind: 'scheduleDiagnostics'; input: EngineInput; cancel?: SharedArrayBuffer }
  | ({ kind: 'compare' } & CompareJob)
  | { kind: 'compareTask'; params: CompareTaskJsonParams }
  | { kind: 'forget'; uri: string; edited: boolean }
  | { kind: 'memory' };

/**
 * Cancellation of an expansion that may run in the worker: a shared Int32 the engine polls between its phases
 * (a message would wait until the worker's synchronous planning is over).
 */
export class CancelFlag {
  readonly buffer = new SharedArrayBuffer(4);
  private readonly cell = new Int32Array(this.buffer);
  cancel(): void {
    Atomics.store(this.cell, 0, 1);
  }
  get cancelled(): boolean {
    return Atomics.load(this.cell, 0) === 1;
  }
}

function pollerOf(buffer: SharedArrayBuffer | undefined): (() => boolean) | undefined {
  if (!buffer) return undefined;
  const cell = new Int32Array(buffer);
  return () => Atomics.load(cell, 0) === 1;
}
type Job = JobBody & { id: number };

type Reply =
  | { id: number; phase: 'result'; value: unknown }
  | { id: number; phase: 'later'; diagnostics: TemplateDiagnostic[] }
  | { id: number; phase: 'error'; message: string };

export function isBackgroundWorker(): boolean {
  return !isMainThread && (workerData as { psconfigWorker?: boolean } | null)?.psconfigWorker === true;
}

/** Task counts without jq or includes (the engine's countCombinations); tolerant of syntax errors. */
export function countTasks(text: string): TaskFact[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = toValue(parseTemplate(text).root);
  }
  return countCombinations(value).tasks.map((t) => ({
    task: t.task,
    count: t.count,
    identical: t.identical,
    agents: t.agents,
    disabled: t.disabled,
    error: t.error,
  }));
}

/**
 * On Linux, this thread (the worker) runs at a lower priority than the main thread: on a machine with few cores,
 * a diagnostics pass of a large template (hundreds of milliseconds of CPU) would otherwise take half of the core
 * the main thread needs to answer completion and hovers right after an edit. setpriority on a thread id changes
 * that thread only; jq processes started from here inherit it.
 */
const WORKER_NICE_STEP = 5;

function lowerThreadPriority(): void {
  if (process.platform !== 'linux') return;
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (tid > 0) setPriority(tid, Math.min(19, getPriority(tid) + WORKER_NICE_STEP));
  } catch {
    // no /proc, or not allowed: the worker keeps the process's priority
  }
}

/** Worker side. */
export function serveBackgroundJobs(): void {
  const port = parentPort;
  if (!port) return;
  lowerThreadPriority();
  const post = (r: Reply): void => port.postMessage(r);
  const expansions = new SharedExpansions();
  // Requests a user waits for run first; the schedule's slices wait while any is in flight (job-priority.ts).
  const priority = new JobPriority();
  const schedules = new SharedSchedules(expansions, priority.pause);
  const comparisons = new TaskComparisons(expansions);
  const fail = (id: number, err: unknown): void =>
    post({ id, phase: 'error', message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  port.on('message', (job: Job) => {
    try {
      if (job.kind === 'diagnostics') {
        priority
          .request(() =>
            computeDiagnostics(job.text, job.jq, job.includeScope, pollerOf(job.cancel), job.overrides, job.checks),
          )
          .then(
            (pass) => {
              const value: FirstPass = {
                diagnostics: pass.diagnostics,
                omitted: pass.omitted,
                includePaths: pass.includePaths,
                ...(pass.cancelled ? { cancelled: true } : {}),
              };
              post({ id: job.id, phase: 'result', value });
              pass.later().then(
                (d) => post({ id: job.id, phase: 'later', diagnostics: d }),
                (err: unknown) => fail(job.id, err),
              );
            },
            (err: unknown) => fail(job.id, err),
          );
      } else if (job.kind === 'counts') {
        post({ id: job.id, phase: 'result', value: countTasks(job.text) });
      } else if (job.kind === 'forget') {
        expansions.forget(job.uri);
        schedules.forget(job.uri);
        if (job.edited) comparisons.edited(job.uri);
        else comparisons.forget(job.uri);
      } else if (job.kind === 'compare') {
        priority
          .request(() => comparisons.compare(job))
          .then(
            (r) => post({ id: job.id, phase: 'result', value: r }),
            (err: unknown) => fail(job.id, err),
          );
      } else if (job.kind === 'compareTask') {
        post({ id: job.id, phase: 'result', value: comparisons.taskJson(job.params) });
      } else if (job.kind === 'memory') {
        post({ id: job.id, phase: 'result', value: heapFigures('worker') });
      } else if (job.kind === 'pairs') {
        priority
          .request(() => expansions.pairs(job.input, job.tasks))
          .then(
            (r) => post({ id: job.id, phase: 'result', value: r }),
            (err: unknown) => fail(job.id, err),
          );
      } else if (job.kind === 'hosts') {
        priority
          .request(() => expansions.hosts(job.input, job.reads))
          .then(
            (r) => post({ id: job.id, phase: 'result', value: r }),
            (err: unknown) => fail(job.id, err),
          );
      } else if (job.kind === 'schedule') {
        schedules.answer(job.input, job.params, pollerOf(job.cancel)).then(
          (r) => post({ id: job.id, phase: 'result', value: r }),
          (err: unknown) => fail(job.id, err),
        );
      } else if (job.kind === 'scheduleDiagnostics') {
        schedules.diagnostics(job.input, pollerOf(job.cancel) ?? (() => false)).then(
          (r) => post({ id: job.id, phase: 'result', value: r }),
          (err: unknown) => fail(job.id, err),
        );
      } else {
        const isCancelled = pollerOf(job.cancel);
        priority
          .request(() =>
            job.shared ? expansions.expand(job.input, isCancelled, job.firstsOnly) : runAlone(job.input, isCancelled),
          )
          .then(
            (r) => post({ id: job.id, phase: 'result', value: r }),
            (err: unknown) => fail(job.id, err),
          );
      }
    } catch (err) {
      fail(job.id, err);
    }
  });
}

interface FirstPass {
  /** The shown diagnostics, worst first (the cap is applied in the worker: diagnostics-source.ts). */
  diagnostics: TemplateDiagnostic[];
  /** Per severity, what the cap left out. */
  omitted: SeverityCounts;
  includePaths: string[];
  /** The pass was cancelled (the text changed): nothing to publish. */
  cancelled?: true;
}

export interface DiagnosticsOutcome extends FirstPass {
  later: Promise<TemplateDiagnostic[]>;
}

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  later?: (d: TemplateDiagnostic[]) => void;
  laterFail?: (e: Error) => void;
  timer: NodeJS.Timeout;
  settled: boolean;
}

/**
 * The main thread's part of giving memory back after a worker was retired (then logged): an idle server allocates
 * nothing, so V8 would keep the closed documents' text and parse, and the retired Worker object with its thread's
 * memory, until the next edit. A full collection frees them; a second one 6 s later shrinks the young generation
 * (V8 does that only when the allocation rate over its last 5 s is low; right after a large document it is not):
 * 30 MB of the 50 MB left after the first, measured with test/lsp/memory-returns.test.ts's 6 MB inventory.
 */
const SHRINK_DELAY_MS = 6000;

function collectAfterRetiring(log: Logger, idleMs: number): void {
  collectGarbage();
  setTimeout(() => {
    collectGarbage();
    log.info(`background worker retired after ${idleMs} ms idle (a document was closed)`);
  }, SHRINK_DELAY_MS).unref();
}

/** A job that takes longer than this is abandoned and the worker restarted (a bug, or a pathological input). */
const JOB_LIMIT_MS = 60_000;
/**
 * Schedule jobs wait for the expansion, then simulate (at most SCHEDULE_LIMIT_MS) and re-simulate fixes, both in
 * slices that wait while requests run (job-priority.ts). So a schedule job past this limit is not taken for a stuck
 * worker while the worker answered something within it (the schedule then waits behind requests); only up to
 * SCHEDULE_JOB_CEILING_MS in all.
 */
const SCHEDULE_JOB_LIMIT_MS = 150_000;
const SCHEDULE_JOB_CEILING_MS = 600_000;

/** How long a job may take before the worker is restarted (tests shorten them). */
export interface JobLimits {
  jobMs: number;
  scheduleJobMs: number;
  scheduleCeilingMs: number;
}

/**
 * After a document is closed, a worker that has then had no job for this long is retired (the next job starts a
 * new one). What the worker grew for a large or hostile document stays resident after the document is gone: V8
 * keeps the old-space pages and the 64 MB young generation it sized for it (worker-heap.ts), the allocator keeps its
 * arenas, and caches keyed by text (verdicts, interned names, the shared expansions) keep what they hold. Ending
 * the thread gives all of it back to the system at once; a live-heap figure cannot show that, resident size can
 * (after 1,000 fuzzed templates: 108 -> 574 MB resident, while the live heaps were small). The cost is a cold
 * worker for the open documents' next check.
 * The simulated schedules (schedule-shared.ts) do not hold the worker: a simulation in progress is a pending job
 * (no retiring then), and a finished one is a function of the version's text and settings, made again by the next
 * psconfig/schedule request (the timeline's reload, a lens). What the editor shows between requests lives on the
 * main thread: the published diagnostics with their quick fixes, and the runs a day for hovers and lenses
 * (expansion-service.ts). Unlike a task comparison, nothing on screen reads a simulation kept in the worker.
 */
export const WORKER_IDLE_RETIRE_MS = 30_000;

/**
 * Main-thread side. If no worker can be started (the code is not running from the bundle), jobs run in-process.
 */
export class BackgroundRunner {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private broken = false;
  /** Used when there is no worker. */
  private readonly local = new SharedExpansions();
  private readonly localSchedules = new SharedSchedules(this.local);
  private readonly localComparisons = new TaskComparisons(this.local);
  /** A document was closed since the worker started: retire it once it is idle (WORKER_IDLE_RETIRE_MS). */
  private closedSinceStart = false;
  /**
   * Documents whose latest task comparison the worker keeps (their task JSON opens from it): no retiring while
   * there are some, since the Task Changes view on screen reads them. The worker drops one on an edit or a close.
   */
  private readonly comparing = new Set<string>();
  private idleTimer: NodeJS.Timeout | undefined;
  /** Workers retired when idle after a close (for the log and tests). */
  retired = 0;
  /** Workers restarted because a job took too long (for tests). */
  restarts = 0;
  /** When the worker last answered anything (a schedule job past its limit while it answers is not stuck). */
  private lastReplyAt = 0;
  private readonly limits: JobLimits;

  constructor(
    private readonly entry: string | undefined,
    private readonly log: Logger,
    private readonly idleRetireMs = WORKER_IDLE_RETIRE_MS,
    limits: Partial<JobLimits> = {},
  ) {
    this.limits = {
      jobMs: JOB_LIMIT_MS,
      scheduleJobMs: SCHEDULE_JOB_LIMIT_MS,
      scheduleCeilingMs: SCHEDULE_JOB_CEILING_MS,
      ...limits,
    };
  }

  async diagnostics(
    text: string,
    jq: JqConfig | undefined,
    includeScope: IncludeScope,
    cancel?: CancelFlag,
    overrides?: SeverityOverrides,
    checks?: CheckSettings,
  ): Promise<DiagnosticsOutcome> {
    if (!this.ensureWorker()) {
      const isCancelled = cancel ? () => cancel.cancelled : undefined;
      const pass = await computeDiagnostics(text, jq, includeScope, isCancelled, overrides, checks);
      return {
        diagnostics: pass.diagnostics,
        omitted: pass.omitted,
        includePaths: pass.includePaths,
        ...(pass.cancelled ? { cancelled: true } : {}),
        later: pass.later(),
      };
    }
    let later!: (d: TemplateDiagnostic[]) => void;
    let laterFail!: (e: Error) => void;
    const laterP = new Promise<TemplateDiagnostic[]>((res, rej) => {
      later = res;
      laterFail = rej;
    });
    laterP.catch(() => undefined);
    const first = (await this.send(
      { kind: 'diagnostics', text, jq, includeScope, cancel: cancel?.buffer, overrides, checks },
      later,
      laterFail,
    )) as FirstPass;
    return { ...first, later: laterP };
  }

  async counts(text: string): Promise<TaskFact[]> {
    if (!this.ensureWorker()) return countTasks(text);
    return (await this.send({ kind: 'counts', text })) as TaskFact[];
  }

  /**
   * `shared`: served from (or cut from) the full expansion kept where the engine runs, for open documents;
   * otherwise one engine run for exactly this input. `firstsOnly`: the first combination of each task only.
   */
  async expand(
    input: EngineInput,
    cancel: CancelFlag | undefined,
    shared: boolean,
    firstsOnly = false,
  ): Promise<ExpandTasksResult> {
    if (!this.ensureWorker()) {
      const isCancelled = cancel ? () => cancel.cancelled : undefined;
      if (shared) return this.local.expand(input, isCancelled, firstsOnly);
      this.local.engineRuns++;
      return runAlone(input, isCancelled);
    }
    return (await this.send({
      kind: 'expand',
      input,
      cancel: cancel?.buffer,
      shared,
      firstsOnly,
    })) as ExpandTasksResult;
  }

  /** The dashboard grids of a document, from the full expansion kept where the engine runs. */
  async pairs(input: EngineInput, tasks: string[] | undefined): Promise<DashboardPairsResult> {
    if (!this.ensureWorker()) return this.local.pairs(input, tasks);
    return (await this.send({ kind: 'pairs', input, tasks })) as DashboardPairsResult;
  }

  /** The hosts read compared with the document's full expansion, kept where the engine runs (no task JSON crosses). */
  async hosts(input: EngineInput, reads: HostRead[]): Promise<HostsComparison> {
    if (!this.ensureWorker()) return this.local.hosts(input, reads);
    return (await this.send({ kind: 'hosts', input, reads })) as HostsComparison;
  }

  /**
   * The simulated schedule of a document (psconfig/schedule), from the full expansion kept where the engine runs.
   * `cancel` stops only a simulation made for this request alone (a document that is not open).
   */
  async schedule(input: EngineInput, params: ScheduleParams, cancel?: CancelFlag): Promise<ScheduleResult> {
    if (!this.ensureWorker()) return this.localSchedules.answer(input, params, cancel && (() => cancel.cancelled));
    return (await this.send({ kind: 'schedule', input, params, cancel: cancel?.buffer })) as ScheduleResult;
  }

  /** The schedule's findings as diagnostics; 'cancelled' when `cancel` (the next edit) stopped the simulation. */
  async scheduleDiagnostics(input: EngineInput, cancel: CancelFlag): Promise<TemplateDiagnostic[] | 'cancelled'> {
    if (!this.ensureWorker()) return this.localSchedules.diagnostics(input, () => cancel.cancelled);
    return (await this.send({ kind: 'scheduleDiagnostics', input, cancel: cancel.buffer })) as
      TemplateDiagnostic[] | 'cancelled';
  }

  /** The tasks of `input` (its shared full expansion) compared with another version's text (task-comparison.ts). */
  async compare(input: EngineInput, base: CompareJob['base'], summaryOnly: boolean): Promise<CompareTasksResult> {
    if (!this.ensureWorker()) return this.localComparisons.compare({ input, base, summaryOnly });
    this.comparing.add(input.uri);
    return (await this.send({ kind: 'compare', input, base, summaryOnly })) as CompareTasksResult;
  }

  /** One side of one task of the latest comparison of a template. */
  async compareTaskJson(params: CompareTaskJsonParams): Promise<CompareTaskJsonResult> {
    if (!this.ensureWorker()) return this.localComparisons.taskJson(params);
    return (await this.send({ kind: 'compareTask', params })) as CompareTaskJsonResult;
  }

  /**
   * Drops the full expansion, the comparison and the simulated schedule kept for `uri`; and, unless it was `edited`
   * (closed, or settings changed), the base text's expansion its comparisons share.
   */
  forgetExpansion(uri: string, edited = false): void {
    if (this.worker) this.worker.postMessage({ kind: 'forget', uri, edited, id: 0 } satisfies Job);
    this.local.forget(uri);
    if (edited) this.localComparisons.edited(uri);
    else this.localComparisons.forget(uri);
    this.localSchedules.forget(uri);
    this.comparing.delete(uri);
  }

  /**
   * A document was closed: what the worker grew for it is given back by retiring the worker once it has been idle
   * for `idleRetireMs` (then the main thread's garbage is collected too: an idle server allocates nothing, so V8
   * would keep the closed text and its parse until the next edit).
   */
  documentClosed(): void {
    if (!this.worker) return;
    this.closedSinceStart = true;
    this.armIdleRetire();
  }

  private armIdleRetire(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    if (!this.worker || !this.closedSinceStart || this.pending.size > 0 || this.comparing.size > 0) return;
    const w = this.worker;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = undefined;
      if (this.worker !== w || this.pending.size > 0 || this.comparing.size > 0) return;
      this.worker = undefined;
      this.closedSinceStart = false;
      this.retired++;
      // The collection runs from a timer that does not hold `w`: the retired Worker object keeps its thread's memory
      // until it is collected itself.
      void w.terminate().then(() => setTimeout(collectAfterRetiring, 1000, this.log, this.idleRetireMs).unref());
    }, this.idleRetireMs);
    this.idleTimer.unref();
  }

  /** The worker's heap after a full collection (none without a worker, or before its first job). */
  async workerHeap(): Promise<HeapFigures | undefined> {
    if (!this.worker) return undefined;
    return (await this.send({ kind: 'memory' })) as HeapFigures;
  }

  /** Engine runs started in this thread (only without a worker: tests). */
  get localEngineRuns(): number {
    return this.local.engineRuns;
  }

  /** Comparison bases expanded in this thread (only without a worker: tests). */
  get localBaseRuns(): number {
    return this.localComparisons.baseRuns;
  }

  dispose(): void {
    clearTimeout(this.idleTimer);
    const w = this.worker;
    this.worker = undefined;
    void w?.terminate();
  }

  private send(
    job: JobBody,
    later?: (d: TemplateDiagnostic[]) => void,
    laterFail?: (e: Error) => void,
  ): Promise<unknown> {
    const worker = this.worker!;
    const id = this.nextId++;
    const schedule = job.kind === 'schedule' || job.kind === 'scheduleDiagnostics';
    const limit = schedule ? this.limits.scheduleJobMs : this.limits.jobMs;
    const sent = Date.now();
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    return new Promise((resolve, reject) => {
      const expired = (): void => {
        const p = this.pending.get(id);
        if (!p || this.worker !== worker) return;
        const now = Date.now();
        if (schedule && now - this.lastReplyAt < limit && now - sent < this.limits.scheduleCeilingMs) {
          p.timer = setTimeout(expired, limit);
          return;
        }
        this.log.error(`background ${job.kind} took over ${now - sent} ms; restarting the worker`);
        this.restarts++;
        this.restart(new Error(`${job.kind} timed out`));
      };
      const timer = setTimeout(expired, limit);
      this.pending.set(id, { resolve, reject, later, laterFail, timer, settled: false });
      worker.postMessage({ ...job, id } as Job);
    });
  }

  private ensureWorker(): Worker | undefined {
    if (this.worker || this.broken || !this.entry) return this.worker;
    try {
      const w = new Worker(this.entry, {
        workerData: { psconfigWorker: true },
        stdout: true,
        stderr: true,
        resourceLimits: WORKER_RESOURCE_LIMITS,
      });
      w.on('message', (r: Reply) => this.onReply(r));
      w.on('error', (err) => {
        this.log.error(`background worker failed: ${err.stack ?? err.message}`);
        if (this.worker === w) this.restart(err);
      });
      w.on('exit', (code) => {
        if (this.worker === w) this.restart(new Error(`background worker exited with code ${code}`));
      });
      // The worker's console goes to the log, never to stdout (the protocol channel).
      w.stdout.on('data', (b: Buffer) => this.log.info(b.toString().trimEnd()));
      w.stderr.on('data', (b: Buffer) => this.log.warn(b.toString().trimEnd()));
      w.unref();
      this.worker = w;
    } catch (err) {
      this.broken = true;
      this.log.warn(
        `no background worker (${err instanceof Error ? err.message : String(err)}); working on the main thread`,
      );
    }
    return this.worker;
  }

  private onReply(r: Reply): void {
    this.lastReplyAt = Date.now();
    const p = this.pending.get(r.id);
    if (!p) return;
    if (r.phase === 'result') {
      clearTimeout(p.timer);
      p.settled = true;
      p.resolve(r.value);
      if (!p.later) this.pending.delete(r.id);
    } else if (r.phase === 'later') {
      p.later?.(r.diagnostics);
      this.pending.delete(r.id);
    } else {
      clearTimeout(p.timer);
      const err = new Error(r.message);
      if (p.settled) p.laterFail?.(err);
      else p.reject(err);
      this.pending.delete(r.id);
    }
    if (this.pending.size === 0) this.armIdleRetire();
  }

  private restart(err: Error): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    this.closedSinceStart = false;
    this.comparing.clear();
    const old = this.worker;
    this.worker = undefined;
    void old?.terminate();
    for (const p of this.pending.values()) {
      clearTimeout(p.timer);
      p.reject(err);
      p.laterFail?.(err);
    }
    this.pending.clear();
  }
}
