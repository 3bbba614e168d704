// Browser entry of the mesh dashboard: one tab per task, its grid on a canvas (grid-view.ts), a legend with
// counts, a hover with value / time of the last result / metadata key, the pairs that need attention as a list, and
// the controls (metric, window, archive, sort, refresh, auto-refresh). All data comes from the host as typed
// messages (../../dashboard/messages.ts); the page itself never touches the network.
import '../panel.css';
import './dashboard.css';
import { formatMetric } from '../../../../dashboard/metrics';
import {
  STATE_CODES,
  type DashboardControls,
  type DirectionDetail,
  type GridInfo,
  type HostToDashboard,
  type StateName,
} from '../../dashboard/messages';
import { clear, h, rafThrottle, setStatusLine } from '../dom';
import { HoverTip } from '../kit/hover-tip';
import { reportPageErrors } from '../kit/page-errors';
import { loadState, onHostMessage, post, saveState } from './api';
import { GridView, type HoverInfo, type SortOrder } from './grid-view';
import { noun } from '../../../../common/text';

interface Metrics {
  /** Grids received, and the time from the page's start to the first grid drawn. */
  grids: number;
  firstGridMs?: number;
  drawMs: number;
  refreshing: boolean;
  refreshes: number;
  lastSummary?: unknown;
  hoverText: string;
}
interface TestHooks {
  /** Client coordinates of a cell half of the shown grid (row/col indexes in template order). */
  halfCenter(row: number, col: number, half: 0 | 1): { x: number; y: number } | undefined;
  /** Index of the shown grid. */
  current(): number;
  visible(): { r0: number; r1: number; c0: number; c1: number };
  order(): { rows: number[]; cols: number[] };
  /** The first half (template order) of the shown grid whose direction is in `state`, with its endpoints. */
  find(state: StateName): { row: number; col: number; half: 0 | 1; source: string; destination: string } | undefined;
  /** Row/column of a direction of the shown grid: where its first half is. */
  cellOf(source: string, destination: string): { row: number; col: number; half: 0 | 1 } | undefined;
}
declare global {
  interface Window {
    dashboardMetrics: Metrics;
    dashboardTest: TestHooks;
  }
}

const STATE_LABEL: Record<StateName, string> = {
  none: 'not configured',
  ok: 'ok',
  warning: 'warning',
  critical: 'critical',
  failed: 'latest run failed',
  'no-data': 'configured, no data',
  pending: 'not read yet',
  error: 'archive error',
  unsupported: 'no metric',
  refused: 'refused by pScheduler (no task)',
};
const PROBLEMS: StateName[] = ['failed', 'critical', 'refused', 'no-data', 'error'];
const WINDOWS: [string, string][] = [
  ['auto', 'auto (MaDDash: 1d / 45m / 1h)'],
  ['3600', '1 hour'],
  ['43200', '12 hours'],
  ['86400', '1 day'],
  ['259200', '3 days'],
  ['604800', '1 week'],
];
const AUTO: [number, string][] = [
  [0, 'off'],
  [60, 'every minute'],
  [300, 'every 5 minutes'],
  [900, 'every 15 minutes'],
  [3600, 'every hour'],
];

interface GridData {
  info: GridInfo;
  states: Uint8Array;
  values: (number | null)[];
  times: (number | null)[];
}

interface PageState {
  task?: string;
  sort?: SortOrder;
}

const started = performance.now();
window.dashboardMetrics = { grids: 0, drawMs: 0, refreshing: false, refreshes: 0, hoverText: '' };
const app = document.getElementById('app') ?? document.body;
let grids: GridData[] = [];
let current = 0;
let detailId = 0;
let hovered: HoverInfo | undefined;
let details: DirectionDetail[] = [];
const saved = loadState<PageState>() ?? {};

