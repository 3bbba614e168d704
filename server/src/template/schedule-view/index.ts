// What the editor shows of a template's simulated schedule (the model and simulation are template/schedule/'s):
// the psconfig/schedule answer (answer.ts) and the findings placed on the template as diagnostics with quick-fix
// data (diagnostics.ts). The language server's worker runs both on its one simulation per document version.
export { MAX_ANSWER_RUNS, scheduleAnswer, type ScheduleAnswer } from './answer';
export { notSimulated, scheduleDiagnostics, scheduleOfTask, tasksSharingSchedule } from './diagnostics';
export { scheduleText } from './schedule-text';
