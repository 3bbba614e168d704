// Browser entry of the host timeline: the simulated schedule of a template on a canvas (timeline-view.ts), one row
// per host or per class of each host, runs coloured by task with a legend that focuses a task, a hover naming the
// run (task, addresses, class, start and end, state and why it did not start), and the runs that will not start
// listed by task. All data comes from the host as typed messages (../../schedule/messages.ts); the page never
// touches the network and writes every text from the template with textContent.
import '../panel.css';
import './schedule.css';
import {
  CLASS_CODES,
  CLASS_LABEL,
  REAL_FAILED,
  REAL_NONSTART,
  RUN_NONSTART,
  type HostToTimeline,
  type TimelineData,
  type TimelineFocus,
} from '../../schedule/messages';
import {
  buildRows,
  comboView,
  REAL_ROW,
  realRunsPerHost,
  runsPerHost,
  taskTotals,
  type RowMode,
  type RowOrder,
  type TimelineRow,
} from '../../schedule/timeline-rows';
import { clear, h, setStatusLine } from '../dom';
import { HoverTip } from '../kit/hover-tip';
import { reportPageErrors } from '../kit/page-errors';
import { loadState, onHostMessage, post, saveState } from './api';
import { readTimelinePalette } from './colours';
import { TimelineView, type RunHover } from './timeline-view';
import { plural } from '../../../../common/text';

interface Metrics {
  runs: number;
  rows: number;
  loading: boolean;
  loads: number;
  error?: string;
  firstDrawMs?: number;
  /** Milliseconds the page took from receiving the data to drawing it (indexing, lists, first draw). */
  dataMs?: number;
  drawMs: number;
  /** Runs in view at the last draw. */
  runsInView: number;
  hoverText: string;
  focusTask: string;
}
interface TestHooks {
  /** Client coordinates of a run (in the row of `host`, when given), scrolled into view. */
  locate(run: number, host?: string): { x: number; y: number } | undefined;
  /** The first run in `state` (of `task`, from `source`, when given). */
  find(state: 'scheduled' | 'nonstart', task?: string, source?: string): number | undefined;
  visible(): { t0: number; t1: number };
  zoomTo(t0: number, t1: number): void;
  /** Row labels in display order (host, and class in classes mode; `host · real` for a real row). */
  rows(): string[];
  /** Client coordinates of a real run (an index into `data.real`), scrolled into view. */
  locateReal(run: number): { x: number; y: number } | undefined;
  /** The first real run in `state` (pScheduler's state name), on `host`, when given. */
  findReal(state: string, host?: string): number | undefined;
}
declare global {
  interface Window {
    timelineMetrics: Metrics;
    timelineTest: TestHooks;
  }
}

interface PageState {
  mode?: RowMode;
  order?: RowOrder;
}

const started = performance.now();
window.timelineMetrics = {
  runs: 0,
  rows: 0,
  loading: true,
  loads: 0,
  drawMs: 0,
  runsInView: 0,
  hoverText: '',
  focusTask: '',
};
const app = document.getElementById('app') ?? document.body;
const saved = loadState<PageState>() ?? {};
let data: TimelineData | undefined;
let perHost: Int32Array[] = [];
let realPerHost: Int32Array[] = [];
let rows: TimelineRow[] = [];
let mode: RowMode = saved.mode ?? 'hosts';
let order: RowOrder = saved.order ?? 'load';
let focusTask = -1;

