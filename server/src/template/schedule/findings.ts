// What the model finds wrong with a template's schedule, per template task (aggregated over the pScheduler tasks its
// combinations create) and per host, with the facts behind each finding, for the editor's diagnostics, hovers and
// the CLI. Every finding comes from the model or the simulation: lost runs and who took their slots from the
// simulated run log, the rest from the task model.
import { blockersOfEach } from './blockers';
import { effectiveSlip, type SimulationResult } from './simulate';
import { NONSTART_REASONS, REASON_GAVE_UP, REASON_NO_TIMES, RUN_NONSTART } from './run-log';
import { taskTotals } from './report';
import { hostLoads, type ScheduleModel, type ScheduleTask } from './task-model';
import { isoSeconds } from '../pscheduler/tools';
import { pyTruthy } from './participants';
import { count, plural, pluralPlain } from '../../../../common/text';
import { jsonText } from '../../../../common/json';

export type ScheduleFindingKind =
  /** Some of the template task's pScheduler tasks lose runs in the simulation. */
  | 'lost-runs'
  /** Slip shorter than the run: the horizon cuts every window (docs/schedule.md "The horizon cuts the window"). */
  | 'horizon-cut'
  /** The run lasts as long as the repeat or longer: windows are skipped (pscheduler#1412's task). */
  | 'duration-reaches-repeat'
  /** Slip + duration reaches the repeat: pScheduler cuts the slip to repeat - duration. */
  | 'slip-cut'
  /** A throughput test a perfSONAR host's default limits refuse from a remote requester. */
  | 'remote-limits'
  /** A host whose exclusive runs need more time than there is. */
  | 'host-overloaded';

export interface ScheduleFinding {
  kind: ScheduleFindingKind;
  severity: 'warning' | 'information';
  /** The template task (every kind but host-overloaded). */
  task?: string;
  /** host-overloaded: the host's address. */
  host?: string;
  /** One paragraph, ready for a diagnostic or the CLI. */
  message: string;
  /** Model task indices concerned, worst first (lost-runs: most runs lost). */
  combinations: number[];
  /** lost-runs: the span's totals over the template task's pScheduler tasks. */
  runs?: { wanted: number; scheduled: number; nonstart: number; days: number };
  /** lost-runs: who held the slots, per host, most runs first (at most 3 hosts, 3 tasks each). */
  blockers?: { host: string; tasks: { task: string; addresses: string[]; runs: number }[] }[];
  /** remote-limits: each limit exceeded, in the limits file's own words. */
  limits?: string[];
}

/** perfsonar/toolkit pscheduler_limits.conf: the limits applied to requesters that are not local (the `default` class). */
export const DEFAULT_REMOTE_LIMITS = {
  time: 'Duration for throughput must be 60 seconds or less.',
  parallel: 'Throughput may only have six or fewer parallel streams.',
  udp: 'UDP throughput bandwidth must be less than 50 Mb/s',
} as const;

/**
 * Which of the default remote limits a throughput spec exceeds (throughput-default-time, -parallel, -udp). The
 * non-lead participant of a two-host throughput task sees the lead as a remote requester, so these apply whenever
 * the task has a second participant.
 */
export function remoteLimitsExceeded(t: ScheduleTask): string[] {
  if (t.testType !== 'throughput' || !twoHostsOrMore(t.participants)) return [];
  const s = t.spec;
  const out: string[] = [];
  const duration = typeof s.duration === 'string' ? isoSeconds(s.duration) : undefined;
  if (duration !== undefined && duration > 60) out.push(DEFAULT_REMOTE_LIMITS.time);
  if (typeof s.parallel === 'number' && s.parallel > 6) out.push(DEFAULT_REMOTE_LIMITS.parallel);
  if (s.udp === true && (s.bandwidth === undefined || s.bandwidth === null || (s.bandwidth as number) > 50_000_000))
    out.push(DEFAULT_REMOTE_LIMITS.udp);
  return out;
}

/** Does the list name at least two distinct hosts? (Asked of every task: no Set per task.) */
function twoHostsOrMore(participants: readonly number[]): boolean {
  for (let k = 1; k < participants.length; k++) if (participants[k] !== participants[0]) return true;
  return false;
}

