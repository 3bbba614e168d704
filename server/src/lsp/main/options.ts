// What the entry point (server/src/server.ts) decides for the server: timings, thresholds, the worker's script.
import { WORKER_IDLE_RETIRE_MS } from './worker-client';

/** How long a schedule lens's resolve waits for the simulation before answering "simulating…" (the default). */
export const SCHEDULE_LENS_WAIT_MS = 1500;

export interface ServerOptions {
  /** Quiet period after the last edit before diagnostics run. */
  diagnosticsDelayMs: number;
  /** Script a background worker thread runs (this bundle); undefined: heavy jobs run on the main thread. */
  workerEntry: string | undefined;
  /** From this document size on, completion while typing in a string answers from the previous parse. */
  editedTextMinChars: number;
  /** From this document size on, each version after an edit is re-parsed in place (template/incremental.ts). */
  incrementalMinChars: number;
  /** jq binary when the `psconfig.jq.path` setting is empty (the entry point passes JQ_PATH). */
  defaultJqPath: string | undefined;
  /** After a document is closed, the worker is retired once idle this long (worker-client.ts). */
  workerIdleRetireMs: number;
  /** How long a schedule lens's resolve waits for the simulation before it says "simulating…" (lens-handlers.ts). */
  scheduleLensWaitMs: number;
  /** From this document size on, a diagnostics pass publishes its early phase first (diagnostics-publisher.ts). */
  earlyDiagnosticsMinChars: number;
}

/**
 * Below this size a whole diagnostics pass takes a few hundred milliseconds at most: an early publication would
 * only be a second notification right before the final one.
 */
export const EARLY_DIAGNOSTICS_MIN_CHARS = 2 * 1024 * 1024;

export const DEFAULT_SERVER_OPTIONS: ServerOptions = {
  diagnosticsDelayMs: 250,
  workerEntry: undefined,
  editedTextMinChars: 256 * 1024,
  incrementalMinChars: 256 * 1024,
  defaultJqPath: undefined,
  workerIdleRetireMs: WORKER_IDLE_RETIRE_MS,
  scheduleLensWaitMs: SCHEDULE_LENS_WAIT_MS,
  earlyDiagnosticsMinChars: EARLY_DIAGNOSTICS_MIN_CHARS,
};