const title = h('h1', {}, 'Host timeline');
const status = h('div', { class: 'status-line muted', id: 'status', role: 'status' });
const modeSel = h(
  'select',
  { id: 'mode', 'aria-label': 'Rows' },
  h('option', { value: 'hosts' }, 'one per host'),
  h('option', { value: 'classes' }, 'one per class of each host'),
);
const orderSel = h(
  'select',
  { id: 'order', 'aria-label': 'Order' },
  h('option', { value: 'load' }, 'busiest first'),
  h('option', { value: 'address' }, 'by address'),
  h('option', { value: 'report' }, 'as simulated'),
);
const taskSel = h('select', { id: 'task', 'aria-label': 'Task' });
const zoomIn = h('button', { class: 'secondary', id: 'zoom-in', type: 'button', title: 'Zoom in (+)' }, '+');
const zoomOut = h('button', { class: 'secondary', id: 'zoom-out', type: 'button', title: 'Zoom out (-)' }, '−');
const resetBtn = h('button', { class: 'secondary', id: 'reset-zoom', type: 'button', disabled: true }, 'Show all');
const refreshBtn = h('button', { class: 'primary', id: 'refresh', type: 'button' }, 'Simulate again');
const summary = h('div', { class: 'summary', id: 'summary' });
const legend = h('div', { class: 'legend', id: 'legend' });
const notes = h('ul', { class: 'notes muted', id: 'notes' });
const hint = h(
  'div',
  { class: 'hint muted' },
  'Drag across the timeline to zoom in; Ctrl/⌘ + wheel zooms, Shift + wheel pans, double-click shows the whole span. Click a run to show its task in the template.',
);
const tooltip = new HoverTip((text) => (window.timelineMetrics.hoverText = text));
const nonstarts = h('section', { class: 'nonstarts links', id: 'nonstarts' });

const view = new TimelineView({
  hover: (info) => renderTooltip(info),
  click: (info) => {
    if (info.real) {
      // A real run of a template task shows that task; an extra task is in no template.
      const real = data!.real!;
      const task = real.task[info.runs[0]];
      if (task >= 0) post({ type: 'open', task: data!.taskNames[task], addresses: [] });
      return;
    }
    const c = comboView(data!, data!.runCombination[info.runs[0]]);
    post({ type: 'open', task: c.task, addresses: c.addresses });
  },
  viewChanged: () => (resetBtn.disabled = !view.zoomed),
});
modeSel.value = mode;
orderSel.value = order;

clear(app);
app.append(
  title,
  status,
  h(
    'div',
    { class: 'row' },
    h('label', { class: 'field', for: 'mode' }, 'Rows', modeSel),
    h('label', { class: 'field', for: 'order' }, 'Order', orderSel),
    h('label', { class: 'field', for: 'task' }, 'Highlight', taskSel),
    zoomOut,
    zoomIn,
    resetBtn,
    refreshBtn,
  ),
  summary,
  legend,
  notes,
  view.el,
  hint,
  nonstarts,
);
document.body.append(tooltip.el);

modeSel.addEventListener('change', () => {
  mode = modeSel.value === 'classes' ? 'classes' : 'hosts';
  relayout();
});
orderSel.addEventListener('change', () => {
  order = orderSel.value === 'address' ? 'address' : orderSel.value === 'report' ? 'report' : 'load';
  relayout();
});
taskSel.addEventListener('change', () => setFocusTask(Number(taskSel.value)));
zoomIn.addEventListener('click', () => {
  const v = view.visible;
  const q = (v.t1 - v.t0) / 6;
  view.zoomTo(v.t0 + q, v.t1 - q);
});
zoomOut.addEventListener('click', () => {
  const v = view.visible;
  const q = (v.t1 - v.t0) / 4;
  view.zoomTo(v.t0 - q, v.t1 + q);
});
resetBtn.addEventListener('click', () => view.resetZoom());
refreshBtn.addEventListener('click', () => post({ type: 'refresh' }));

function persist(): void {
  saveState<PageState>({ mode, order });
}

function relayout(): void {
  persist();
  if (!data) return;
  rows = buildRows(data, mode, order, perHost, realPerHost);
  window.timelineMetrics.rows = rows.length;
  view.setRows(data, rows, mode);
  window.timelineMetrics.drawMs = view.lastDrawMs;
  window.timelineMetrics.runsInView = view.lastRuns;
}

function iso(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.000Z$/, 'Z')
    .replace(/(\.\d+)Z$/, '$1Z');
}

