// jq for template variables and address-class filters: binary resolution, a time-limited runner, batches.
export { resolveJqBinary, JQ_INSTALL_HINT } from './resolve';
export type { JqBinary, JqResolution } from './resolve';
export { createJqRunner, DEFAULT_JQ_TIMEOUT_MS } from './runner';
export type { JqRunner, JqRunOutcome, JqRunOptions, JqRunnerOptions } from './runner';
export { runJqBatch, buildBatchProgram, checkJqCompiles, getDefaultJqRunner } from './batch';
export type { JqBatchRequest, JqBatchResult, JqValueResult } from './batch';
