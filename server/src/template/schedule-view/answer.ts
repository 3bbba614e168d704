// The psconfig/schedule answer from a simulated schedule: the CLI's report (template/schedule/report.ts) with what the
// editor adds — each agent's load for the Tasks view, runs a day per template task for lenses and hovers, and, for the
// host timeline, the runs of as many hosts as fit in one answer (the asked task's or agent's hosts first, then the
// busiest; a host's runs are never split). Pure: the language server's worker calls it on its one simulation per
// document version (lsp/schedule-shared.ts).
import type {
  ScheduleAgentLoad,
  ScheduleParams,
  ScheduleResult,
  ScheduleTemplateTask,
} from '../../../../common/protocol';
import {
  hostLoads,
  scheduleReport,
  templateTaskSchedules,
  type ScheduleModel,
  type SimulationResult,
} from '../schedule';

/** Runs one psconfig/schedule answer carries at most (about 8 MB of JSON): hosts are filled in one by one. */
export const MAX_ANSWER_RUNS = 40_000;

/** What the answer holds besides the document's identity and the time taken. */
export type ScheduleAnswer = Omit<ScheduleResult, 'uri' | 'version' | 'elapsedMs'>;

/**
 * The answer to `params` for one simulation. `epochMs`: UNIX ms of the simulation's time 0. `maxRuns`: the bound on
 * `runs` (tests use small ones).
 */
export function scheduleAnswer(
  model: ScheduleModel,
  sim: SimulationResult,
  epochMs: number,
  params: Omit<ScheduleParams, 'uri'>,
  maxRuns = MAX_ANSWER_RUNS,
): ScheduleAnswer {
  const span = {
    start: new Date(epochMs + sim.spanStart * 1000).toISOString(),
    end: new Date(epochMs + sim.spanEnd * 1000).toISOString(),
  };
  const notes: string[] = [];
  if (model.skipped)
    notes.push(
      `${model.skipped.toLocaleString('en')} combinations are not simulated: they fail to expand or pScheduler would refuse them.`,
    );
  let hosts = params.hosts?.length ? lower(params.hosts) : undefined;
  let runsLeftOut = 0;
  let report;
  if (params.runs) {
    const picked = pickHosts(model, sim, hostsFirst(model, params), hosts, maxRuns);
    hosts = picked.hosts;
    runsLeftOut = picked.leftOut;
    report = scheduleReport(model, sim, { epochMs, hosts, runs: true });
    if (report.runs && report.runs.length > maxRuns) {
      runsLeftOut += report.runs.length - maxRuns;
      report.runs = report.runs.slice(0, maxRuns);
    }
  } else report = scheduleReport(model, sim, { epochMs, hosts });
  return {
    span,
    hosts: report.hosts,
    tasks: params.noTasks ? [] : report.tasks,
    ...(report.runs ? { runs: report.runs } : {}),
    agents: agentLoads(model),
    templateTasks: templateTasksOf(model, sim),
    ...(runsLeftOut ? { runsLeftOut } : {}),
    notes,
  };
}

function lower(list: readonly string[]): string[] {
  return list.map((h) => h.trim().toLowerCase()).filter(Boolean);
}

/** Hosts the answer starts with: the asked task's participants, then the agent's lead hosts. */
function hostsFirst(model: ScheduleModel, params: Omit<ScheduleParams, 'uri'>): number[] {
  const first: number[] = [];
  const add = (h: number): void => void (first.includes(h) || first.push(h));
  if (params.task) for (const t of model.tasks) if (t.task === params.task) t.participants.forEach(add);
  if (params.agent)
    for (const t of model.tasks) if (t.agent === params.agent && t.participants.length) add(t.participants[0]);
  return first;
}

/** Is a logged run's wanted time inside the simulated span (after the warm-up)? */
function inSpan(sim: SimulationResult, r: number): boolean {
  return sim.runs.wanted[r] >= sim.spanStart && sim.runs.wanted[r] < sim.spanEnd;
}

/**
 * The hosts whose runs the answer carries: `first`, then the busiest, while their runs in the span fit in `maxRuns`
 * (at least one host). `only`: a host filter the request gave. `leftOut`: runs in the span on no carried host.
 */
function pickHosts(
  model: ScheduleModel,
  sim: SimulationResult,
  first: number[],
  only: string[] | undefined,
  maxRuns: number,
): { hosts: string[]; leftOut: number } {
  const perHost = new Int32Array(model.hosts.length);
  const log = sim.runs;
  for (let r = 0; r < log.length; r++) {
    if (!inSpan(sim, r)) continue;
    for (const h of new Set(model.tasks[log.task[r]].participants)) perHost[h]++;
  }
  const loads = hostLoads(model);
  const allowed = (h: number): boolean => !only || only.includes(model.hosts[h].toLowerCase());
  const rest = loads
    .map((_, h) => h)
    .filter((h) => !first.includes(h))
    .sort(
      (a, b) => loads[b].exclusiveLoad - loads[a].exclusiveLoad || loads[b].normalLoad - loads[a].normalLoad || a - b,
    );
  const picked = new Set<number>();
  let runs = 0;
  for (const h of [...first, ...rest].filter(allowed)) {
    if (picked.size && runs + perHost[h] > maxRuns) break;
    picked.add(h);
    runs += perHost[h];
  }
  let leftOut = 0;
  for (let r = 0; r < log.length; r++)
    if (inSpan(sim, r) && !model.tasks[log.task[r]].participants.some((h) => picked.has(h))) leftOut++;
  return { hosts: [...picked].map((h) => model.hosts[h]), leftOut };
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
    classes: t.classes,
    once: t.once,
  }));
}
