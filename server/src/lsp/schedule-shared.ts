// Where the engine runs (the background worker, or in-process without one): the simulated schedule of a document,
// once per version and settings, made from the full expansion kept there (expansion-shared.ts) and shared by the
// diagnostics pass, the psconfig/schedule request (the host timeline, the Tasks view's loads) and the task lenses.
// The simulation polls its cancellation: a newer version of the document, the edit that makes a diagnostics pass
// stale, and a time limit all stop it; only small answers cross to the main thread (runs are bounded).
import type {
  ScheduleAgentLoad,
  ScheduleParams,
  ScheduleResult,
  ScheduleTemplateTask,
} from '../../../common/protocol';
import { analyseTemplate } from '../template/model';
import { firstMember, keyOf } from '../template/parse';
import type { TemplateDiagnostic } from '../template/rules/diagnostic';
import { scheduleDiagnostics, tasksSharingSchedule } from '../template/rules/schedule';
import {
  buildScheduleModel,
  hostLoads,
  ScheduleCancelled,
  scheduleFindings,
  scheduleReport,
  simulateSchedule,
  suggestScheduleFixes,
  templateTaskSchedules,
  type ScheduleFinding,
  type ScheduleModel,
  type ScheduleSuggestion,
  type SimulationResult,
} from '../template/schedule';
import type { EngineInput } from './expansion-engine';
import type { SharedExpansions } from './expansion-shared';

/** Days simulated after the warm-up day, and the seed of `sliprand`'s choices (the CLI's defaults). */
export const SCHEDULE_DAYS = 2;
export const SCHEDULE_SEED = 1;
/** A simulation stops after this long (the CLI has no limit): the editor says so instead of waiting. */
export const SCHEDULE_LIMIT_MS = 25_000;
/** Time the diagnostics pass may spend re-simulating schedule changes for its quick fixes. */
export const SUGGESTION_LIMIT_MS = 8_000;
/** Runs one psconfig/schedule answer carries at most (about 8 MB of JSON): hosts are filled in one by one. */
export const MAX_ANSWER_RUNS = 40_000;

export interface ScheduleAnalysis {
  model: ScheduleModel;
  sim: SimulationResult;
  /** UNIX ms of the simulation's time 0 (the warm-up's start): the span begins today at 00:00 UTC. */
  epochMs: number;
  elapsedMs: number;
  findings?: ScheduleFinding[];
  /** Per template task, the schedule changes found to fit (computed once, by the first diagnostics pass). */
  suggestions?: Map<string, ScheduleSuggestion[]>;
}

export type ScheduleOutcome = { analysis: ScheduleAnalysis } | { error: string; cancelled?: true };

interface Run {
  version: number | null;
  key: string;
  outcome: Promise<ScheduleOutcome>;
  cancelled: boolean;
}

const DAY_MS = 86_400_000;

export class SharedSchedules {
  private readonly runs = new Map<string, Run>();
  /** Simulations started (for tests). */
  simulations = 0;

  constructor(private readonly expansions: SharedExpansions) {}

  /**
   * The simulated schedule of this version (shared while the version and settings are the same). `isCancelled`
   * (a diagnostics pass's edit flag) stops the simulation it starts, as a newer version does.
   */
  analysis(input: EngineInput, isCancelled?: () => boolean): Promise<ScheduleOutcome> {
    const key = this.expansions.keyOf(input);
    const hit = this.runs.get(input.uri);
    if (hit && !hit.cancelled && input.version !== null && hit.version === input.version && hit.key === key)
      return hit.outcome;
    if (hit) hit.cancelled = true;
    const run: Run = { version: input.version, key, cancelled: false, outcome: Promise.resolve({ error: '' }) };
    run.outcome = this.simulate(input, () => run.cancelled || (isCancelled?.() ?? false));
    if (input.version !== null) this.runs.set(input.uri, run);
    void run.outcome.then((o) => {
      // A stopped simulation is not kept: the next request starts again.
      if ('error' in o && this.runs.get(input.uri) === run) this.runs.delete(input.uri);
    });
    return run.outcome;
  }

  forget(uri: string): void {
    const run = this.runs.get(uri);
    if (run) run.cancelled = true;
    this.runs.delete(uri);
  }

