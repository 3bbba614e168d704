// The one typed definition of every message between the host timeline webview and its host (the VS Code panel, or
// the Chromium test harness). The page gets the simulated runs as parallel arrays (a day of a 200-address mesh is
// hundreds of thousands of runs: a few arrays, not an object per run); everything it shows comes from these.
import type { SchedulingClassName } from '../../../common/protocol';

/** Class codes of the arrays, in plot-schedule's column order (pscheduler-core/pscheduler-core/plot-schedule). */
export const CLASS_CODES: readonly SchedulingClassName[] = ['exclusive', 'normal', 'background', 'background-multi'];

export const CLASS_LABEL: Record<SchedulingClassName, string> = {
  exclusive: 'Exclusive',
  normal: 'Normal',
  background: 'Background single-result',
  'background-multi': 'Background multi-result',
};

/** Run states of the arrays. */
export const RUN_SCHEDULED = 0;
export const RUN_NONSTART = 1;

/** States of the real runs (what pScheduler's run state is drawn as): finished and every other state (pending,
 *  running, …) like a scheduled run, a non-starter hatched, failed and missed as a failure in the error colour. */
export const REAL_RUN = 0;
export const REAL_NONSTART = 1;
export const REAL_FAILED = 2;

/** The runs read from each host's pScheduler (the last hosts read of the template), in parallel arrays. Kept apart
 *  from the simulated runs, so nothing that counts those changes. */
export interface TimelineReal {
  /** Per run: the host (index into `hosts`) whose pScheduler it was read from. */
  host: number[];
  /** The template task (index into `taskNames`) whose host entry holds the run's task; -1: none (extra). */
  task: number[];
  /** What the hover calls its task (index into `labels`): the template task's name, or an extra task's description. */
  label: number[];
  /** Where it is drawn: seconds from `start` (folded onto the span, see `folded`). */
  start: number[];
  end: number[];
  /** REAL_RUN, REAL_NONSTART or REAL_FAILED. */
  kind: number[];
  /** pScheduler's state (index into `states`). */
  state: number[];
  /** pScheduler's reason (index into `reasons`; -1: none). */
  reason: number[];
  /** The run's actual start, ISO 8601 UTC. */
  at: string[];
  labels: string[];
  states: string[];
  reasons: string[];
  /** Real runs were moved by whole spans onto the simulated span (placed by their time of day). */
  folded: boolean;
  /** The span read (e.g. P1D) and the newest read time, for the legend. */
  since?: string;
  readAt?: string;
}

export interface TimelineHost {
  address: string;
  exclusiveLoad: number;
  normalLoad: number;
  /** Tasks (combinations) it takes part in. */
  tasks: number;
}

/** What the panel shows: the opened template, task or agent. */
export interface TimelineFocus {
  /** The template's task to highlight. */
  task?: string;
  /** The host (an agent) to bring to the top. */
  host?: string;
}

export interface TimelineData {
  title: string;
  /** UNIX milliseconds of the span drawn; run times are seconds from `start`. */
  start: number;
  end: number;
  /** The template's tasks (a task's colour is its index here). */
  taskNames: string[];
  /** Addresses, agents and tools the combinations name, each once. */
  names: string[];
  hosts: TimelineHost[];
  /** Per combination (a task as one agent creates it), in parallel arrays (-1: not known): its template task, class
   *  (CLASS_CODES index), addresses and agent and tool (indexes into `names`), participants (host indexes whose
   *  schedules its runs occupy), run duration in whole seconds, and runs wanted, scheduled and not started. */
  comboTask: number[];
  comboClass: number[];
  comboAddresses: number[][];
  comboAgent: number[];
  comboTool: number[];
  comboParticipants: number[][];
  comboDuration: number[];
  comboWanted: number[];
  comboScheduled: number[];
  comboNonstart: number[];
  /** Per run: its combination, start and end (seconds from `start`), RUN_SCHEDULED or RUN_NONSTART, and the
   *  index of its reason in `reasons` (-1: none). */
  runCombination: number[];
  runStart: number[];
  runEnd: number[];
  runState: number[];
  runReason: number[];
  reasons: string[];
  focus?: TimelineFocus;
  /** What the host left out or could not read, one sentence each. */
  notes: string[];
  /** The hosts' real runs, when the template's hosts were read (the Hosts view). */
  real?: TimelineReal;
}

export type HostToTimeline =
  | { type: 'status'; loading: boolean; error?: string }
  | { type: 'data'; data: TimelineData }
  | { type: 'focus'; focus: TimelineFocus };

export type TimelineToHost =
  | { type: 'ready' }
  | { type: 'refresh' }
  /** Show this task (combination) in the template. */
  | { type: 'open'; task: string; addresses: string[] }
  | { type: 'log'; level: 'info' | 'error'; text: string };