export function scheduleFindings(model: ScheduleModel, sim: SimulationResult): ScheduleFinding[] {
  const out: ScheduleFinding[] = [];
  const byTask = new Map<string, ScheduleTask[]>();
  for (const t of model.tasks) {
    const list = byTask.get(t.task);
    if (list) list.push(t);
    else byTask.set(t.task, [t]);
  }
  for (const [name, tasks] of byTask) {
    const lost = lostRuns(model, sim, name, tasks);
    if (lost) out.push(lost);
    out.push(...scheduleShape(model, sim, name, tasks));
    const limits = remoteLimits(name, tasks);
    if (limits) out.push(limits);
  }
  const loads = hostLoads(model);
  const exclusiveTasks = exclusiveTasksOf(model, (id) => loads[id].exclusiveLoad > 1);
  loads.forEach((h, id) => {
    if (h.exclusiveLoad <= 1) return;
    const combinations = exclusiveTasks[id];
    out.push({
      kind: 'host-overloaded',
      severity: 'warning',
      host: h.address,
      message: `${h.address}: its exclusive runs need ${percent(h.exclusiveLoad)} of the time (exclusive load ${h.exclusiveLoad.toFixed(2)}, ${plural(combinations.length, 'exclusive task')}): pScheduler runs one at a time, so not all can run.`,
      combinations: combinations.map((t) => t.index),
    });
  });
  return out;
}

/**
 * Per host the exclusive tasks it takes part in, in model order, for the hosts `wanted` keeps (one pass over the
 * tasks, not one per host: a 200-host mesh has 39,800 tasks).
 */
function exclusiveTasksOf(model: ScheduleModel, wanted: (id: number) => boolean): ScheduleTask[][] {
  const out: ScheduleTask[][] = model.hosts.map(() => []);
  for (const t of model.tasks) {
    if (t.class !== 'exclusive') continue;
    const p = t.participants;
    for (let k = 0; k < p.length; k++) if (p.indexOf(p[k]) === k && wanted(p[k])) out[p[k]].push(t);
  }
  return out;
}

function lostRuns(
  model: ScheduleModel,
  sim: SimulationResult,
  name: string,
  tasks: ScheduleTask[],
): ScheduleFinding | undefined {
  let wanted = 0;
  let scheduled = 0;
  let nonstart = 0;
  const losing: { t: ScheduleTask; lost: number; wanted: number; scheduled: number }[] = [];
  for (const t of tasks) {
    const r = taskTotals(sim, t.index);
    wanted += r.wanted;
    scheduled += r.scheduled;
    nonstart += r.nonstart;
    if (r.scheduled < r.wanted)
      losing.push({ t, lost: r.wanted - r.scheduled, wanted: r.wanted, scheduled: r.scheduled });
  }
  if (losing.length === 0) return undefined;
  losing.sort((x, y) => y.lost - x.lost || x.t.index - y.t.index);
  const worst = losing[0];
  const blockers = blockersOfTasks(
    model,
    sim,
    losing.map((l) => l.t.index),
  );
  const days = sim.days;
  const perDay = (n: number): string => (days === 1 ? `${n}` : `${(n / days).toFixed(1)} a day`);
  const why = reasonCounts(sim, model, losing);
  const reasons = [
    why.noTimes ? `${count(why.noTimes)} "${NONSTART_REASONS.noTimes}"` : '',
    why.gaveUp ? `${count(why.gaveUp)} "${NONSTART_REASONS.gaveUp}"` : '',
  ].filter(Boolean);
  const lostADay = (wanted - scheduled) / Math.max(1, days);
  let message =
    `${count(scheduled)} of ${count(wanted)} runs of '${name}' would run in ${pluralPlain(days, 'simulated day')}: ` +
    `${plural(Math.round(lostADay), 'run')} a day lost in steady state` +
    (model.assumptions.agentRenewal ? ", with pSConfig's agent renewing its tasks" : '') +
    ` (${count(nonstart)} posted as non-starters${reasons.length ? `: ${reasons.join(', ')}` : ''}). ` +
    `${count(losing.length)} of ${count(tasks.length)} pScheduler tasks lose runs; worst ${worst.t.addresses.join(' → ')}: ` +
    `${perDay(worst.scheduled)} of ${perDay(worst.wanted)}.`;
  if (blockers.length)
    message += ` Their slots went to ${blockers
      .map((b) => `${b.tasks.map((x) => `'${x.task}' ${x.addresses.join(' → ')} (${x.runs})`).join(', ')} on ${b.host}`)
      .join('; ')}.`;
  return {
    kind: 'lost-runs',
    severity: 'warning',
    task: name,
    message,
    combinations: losing.map((l) => l.t.index),
    runs: { wanted, scheduled, nonstart, days },
    blockers,
  };
}