const title = h('h1', {}, 'Mesh dashboard');
const status = h('div', { class: 'status-line muted', id: 'status', role: 'status' });
const tabs = h('div', { class: 'tabs', role: 'tablist', id: 'tabs' });
const metricSel = h('select', { id: 'metric', 'aria-label': 'Metric' });
const windowSel = h(
  'select',
  { id: 'window', 'aria-label': 'Window' },
  ...WINDOWS.map(([v, l]) => h('option', { value: v }, l)),
);
const archiveSel = h('select', { id: 'archive', 'aria-label': 'Archive' });
const sortSel = h(
  'select',
  { id: 'sort', 'aria-label': 'Order' },
  h('option', { value: 'template' }, 'template order'),
  h('option', { value: 'worst' }, 'worst first'),
);
const autoSel = h(
  'select',
  { id: 'auto-refresh', 'aria-label': 'Refresh' },
  ...AUTO.map(([v, l]) => h('option', { value: String(v) }, l)),
);
const refreshBtn = h('button', { class: 'primary', id: 'refresh', type: 'button' }, 'Refresh');
const resetBtn = h('button', { class: 'secondary', id: 'reset-zoom', type: 'button', disabled: true }, 'Show all');
const legend = h('div', { class: 'legend', id: 'legend' });
const subtitle = h('div', { class: 'subtitle muted', id: 'subtitle' });
const message = h('div', { class: 'error-text', id: 'message' });
const tooltip = new HoverTip((text) => (window.dashboardMetrics.hoverText = text));
const problems = h('section', { class: 'problems links', id: 'problems' });

const view = new GridView({
  hover: (info) => onHover(info),
  click: (info) => {
    const dir = info.dirs[info.half] >= 0 ? info.dirs[info.half] : info.dirs[1 - info.half];
    if (dir >= 0) post({ type: 'open', grid: current, dir });
  },
  viewChanged: () => (resetBtn.disabled = !view.zoomed),
});
view.sort = saved.sort ?? 'template';
sortSel.value = view.sort;

clear(app);
app.append(
  title,
  status,
  tabs,
  h(
    'div',
    { class: 'row' },
    h('label', { class: 'field', for: 'metric' }, 'Metric', metricSel),
    h('label', { class: 'field', for: 'window' }, 'Window', windowSel),
    h('label', { class: 'field', for: 'archive' }, 'Archive', archiveSel),
    h('label', { class: 'field', for: 'sort' }, 'Order', sortSel),
    h('label', { class: 'field', for: 'auto-refresh' }, 'Refresh', autoSel),
    refreshBtn,
    resetBtn,
  ),
  legend,
  subtitle,
  message,
  view.el,
  problems,
);
document.body.append(tooltip.el);

metricSel.addEventListener('change', () => {
  const m = metricSel.value;
  if (grids[current]) post({ type: 'setMetric', grid: current, metric: m as NonNullable<GridInfo['metric']> });
});
windowSel.addEventListener('change', () =>
  post({ type: 'setControls', controls: { window: windowSel.value === 'auto' ? 'auto' : Number(windowSel.value) } }),
);
archiveSel.addEventListener('change', () => post({ type: 'setControls', controls: { archive: archiveSel.value } }));
autoSel.addEventListener('change', () =>
  post({ type: 'setControls', controls: { autoRefreshSeconds: Number(autoSel.value) } }),
);
sortSel.addEventListener('change', () => {
  view.setSort(sortSel.value === 'worst' ? 'worst' : 'template');
  persist();
});
refreshBtn.addEventListener('click', () => post({ type: 'refresh' }));
resetBtn.addEventListener('click', () => view.resetZoom());

function persist(): void {
  saveState<PageState>({ task: grids[current]?.info.task, sort: view.sort });
}

function timeText(t: number | null | undefined): string {
  return t === null || t === undefined
    ? ''
    : new Date(t * 1000)
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d+Z$/, 'Z');
}

function windowText(s: number | undefined): string {
  if (!s) return '';
  if (s % 86400 === 0) return `${s / 86400} d`;
  if (s % 3600 === 0) return `${s / 3600} h`;
  if (s % 60 === 0) return `${s / 60} min`;
  return `${s} s`;
}

/** Directions per state code; code 0 counts the pairs the template does not configure (the diagonal aside). */
function counts(g: GridData): number[] {
  const n = STATE_CODES.map(() => 0);
  for (const s of g.states) n[s]++;
  const nc = g.info.cols.length;
  let unconfigured = 0;
  for (let i = 0; i < g.info.halves.length; i++) {
    if (g.info.halves[i] >= 0) continue;
    const cell = i >> 1;
    if (g.info.square && Math.floor(cell / nc) === cell % nc) continue;
    unconfigured++;
  }
  // A mesh shows every direction in two halves.
  n[0] = g.info.square ? unconfigured / 2 : unconfigured;
  return n;
}

