// A dashboard's state as plain JSON: what `psconfig-tools dashboard --format json` prints and the table is drawn
// from. Problems are the states an operator must act on: red (critical or failed), no data, archive errors.
import { formatMetric, METRICS, type MetricId, type Thresholds } from './metrics';
import { isoTime, windowSeconds, type DashboardSession, type DirState, type RefreshStats } from './session';

export const PROBLEM_STATES: readonly DirState[] = ['critical', 'failed', 'refused', 'no-data', 'error'];

export interface ReportDirection {
  source: string;
  destination: string;
  /** Where the direction is drawn: row, column, half (0: row → column, 1: column → row). */
  row: number;
  col: number;
  half: 0 | 1;
  state: DirState;
  value?: number;
  display?: string;
  time?: string;
  key?: string;
  archive?: string;
  eventType?: string;
  samples?: number;
  changes?: number;
  alternatives?: number;
  note?: string;
}

export interface ReportGrid {
  task: string;
  testType?: string;
  groupType?: string;
  metric?: MetricId;
  metricLabel?: string;
  unit?: string;
  reduction?: string;
  window?: number;
  range: { start: string; end: string };
  thresholds?: Thresholds;
  rows: string[];
  cols: string[];
  /** A mesh: each direction is drawn twice (see DashboardGrid.square). */
  square: boolean;
  /** Cells with a half no direction fills (not configured) are simply absent here. */
  directions: ReportDirection[];
  counts: Partial<Record<DirState, number>>;
  /** Combinations that could not be expanded. */
  failedCombinations: number;
  error?: string;
  /** Combinations on another task's grid: identical tasks, created once (DashboardGrid.identicalNote). */
  identicalNote?: string;
}

export interface DashboardReport {
  template: string;
  generatedAt: string;
  grids: ReportGrid[];
  stats: RefreshStats;
}

export function reportOf(session: DashboardSession, stats: RefreshStats, template: string): DashboardReport {
  const grids = session.grids.map((g, gi): ReportGrid => {
    const shown = session.shown[gi];
    const metric = shown.metric;
    const counts: Partial<Record<DirState, number>> = {};
    const directions = g.directions.map((d, di): ReportDirection => {
      const r = session.results[gi][di];
      counts[r.state] = (counts[r.state] ?? 0) + 1;
      const out: ReportDirection = {
        source: d.source,
        destination: d.destination,
        row: d.row,
        col: d.col,
        half: d.half,
        state: r.state,
      };
      if (r.value !== undefined) {
        out.value = r.value;
        if (metric) out.display = formatMetric(metric, r.value);
      }
      if (r.time !== undefined) out.time = isoTime(r.time);
      for (const k of ['key', 'archive', 'eventType', 'samples', 'changes', 'alternatives', 'note'] as const)
        if (r[k] !== undefined) (out as unknown as Record<string, unknown>)[k] = r[k];
      return out;
    });
    return {
      task: g.task,
      testType: g.testType,
      groupType: g.groupType,
      metric,
      metricLabel: metric && METRICS[metric].label,
      unit: metric && METRICS[metric].unit,
      reduction: metric && METRICS[metric].reduction,
      window: metric && windowSeconds(session.options.window, metric),
      range: { start: isoTime(shown.start), end: isoTime(shown.end) },
      thresholds: metric && session.options.thresholds[metric],
      rows: g.rowLabels,
      cols: g.colLabels,
      square: g.square,
      directions,
      counts,
      failedCombinations: g.failed,
      error: g.error,
      ...(g.identicalNote ? { identicalNote: g.identicalNote } : {}),
    };
  });
  return { template, generatedAt: new Date().toISOString(), grids, stats };
}

export function summarise(r: DashboardReport): { directions: number; problems: number } {
  let directions = 0;
  let problems = 0;
  for (const g of r.grids)
    for (const d of g.directions) {
      directions++;
      if (PROBLEM_STATES.includes(d.state)) problems++;
    }
  return { directions, problems };
}
