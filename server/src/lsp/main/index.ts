// The main thread of the language server: the LSP connection's handlers (grouped by feature in *-handlers.ts, on one
// context: context.ts), the parse cache, the diagnostics publisher, and the worker thread's client (worker-client.ts).
export { startServer, type ServerCleanup } from './start';
export { DEFAULT_SERVER_OPTIONS, SCHEDULE_LENS_WAIT_MS, type ServerOptions } from './options';
export { consoleLogger, guarded, runSafe, type Logger } from './guard';
export { BackgroundRunner, WORKER_IDLE_RETIRE_MS, type JobLimits } from './worker-client';
export { WORKER_RESOURCE_LIMITS } from './worker-heap';
export { DiagnosticsPublisher } from './diagnostics-publisher';
export { ExpansionService, type Cancellable } from './expansion-service';
export { effectiveJqPath, jqConfigOf, toServerSettings } from './settings';
export { mergeCompletions } from './completion-merge';