function renderTabs(): void {
  clear(tabs);
  grids.forEach((g, i) => {
    const c = counts(g);
    const bad = PROBLEMS.reduce((n, s) => n + c[STATE_CODES.indexOf(s)], 0);
    tabs.append(
      h(
        'button',
        {
          class: 'tab',
          type: 'button',
          role: 'tab',
          'aria-selected': i === current ? 'true' : 'false',
          'data-task': g.info.task,
          onclick: () => show(i),
        },
        g.info.task,
        h('span', { class: `badge${bad ? ' bad' : ''}` }, bad ? `${bad} ✖` : '✓'),
      ),
    );
  });
}

function renderLegend(): void {
  clear(legend);
  const g = grids[current];
  if (!g) return;
  const c = counts(g);
  for (const s of ['ok', 'warning', 'critical', 'failed', 'no-data', 'pending', 'error', 'none'] as StateName[]) {
    const n = c[STATE_CODES.indexOf(s)];
    if (!n && s !== 'ok' && s !== 'no-data' && s !== 'none') continue;
    legend.append(
      h('span', { class: 'item', 'data-state': s }, h('span', { class: `swatch ${s}` }), `${STATE_LABEL[s]} ${n}`),
    );
  }
}

function renderSubtitle(): void {
  const g = grids[current]?.info;
  clear(subtitle);
  clear(message);
  if (!g) return;
  const parts: string[] = [];
  if (g.metric && g.thresholds) {
    const cmp = g.worse === 'below' ? '<' : '>';
    parts.push(
      `${g.metricLabel}: ${g.reduction} over ${windowText(g.window)} (${timeText(g.range.start)} – ${timeText(g.range.end)})`,
      `warning ${cmp} ${g.thresholds.warning} ${g.unit}, critical ${cmp} ${g.thresholds.critical} ${g.unit}`,
    );
  } else parts.push(`no dashboard metric for ${g.testType ?? 'this'} tests: configuration only`);
  parts.push(
    g.cols.length === 1
      ? 'rows: the list members'
      : `${g.groupType ?? 'group'}: rows are sources, columns destinations; each cell: top row → column, bottom column → row`,
  );
  subtitle.textContent = parts.join(' · ');
  const notes: string[] = [];
  if (g.error) notes.push(`${g.failedCombinations} combination(s) could not be expanded: ${g.error}`);
  if (g.identicalNote) notes.push(g.identicalNote);
  if (notes.length) message.textContent = notes.join(' · ');
}

function renderMetricChoice(): void {
  clear(metricSel);
  const g = grids[current]?.info;
  metricSel.disabled = !g || g.metrics.length < 2;
  for (const m of g?.metrics ?? []) metricSel.append(h('option', { value: m }, m));
  if (g?.metric) metricSel.value = g.metric;
}

function describe(g: GridData, d: number): string {
  const s = STATE_CODES[g.states[d]];
  const v = g.values[d];
  const metric = g.info.metric;
  const value = v !== null && metric ? formatMetric(metric, v) : '';
  return [STATE_LABEL[s], value].filter(Boolean).join(' ');
}

function endpoints(g: GridData, d: number): [string, string] {
  return [g.info.endpoints[g.info.dirEnds[2 * d]], g.info.endpoints[g.info.dirEnds[2 * d + 1]]];
}

const renderProblems = rafThrottle(() => {
  clear(problems);
  const g = grids[current];
  if (!g) return;
  const list: number[] = [];
  for (let d = 0; d < g.states.length; d++) if (PROBLEMS.includes(STATE_CODES[g.states[d]])) list.push(d);
  const rank = (d: number): number => PROBLEMS.indexOf(STATE_CODES[g.states[d]]);
  list.sort((a, b) => rank(a) - rank(b) || a - b);
  problems.append(h('h2', {}, list.length ? `Needs attention (${list.length})` : 'Nothing needs attention'));
  const ol = h('ol', {});
  for (const d of list.slice(0, 200)) {
    const [src, dst] = endpoints(g, d);
    ol.append(
      h(
        'li',
        { 'data-state': STATE_CODES[g.states[d]] },
        h(
          'button',
          {
            type: 'button',
            title: 'Open in the archive explorer',
            onclick: () => post({ type: 'open', grid: current, dir: d }),
          },
          `${src} → ${dst}`,
        ),
        ` — ${describe(g, d)}${g.times[d] ? ` (${timeText(g.times[d])})` : ''}`,
      ),
    );
  }
  problems.append(ol);
  if (list.length > 200)
    problems.append(h('p', { class: 'muted' }, `… and ${list.length - 200} more (the CLI lists all)`));
});

