// The dashboard as text for a terminal or a cron mail: one grid per task (numbered columns, each cell
// "row→column/column→row"), then every pair that needs attention, then what it cost.
import { METRICS, type MetricId } from '../dashboard/metrics';
import {
  PROBLEM_STATES,
  summarise,
  type DashboardReport,
  type ReportDirection,
  type ReportGrid,
} from '../dashboard/report';
import { noun } from '../common/text';

const MARK: Record<string, string> = {
  warning: '*',
  critical: '!',
  failed: 'F',
  'no-data': '-',
  error: 'E',
  pending: '.',
  unsupported: '?',
  refused: 'R',
};

const LEGEND =
  'cell: row→column/column→row   * warning  ! critical  F latest run failed  - configured, no data  ' +
  'E archive error  R refused by pScheduler (no task)  . not read  (blank) not configured';

/** A value as short as a grid cell allows, in the unit the thresholds use. */
function compact(metric: MetricId | undefined, v: number): string {
  if (!metric) return '';
  switch (metric) {
    case 'throughput':
      return (v / 1e9).toFixed(v >= 1e10 ? 0 : v >= 1e8 ? 1 : 2);
    case 'loss': {
      const pct = v * 100;
      return pct === 0 ? '0' : pct >= 1 ? pct.toFixed(1) : pct.toPrecision(1);
    }
    case 'owdelay':
    case 'rtt':
      return v >= 10 ? v.toFixed(0) : v.toFixed(1);
    case 'paths':
      return String(v);
  }
}

function halfText(g: ReportGrid, d: ReportDirection | undefined): string {
  if (!d) return '';
  const mark = MARK[d.state] ?? '';
  if (d.value === undefined) return mark || '?';
  return `${compact(g.metric, d.value)}${d.state === 'ok' ? '' : mark}`;
}

function pad(s: string, n: number, right = false): string {
  return right ? s.padEnd(n) : s.padStart(n);
}

function windowText(seconds: number | undefined): string {
  if (!seconds) return '';
  for (const [unit, s] of [
    ['d', 86400],
    ['h', 3600],
    ['m', 60],
  ] as const)
    if (seconds % s === 0) return `${seconds / s}${unit}`;
  return `${seconds}s`;
}

function gridText(g: ReportGrid): string {
  const lines: string[] = [];
  const m = g.metric ? METRICS[g.metric] : undefined;
  const head = [`${g.task}`, `${g.testType ?? '?'} · ${g.groupType ?? 'group'} of ${g.rows.length} × ${g.cols.length}`];
  if (m && g.thresholds) {
    const cmp = m.worse === 'below' ? '<' : '>';
    head.push(
      `${m.label}, ${m.reduction} over ${windowText(g.window)} (${g.range.start} – ${g.range.end}), ${m.unit}; ` +
        `warning ${cmp} ${g.thresholds.warning}, critical ${cmp} ${g.thresholds.critical}`,
    );
  } else head.push(`no dashboard metric for ${g.testType ?? 'this'} tests: configuration only`);
  lines.push(head.join(' — '));
  if (g.error) lines.push(`  note: ${g.failedCombinations} combination(s) failed to expand: ${g.error}`);
  if (g.identicalNote) lines.push(`  note: ${g.identicalNote}`);
  const at = new Map<string, ReportDirection>();
  for (const d of g.directions) at.set(`${d.row},${d.col},${d.half}`, d);
  if (g.square)
    for (const d of g.directions) {
      const mirror = `${d.col},${d.row},${1 - d.half}`;
      if (d.row !== d.col && !at.has(mirror)) at.set(mirror, d);
    }
  const cells: string[][] = g.rows.map((_, r) =>
    g.cols.map((_, c) => {
      const f = halfText(g, at.get(`${r},${c},0`));
      const b = halfText(g, at.get(`${r},${c},1`));
      return f || b ? `${f}/${b}` : '';
    }),
  );
  const oneColumn = g.cols.length === 1;
  const colHeads = oneColumn ? [g.cols[0]] : g.cols.map((_, c) => String(c + 1));
  const width = Math.max(3, ...colHeads.map((h) => h.length), ...cells.flat().map((c) => c.length));
  const rowHead = (r: number): string => `${String(r + 1).padStart(String(g.rows.length).length)} ${g.rows[r]}`;
  const labelWidth = Math.max(0, ...g.rows.map((_, r) => rowHead(r).length));
  lines.push(`${' '.repeat(labelWidth)}  ${colHeads.map((h) => pad(h, width)).join(' ')}`);
  g.rows.forEach((_, r) =>
    lines.push(`${pad(rowHead(r), labelWidth, true)}  ${cells[r].map((c) => pad(c, width)).join(' ')}`),
  );
  if (!oneColumn && !g.square) lines.push(`  columns: ${g.cols.map((c, i) => `${i + 1} ${c}`).join(', ')}`);
  const problems = g.directions.filter((d) => PROBLEM_STATES.includes(d.state));
  if (problems.length) {
    lines.push(`  needs attention (${problems.length}):`);
    for (const d of problems) {
      const what = d.display ?? '';
      const when = d.time ? ` at ${d.time}` : '';
      lines.push(
        `    ${pad(d.state, 8, true)} ${d.source} → ${d.destination}${what ? `  ${what}` : ''}${when}${d.note ? `  ${d.note}` : ''}${d.key ? `  [${d.key}]` : ''}`,
      );
    }
  }
  const counts = Object.entries(g.counts)
    .map(([k, v]) => `${v} ${k}`)
    .join(', ');
  lines.push(`  ${g.directions.length} configured directions: ${counts || 'none'}`);
  return lines.join('\n');
}

export function renderTable(r: DashboardReport): string {
  const out = [LEGEND, '', ...r.grids.map((g) => `${gridText(g)}\n`)];
  const s = r.stats;
  const searches = s.searches
    .map(
      (x) =>
        `${x.url}: ${x.error ? `failed (${x.error})` : `${x.pages} ${noun(x.pages, 'page')}, ${x.metadata} metadata`}, ${Math.round(x.ms)} ms`,
    )
    .join('; ');
  out.push(
    `requests: ${s.requests} (${s.searches.length} metadata ${noun(s.searches.length, 'search', 'searches')} — ${searches || 'none'}; ` +
      `${s.reads} series reads; ${s.fromCache} values from kept samples; ${s.deferred} deferred), ${Math.round(s.ms)} ms`,
  );
  const { directions, problems } = summarise(r);
  out.push(`${directions} configured directions, ${problems} need attention`);
  return `${out.join('\n')}\n`;
}
