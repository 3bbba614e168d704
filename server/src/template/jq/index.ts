// jq for template variables and address-class filters: binary resolution, one contained runner, batches.
export { resolveJqBinary, JQ_INSTALL_HINT } from './resolve';
export type { JqBinary, JqResolution } from './resolve';
export { createJqRunner, DEFAULT_JQ_TIMEOUT_MS, jqMemoryLimitEnforced } from './runner';
export type { JqRunner, JqRunOutcome, JqRunOptions, JqRunnerOptions, JqFailureKind } from './runner';
export { runJqBatch, buildBatchProgram, checkJqCompiles, getDefaultJqRunner } from './batch';
export type { JqBatchRequest, JqBatchResult, JqValueResult } from './batch';
export { setJqConcurrency, jqRunsActive, DEFAULT_JQ_LIMITS, DEFAULT_JQ_CONCURRENCY } from './limits';
export type { JqLimits } from './limits';
export { containedAlive } from './contained';
export { refusedJqFeature, selfContained } from './program-check';
export { jqRunnerFor, JQ_RESTRICTED } from './config';
export type { JqConfig } from './config';
