// The worker thread of the language server: its message loop (thread.ts) and the dispatcher of its jobs
// (dispatcher.ts), with what answers them: diagnostics, task counts, expansion (shared per version and sliced),
// dashboard grids, the simulated schedule, task comparisons, and the two priorities they run at.
export { isBackgroundWorker, serveBackgroundJobs } from './thread';
export { JobDispatcher } from './dispatcher';
export { JobPriority } from './job-priority';
export { sliceExpansion, capAnswer } from './expansion-slice';
