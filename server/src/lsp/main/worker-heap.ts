// The background worker's heap settings (worker-client.ts starts the worker with them). The diagnostics benchmark
// starts its worker with the same settings, so that it measures what the server runs.
//
// Checking a 1.6 MB template allocates 12-15 MB of short-lived objects (the tree's views, the symbol index, the
// model, variable scans). With V8's default young generation a collection falls in the middle of nearly every
// check and copies everything the check still holds, about a third of the check's time; with 64 MB most checks
// end before one. Measured (`npm run bench -- diagnostics`): 49-51 ms -> 37-40 ms per check, heap +10-110 MB.
import type { ResourceLimits } from 'node:worker_threads';

export const WORKER_RESOURCE_LIMITS: ResourceLimits = { maxYoungGenerationSizeMb: 64 };