/** The span's non-starters of the given tasks, by pScheduler's reason (one pass over the run log). */
function reasonCounts(
  sim: SimulationResult,
  model: ScheduleModel,
  losing: readonly { t: ScheduleTask }[],
): { noTimes: number; gaveUp: number } {
  const out = { noTimes: 0, gaveUp: 0 };
  const asked = new Uint8Array(model.tasks.length);
  for (const l of losing) asked[l.t.index] = 1;
  const runs = sim.runs;
  for (let r = 0; r < runs.length; r++) {
    if (runs.state[r] !== RUN_NONSTART || asked[runs.task[r]] === 0) continue;
    const w = runs.wanted[r];
    if (w < sim.spanStart || w >= sim.spanEnd) continue;
    if (runs.reason[r] === REASON_NO_TIMES) out.noTimes++;
    else if (runs.reason[r] === REASON_GAVE_UP) out.gaveUp++;
  }
  return out;
}

/** The blockers of several tasks summed, the top 3 hosts and the top 3 tasks on each. */
function blockersOfTasks(
  model: ScheduleModel,
  sim: SimulationResult,
  tasks: number[],
): ScheduleFinding['blockers'] & {} {
  const perHost = new Map<number, Map<number, number>>();
  // The 50 worst are enough to name who takes the slots (an overloaded mesh has thousands).
  for (const found of blockersOfEach(model, sim.runs, sim.blockerQueries, tasks.slice(0, 50)))
    for (const hb of found) {
      let m = perHost.get(hb.host);
      if (!m) perHost.set(hb.host, (m = new Map<number, number>()));
      for (const b of hb.tasks) m.set(b.task, (m.get(b.task) ?? 0) + b.runs);
    }
  // Each host's total once, not in every comparison of the sort.
  const totals = [...perHost].map(([host, m]) => ({ host, m, total: [...m.values()].reduce((a, b) => a + b, 0) }));
  return totals
    .sort((x, y) => y.total - x.total || x.host - y.host)
    .slice(0, 3)
    .map(({ host, m }) => ({
      host: model.hosts[host],
      tasks: [...m]
        .sort((x, y) => y[1] - x[1] || x[0] - y[0])
        .slice(0, 3)
        .map(([i, runs]) => ({ task: model.tasks[i].task, addresses: model.tasks[i].addresses, runs })),
    }));
}

