// The task diff (pure: no LSP or VS Code imports): what a change to a template does to the tasks each agent
// creates. See docs/task-diff.md.
export { diffExpansions, changeLosesSomething, RENAME_NOTE } from './diff';
export type { DiffSideInput, LoadShares } from './diff';
export { taskParts, PRIVATE_SPEC_NOTE } from './parts';
export { jsonEqual } from './json-equal';
export { compareTemplates, diagnosticsOf } from './compare';
export { scheduleHostLoads } from './host-loads';
export type { CompareSide, CompareOptions } from './compare';
// The result's types live in common/protocol.ts (the editor receives them too), its wording in
// common/task-diff-text.ts.
export type {
  TaskDiffAgent,
  TaskDiffPart,
  TaskDiffResult,
  TaskDiffSide,
  TaskDiffTask,
} from '../../../../common/protocol';