const redraw = rafThrottle(() => {
  const g = grids[current];
  if (!g) return;
  view.setGrid(g.info, g.states);
  window.dashboardMetrics.drawMs = view.lastDrawMs;
  renderLegend();
  renderTabs();
});

function show(i: number): void {
  current = Math.max(0, Math.min(grids.length - 1, i));
  const g = grids[current];
  if (!g) return;
  view.setGrid(g.info, g.states);
  window.dashboardMetrics.drawMs = view.lastDrawMs;
  resetBtn.disabled = !view.zoomed;
  renderTabs();
  renderLegend();
  renderSubtitle();
  renderMetricChoice();
  renderProblems();
  persist();
}

function halfText(g: GridData, d: number, rowName: string, colName: string, detail?: DirectionDetail): string {
  if (d < 0) return `${rowName} → ${colName}: not configured`;
  const [src, dst] = endpoints(g, d);
  const lines = [`${src} → ${dst}`, `  ${describe(g, d)}`];
  const t = g.times[d];
  const s = STATE_CODES[g.states[d]];
  if (t !== null) lines.push(`  ${s === 'no-data' || s === 'pending' ? 'last write' : 'last result'} ${timeText(t)}`);
  if (detail) {
    if (detail.samples)
      lines.push(
        `  ${detail.samples} ${noun(detail.samples, 'result')} in the window${detail.changes ? `, ${detail.changes} route ${noun(detail.changes, 'change')}` : ''}`,
      );
    if (detail.note) lines.push(`  ${detail.note}`);
    if (detail.key) lines.push(`  metadata key ${detail.key}${detail.toolName ? ` · ${detail.toolName}` : ''}`);
    if (detail.alternatives)
      lines.push(`  (${detail.alternatives} other ${noun(detail.alternatives, 'measurement')} of this pair fit too)`);
  }
  return lines.join('\n');
}

function renderTooltip(): void {
  const g = grids[current];
  const info = hovered;
  if (!g || !info) {
    tooltip.hide();
    return;
  }
  const row = g.info.rows[info.row];
  const col = g.info.cols[info.col];
  const detailOf = (d: number): DirectionDetail | undefined => details.find((x) => x.dir === d && x.grid === current);
  const text = [
    halfText(g, info.dirs[0], row, col, detailOf(info.dirs[0])),
    g.info.cols.length === 1 && info.dirs[1] < 0 ? '' : halfText(g, info.dirs[1], col, row, detailOf(info.dirs[1])),
  ]
    .filter(Boolean)
    .join('\n');
  tooltip.show(text, info.clientX, info.clientY);
}

let detailTimer: ReturnType<typeof setTimeout> | undefined;
function onHover(info: HoverInfo | undefined): void {
  const same = hovered && info && hovered.row === info.row && hovered.col === info.col;
  hovered = info;
  if (!same) details = [];
  renderTooltip();
  if (!info || same) return;
  if (detailTimer) clearTimeout(detailTimer);
  detailTimer = setTimeout(() => {
    const dirs = info.dirs.filter((d) => d >= 0);
    if (dirs.length) post({ type: 'detail', id: ++detailId, grid: current, dirs });
  }, 60);
}

function setStatus(text: string, kind: 'info' | 'error' | 'busy' = 'info'): void {
  setStatusLine(status, text, kind);
}

function applyControls(c: DashboardControls): void {
  windowSel.value = c.window === 'auto' ? 'auto' : String(c.window);
  if (windowSel.value === '') {
    windowSel.append(h('option', { value: String(c.window) }, windowText(Number(c.window))));
    windowSel.value = String(c.window);
  }
  archiveSel.value = c.archive;
  if (archiveSel.value !== c.archive) {
    archiveSel.append(h('option', { value: c.archive }, c.archive));
    archiveSel.value = c.archive;
  }
  autoSel.value = String(c.autoRefreshSeconds);
  if (autoSel.value === '') {
    autoSel.append(h('option', { value: String(c.autoRefreshSeconds) }, `every ${windowText(c.autoRefreshSeconds)}`));
    autoSel.value = String(c.autoRefreshSeconds);
  }
}

