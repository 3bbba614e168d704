// The one typed definition of every message between the dashboard webview and its host (the VS Code panel, or
// the Chromium test harness). Plain JSON only; per-direction data travels as parallel arrays so a 39,800-pair mesh
// is a few arrays, not 39,800 objects.
import type { MetricId, Thresholds } from '../../../dashboard/metrics';
import type { DirState, WindowChoice } from '../../../dashboard/session';

/** State codes of the per-direction arrays; 0 is "not configured" (a half no direction fills). */
export const STATE_CODES = [
  'none',
  'ok',
  'warning',
  'critical',
  'failed',
  'no-data',
  'pending',
  'error',
  'unsupported',
  'refused',
] as const;
export type StateName = (typeof STATE_CODES)[number];

export function stateCode(s: DirState | 'none'): number {
  return STATE_CODES.indexOf(s);
}

export interface GridInfo {
  task: string;
  testType?: string;
  groupType?: string;
  rows: string[];
  cols: string[];
  square: boolean;
  metric?: MetricId;
  metrics: MetricId[];
  metricLabel?: string;
  unit?: string;
  reduction?: string;
  /** Seconds the value is computed over, and the range of the last refresh (UNIX seconds). */
  window?: number;
  range: { start: number; end: number };
  thresholds?: Thresholds;
  /** Throughput: worse below the thresholds; everything else: above. */
  worse?: 'below' | 'above';
  /** Direction drawn in each cell half, index `(row * cols + col) * 2 + half`; -1 where none is configured. */
  halves: number[];
  /** Spec endpoints, and two indexes into them per direction (source, destination). */
  endpoints: string[];
  dirEnds: number[];
  /** Per direction: state code, raw value (null: none), time of the last result (null: none). */
  states: number[];
  values: (number | null)[];
  times: (number | null)[];
  failedCombinations: number;
  error?: string;
  /** Combinations on another task's grid: identical tasks, which pSConfig creates once. */
  identicalNote?: string;
}

export interface ValuesUpdate {
  grid: number;
  dirs: number[];
  states: number[];
  values: (number | null)[];
  times: (number | null)[];
}

/** Everything known about one direction, for the hover. */
export interface DirectionDetail {
  grid: number;
  dir: number;
  source: string;
  destination: string;
  state: DirState;
  value?: number;
  display?: string;
  time?: number;
  key?: string;
  archive?: string;
  eventType?: string;
  toolName?: string;
  samples?: number;
  changes?: number;
  alternatives?: number;
  note?: string;
}

/** What the controls show; changed from the page for this dashboard only (the settings give the defaults). */
export interface DashboardControls {
  window: WindowChoice;
  /** Read every pair from this archive; '' = the archives the tasks write to. */
  archive: string;
  /** 0: off. */
  autoRefreshSeconds: number;
}

export interface RefreshSummary {
  requests: number;
  searches: number;
  searchPages: number;
  reads: number;
  fromCache: number;
  deferred: number;
  ms: number;
  /** Until every direction had its state from the metadata (the grid can be drawn). */
  matchedMs: number;
  /** When the refresh ended (UNIX seconds). */
  at: number;
  errors: string[];
}

export type HostToDashboard =
  | {
      type: 'init';
      template: string;
      controls: DashboardControls;
      archives: { name: string; url: string }[];
    }
  | { type: 'grids'; grids: GridInfo[]; error?: string }
  | { type: 'values'; updates: ValuesUpdate[] }
  | { type: 'status'; refreshing: boolean; summary?: RefreshSummary; error?: string; nextInSeconds?: number }
  | { type: 'detail'; id: number; details: DirectionDetail[] }
  | { type: 'controls'; controls: DashboardControls }
  | { type: 'notice'; text: string };

export type DashboardToHost =
  | { type: 'ready' }
  | { type: 'refresh' }
  | { type: 'setMetric'; grid: number; metric: MetricId }
  | { type: 'setControls'; controls: Partial<DashboardControls> }
  | { type: 'detail'; id: number; grid: number; dirs: number[] }
  | { type: 'open'; grid: number; dir: number }
  | { type: 'log'; level: 'info' | 'error'; text: string };
