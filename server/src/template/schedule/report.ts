// A simulation as the CLI prints it and the host timeline panel reads it (common/protocol.ts ScheduleReport):
// hosts with their loads, one row per pScheduler task with its counts over the span, and, when asked, every run of
// the span with ISO 8601 UTC times.
import type { ScheduleHostRow, ScheduleReport, ScheduleRunRow, ScheduleTaskRow } from '../../../../common/protocol';
export type { ScheduleHostRow, ScheduleReport, ScheduleRunRow, ScheduleTaskRow } from '../../../../common/protocol';
import { reasonText, RUN_SCHEDULED } from './run-log';
import type { SimulationResult } from './simulate';
import { hostLoads, type ScheduleModel } from './task-model';

export interface ReportOptions {
  /** The moment the warm-up starts (milliseconds since the epoch, UTC): the simulation's time 0. */
  epochMs: number;
  /** Only these hosts, and the tasks and runs they take part in (case-insensitive; default: all). */
  hosts?: readonly string[];
  /** List every run of the span. */
  runs?: boolean;
}

/** The span's totals of a task: wanted, scheduled and non-started runs (summed over the days). */
export function taskTotals(
  sim: SimulationResult,
  task: number,
): { wanted: number; scheduled: number; nonstart: number } {
  let wanted = 0;
  let scheduled = 0;
  let nonstart = 0;
  for (let d = 0; d < sim.days; d++) {
    const cell = task * sim.days + d;
    wanted += sim.wanted[cell];
    scheduled += sim.scheduled[cell];
    nonstart += sim.nonstart[cell];
  }
  return { wanted, scheduled, nonstart };
}

/** Which host ids a host filter keeps (every host when there is no filter). */
export function hostFilter(model: ScheduleModel, hosts: readonly string[] | undefined): (id: number) => boolean {
  if (!hosts || hosts.length === 0) return () => true;
  const wanted = new Set(hosts.map((h) => h.trim().toLowerCase()));
  const keep = model.hosts.map((address) => wanted.has(address.toLowerCase()));
  return (id) => keep[id];
}

export function scheduleReport(model: ScheduleModel, sim: SimulationResult, options: ReportOptions): ScheduleReport {
  const keepHost = hostFilter(model, options.hosts);
  const keepTask = model.tasks.map((t) => t.participants.some(keepHost));
  const hosts: ScheduleHostRow[] = hostLoads(model)
    .filter((_, id) => keepHost(id))
    .map((h) => ({ ...h, exclusiveLoad: round(h.exclusiveLoad), normalLoad: round(h.normalLoad) }));
  const tasks: ScheduleTaskRow[] = [];
  for (const t of model.tasks) {
    if (!keepTask[t.index]) continue;
    // The fields in the order; `tool` absent when no tool can run the test.
    const row: ScheduleTaskRow = {
      task: t.task,
      addresses: t.addresses,
      agent: t.agent,
      ...taskTotals(sim, t.index),
      durationSeconds: t.durationSeconds,
      tool: t.tool,
      class: t.class,
    };
    if (row.tool === undefined) delete row.tool;
    tasks.push(row);
  }
  const report: ScheduleReport = { hosts, tasks };
  if (options.runs) report.runs = runRows(model, sim, keepTask, options.epochMs);
  return report;
}

/** The runs wanted in the span, by start time. */
function runRows(model: ScheduleModel, sim: SimulationResult, keepTask: boolean[], epochMs: number): ScheduleRunRow[] {
  const log = sim.runs;
  const picked: number[] = [];
  for (let r = 0; r < log.length; r++)
    if (keepTask[log.task[r]] && log.wanted[r] >= sim.spanStart && log.wanted[r] < sim.spanEnd) picked.push(r);
  picked.sort((x, y) => log.start[x] - log.start[y] || log.task[x] - log.task[y]);
  return picked.map((r) => {
    const t = model.tasks[log.task[r]];
    const row: ScheduleRunRow = {
      task: t.task,
      addresses: t.addresses,
      participants: t.participants.map((h) => model.hosts[h]),
      class: t.class,
      start: isoTime(epochMs, log.start[r]),
      end: isoTime(epochMs, log.end[r]),
      state: log.state[r] === RUN_SCHEDULED ? 'scheduled' : 'nonstart',
    };
    const reason = reasonText(log.reason[r]);
    if (reason !== undefined) row.reason = reason;
    return row;
  });
}

/** `2026-11-26T00:00:10Z`: whole seconds, as pScheduler normalises run times. */
export function isoTime(epochMs: number, seconds: number): string {
  return new Date(epochMs + Math.round(seconds * 1000)).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Loads to four decimals (a JSON report need not carry float noise). */
function round(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}

/** A template task over the span: its pScheduler tasks' runs summed, for hovers and lenses ("runs per day"). */
export interface TemplateTaskSchedule {
  task: string;
  /** pScheduler tasks (combinations) modelled. */
  combinations: number;
  /** Summed over the combinations, per day of the span. */
  wantedPerDay: number[];
  scheduledPerDay: number[];
  nonstartPerDay: number[];
  /** Combinations that lose runs (scheduled < wanted over the span). */
  losing: number;
  /** The tools picked, the classes and the run durations (seconds) met among the combinations. */
  tools: string[];
  classes: string[];
  durationSeconds: { min: number; max: number };
  /** Combinations whose schedule has no repeat: pScheduler runs them once, when the task is created. */
  once: number;
}

export function templateTaskSchedules(model: ScheduleModel, sim: SimulationResult): TemplateTaskSchedule[] {
  const byName = new Map<string, TemplateTaskSchedule>();
  for (const t of model.tasks) {
    let s = byName.get(t.task);
    if (!s) {
      s = {
        task: t.task,
        combinations: 0,
        wantedPerDay: new Array<number>(sim.days).fill(0),
        scheduledPerDay: new Array<number>(sim.days).fill(0),
        nonstartPerDay: new Array<number>(sim.days).fill(0),
        losing: 0,
        tools: [],
        classes: [],
        durationSeconds: { min: t.durationSeconds, max: t.durationSeconds },
        once: 0,
      };
      byName.set(t.task, s);
    }
    s.combinations++;
    if (t.repeatSeconds === undefined) s.once++;
    let wanted = 0;
    let scheduled = 0;
    for (let d = 0; d < sim.days; d++) {
      const cell = t.index * sim.days + d;
      s.wantedPerDay[d] += sim.wanted[cell];
      s.scheduledPerDay[d] += sim.scheduled[cell];
      s.nonstartPerDay[d] += sim.nonstart[cell];
      wanted += sim.wanted[cell];
      scheduled += sim.scheduled[cell];
    }
    if (scheduled < wanted) s.losing++;
    if (t.tool && !s.tools.includes(t.tool)) s.tools.push(t.tool);
    if (!s.classes.includes(t.class)) s.classes.push(t.class);
    s.durationSeconds.min = Math.min(s.durationSeconds.min, t.durationSeconds);
    s.durationSeconds.max = Math.max(s.durationSeconds.max, t.durationSeconds);
  }
  return [...byName.values()];
}
