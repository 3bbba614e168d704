// What each host really runs (pure: no network): the template's tasks for each agent beside the tasks and runs read
// from its pScheduler (pscheduler-client/). See docs/hosts.md.
export { compareHosts, comparableTask, checksumKey, summariseRuns, missingHints } from './compare';
export type { CompareHostsInput } from './compare';
export {
  countsText,
  entryDetails,
  entryHasProblem,
  entryName,
  runsText,
  taskOnHosts,
  verdictText,
  type TaskOnHosts,
} from './wording';
export type {
  HostRead,
  HostReport,
  HostRunSummary,
  HostRunProblem,
  HostTaskEntry,
  HostTaskVerdict,
  HostsResult,
  ObservedArchiving,
  ObservedRun,
  ObservedTask,
} from '../../../../common/protocol';
