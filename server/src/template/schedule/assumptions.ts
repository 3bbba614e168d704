// Everything the schedule model takes as given, in ONE place: pScheduler's own defaults (each cited), and where the
// model has to choose because a template cannot say (when agents create their tasks, how long the scheduler takes to
// notice a run, whether pScheduler's suspected defects apply). docs/schedule.md explains each choice; the
// simulation and the task model read these values and nothing else for them.
//
// Sources: perfsonar/pscheduler at 1e8b19245d7f3be4dcbb7f949f01da0b4337d8c3 (the commit our plug-in data follows),
// abbreviated DB/ = pscheduler-server/pscheduler-server/database/, SCHED = .../daemons/scheduler.

export interface ScheduleAssumptions {
  /** DB/configurables.sql `schedule_horizon` default P1D: no run is proposed beyond now + horizon. */
  horizonSeconds: number;
  /** DB/configurables.sql `run_start_margin` default PT3S: nothing is proposed before now + margin. */
  runStartMarginSeconds: number;
  /** SCHED `--refresh` default PT10S: the scheduler looks for work at least this often. */
  refreshSeconds: number;
  /** SCHED `--retries` default 5: tries after a schedule conflict (HTTP 409) before "Gave up ...". */
  retries: number;
  /** SCHED `--first-run-offset-multi` PT10S / `--first-run-offset-single` PT5S: a task's first run is pushed out. */
  firstRunOffsetMultiSeconds: number;
  firstRunOffsetSingleSeconds: number;
  /**
   * Seconds between the moment a run becomes due to the scheduler (DB/schedule.sql `schedule_runs_to_schedule`:
   * `trynext < now + schedule_horizon - slip`) and the moment it is tried. The scheduler wakes on task changes and
   * at least every `refreshSeconds`, so this lies between about 1 s and the refresh; the model takes the refresh,
   * the end most favourable to the run (the search window is cut at now + horizon, see docs/schedule.md
   * "The horizon cuts the window").
   */
  pickDelaySeconds: number;
  /**
   * pScheduler's suspected NULL-priority defect (reference §2.5: a run of a task without `priority` is stored with
   * priority NULL, and `api_proposed_times` then leaves pending runs out of the free time it proposes; only the
   * insert-time check sees them). false: proposals subtract every pending run (the design's intent); true: they
   * subtract only runs running at the time of the proposal, and conflicts surface as retries.
   */
  nullPriorityDefect: boolean;
  /**
   * The perfSONAR toolkit's default limits (perfsonar/toolkit
   * toolkit/perfsonar-toolkit/etc/default_service_configs/pscheduler_limits.conf) are installed on every host: the
   * lead rewrites a `duration` under 5 s to PT5S for idle, idlebgm, latency, latencybg and throughput before the
   * tool's duration is computed.
   */
  toolkitLimitsRewrite: boolean;
  /** Simulated time before the span that is reported, so that the span starts in the steady state. */
  warmupSeconds: number;
}

export const DEFAULT_ASSUMPTIONS: Readonly<ScheduleAssumptions> = Object.freeze({
  horizonSeconds: 86_400,
  runStartMarginSeconds: 3,
  refreshSeconds: 10,
  retries: 5,
  firstRunOffsetMultiSeconds: 10,
  firstRunOffsetSingleSeconds: 5,
  pickDelaySeconds: 10,
  nullPriorityDefect: false,
  toolkitLimitsRewrite: true,
  warmupSeconds: 86_400,
});

/**
 * What the model does not do, or does one way among several. Each line is one simplification; docs/schedule.md
 * has the same list under "Simplifications" (test/unit/schedule/assumptions.test.ts keeps the two in step).
 */
export const SIMPLIFICATIONS: readonly { id: string; text: string }[] = [
  {
    id: 'creation',
    text: 'Every agent creates all of its tasks at the start of the warm-up day, in the order pSConfig lists them (the expansion order); the first run of each is tried then, oldest task first, as schedule_runs_to_schedule orders equal wanted times by task age.',
  },
  {
    id: 'order',
    text: "Runs are tried one at a time, in the order the scheduler would find them due (wanted time less horizon plus slip, then wanted time, then task age). pScheduler's up to 100 parallel scheduling workers, and the races between them (pscheduler#575, the double submission of pscheduler#1189), are not modelled: no two tries see each other half-done.",
  },
  {
    id: 'retries',
    text: 'A try that meets a conflict at insert time (HTTP 409) is retried at once, on an unchanged timeline, up to the retry limit; as in SCHED schedule_task, a success on the last allowed try is still reported as "Gave up after too many scheduling conflicts." (and its run is not kept).',
  },
  {
    id: 'hosts',
    text: "A host is the string a participant is known by (the spec's source/dest or *-node after expansion, or the agent's address when pScheduler would use the lead itself). Two spellings of one machine are two hosts; every participant runs pScheduler, is up, answers in time and has every tool of pScheduler 5.x.",
  },
  {
    id: 'schedule-fields',
    text: "A schedule's start, until and max-runs are not modelled: tasks repeat for the whole simulation (pSConfig's agent renews them before they expire). A task without repeat runs once, at creation.",
  },
  {
    id: 'priority',
    text: 'Priorities are ignored (every run has the same priority): no run preempts another.',
  },
  {
    id: 'limits',
    text: 'Limits other than the toolkit default rewrite are not applied to the simulation: a task over the default remote limits (60 s, 6 streams, UDP 50 Mb/s) is simulated as written and reported as a finding.',
  },
  {
    id: 'durations',
    text: "A tool whose duration program is not modelled (a few background tools) gets the spec's timeout, or 10 s; background runs never conflict, so this changes only their place on the timeline.",
  },
];