function duration(s: number): string {
  if (s < 120) return `${Math.round(s)} s`;
  if (s < 7200) return `${(s / 60).toFixed(s % 60 ? 1 : 0)} min`;
  return `${(s / 3600).toFixed(s % 3600 ? 1 : 0)} h`;
}

function setFocusTask(i: number): void {
  focusTask = data && i >= 0 && i < data.taskNames.length ? i : -1;
  taskSel.value = String(focusTask);
  window.timelineMetrics.focusTask = focusTask >= 0 ? data!.taskNames[focusTask] : '';
  for (const el of legend.querySelectorAll<HTMLElement>('.item'))
    el.classList.toggle('focused', Number(el.dataset.index) === focusTask);
  view.setFocusTask(focusTask);
}

function applyFocus(f: TimelineFocus | undefined): void {
  if (!data) return;
  setFocusTask(f?.task !== undefined ? data.taskNames.indexOf(f.task) : -1);
  if (f?.host !== data.focus?.host) {
    data.focus = f;
    relayout();
  }
}

function renderSummary(): void {
  const d = data!;
  const totals = taskTotals(d);
  const wanted = totals.reduce((n, t) => n + t.wanted, 0);
  const lost = totals.reduce((n, t) => n + t.nonstart, 0);
  const over = d.hosts.filter((x) => x.exclusiveLoad > 1).length;
  title.textContent = `Host timeline — ${d.title}`;
  const parts = [
    `${plural(d.hosts.length, 'host')}, ${plural(d.comboTask.length, 'task')}`,
    `${iso(d.start)} – ${iso(d.end)}`,
    `${plural(d.runCombination.length, 'run')} drawn`,
    lost ? `${plural(lost, 'run')} of ${wanted.toLocaleString('en')} will not start` : 'every run starts',
  ];
  if (over) parts.push(`${plural(over, 'host')} over 100% exclusive load`);
  if (d.real) parts.push(realSummary(d));
  summary.textContent = parts.join(' · ');
  summary.classList.toggle('bad', lost > 0 || over > 0);

  clear(legend);
  clear(taskSel);
  taskSel.append(h('option', { value: '-1' }, 'every task'));
  const pal = readTimelinePalette();
  d.taskNames.forEach((name, i) => {
    const t = totals[i];
    taskSel.append(h('option', { value: String(i) }, name));
    // Through the CSSOM: the page's CSP refuses style attributes.
    const swatch = h('span', { class: 'swatch' });
    swatch.style.background = pal.task(i);
    legend.append(
      h(
        'button',
        {
          class: 'item',
          type: 'button',
          'data-index': String(i),
          'data-task': name,
          title: 'Highlight this task (click again for every task)',
          onclick: () => setFocusTask(focusTask === i ? -1 : i),
        },
        swatch,
        name,
        h(
          'span',
          { class: t.nonstart ? 'count bad' : 'count muted' },
          t.nonstart ? `${t.scheduled} of ${t.wanted} runs` : `${t.scheduled} runs`,
        ),
      ),
    );
  });
  legend.append(
    h(
      'span',
      { class: 'item static' },
      h('span', { class: 'swatch nonstart' }),
      'will not start (pScheduler: Non-Starter)',
    ),
  );

  if (d.real) renderRealLegend(d);

  clear(notes);
  for (const n of d.notes) notes.append(h('li', {}, n));
}

/** The real runs in the summary: how many were read and how many failed or did not start. */
function realSummary(d: TimelineData): string {
  const real = d.real!;
  let failed = 0;
  let nonstart = 0;
  for (const k of real.kind) {
    if (k === REAL_FAILED) failed++;
    else if (k === REAL_NONSTART) nonstart++;
  }
  const bad = [
    failed ? `${failed.toLocaleString('en')} failed or missed` : '',
    nonstart ? `${nonstart} not started` : '',
  ]
    .filter(Boolean)
    .join(', ');
  return `${plural(real.host.length, 'real run')} read from pScheduler${bad ? ` (${bad})` : ''}`;
}

