// The worker thread: the same bundle as the server (dist/server.js) started with workerData WORKER_DATA; the entry
// point (server/src/server.ts) sees that and serves the main thread's jobs (jobs/jobs.ts) with the dispatcher.
import { parentPort, workerData, isMainThread } from 'node:worker_threads';
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { WORKER_DATA, type ToWorker, type WorkerReply } from '../jobs/jobs';
import { JobDispatcher } from './dispatcher';

export function isBackgroundWorker(): boolean {
  return (
    !isMainThread && (workerData as { psconfigWorker?: boolean } | null)?.psconfigWorker === WORKER_DATA.psconfigWorker
  );
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

/**
 * The worker's message loop: each job to the dispatcher, each answer back (an `early` part before it, a `later`
 * part after it, each as a message of its own).
 */
export function serveBackgroundJobs(): void {
  const port = parentPort;
  if (!port) return;
  lowerThreadPriority();
  const post = (r: WorkerReply): void => port.postMessage(r);
  const fail = (id: number, err: unknown): void =>
    post({ id, phase: 'error', message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  const jobs = new JobDispatcher();
  port.on('message', (m: ToWorker) => {
    if ('notice' in m) {
      jobs.forget(m.arg);
      return;
    }
    jobs
      .run(m.job, m.arg, (value) => post({ id: m.id, phase: 'early', value }))
      .then(
        (answer) => {
          const later = laterOf(answer);
          if (!later) {
            post({ id: m.id, phase: 'result', value: answer });
            return;
          }
          // A promise cannot cross threads: the answer goes without it, its value follows.
          const first: Record<string, unknown> = { ...(answer as object) };
          delete first.later;
          post({ id: m.id, phase: 'result', value: first, later: true });
          later.then(
            (value) => post({ id: m.id, phase: 'later', value }),
            (err: unknown) => fail(m.id, err),
          );
        },
        (err: unknown) => fail(m.id, err),
      );
  });
}

/** The second part of an answer that has one (DiagnosticsOutcome's `later`). */
function laterOf(answer: unknown): Promise<unknown> | undefined {
  if (typeof answer !== 'object' || answer === null || !('later' in answer)) return undefined;
  return answer.later instanceof Promise ? answer.later : undefined;
}
