// The task expansion engine (pure: no LSP or VS Code imports). See docs/task-preview.md.
export { expandTemplate, prepareTemplate } from './engine';
export type { ExpandOptions, ExpansionResult } from './engine';
export { countCombinations } from './count';
export type { CountResult, TaskCount } from './count';
export { mergeIncludes, MERGED_SECTIONS } from './includes';
export type { IncludeLoader, IncludeOptions } from './includes';
export { stripHashKeys } from './template-view';