/** What the ↳ pScheduler rows are: the hosts' real runs, how they are drawn, and how they were placed on the span. */
function renderRealLegend(d: TimelineData): void {
  const real = d.real!;
  const swatch = (cls: string): HTMLElement => h('span', { class: `swatch ${cls}` });
  const read = `${real.since ? `the last ${real.since}` : 'the runs'}${real.readAt ? ` read at ${iso(Date.parse(real.readAt))}` : ''}`;
  legend.append(
    h(
      'span',
      { class: 'item static real-key', id: 'legend-real' },
      swatch('real'),
      `↳ pScheduler rows: each host's real runs (${read}), beside the simulated ones above them`,
    ),
    h('span', { class: 'item static' }, swatch('real-failed'), 'real run failed or missed'),
    h('span', { class: 'item static' }, swatch('real-extra'), 'real run of a task this template does not make'),
  );
  if (real.folded)
    legend.append(
      h(
        'span',
        { class: 'item static muted', id: 'legend-folded' },
        'real runs placed by time of day on the simulated span (moved by whole days; the hover gives the actual time)',
      ),
    );
}

/** Tasks that lose runs, worst first, each with its first non-starter (a click shows it on the timeline). */
function renderNonstarts(): void {
  const d = data!;
  clear(nonstarts);
  const firstOf = new Map<number, number>();
  const lost = new Map<number, number>();
  for (let r = 0; r < d.runCombination.length; r++) {
    if (d.runState[r] !== RUN_NONSTART) continue;
    const c = d.runCombination[r];
    if (!firstOf.has(c)) firstOf.set(c, r);
    lost.set(c, (lost.get(c) ?? 0) + 1);
  }
  const list = [...lost.keys()].sort((a, b) => lost.get(b)! - lost.get(a)! || a - b);
  nonstarts.append(
    h('h2', {}, list.length ? `Tasks that lose runs (${list.length.toLocaleString('en')})` : 'Every run finds a slot'),
  );
  const ol = h('ol', {});
  for (const c of list.slice(0, 200)) {
    const combo = comboView(d, c);
    const r = firstOf.get(c)!;
    const total = combo.wanted ?? (combo.scheduled ?? 0) + (combo.nonstart ?? lost.get(c)!);
    const reason = d.runReason[r] >= 0 ? d.reasons[d.runReason[r]] : '';
    ol.append(
      h(
        'li',
        { 'data-task': combo.task },
        h(
          'button',
          {
            type: 'button',
            title: 'Show its first non-starter on the timeline',
            onclick: () => {
              const at = view.locate(r);
              if (at) view.el.focus();
            },
          },
          `${combo.task}: ${combo.addresses.join(' → ')}`,
        ),
        ` — ${plural(combo.nonstart ?? lost.get(c)!, 'run')} of ${total} will not start${reason ? `: ${reason}` : ''}`,
      ),
    );
  }
  nonstarts.append(ol);
  if (list.length > 200)
    nonstarts.append(h('p', { class: 'muted' }, `… and ${list.length - 200} more (the CLI lists them all)`));
}

function runText(r: number): string {
  const d = data!;
  const c = comboView(d, d.runCombination[r]);
  const s = d.start + d.runStart[r] * 1000;
  const e = d.start + d.runEnd[r] * 1000;
  const nonstart = d.runState[r] === RUN_NONSTART;
  const lines = [
    `${c.task}: ${c.addresses.join(' → ')}`,
    `  ${CLASS_LABEL[CLASS_CODES[c.cls]].toLowerCase()} · ${nonstart ? 'will not start (non-starter)' : 'scheduled'}`,
    `  ${iso(s)} – ${iso(e)} (${duration((e - s) / 1000)})`,
    `  on ${c.participants.join(', ')}${c.tool ? ` · ${c.tool}` : ''}`,
  ];
  if (nonstart && d.runReason[r] >= 0) lines.push(`  ${d.reasons[d.runReason[r]]}`);
  if (c.wanted !== undefined && c.scheduled !== undefined)
    lines.push(`  ${c.scheduled} of ${c.wanted} runs scheduled in the span`);
  return lines.join('\n');
}

