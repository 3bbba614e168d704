// The timeline's rows, from the page's arrays (pure, so node tests check them): one row per host, or, as
// `pscheduler plot-schedule` draws a host's schedule, one row per class of each host with the non-starters in a row
// of their own (plot-schedule's "Non Starting" column; pscheduler-core/pscheduler-core/plot-schedule,
// `class_levels`). A run is on the row of every host it occupies (its participants), never on the far end of a
// single-participant test, whose schedule pScheduler does not touch.
import { CLASS_CODES, CLASS_LABEL, RUN_NONSTART, type TimelineData } from './messages';

export type RowMode = 'hosts' | 'classes';
export type RowOrder = 'load' | 'report' | 'address';

/** Class row for non-starters (after the four classes). */
export const NONSTART_ROW = CLASS_CODES.length;
/** The row of a host's real runs (read from its pScheduler), right under its simulated row(s); its `runs` index
 *  `data.real`'s arrays, not the simulated runs. */
export const REAL_ROW = NONSTART_ROW + 1;
export const REAL_ROW_LABEL = '↳ pScheduler';

export interface TimelineRow {
  host: number;
  /** -1: every class (hosts mode); a CLASS_CODES index; NONSTART_ROW; REAL_ROW. */
  cls: number;
  /** Run indexes, by start time. */
  runs: Int32Array;
  /** First row of its host (where the host's label is drawn). */
  first: boolean;
}

export function rowLabel(data: TimelineData, row: TimelineRow): string {
  if (row.cls === REAL_ROW) return REAL_ROW_LABEL;
  if (row.cls < 0) return data.hosts[row.host].address;
  return row.cls === NONSTART_ROW ? 'Non-starting' : CLASS_LABEL[CLASS_CODES[row.cls]];
}

/** Host indexes in display order; `first` (a focused agent) goes to the top. */
export function hostOrder(data: TimelineData, order: RowOrder, first?: string): number[] {
  const idx = data.hosts.map((_, i) => i);
  const h = data.hosts;
  if (order === 'load')
    idx.sort(
      (a, b) =>
        h[b].exclusiveLoad - h[a].exclusiveLoad ||
        h[b].normalLoad - h[a].normalLoad ||
        (h[a].address < h[b].address ? -1 : h[a].address > h[b].address ? 1 : 0),
    );
  else if (order === 'address')
    idx.sort((a, b) => (h[a].address < h[b].address ? -1 : h[a].address > h[b].address ? 1 : 0));
  if (first !== undefined) {
    const at = idx.findIndex((i) => h[i].address === first);
    if (at > 0) idx.unshift(...idx.splice(at, 1));
  }
  return idx;
}

/** Runs per host (both states), each list by start time. */
export function runsPerHost(data: TimelineData): Int32Array[] {
  const counts = new Int32Array(data.hosts.length);
  const n = data.runCombination.length;
  for (let r = 0; r < n; r++) for (const h of data.comboParticipants[data.runCombination[r]]) counts[h]++;
  const lists = Array.from(counts, (c) => new Int32Array(c));
  const fill = new Int32Array(data.hosts.length);
  // Runs by start once, so every host's list comes out sorted (reports list them by start already: then no sort).
  const byStart = new Int32Array(n);
  let sorted = true;
  for (let r = 0; r < n; r++) {
    byStart[r] = r;
    if (r > 0 && data.runStart[r] < data.runStart[r - 1]) sorted = false;
  }
  if (!sorted) byStart.sort((a, b) => data.runStart[a] - data.runStart[b] || a - b);
  for (const r of byStart) for (const h of data.comboParticipants[data.runCombination[r]]) lists[h][fill[h]++] = r;
  return lists;
}

export function buildRows(
  data: TimelineData,
  mode: RowMode,
  order: RowOrder,
  perHost: Int32Array[] = runsPerHost(data),
  realPerHost: Int32Array[] = realRunsPerHost(data),
): TimelineRow[] {
  const rows: TimelineRow[] = [];
  for (const host of hostOrder(data, order, data.focus?.host)) {
    const runs = perHost[host];
    if (mode === 'hosts') {
      rows.push({ host, cls: -1, runs, first: true });
      if (realPerHost[host]?.length) rows.push({ host, cls: REAL_ROW, runs: realPerHost[host], first: false });
      continue;
    }
    const parts: number[][] = Array.from({ length: NONSTART_ROW + 1 }, () => []);
    for (const r of runs)
      parts[data.runState[r] === RUN_NONSTART ? NONSTART_ROW : data.comboClass[data.runCombination[r]]].push(r);
    let first = true;
    parts.forEach((list, cls) => {
      if (!list.length) return;
      rows.push({ host, cls, runs: Int32Array.from(list), first });
      first = false;
    });
    // A host without runs keeps one row, so its load still shows.
    if (first) rows.push({ host, cls: 0, runs: new Int32Array(0), first: true });
    if (realPerHost[host]?.length) rows.push({ host, cls: REAL_ROW, runs: realPerHost[host], first: false });
  }
  return rows;
}

