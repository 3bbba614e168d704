// The schedule model (pure: no LSP or VS Code imports): what pScheduler's scheduler would make of the tasks a
// template's agents create. docs/schedule.md describes it; the API for the editor and the CLI:
//
//   const model = buildScheduleModel(expansion.combinations);          // tools, durations, classes, participants
//   const sim = simulateSchedule(model, { days: 2, seed: 1, isCancelled });   // throws ScheduleCancelled
//   const report = scheduleReport(model, sim, { epochMs, runs: true });       // common/protocol.ts ScheduleReport
//   const findings = scheduleFindings(model, sim);                     // per template task and per host
//   const fixes = suggestScheduleFixes(model, sim, { task: 'mesh', sharing: ['other'] });   // re-simulated
// The ...InSlices forms give the same answers, awaiting a pause between short slices (the editor's worker).
export { DEFAULT_ASSUMPTIONS, SIMPLIFICATIONS, type ScheduleAssumptions } from './assumptions';
export {
  buildScheduleModel,
  hostLoads,
  type ScheduleHostLoad,
  type ScheduleModel,
  type ScheduleTask,
} from './task-model';
export {
  effectiveSlip,
  ScheduleCancelled,
  simulateSchedule,
  simulateScheduleInSlices,
  type ScheduleOverride,
  type SimulationOptions,
  type SimulationResult,
} from './simulate';
export { NONSTART_REASONS } from './run-log';
export { blockersOf, type HostBlockers } from './blockers';
export {
  isoTime,
  scheduleReport,
  taskTotals,
  templateTaskSchedules,
  type ReportOptions,
  type ScheduleHostRow,
  type ScheduleReport,
  type ScheduleRunRow,
  type ScheduleTaskRow,
  type TemplateTaskSchedule,
} from './report';
export {
  DEFAULT_REMOTE_LIMITS,
  remoteLimitsExceeded,
  scheduleFindings,
  type ScheduleFinding,
  type ScheduleFindingKind,
} from './findings';
export {
  suggestScheduleFixes,
  suggestScheduleFixesInSlices,
  type ScheduleSuggestion,
  type SuggestOptions,
} from './suggestions';
export { schedulingClassOf, participantsOf, mustAvoid } from './participants';
export { toolDuration } from './durations';
export { whyNothingRuns } from './nothing-runs';
