// Diagnostics run in a worker thread so that checking a large template never stalls completion, hovers or
// anything else on the main thread. The worker is the same bundle (dist/server.js) started with workerData
// { psconfigDiagnosticsWorker: true }; startServer() sees that and serves diagnostics instead of LSP.
import { Worker, parentPort, workerData, isMainThread } from 'node:worker_threads';
import type { TemplateDiagnostic } from '../template/rules/diagnostic';
import { computeDiagnostics } from './diagnostics-source';
import type { Logger } from './guard';

interface Job {
  id: number;
  text: string;
  jqPath: string | undefined;
}

type Reply = { id: number; phase: 'sync'; diagnostics: TemplateDiagnostic[]; ms: number } | { id: number; phase: 'later'; diagnostics: TemplateDiagnostic[] } | { id: number; phase: 'error'; message: string };

export function isDiagnosticsWorker(): boolean {
  return !isMainThread && (workerData as { psconfigDiagnosticsWorker?: boolean } | null)?.psconfigDiagnosticsWorker === true;
}

/** Worker side: answer each job with the synchronous diagnostics, then the jq ones. */
export function serveDiagnostics(): void {
  const port = parentPort;
  if (!port) return;
  port.on('message', (job: Job) => {
    const post = (r: Reply): void => port.postMessage(r);
    try {
      const t0 = Date.now();
      const pass = computeDiagnostics(job.text, job.jqPath);
      post({ id: job.id, phase: 'sync', diagnostics: pass.diagnostics, ms: Date.now() - t0 });
      pass.later().then(
        (d) => post({ id: job.id, phase: 'later', diagnostics: d }),
        (err: unknown) => post({ id: job.id, phase: 'error', message: `jq checks failed: ${err instanceof Error ? err.message : String(err)}` }),
      );
    } catch (err) {
      post({ id: job.id, phase: 'error', message: err instanceof Error ? err.stack ?? err.message : String(err) });
    }
  });
}

export interface DiagnosticsOutcome {
  diagnostics: TemplateDiagnostic[];
  later: Promise<TemplateDiagnostic[]>;
}

/** A check that takes longer than this is abandoned and the worker restarted (a bug, or a pathological input). */
const JOB_LIMIT_MS = 30_000;

/**
 * Main-thread side: runs jobs one at a time in the worker. If no worker can be started (the code is not running
 * from the bundle), diagnostics are computed in-process instead.
 */
export class DiagnosticsRunner {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (d: TemplateDiagnostic[]) => void; reject: (e: Error) => void; later: (d: TemplateDiagnostic[]) => void; laterFail: (e: Error) => void; timer: NodeJS.Timeout }>();
  private broken = false;

  constructor(
    private readonly entry: string | undefined,
    private readonly log: Logger,
  ) {}

  run(text: string, jqPath: string | undefined): DiagnosticsOutcome | Promise<DiagnosticsOutcome> {
    const worker = this.ensureWorker();
    if (!worker) {
      const pass = computeDiagnostics(text, jqPath);
      return { diagnostics: pass.diagnostics, later: pass.later() };
    }
    const id = this.nextId++;
    let later!: (d: TemplateDiagnostic[]) => void;
    let laterFail!: (e: Error) => void;
    const laterP = new Promise<TemplateDiagnostic[]>((res, rej) => {
      later = res;
      laterFail = rej;
    });
    laterP.catch(() => undefined);
    return new Promise<DiagnosticsOutcome>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.log.error(`diagnostics took over ${JOB_LIMIT_MS} ms; restarting the diagnostics worker`);
        this.restart(new Error('diagnostics timed out'));
      }, JOB_LIMIT_MS);
      this.waiting.set(id, { resolve: (d) => resolve({ diagnostics: d, later: laterP }), reject, later, laterFail, timer });
      worker.postMessage({ id, text, jqPath } satisfies Job);
    });
  }

  dispose(): void {
    void this.worker?.terminate();
    this.worker = undefined;
  }

  private ensureWorker(): Worker | undefined {
    if (this.worker || this.broken || !this.entry) return this.worker;
    try {
      const w = new Worker(this.entry, { workerData: { psconfigDiagnosticsWorker: true }, stdout: true, stderr: true });
      w.on('message', (r: Reply) => this.onReply(r));
      w.on('error', (err) => {
        this.log.error(`diagnostics worker failed: ${err.stack ?? err.message}`);
        this.restart(err);
      });
      w.on('exit', (code) => {
        if (this.worker === w && code !== 0) this.restart(new Error(`diagnostics worker exited with code ${code}`));
      });
      w.unref();
      this.worker = w;
    } catch (err) {
      this.broken = true;
      this.log.warn(`no diagnostics worker (${err instanceof Error ? err.message : String(err)}); checking on the main thread`);
    }
    return this.worker;
  }

  private onReply(r: Reply): void {
    const w = this.waiting.get(r.id);
    if (!w) return;
    if (r.phase === 'sync') {
      clearTimeout(w.timer);
      w.resolve(r.diagnostics);
    } else if (r.phase === 'later') {
      w.later(r.diagnostics);
      this.waiting.delete(r.id);
    } else {
      clearTimeout(w.timer);
      const err = new Error(r.message);
      w.reject(err);
      w.laterFail(err);
      this.waiting.delete(r.id);
    }
  }

  private restart(err: Error): void {
    const old = this.worker;
    this.worker = undefined;
    void old?.terminate();
    for (const w of this.waiting.values()) {
      clearTimeout(w.timer);
      w.reject(err);
      w.laterFail(err);
    }
    this.waiting.clear();
  }
}
