// What both threads of the language server read: the worker's jobs (names, arguments, answers, messages), the
// engine's input, cancellation flags, heap figures.
export * from './jobs';
export * from './engine-input';
export * from './memory-report';