onHostMessage((msg: HostToDashboard) => {
  switch (msg.type) {
    case 'init':
      title.textContent = `Mesh dashboard — ${msg.template}`;
      clear(archiveSel);
      archiveSel.append(h('option', { value: '' }, "the tasks' own archives"));
      for (const a of msg.archives) archiveSel.append(h('option', { value: a.url }, `${a.name} — ${a.url}`));
      applyControls(msg.controls);
      return;
    case 'grids': {
      const task = grids[current]?.info.task ?? saved.task;
      grids = msg.grids.map((info) => ({
        info,
        states: Uint8Array.from(info.states),
        values: info.values,
        times: info.times,
      }));
      window.dashboardMetrics.grids = grids.length;
      if (msg.error) {
        clear(subtitle);
        message.textContent = msg.error;
      }
      const i = Math.max(
        0,
        grids.findIndex((g) => g.info.task === task),
      );
      if (grids.length) {
        show(i);
        window.dashboardMetrics.firstGridMs ??= performance.now() - started;
      } else {
        clear(tabs);
        clear(legend);
        clear(problems);
      }
      return;
    }
    case 'values': {
      for (const u of msg.updates) {
        const g = grids[u.grid];
        if (!g) continue;
        u.dirs.forEach((d, k) => {
          g.states[d] = u.states[k];
          g.values[d] = u.values[k];
          g.times[d] = u.times[k];
        });
      }
      redraw();
      renderProblems();
      if (hovered) renderTooltip();
      return;
    }
    case 'status': {
      window.dashboardMetrics.refreshing = msg.refreshing;
      refreshBtn.disabled = msg.refreshing;
      if (msg.refreshing) {
        setStatus('Refreshing…', 'busy');
        return;
      }
      window.dashboardMetrics.refreshes++;
      if (msg.error) {
        setStatus(msg.error, 'error');
        return;
      }
      const s = msg.summary;
      window.dashboardMetrics.lastSummary = s;
      if (!s) return;
      const at = new Date(s.at * 1000).toLocaleTimeString();
      const text =
        `Refreshed at ${at}: ${s.requests} ${noun(s.requests, 'request')} ` +
        `(${s.searches} metadata ${noun(s.searches, 'search', 'searches')}, ${s.reads} series ${noun(s.reads, 'read')}` +
        `${s.fromCache ? `, ${s.fromCache} unchanged` : ''}${s.deferred ? `, ${s.deferred} left for the next refresh` : ''}) in ${(s.ms / 1000).toFixed(1)} s` +
        (msg.nextInSeconds ? ` · next in ${windowText(msg.nextInSeconds)}` : ' · automatic refresh off');
      setStatus(s.errors.length ? `${text} · ${s.errors.join('; ')}` : text, s.errors.length ? 'error' : 'info');
      return;
    }
    case 'detail':
      if (msg.id !== detailId) return;
      details = msg.details;
      renderTooltip();
      return;
    case 'controls':
      applyControls(msg.controls);
      return;
    case 'notice':
      setStatus(msg.text, 'error');
      return;
  }
});

window.dashboardTest = {
  halfCenter: (row, col, half) => view.halfCenter(row, col, half),
  current: () => current,
  visible: () => view.visible,
  order: () => view.displayOrder,
  find: (state) => {
    const g = grids[current];
    if (!g) return undefined;
    const code = STATE_CODES.indexOf(state);
    const nc = g.info.cols.length;
    for (let i = 0; i < g.info.halves.length; i++) {
      const d = g.info.halves[i];
      if (d < 0 || g.states[d] !== code) continue;
      const [source, destination] = endpoints(g, d);
      const cell = i >> 1;
      return { row: Math.floor(cell / nc), col: cell % nc, half: (i & 1) as 0 | 1, source, destination };
    }
    return undefined;
  },
  cellOf: (source, destination) => {
    const g = grids[current];
    if (!g) return undefined;
    const nc = g.info.cols.length;
    for (let i = 0; i < g.info.halves.length; i++) {
      const d = g.info.halves[i];
      if (d < 0) continue;
      const [s, t] = endpoints(g, d);
      if (s === source && t === destination) {
        const cell = i >> 1;
        return { row: Math.floor(cell / nc), col: cell % nc, half: (i & 1) as 0 | 1 };
      }
    }
    return undefined;
  },
};

reportPageErrors('Dashboard', setStatus, (text) => post({ type: 'log', level: 'error', text }));

post({ type: 'ready' });