  private async simulate(input: EngineInput, isCancelled: () => boolean): Promise<ScheduleOutcome> {
    const full = await this.expansions.expand({ ...input, agentAddresses: [], limit: undefined }, isCancelled);
    if (isCancelled() || full.error === 'cancelled') return { error: 'cancelled', cancelled: true };
    if (full.error) return { error: `The template cannot be expanded: ${full.error}` };
    const started = Date.now();
    const deadline = started + SCHEDULE_LIMIT_MS;
    this.simulations++;
    try {
      const model = buildScheduleModel(full.combinations);
      const sim = simulateSchedule(model, {
        days: SCHEDULE_DAYS,
        seed: SCHEDULE_SEED,
        isCancelled: () => isCancelled() || Date.now() > deadline,
      });
      const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
      return { analysis: { model, sim, epochMs: today - sim.spanStart * 1000, elapsedMs: Date.now() - started } };
    } catch (err) {
      if (!(err instanceof ScheduleCancelled)) throw err;
      if (isCancelled()) return { error: 'cancelled', cancelled: true };
      return {
        error: `The simulation of ${full.combinations.length.toLocaleString('en')} tasks was stopped after ${SCHEDULE_LIMIT_MS / 1000} s; psconfig-tools schedule simulates it without a time limit.`,
      };
    }
  }

  /** The psconfig/schedule answer: loads, per-task counts and, when asked, the runs of as many hosts as fit. */
  async answer(input: EngineInput, params: ScheduleParams): Promise<ScheduleResult> {
    const t0 = Date.now();
    const o = await this.analysis(input);
    const base = { uri: input.uri, version: input.version, elapsedMs: 0 };
    if ('error' in o)
      return { ...base, error: o.error, hosts: [], tasks: [], agents: [], templateTasks: [], notes: [], elapsedMs: Date.now() - t0 };
    const { model, sim, epochMs } = o.analysis;
    const spanEnd = epochMs + sim.spanEnd * 1000;
    const span = { start: new Date(epochMs + sim.spanStart * 1000).toISOString(), end: new Date(spanEnd).toISOString() };
    const notes: string[] = [];
    if (model.skipped)
      notes.push(
        `${model.skipped.toLocaleString('en')} combinations are not simulated: they fail to expand or pScheduler would refuse them.`,
      );
    const all = scheduleReport(model, sim, { epochMs });
    let hosts = params.hosts?.length ? lower(params.hosts) : undefined;
    let runsLeftOut: number | undefined;
    let report = all;
    if (params.runs) {
      const picked = pickHosts(model, sim, hostsFirst(model, params), hosts);
      hosts = picked.hosts;
      runsLeftOut = picked.leftOut || undefined;
      report = scheduleReport(model, sim, { epochMs, hosts, runs: true });
      if (report.runs && report.runs.length > MAX_ANSWER_RUNS) {
        runsLeftOut = (runsLeftOut ?? 0) + report.runs.length - MAX_ANSWER_RUNS;
        report.runs = report.runs.slice(0, MAX_ANSWER_RUNS);
      }
    } else if (hosts) report = scheduleReport(model, sim, { epochMs, hosts });
    return {
      ...base,
      span,
      hosts: report.hosts,
      tasks: params.noTasks ? [] : report.tasks,
      ...(report.runs ? { runs: report.runs } : {}),
      agents: agentLoads(model),
      templateTasks: templateTasksOf(model, sim),
      ...(runsLeftOut ? { runsLeftOut } : {}),
      notes,
      elapsedMs: o.analysis.elapsedMs + (Date.now() - t0),
    };
  }

  /**
   * The schedule's findings as diagnostics of `input.text`, with quick fixes the re-simulation showed to fit (worked
   * out once per version, within SUGGESTION_LIMIT_MS, the tasks losing most runs first).
   */
  async diagnostics(input: EngineInput, isCancelled: () => boolean): Promise<TemplateDiagnostic[] | 'cancelled'> {
    const o = await this.analysis(input, isCancelled);
    if ('error' in o) return o.cancelled ? 'cancelled' : notSimulated(input.text, o.error);
    const a = o.analysis;
    const template = analyseTemplate(input.text);
    a.findings ??= scheduleFindings(a.model, a.sim);
    if (!a.suggestions) {
      const suggestions = new Map<string, ScheduleSuggestion[]>();
      const deadline = Date.now() + SUGGESTION_LIMIT_MS;
      const stop = (): boolean => isCancelled() || Date.now() > deadline;
      const losing = a.findings
        .filter((f) => f.kind === 'lost-runs' && f.task !== undefined)
        .sort((x, y) => (y.runs?.nonstart ?? 0) - (x.runs?.nonstart ?? 0));
      try {
        for (const f of losing) {
          if (stop()) break;
          const task = f.task!;
          const found = suggestScheduleFixes(a.model, a.sim, {
            task,
            sharing: tasksSharingSchedule(template, task),
            isCancelled: stop,
          });
          if (found.length) suggestions.set(task, found);
        }
      } catch (err) {
        if (!(err instanceof ScheduleCancelled)) throw err;
      }
      if (isCancelled()) return 'cancelled';
      a.suggestions = suggestions;
    }
    const names = a.model.tasks;
    return scheduleDiagnostics(template, a.findings, a.suggestions, (f) => [
      ...new Set(f.combinations.map((i) => names[i].task)),
    ]);
  }
}

