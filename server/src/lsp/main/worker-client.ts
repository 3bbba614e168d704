// The main thread's client of the worker thread (../worker/): starts it, sends it jobs (jobs/jobs.ts WorkerJobs:
// one typed `send` for all of them), restarts it when a job passes its limit, and retires it when it is idle after a
// document was closed. Without a worker (the code is not running from the bundle, or PSCONFIG_NO_WORKER) the
// worker's dispatcher runs here, on the main thread, with the same code and the same priorities.
import { Worker } from 'node:worker_threads';
import type { HeapFigures } from '../../../../common/protocol';
import {
  BACKGROUND_JOBS,
  collectGarbage,
  WORKER_DATA,
  type EarlySink,
  type ForgetNotice,
  type JobAnswer,
  type JobArg,
  type JobMessage,
  type JobName,
  type ToWorker,
  type WorkerReply,
} from '../jobs';
import { JobDispatcher } from '../worker';
import type { Logger } from './guard';
import { WORKER_RESOURCE_LIMITS } from './worker-heap';

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  /** What the job posts before its answer (the diagnostics' early phase). */
  early?: (v: unknown) => void;
  /** The second part of an answer that has one (DiagnosticsOutcome's `later`). */
  later?: (v: unknown) => void;
  laterFail?: (e: Error) => void;
  timer: NodeJS.Timeout;
  settled: boolean;
}

/** `job` is `name`: then `arg` is that job's argument. */
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- `arg` is what the type predicate narrows
function isJob<K extends JobName>(name: K, job: JobName, arg: unknown): arg is JobArg<K> {
  return job === name;
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
 * slices that wait while requests run (worker/job-priority.ts). So a schedule job past this limit is not taken for a
 * stuck worker while the worker answered something within it (the schedule then waits behind requests); only up to
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
 * The simulated schedules (worker/schedule-shared.ts) do not hold the worker: a simulation in progress is a pending job
 * (no retiring then), and a finished one is a function of the version's text and settings, made again by the next
 * psconfig/schedule request (the timeline's reload, a lens). What the editor shows between requests lives on the
 * main thread: the published diagnostics with their quick fixes, and the runs a day for hovers and lenses
 * (expansion-service.ts). Unlike a task comparison, nothing on screen reads a simulation kept in the worker.
 */
export const WORKER_IDLE_RETIRE_MS = 30_000;

export class BackgroundRunner {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private broken = false;
  /** Used when there is no worker: the worker's dispatcher, on this thread. */
  private readonly local = new JobDispatcher();
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

  /**
   * Starts the worker now (the server does when the client is initialized): loading the bundle in the new thread
   * then overlaps the first document's transfer instead of delaying its first diagnostics.
   */
  start(): void {
    this.ensureWorker();
  }

  /**
   * One job, answered by the worker (started if need be), or on this thread without one. `early` receives what the
   * job posts before its answer (the diagnostics' early phase), in the order the worker sent it.
   */
  send<K extends JobName>(job: K, arg: JobArg<K>, early?: EarlySink<K>): Promise<JobAnswer<K>> {
    const worker = this.ensureWorker();
    if (!worker) return this.local.run(job, arg, early);
    if (isJob('compare', job, arg)) this.comparing.add(arg.input.uri);
    return this.post(worker, job, arg, early);
  }

  /**
   * Drops the full expansion, the comparison and the simulated schedule kept for `uri`; and, unless it was `edited`
   * (closed, or settings changed), the base text's expansion its comparisons share.
   */
  forget(uri: string, edited = false): void {
    const notice: ForgetNotice = { uri, edited };
    if (this.worker) this.worker.postMessage({ notice: 'forget', arg: notice } satisfies ToWorker);
    this.local.forget(notice);
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
    return this.post(this.worker, 'memory', {}, undefined);
  }

  /** Engine runs started in this thread (only without a worker: tests). */
  get localEngineRuns(): number {
    return this.local.engineRuns;
  }

  /** Comparison bases expanded in this thread (only without a worker: tests). */
  get localBaseRuns(): number {
    return this.local.baseRuns;
  }

  dispose(): void {
    clearTimeout(this.idleTimer);
    const w = this.worker;
    this.worker = undefined;
    void w?.terminate();
  }

  private post<K extends JobName>(
    worker: Worker,
    job: K,
    arg: JobArg<K>,
    early: EarlySink<K> | undefined,
  ): Promise<JobAnswer<K>> {
    const id = this.nextId++;
    const background = BACKGROUND_JOBS.has(job);
    const limit = background ? this.limits.scheduleJobMs : this.limits.jobMs;
    const sent = Date.now();
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    const answer = new Promise<unknown>((resolve, reject) => {
      const expired = (): void => {
        const p = this.pending.get(id);
        if (!p || this.worker !== worker) return;
        const now = Date.now();
        if (background && now - this.lastReplyAt < limit && now - sent < this.limits.scheduleCeilingMs) {
          p.timer = setTimeout(expired, limit);
          return;
        }
        this.log.error(`background ${job} took over ${now - sent} ms; restarting the worker`);
        this.restarts++;
        this.restart(new Error(`${job} timed out`));
      };
      const timer = setTimeout(expired, limit);
      // The worker posts job K's early part as K's (worker/thread.ts): the one place it is read so.
      const onEarly = early as ((v: unknown) => void) | undefined;
      this.pending.set(id, { resolve, reject, timer, settled: false, early: onEarly });
      worker.postMessage({ id, job, arg } satisfies JobMessage<K>);
    });
    // The worker answers a job with the dispatcher's answer to it (worker/thread.ts): the one place it is typed so.
    return answer as Promise<JobAnswer<K>>;
  }

  private ensureWorker(): Worker | undefined {
    if (this.worker || this.broken || !this.entry) return this.worker;
    try {
      const w = new Worker(this.entry, {
        workerData: WORKER_DATA,
        stdout: true,
        stderr: true,
        resourceLimits: WORKER_RESOURCE_LIMITS,
      });
      w.on('message', (r: WorkerReply) => this.onReply(r));
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

  private onReply(r: WorkerReply): void {
    this.lastReplyAt = Date.now();
    const p = this.pending.get(r.id);
    if (!p) return;
    if (r.phase === 'early') {
      if (!p.settled) p.early?.(r.value);
      return;
    }
    if (r.phase === 'result') {
      clearTimeout(p.timer);
      p.settled = true;
      if (r.later) {
        // The second part follows in its own message: the answer carries a promise of it.
        const later = new Promise<unknown>((resolve, reject) => {
          p.later = resolve;
          p.laterFail = reject;
        });
        later.catch(() => undefined);
        p.resolve({ ...(r.value as object), later });
      } else {
        p.resolve(r.value);
        this.pending.delete(r.id);
      }
    } else if (r.phase === 'later') {
      p.later?.(r.value);
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