/** Real runs (indexes into `data.real`) per host, each list by start time; empty lists without real runs. */
export function realRunsPerHost(data: TimelineData): Int32Array[] {
  const real = data.real;
  const lists: number[][] = data.hosts.map(() => []);
  if (!real) return lists.map(() => new Int32Array(0));
  for (let r = 0; r < real.host.length; r++) lists[real.host[r]]?.push(r);
  return lists.map((l) => Int32Array.from(l.sort((a, b) => real.start[a] - real.start[b] || a - b)));
}

/** Real runs of a REAL_ROW `row` that overlap [t0, t1) (seconds), by start time; at most `max` (as runsAt). */
export function realRunsAt(data: TimelineData, row: TimelineRow, t0: number, t1: number, max = Infinity): number[] {
  const real = data.real;
  const out: number[] = [];
  if (!real) return out;
  const runs = row.runs;
  let hi = runs.length;
  let lo = 0;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (real.start[runs[mid]] < t1) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo - 1; i >= 0 && out.length < max; i--) {
    const r = runs[i];
    const end = Math.max(real.end[r], real.start[r]);
    if (end > t0 || (end === real.start[r] && end >= t0)) out.push(r);
  }
  return out.reverse();
}

/** Runs of `row` that overlap [t0, t1) (seconds), by start time; at most `max`. */
export function runsAt(data: TimelineData, row: TimelineRow, t0: number, t1: number, max = Infinity): number[] {
  const out: number[] = [];
  const runs = row.runs;
  // Runs start in order: none starting at or after t1 can overlap; earlier ones may still be running.
  let hi = runs.length;
  let lo = 0;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (data.runStart[runs[mid]] < t1) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo - 1; i >= 0 && out.length < max; i--) {
    const r = runs[i];
    const end = Math.max(data.runEnd[r], data.runStart[r]);
    // A zero-length run (a non-starter of a 0 s task) still shows at its instant.
    if (end > t0 || (end === data.runStart[r] && end >= t0)) out.push(r);
  }
  return out.reverse();
}

/** Per template task: runs wanted, scheduled and not started (from the combinations' counts, else the runs). */
export function taskTotals(data: TimelineData): { wanted: number; scheduled: number; nonstart: number }[] {
  const totals = data.taskNames.map(() => ({ wanted: 0, scheduled: 0, nonstart: 0 }));
  const n = data.comboTask.length;
  const counted = new Uint8Array(n);
  for (let c = 0; c < n; c++) {
    const scheduled = data.comboScheduled[c];
    const nonstart = data.comboNonstart[c];
    if (scheduled < 0 && nonstart < 0) continue;
    counted[c] = 1;
    const t = totals[data.comboTask[c]];
    t.scheduled += Math.max(0, scheduled);
    t.nonstart += Math.max(0, nonstart);
    t.wanted += data.comboWanted[c] >= 0 ? data.comboWanted[c] : Math.max(0, scheduled) + Math.max(0, nonstart);
  }
  for (let r = 0; r < data.runCombination.length; r++) {
    const c = data.runCombination[r];
    if (counted[c]) continue;
    const t = totals[data.comboTask[c]];
    t.wanted++;
    if (data.runState[r] === RUN_NONSTART) t.nonstart++;
    else t.scheduled++;
  }
  return totals;
}

/** One combination as an object (for the few the page names: a hover, a list), counts undefined when unknown. */
export function comboView(data: TimelineData, c: number) {
  const known = (v: number): number | undefined => (v >= 0 ? v : undefined);
  return {
    task: data.taskNames[data.comboTask[c]],
    addresses: data.comboAddresses[c].map((i) => data.names[i]),
    cls: data.comboClass[c],
    participants: data.comboParticipants[c].map((h) => data.hosts[h].address),
    agent: data.comboAgent[c] >= 0 ? data.names[data.comboAgent[c]] : undefined,
    tool: data.comboTool[c] >= 0 ? data.names[data.comboTool[c]] : undefined,
    durationSeconds: known(data.comboDuration[c]),
    wanted: known(data.comboWanted[c]),
    scheduled: known(data.comboScheduled[c]),
    nonstart: known(data.comboNonstart[c]),
  };
}