function lower(list: readonly string[]): string[] {
  return list.map((h) => h.trim().toLowerCase()).filter(Boolean);
}

/** Hosts the answer starts with: the asked task's participants, then the agent's lead hosts. */
function hostsFirst(model: ScheduleModel, params: ScheduleParams): number[] {
  const first: number[] = [];
  const add = (h: number): void => void (first.includes(h) || first.push(h));
  if (params.task) for (const t of model.tasks) if (t.task === params.task) t.participants.forEach(add);
  if (params.agent) for (const t of model.tasks) if (t.agent === params.agent && t.participants.length) add(t.participants[0]);
  return first;
}

/**
 * The hosts whose runs the answer carries: `first`, then the busiest, while their runs in the span fit in
 * MAX_ANSWER_RUNS (a host's runs are never split). `only`: a host filter the request gave.
 */
function pickHosts(
  model: ScheduleModel,
  sim: SimulationResult,
  first: number[],
  only: string[] | undefined,
): { hosts: string[]; leftOut: number } {
  const perHost = new Int32Array(model.hosts.length);
  let total = 0;
  const log = sim.runs;
  for (let r = 0; r < log.length; r++) {
    if (log.wanted[r] < sim.spanStart || log.wanted[r] >= sim.spanEnd) continue;
    total++;
    for (const h of model.tasks[log.task[r]].participants) perHost[h]++;
  }
  const loads = hostLoads(model);
  const allowed = (h: number): boolean => !only || only.includes(model.hosts[h].toLowerCase());
  const order = [
    ...first,
    ...loads
      .map((_, h) => h)
      .filter((h) => !first.includes(h))
      .sort((a, b) => loads[b].exclusiveLoad - loads[a].exclusiveLoad || loads[b].normalLoad - loads[a].normalLoad || a - b),
  ].filter(allowed);
  const picked: string[] = [];
  let runs = 0;
  for (const h of order) {
    if (picked.length && runs + perHost[h] > MAX_ANSWER_RUNS) break;
    picked.push(model.hosts[h]);
    runs += perHost[h];
  }
  // A run on two picked hosts was counted twice: the runs left out are at least the total less those carried.
  let carried = 0;
  const keep = new Set(picked.map((h) => h.toLowerCase()));
  for (let r = 0; r < log.length; r++) {
    if (log.wanted[r] < sim.spanStart || log.wanted[r] >= sim.spanEnd) continue;
    if (model.tasks[log.task[r]].participants.some((h) => keep.has(model.hosts[h].toLowerCase()))) carried++;
  }
  return { hosts: picked, leftOut: total - carried };
}

/** Each agent's lead hosts (the first participant of the tasks it creates) and the largest load among them. */
function agentLoads(model: ScheduleModel): ScheduleAgentLoad[] {
  const loads = hostLoads(model);
  const byAgent = new Map<string, Set<number>>();
  for (const t of model.tasks) {
    if (!t.participants.length) continue;
    let s = byAgent.get(t.agent);
    if (!s) byAgent.set(t.agent, (s = new Set()));
    s.add(t.participants[0]);
  }
  return [...byAgent].map(([agent, hosts]) => {
    const list = [...hosts].sort((a, b) => loads[b].exclusiveLoad - loads[a].exclusiveLoad || a - b);
    return {
      agent,
      hosts: list.map((h) => model.hosts[h]),
      exclusiveLoad: Math.max(...list.map((h) => loads[h].exclusiveLoad)),
      normalLoad: Math.max(...list.map((h) => loads[h].normalLoad)),
    };
  });
}

function templateTasksOf(model: ScheduleModel, sim: SimulationResult): ScheduleTemplateTask[] {
  const avg = (perDay: number[]): number => perDay.reduce((a, b) => a + b, 0) / Math.max(1, perDay.length);
  return templateTaskSchedules(model, sim).map((t) => ({
    task: t.task,
    combinations: t.combinations,
    wantedPerDay: avg(t.wantedPerDay),
    scheduledPerDay: avg(t.scheduledPerDay),
    nonstartPerDay: avg(t.nonstartPerDay),
    losing: t.losing,
    durationSeconds: t.durationSeconds,
    tools: t.tools,
  }));
}

/** A simulation that could not finish: one note on the `tasks` section, so a silent editor is not taken for "fits". */
function notSimulated(text: string, error: string): TemplateDiagnostic[] {
  if (!error.startsWith('The simulation')) return [];
  const prop = firstMember(analyseTemplate(text).parsed.root, 'tasks');
  const key = prop ? keyOf(prop) : undefined;
  const at = key ? { start: key.offset, end: key.offset + key.length } : { start: 0, end: 1 };
  return [
    {
      code: 'psconfig/schedule-not-simulated',
      severity: 'information',
      message: error,
      start: at.start,
      end: at.end,
    },
  ];
}