/** A real run: "pScheduler on HOST: STATE at ACTUAL TIME (task NAME) — reason". */
function realRunText(d: TimelineData, r: number): string {
  const real = d.real!;
  const reason = real.reason[r] >= 0 ? ` — ${real.reasons[real.reason[r]]}` : '';
  const seconds = real.end[r] - real.start[r];
  const length = seconds > 0 ? `, ${duration(seconds)}` : '';
  return `pScheduler on ${d.hosts[real.host[r]].address}: ${real.states[real.state[r]]} at ${iso(Date.parse(real.at[r]))}${length} (${real.labels[real.label[r]]})${reason}`;
}

function renderTooltip(info: RunHover | undefined): void {
  if (!data || !info || !info.runs.length) {
    tooltip.hide();
    return;
  }
  const d = data;
  const text =
    (info.real ? info.runs.map((r) => realRunText(d, r)) : info.runs.map(runText)).join('\n') +
    (info.more ? `\n… and ${plural(info.more, 'more run')} here` : '');
  tooltip.show(text, info.clientX, info.clientY);
}

function setStatus(text: string, kind: 'info' | 'error' | 'busy' = 'info'): void {
  setStatusLine(status, text, kind);
}

onHostMessage((msg: HostToTimeline) => {
  switch (msg.type) {
    case 'status':
      window.timelineMetrics.loading = msg.loading;
      refreshBtn.disabled = msg.loading;
      if (msg.loading) setStatus('Simulating the schedule…', 'busy');
      else {
        window.timelineMetrics.loads++;
        window.timelineMetrics.error = msg.error;
        setStatus(msg.error ?? '', msg.error ? 'error' : 'info');
      }
      return;
    case 'data': {
      const t0 = performance.now();
      data = msg.data;
      perHost = runsPerHost(data);
      realPerHost = realRunsPerHost(data);
      window.timelineMetrics.runs = data.runCombination.length;
      renderSummary();
      renderNonstarts();
      relayout();
      setFocusTask(data.focus?.task !== undefined ? data.taskNames.indexOf(data.focus.task) : -1);
      window.timelineMetrics.firstDrawMs ??= performance.now() - started;
      window.timelineMetrics.dataMs = performance.now() - t0;
      return;
    }
    case 'focus':
      applyFocus(msg.focus);
      return;
  }
});

window.timelineTest = {
  locate: (run, host) => {
    const hi = host === undefined ? undefined : data?.hosts.findIndex((x) => x.address === host);
    return view.locate(run, hi === -1 ? undefined : hi);
  },
  find: (state, task, source) => {
    if (!data) return undefined;
    const want = state === 'nonstart' ? RUN_NONSTART : 0;
    for (let r = 0; r < data.runCombination.length; r++) {
      const c = data.runCombination[r];
      if (
        data.runState[r] === want &&
        (task === undefined || data.taskNames[data.comboTask[c]] === task) &&
        (source === undefined || data.names[data.comboAddresses[c][0]] === source)
      )
        return r;
    }
    return undefined;
  },
  visible: () => view.visible,
  zoomTo: (t0, t1) => view.zoomTo(t0, t1),
  rows: () =>
    rows.map((r) =>
      r.cls === REAL_ROW
        ? `${data?.hosts[r.host].address ?? ''} · real`
        : r.cls < 0 || !data
          ? (data?.hosts[r.host].address ?? '')
          : `${data.hosts[r.host].address} · ${r.cls}`,
    ),
  locateReal: (run) => view.locateReal(run),
  findReal: (state, host) => {
    const real = data?.real;
    if (!real) return undefined;
    for (let r = 0; r < real.host.length; r++)
      if (real.states[real.state[r]] === state && (host === undefined || data!.hosts[real.host[r]].address === host))
        return r;
    return undefined;
  },
};

reportPageErrors('Timeline', setStatus, (text) => post({ type: 'log', level: 'error', text }));

post({ type: 'ready' });
