// A task's configured directions placed in its grid: each cell has two halves, row → column and column → row, as
// MaDDash splits its cells. A mesh shows every direction twice (a → b is the first half of (a, b) and the second
// half of (b, a)); a half no direction fills is "not configured".
import { type DashboardTaskPairs } from '../common/protocol';
import { metricsFor, type MetricId } from './metrics';
import { identicalText } from '../common/combination-text';

export interface Direction {
  /** Spec source and destination (input-source / input-destination in the archive). */
  source: string;
  destination: string;
  /** esmond read URLs the combination writes to, as the task JSON names them. */
  archives: string[];
  /** Where it is drawn first (a mesh also draws it mirrored). */
  row: number;
  col: number;
  half: 0 | 1;
  /** Why pScheduler would refuse the task of this direction (no task is created), when it would. */
  refused?: string;
}

export interface DashboardGrid {
  task: string;
  testType?: string;
  groupType?: string;
  rows: string[];
  rowLabels: string[];
  cols: string[];
  colLabels: string[];
  /** Rows and columns are the same members: each direction is also drawn mirrored. */
  square: boolean;
  /** Metrics this test type can show (empty: the test type has none; the grid shows configuration only). */
  metrics: readonly MetricId[];
  directions: Direction[];
  /** Direction shown in each cell half (index `(row * cols + col) * 2 + half`), -1 where none is configured. */
  halves: Int32Array;
  spec: DashboardTaskPairs['spec'];
  failed: number;
  error?: string;
  /** Why combinations of this task are not on its grid although they expand: identical to an earlier task of their
   *  agent, which pSConfig creates once (on that task's grid). */
  identicalNote?: string;
}

export function buildGrid(p: DashboardTaskPairs): DashboardGrid {
  const nCols = p.cols.length;
  const halves = new Int32Array(p.rows.length * nCols * 2).fill(-1);
  const directions: Direction[] = [];
  const idx = (row: number, col: number, half: number): number => (row * nCols + col) * 2 + half;
  const v = p.directions;
  const refused = new Map<number, string>();
  p.refusedDirections?.forEach((n, k) => refused.set(n, p.refusedReasons?.[p.refusedReason?.[k] ?? -1] ?? ''));
  for (let i = 0; i + 6 <= v.length; i += 6) {
    const [row, col, half, src, dst, set] = [v[i], v[i + 1], v[i + 2], v[i + 3], v[i + 4], v[i + 5]];
    const d: Direction = {
      source: p.endpoints[src],
      destination: p.endpoints[dst],
      archives: (p.archiveSets[set] ?? []).map((a) => p.archives[a]),
      row,
      col,
      half: half === 1 ? 1 : 0,
    };
    const why = refused.get(i / 6);
    if (why !== undefined) d.refused = why;
    const n = directions.length;
    directions.push(d);
    halves[idx(row, col, d.half)] = n;
  }
  if (p.square) {
    // Mirrors after every direct placement, so a direction never hides another drawn at its own place.
    for (let n = 0; n < directions.length; n++) {
      const d = directions[n];
      if (d.row === d.col) continue;
      const m = idx(d.col, d.row, 1 - d.half);
      if (halves[m] === -1) halves[m] = n;
    }
  }
  return {
    task: p.task,
    testType: p.testType,
    groupType: p.groupType,
    rows: p.rows,
    rowLabels: p.rowLabels,
    cols: p.cols,
    colLabels: p.colLabels,
    square: p.square,
    metrics: metricsFor(p.testType),
    directions,
    halves,
    spec: p.spec,
    failed: p.failed,
    error: p.error,
    ...(p.identical && p.identicalTo
      ? {
          identicalNote: `${p.identical} combination(s) not on this grid: the first is ${identicalText(p.identicalTo)}`,
        }
      : {}),
  };
}
