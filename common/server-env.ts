// The environment the language server's process is started with (the VS Code client's spawn options; the memory
// bench starts it the same way; other editors can set the same variables, docs/other-editors.md).
//
// glibc's malloc raises its mmap threshold to the size of each large block freed (up to 32 MB), so after one large
// document every later buffer of up to that size (LSP messages, the text posted to the worker, jq's output) comes
// from the malloc heaps instead of its own mapping, and the heaps keep the freed holes; each thread's arena keeps its
// own after the thread ended (the retired worker's, V8's helper threads'). After 1,000 fuzzed templates and 45 s idle
// that was 70-90 MB of resident memory in malloc's heaps (1.46-1.57x the first inputs'; with these fixed thresholds,
// 19 MB: 0.97x; `npm run bench -- memory`). Blocks over 128 KB then get mappings of their own, returned when freed,
// and a heap gives back what is free at its top once it exceeds 128 KB. Other allocators ignore the variables.
export const SERVER_PROCESS_ENV: Readonly<Record<string, string>> = {
  MALLOC_MMAP_THRESHOLD_: '131072',
  MALLOC_TRIM_THRESHOLD_: '131072',
};