/** Slip and duration against the repeat, and the horizon cut, for the template task's schedule. */
function scheduleShape(
  model: ScheduleModel,
  sim: SimulationResult,
  name: string,
  tasks: ScheduleTask[],
): ScheduleFinding[] {
  const out: ScheduleFinding[] = [];
  const cut = tasks.filter((t) => sim.horizonCut[t.index] > 0);
  if (cut.length) {
    const t = cut[0];
    const a = model.assumptions;
    const cutADay = cut.reduce((n, x) => n + sim.horizonCut[x.index], 0) / Math.max(1, sim.days);
    // Under renewal only a successor's runs beyond its posting + the horizon are tried at the edge: the last
    // (check interval + lifetime x fudge) of each task's life (task_manager.py _evaluate_task).
    const lead = a.checkIntervalSeconds + a.taskMinTtlSeconds * a.renewalFudgeFactor;
    const renewal = a.agentRenewal
      ? ` pSConfig's agent posts each task's successor up to ${seconds(lead)} before it starts (check interval + a quarter of its lifetime at the defaults), so the runs of each task's last hours are tried at the horizon edge: ${plural(Math.round(cutADay), 'run')} a day lost in steady state over ${plural(cut.length, 'pScheduler task')}.`
      : '';
    out.push({
      kind: 'horizon-cut',
      severity: 'warning',
      task: name,
      message: `slip ${seconds(sim.slipSeconds[t.index])} is shorter than a run of '${name}' (${seconds(t.durationSeconds)} with ${t.tool ?? 'its tool'}): pScheduler tries a run only once its time is within the schedule horizon less the slip, and looks for time no further than the horizon, so the window left is shorter than the run ("${NONSTART_REASONS.noTimes}").${renewal} Give the schedule a slip of at least the run's duration.`,
      combinations: cut.map((x) => x.index),
    });
  }
  const long = tasks.filter((t) => {
    const repeat = sim.repeatSeconds[t.index];
    return repeat !== undefined && t.durationSeconds >= repeat;
  });
  if (long.length) {
    const t = long[0];
    out.push({
      kind: 'duration-reaches-repeat',
      severity: 'warning',
      task: name,
      message: `a run of '${name}' takes ${seconds(t.durationSeconds)} (${t.tool ?? 'its tool'}) but the task repeats every ${seconds(sim.repeatSeconds[t.index]!)}: each run ends after the next one should start, so windows are skipped (pscheduler#1412).`,
      combinations: long.map((x) => x.index),
    });
    return out;
  }
  const clipped = tasks.filter((t) => {
    const slip = sim.slipSeconds[t.index];
    return slip > 0 && effectiveSlip(slip, t.durationSeconds, sim.repeatSeconds[t.index]) < slip;
  });
  if (clipped.length) {
    const t = clipped[0];
    const repeat = sim.repeatSeconds[t.index]!;
    out.push({
      kind: 'slip-cut',
      severity: 'information',
      task: name,
      message: `slip ${seconds(sim.slipSeconds[t.index])} plus the run (${seconds(t.durationSeconds)}) reaches the repeat (${seconds(repeat)}): pScheduler cuts the slip to ${seconds(repeat - t.durationSeconds)}, so every run still lies within its own repeat window.`,
      combinations: clipped.map((x) => x.index),
    });
  }
  return out;
}

function remoteLimits(name: string, tasks: ScheduleTask[]): ScheduleFinding | undefined {
  const hit: { t: ScheduleTask; limits: string[] }[] = [];
  for (const t of tasks) {
    const limits = remoteLimitsExceeded(t);
    if (limits.length > 0) hit.push({ t, limits });
  }
  if (hit.length === 0) return undefined;
  const limits = [...new Set(hit.flatMap((x) => x.limits))];
  const spec = hit[0].t.spec;
  const what = [
    typeof spec.duration === 'string' ? `duration ${spec.duration}` : undefined,
    typeof spec.parallel === 'number' ? `parallel ${spec.parallel}` : undefined,
    pyTruthy(spec.udp) ? `udp, bandwidth ${jsonText(spec.bandwidth ?? 'not set')}` : undefined,
  ]
    .filter(Boolean)
    .join(', ');
  return {
    kind: 'remote-limits',
    severity: 'warning',
    task: name,
    message: `'${name}' (${what}) is over the limits a perfSONAR host applies by default to requests from other hosts (pscheduler_limits.conf): ${limits.map((l) => `"${l}"`).join(' ')} A participant with the default limits refuses the task (${count(hit.length)} of ${count(tasks.length)} pScheduler tasks).`,
    combinations: hit.map((x) => x.t.index),
    limits,
  };
}

function percent(x: number): string {
  return `${Math.round(x * 100)} %`;
}

/** 19 s, 4 min 10 s, 4 h, 1 d 2 s. */
export function seconds(s: number): string {
  const parts: string[] = [];
  let rest = Math.round(s);
  for (const [unit, size] of [
    ['d', 86_400],
    ['h', 3600],
    ['min', 60],
  ] as const) {
    if (rest >= size) {
      parts.push(`${Math.floor(rest / size)} ${unit}`);
      rest %= size;
    }
  }
  if (rest || parts.length === 0) parts.push(`${rest} s`);
  return parts.join(' ');
}
