// Everything the schedule model takes as given, in ONE place: pScheduler's and pSConfig's agent's own defaults (each
// cited), what a live pScheduler showed (its NULL-priority defect, its loop's lag), and where the model has to choose
// because a template cannot say (when agents post their tasks, how long a post takes). docs/schedule.md explains each choice; the
// simulation and the task model read these values and nothing else for them.
//
// Sources: perfsonar/pscheduler at 1e8b19245d7f3be4dcbb7f949f01da0b4337d8c3 (the commit our plug-in data follows),
// abbreviated DB/ = pscheduler-server/pscheduler-server/database/, SCHED = .../daemons/scheduler; perfsonar/psconfig
// at 3ba992749cb8 (5.2.4), paths under psconfig/perfsonar-psconfig/psconfig/. The live measurements are the
// project's own (test/pscheduler/, docs/schedule.md "Checked against a real pScheduler").

export interface ScheduleAssumptions {
  /** DB/configurables.sql `schedule_horizon` default P1D: no run is proposed beyond now + horizon. */
  horizonSeconds: number;
  /** DB/configurables.sql `run_start_margin` default PT3S: nothing is proposed before now + margin. */
  runStartMarginSeconds: number;
  /** SCHED `--refresh` default PT10S: the scheduler looks for work at least this often. */
  refreshSeconds: number;
  /** SCHED `--retries` default 5: tries after a schedule conflict (HTTP 409) before "Gave up ...". */
  retries: number;
  /**
   * SCHED `--retry-backoff` default PT10S: after a conflict the worker sleeps `backoff x random.random()` before it
   * asks again (schedule_task ~773-791), so a retry sees a later `now`: the horizon and what is running move with it.
   */
  retryBackoffSeconds: number;
  /** SCHED `--first-run-offset-multi` PT10S / `--first-run-offset-single` PT5S: a task's first run is pushed out. */
  firstRunOffsetMultiSeconds: number;
  firstRunOffsetSingleSeconds: number;
  /**
   * The scheduler's loop (SCHED main_program ~941-1019) waits up to `refreshSeconds` between queries, and a task is
   * left out of the query while a worker schedules one of its runs: a run is tried at the first turn of its lead's
   * loop after it became due, and a task gets at most one run per turn. A turn lasts the refresh plus its own work,
   * so the loop's phase against any grid drifts: on the live pScheduler the lag from due to proposal swept 0-10 s,
   * later by about 0.15 s a minute (0.025 s a turn). The model takes that drift as the work of a turn, from a phase
   * per lead host spread by its id, so every lag from 0 to the period occurs over a day. A new task's first run is
   * tried when the task is created: its insert wakes the loop (DB/task.sql task_alter_notify, NOTIFY task_change).
   */
  loopOverheadSeconds: number;
  /**
   * pScheduler's NULL-priority defect, seen on every run a live pScheduler 5.2.x stored: DB/run.sql api_run_post
   * (~1138-1142) stores `LEAST(task.priority, run_priority)` with the local `run_priority` still NULL, so a run of a
   * task without `priority` has priority NULL; DB/schedule.sql api_proposed_times (~476-517) keeps only runs with
   * `run.priority >= use_priority` (NULL: never) or running, so pending runs are left out of the free time it
   * proposes and only the insert (DB/run.sql run_has_conflicts, `COALESCE(priority, 0)`) sees them. true (the
   * default, as measured): conflicts surface as retries and "Gave up ..."; false: proposals subtract every pending
   * run, as the design intends.
   */
  nullPriorityDefect: boolean;
  /**
   * pSConfig's agent renews its tasks (perfsonar/psconfig 5.2.4, psconfig/client/pscheduler/task_manager.py
   * add_task ~205-228, _evaluate_task ~372-411; psconfig/pscheduler/agent.py ~112): each task gets `schedule.until`
   * = its start (or, for a first task, the pass's time) + max(task-min-ttl, repeat x task-min-runs), and the first
   * pass at which that `until` is no later than `now + check-interval + task-min-ttl x fudge` posts a successor
   * starting at the old `until`. false: every task lives for the whole simulation.
   */
  agentRenewal: boolean;
  /** agent.py `task_min_ttl_seconds` default 86400 (P1D). */
  taskMinTtlSeconds: number;
  /** agent.py `task-min-runs` default 2. */
  taskMinRuns: number;
  /** agent.py `task-renewal-fudge-factor` default 0.25. */
  renewalFudgeFactor: number;
  /** base_agent.py `check_interval_seconds` default 3600 (PT1H): one pass of every agent each interval. */
  checkIntervalSeconds: number;
  /**
   * true: every agent makes its passes at the same moments (0, one check interval, ...); false: each agent's passes
   * keep a phase of their own, spread over the check interval, as agents that started when their hosts booted do.
   * Either way all tasks of one agent's pass share an until (add_task takes `int(time.time())` in the pass), so their
   * successors start at the same second.
   */
  agentsInStep: boolean;
  /**
   * Seconds one task takes to post. The agent posts a pass's new tasks one after another (task_manager.py
   * _create_tasks ~414-451), each a `POST /pscheduler/tasks` the lead answers after asking every participant, so the
   * k-th new task of a pass is created k times this after the pass starts, and equal repeats do not share one grid.
   * Measured on the live suite (docs/schedule.md "Checked against a real pScheduler"); a mesh whose participants
   * are far away or slow takes longer.
   */
  postSeconds: number;
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
  retryBackoffSeconds: 10,
  firstRunOffsetMultiSeconds: 10,
  firstRunOffsetSingleSeconds: 5,
  loopOverheadSeconds: 0.025,
  nullPriorityDefect: true,
  agentRenewal: true,
  taskMinTtlSeconds: 86_400,
  taskMinRuns: 2,
  renewalFudgeFactor: 0.25,
  checkIntervalSeconds: 3600,
  agentsInStep: false,
  postSeconds: 2,
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
    text: "Every agent makes its first pass within the first check interval of the warm-up day (at its start with agentsInStep), and one every check interval after; in a pass it posts the tasks it needs in the order pSConfig lists them (the expansion order), one every postSeconds. A task's first run is tried the moment it is created. Identical tasks of one agent are created once (the expansion marks them).",
  },
  {
    id: 'order',
    text: "Runs are tried one at a time, at the first turn of the lead's scheduler loop after they became due, in the order the scheduler would find them (when due, then wanted time, then task age); a task gets at most one try a turn. Each lead's loop turns every refresh + loopOverheadSeconds from a phase of its own, whatever the load. pScheduler's up to 100 parallel scheduling workers, and the races between them (pscheduler#575, the double submission of pscheduler#1189), are not modelled: no two tries see each other half-done.",
  },
  {
    id: 'retries',
    text: 'A try that meets a conflict at insert time (HTTP 409) is retried after a random back-off of up to retryBackoffSeconds, at that later time but on a timeline nobody else changed meanwhile, up to the retry limit; as in SCHED schedule_task, a success on the last allowed try is still reported as "Gave up after too many scheduling conflicts." (and its run is not kept).',
  },
  {
    id: 'hosts',
    text: "A host is the string a participant is known by (the spec's source/dest or *-node after expansion, or the agent's address when pScheduler would use the lead itself). Two spellings of one machine are two hosts; every participant runs pScheduler, is up, answers in time and has every tool of pScheduler 5.x.",
  },
  {
    id: 'schedule-fields',
    text: "A template schedule's own start, until and max-runs are not modelled (pSConfig's agent sets start and until itself). With agentRenewal each task lives until the until the agent gave it and its successor starts there; without, tasks repeat for the whole simulation. A task without repeat runs once per task the agent posts: once a day under renewal with the default lifetime.",
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
