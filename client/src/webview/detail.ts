// The selected measurement: its charts (throughput with retransmits, loss, latency statistics; forward solid,
// reverse dashed; failures as markers with their text), traces, per-test details and other event types.
// Every series is requested separately, so one failing request shows its error in its own panel only.
import type { MeasurementRow, SeriesResult, ShownSeries, TimeSpec, WindowChoice } from '../explorer/messages';
import { ChartGroup, chartBox, createTimeChart, failureLine, type ChartLine } from './charts';
import { clear, h } from './dom';
import { formatTime, formatWindow } from './format';
import type { Palette } from './theme';
import { renderTestDetails } from './subint';
import { renderTraces } from './trace';
import { HostError, newId, request } from './vscode-api';
import { resolveTime } from '../explorer/time';
import { summaryWindowForRange } from '../../../archive-client/summaries';
import { noun } from '../../../common/text';

type Dir = 'forward' | 'reverse';

interface TimePanel {
  kind: 'time';
  id: string;
  title: string;
  eventType: string;
  unit: 'bps' | '%' | 'ms' | 'count' | '';
  markers?: string;
}

const TIME_PANELS: { id: string; title: string; candidates: string[]; markers?: string }[] = [
  { id: 'throughput', title: 'Throughput', candidates: ['throughput'], markers: 'packet-retransmits' },
  { id: 'loss', title: 'Packet loss', candidates: ['packet-loss-rate', 'packet-loss-rate-bidir'] },
  { id: 'latency', title: 'Latency', candidates: ['histogram-owdelay', 'histogram-rtt'] },
];
const DETAIL_TYPES = [
  'throughput-subintervals',
  'streams-throughput',
  'streams-throughput-subintervals',
  'packet-retransmits-subintervals',
  'streams-packet-retransmits',
];
const NOT_PLOTTED = new Set(['failures', 'pscheduler-run-href', 'packet-retransmits']);

export interface DetailContext {
  archive: string;
  row: MeasurementRow;
  time: TimeSpec;
  window: WindowChoice;
  showReverse: boolean;
}

/** Timings the bench and tests read (window.explorerMetrics). */
export interface ChartMetric {
  points: number;
  /** From selecting the row to this chart drawn (requests, host work, message delivery, transform, draw). */
  totalMs: number;
  drawMs: number;
  fetchMs: number;
  transformMs: number;
  series: string[];
}

export class DetailView {
  readonly el: HTMLElement;
  private readonly head: HTMLElement;
  private readonly body: HTMLElement;
  readonly group = new ChartGroup();
  private gen = 0;
  /** Selection generation: a new row (not a zoom re-read) invalidates the reverse lookup. */
  private sel = 0;
  private ctx?: DetailContext;
  private reverseRow: MeasurementRow | null = null;
  private readonly results = new Map<string, SeriesResult>();
  private readonly errors = new Map<string, string>();
  private timePanels: TimePanel[] = [];
  private readonly boxes = new Map<string, ReturnType<typeof chartBox>>();
  range = { start: 0, end: 1 };
  private shownAt = 0;
  /** The zoomed span whose data the time charts show, when it differs from the searched range. */
  private view?: { start: number; end: number };
  /** The summary window the time charts' data was chosen for. */
  private wanted = 0;
  private refineTimer?: ReturnType<typeof setTimeout>;
  readonly metrics: Record<string, ChartMetric> = {};

  constructor(
    private palette: Palette,
    private readonly onExport: (format: 'csv' | 'json') => void,
  ) {
    this.head = h('div', { class: 'detail-head' });
    this.body = h('div', { class: 'detail-body' });
    this.el = h('section', { class: 'detail', 'aria-label': 'Selected measurement' }, this.head, this.body);
    this.group.onUserZoom = (min, max) => this.scheduleRefine(min, max);
    this.group.onReset = () => {
      if (!this.view || !this.ctx) return false;
      this.show(this.ctx); // the refined data covers only the zoomed span: reload the searched range
      return true;
    };
  }

  /**
   * After a zoom or pan settles, with the window on auto: re-read the time charts for the visible span when it
   * calls for a finer summary (perfSONAR's rule applied to what is on screen) or reaches past the data read.
   */
  private scheduleRefine(min: number, max: number): void {
    if (!this.ctx || this.ctx.window !== 'auto') return;
    clearTimeout(this.refineTimer);
    this.refineTimer = setTimeout(() => this.refine(Math.floor(min), Math.ceil(max)), 350);
  }

  private refine(start: number, end: number): void {
    const ctx = this.ctx;
    if (!ctx || end <= start) return;
    const have = this.view ?? this.range;
    const wanted = summaryWindowForRange(end - start);
    if (wanted === this.wanted && start >= have.start && end <= have.end) return;
    const gen = ++this.gen;
    this.view = { start, end };
    this.wanted = wanted;
    const time: TimeSpec = { start, end };
    const rows: [Dir, MeasurementRow | null][] = [
      ['forward', ctx.row],
      ['reverse', this.reverseRow],
    ];
    for (const [dir, row] of rows) {
      if (!row) continue;
      const types = new Set(row.eventTypes.map((e) => e.eventType));
      const ets = this.timePanels.flatMap((p) => [p.eventType, ...(p.markers ? [p.markers] : [])]).concat('failures');
      for (const et of ets) if (types.has(et)) void this.load(gen, dir, row, et, time);
    }
  }

  setPalette(p: Palette): void {
    this.palette = p;
    this.redraw();
  }

  show(ctx: DetailContext): void {
    const gen = ++this.gen;
    const sel = ++this.sel;
    this.shownAt = performance.now();
    this.ctx = ctx;
    this.reverseRow = null;
    this.results.clear();
    this.errors.clear();
    for (const k of Object.keys(this.metrics)) delete this.metrics[k];
    this.range = resolveTime(ctx.time, Math.floor(Date.now() / 1000));
    this.group.range = this.range;
    this.view = undefined;
    this.wanted = summaryWindowForRange(this.range.end - this.range.start);
    clearTimeout(this.refineTimer);
    this.renderHead();
    this.layout();
    const row = ctx.row;
    const types = new Set(row.eventTypes.map((e) => e.eventType));
    const wanted = this.timePanels.flatMap((p) => [
      p.eventType,
      ...(p.markers && types.has(p.markers) ? [p.markers] : []),
    ]);
    if (types.has('failures')) wanted.push('failures');
    if (types.has('packet-trace')) wanted.push('packet-trace');
    for (const et of wanted) void this.load(gen, 'forward', row, et);
    if (ctx.showReverse && row.destination && row.subjectType !== 'network-element') {
      request({ type: 'reverse', id: newId(), archive: ctx.archive, row }).then(
        (m) => {
          if (sel !== this.sel || m.type !== 'reverseResult') return;
          this.reverseRow = m.row;
          this.renderHead();
          if (!m.row) return;
          const rtypes = new Set(m.row.eventTypes.map((e) => e.eventType));
          const zoomed = this.view ? { start: this.view.start, end: this.view.end } : undefined;
          for (const et of wanted) if (rtypes.has(et)) void this.load(this.gen, 'reverse', m.row, et, zoomed);
        },
        (err: unknown) => {
          if (sel === this.sel) this.errors.set('reverse-lookup', err instanceof Error ? err.message : String(err));
          this.renderHead();
        },
      );
    }
  }

  /** What the charts show, for export. */
  shown(): ShownSeries[] {
    const out: ShownSeries[] = [];
    for (const [k, r] of this.results) {
      const dir = k.split('|')[0] as Dir;
      const row = dir === 'forward' ? this.ctx?.row : this.reverseRow;
      out.push({ direction: dir, source: row?.source ?? '', destination: row?.destination ?? '', result: r });
    }
    return out;
  }

  resetZoom(): void {
    this.group.reset();
  }

  /** `gen` guards time-chart data (a newer zoom re-read supersedes it); lazy sections pass `sel` (only a new row does). */
  private async load(
    gen: number,
    dir: Dir,
    row: MeasurementRow,
    eventType: string,
    zoomed?: TimeSpec,
    sel?: number,
  ): Promise<void> {
    const ctx = this.ctx;
    if (!ctx) return;
    const key = `${dir}|${eventType}`;
    try {
      const m = await request({
        type: 'series',
        id: newId(),
        archive: ctx.archive,
        row,
        eventType,
        time: zoomed ?? ctx.time,
        window: ctx.window,
      });
      const stale = sel !== undefined ? sel !== this.sel : gen !== this.gen;
      if (stale || m.type !== 'seriesResult') return;
      if (!zoomed) {
        this.range = m.range;
        this.group.range = m.range;
      }
      this.errors.delete(key);
      this.results.set(key, m.result);
    } catch (err) {
      if (sel !== undefined ? sel !== this.sel : gen !== this.gen) return;
      this.errors.set(key, err instanceof HostError ? err.info.message : String(err));
    }
    this.renderFor(eventType);
  }

  private layout(): void {
    this.group.destroyAll();
    this.boxes.clear();
    clear(this.body);
    const row = this.ctx?.row;
    if (!row) return;
    const types = new Set(row.eventTypes.map((e) => e.eventType));
    this.timePanels = [];
    for (const p of TIME_PANELS) {
      const et = p.candidates.find((c) => types.has(c));
      if (!et) continue;
      const unit = p.id === 'throughput' ? 'bps' : p.id === 'loss' ? '%' : 'ms';
      this.timePanels.push({
        kind: 'time',
        id: p.id,
        title: et === p.id ? p.title : `${p.title} (${et})`,
        eventType: et,
        unit,
        markers: p.markers,
      });
    }
    for (const p of this.timePanels) this.addBox(p.id, p.title);
    if (types.has('failures')) this.addBox('failures', 'Failures');
    if (types.has('packet-trace')) this.addBox('trace', 'Packet trace');
    const details = DETAIL_TYPES.filter((t) => types.has(t));
    if (details.length) this.lazySection('tests', 'Subintervals and streams', details, () => this.renderDetails());
    const others = [...types].filter(
      (t) =>
        !NOT_PLOTTED.has(t) &&
        !DETAIL_TYPES.includes(t) &&
        t !== 'packet-trace' &&
        !this.timePanels.some((p) => p.eventType === t),
    );
    for (const t of others.sort()) this.lazySection(`other-${t}`, t, [t], () => this.renderOther(t));
    if (this.boxes.size === 0 && !others.length)
      this.body.append(h('p', { class: 'muted' }, 'This measurement has no event type the explorer can plot.'));
  }

  private addBox(id: string, title: string): ReturnType<typeof chartBox> {
    const b = chartBox(`panel-${id}`, title);
    b.status.textContent = 'Loading…';
    b.box.classList.add('loading');
    this.boxes.set(id, b);
    this.body.append(b.box);
    return b;
  }

  /** A collapsed section that fetches its event types (both directions) when first opened. */
  private lazySection(id: string, title: string, eventTypes: string[], render: () => void): void {
    const b = chartBox(`panel-${id}`, title);
    const det = h('details', { class: 'lazy', id: `section-${id}` }, h('summary', {}, title), b.box);
    b.box.querySelector('h3')?.remove();
    this.boxes.set(id, b);
    let started = false;
    det.addEventListener('toggle', () => {
      if (!det.open || started || !this.ctx) return;
      started = true;
      b.status.textContent = 'Loading…';
      const sel = this.sel;
      const zoomed = this.view ? { ...this.view } : undefined;
      const jobs = eventTypes.map((et) => this.load(this.gen, 'forward', this.ctx!.row, et, zoomed, sel));
      if (this.reverseRow) {
        const rtypes = new Set(this.reverseRow.eventTypes.map((e) => e.eventType));
        for (const et of eventTypes)
          if (rtypes.has(et)) jobs.push(this.load(this.gen, 'reverse', this.reverseRow, et, zoomed, sel));
      }
      void Promise.all(jobs).then(() => sel === this.sel && render());
    });
    this.body.append(det);
  }

  private renderHead(): void {
    clear(this.head);
    const row = this.ctx?.row;
    if (!row) return;
    const rev = this.reverseRow;
    const extended = Object.entries(row.fields).sort(([a], [b]) => a.localeCompare(b));
    this.head.append(
      h('h2', {}, row.destination ? `${row.source} → ${row.destination}` : row.source),
      h(
        'div',
        { class: 'muted' },
        `${row.toolName || 'unknown tool'} · agent ${row.measurementAgent || '—'} · key ${row.key} · last write ${formatTime(row.lastUpdate)}`,
      ),
      h(
        'div',
        { class: this.errors.has('reverse-lookup') ? 'error-text' : 'muted', id: 'reverse-status' },
        !this.ctx?.showReverse
          ? 'Reverse direction: off'
          : rev
            ? `Reverse direction (dashed): ${rev.source} → ${rev.destination}, key ${rev.key}`
            : this.errors.has('reverse-lookup')
              ? `Reverse direction lookup failed: ${this.errors.get('reverse-lookup')}`
              : 'Reverse direction: none found (or still looking)',
      ),
      h(
        'details',
        { class: 'fields' },
        h('summary', {}, `All fields (${extended.length})`),
        h('table', {}, h('tbody', {}, ...extended.map(([k, v]) => h('tr', {}, h('th', {}, k), h('td', {}, v))))),
      ),
      h(
        'div',
        { class: 'row actions' },
        h(
          'button',
          { type: 'button', class: 'secondary', id: 'reset-zoom', onclick: () => this.resetZoom() },
          'Reset zoom',
        ),
        h(
          'button',
          { type: 'button', class: 'secondary', id: 'export-csv', onclick: () => this.onExport('csv') },
          'Export CSV',
        ),
        h(
          'button',
          { type: 'button', class: 'secondary', id: 'export-json', onclick: () => this.onExport('json') },
          'Export JSON',
        ),
        h('span', { class: 'muted' }, 'Drag to zoom · wheel zooms · shift+drag pans · double-click resets'),
      ),
    );
  }

  private redraw(): void {
    for (const p of this.timePanels) this.renderTime(p);
    this.renderFailures();
    this.renderTrace();
    const loaded = new Set([...this.results.values()].map((r) => r.eventType));
    if (DETAIL_TYPES.some((t) => loaded.has(t))) this.renderDetails();
    for (const t of loaded) if (this.boxes.has(`other-${t}`)) this.renderOther(t);
  }

  private renderFor(eventType: string): void {
    for (const p of this.timePanels)
      if (p.eventType === eventType || p.markers === eventType || eventType === 'failures') this.renderTime(p);
    if (eventType === 'failures') this.renderFailures();
    if (eventType === 'packet-trace') this.renderTrace();
  }

  private describe(dir: Dir, et: string): string {
    const r = this.results.get(`${dir}|${et}`);
    if (r) {
      const what = r.summaryType === 'base' && r.window === 0 ? 'base' : `${r.summaryType} ${formatWindow(r.window)}`;
      const skipped = r.skipped ? `, ${r.skipped} unreadable ${noun(r.skipped, 'point')} skipped` : '';
      return `${dir}: ${what} (${r.windowReason}), ${r.data.ts.length} points${skipped}${r.note ? ` · ${r.note}` : ''}`;
    }
    const e = this.errors.get(`${dir}|${et}`);
    return e ? `${dir}: error` : `${dir}: loading…`;
  }

  private renderTime(p: TimePanel): void {
    const b = this.boxes.get(p.id);
    if (!b) return;
    const pal = this.palette;
    const lines: ChartLine[] = [];
    const dirs: Dir[] = this.reverseRow ? ['forward', 'reverse'] : ['forward'];
    const failures: ChartLine[] = [];
    for (const dir of dirs) {
      const tag = dir === 'forward' ? 'fwd' : 'rev';
      const dash = dir === 'reverse';
      const r = this.results.get(`${dir}|${p.eventType}`);
      if (r?.data.kind === 'number')
        lines.push({
          label: `${p.id === 'loss' ? 'loss' : p.eventType} (${tag})`,
          ts: r.data.ts,
          values: r.data.values,
          color: pal.series[dash ? 1 : 0],
          dash,
        });
      if (r?.data.kind === 'stats') {
        const cols: ['min' | 'median' | 'mean' | 'p95', number][] = [
          ['min', 0],
          ['median', 1],
          ['mean', 2],
          ['p95', 3],
        ];
        for (const [c, i] of cols)
          lines.push({ label: `${c} (${tag})`, ts: r.data.ts, values: r.data[c], color: pal.series[i], dash });
      }
      const m = p.markers ? this.results.get(`${dir}|${p.markers}`) : undefined;
      if (m?.data.kind === 'number') {
        const ts: number[] = [];
        const vs: number[] = [];
        m.data.ts.forEach((t, i) => {
          const v = (m.data as { values: (number | null)[] }).values[i];
          if (v !== null && v >= 1) {
            ts.push(t);
            vs.push(v);
          }
        });
        lines.push({ label: `retransmits (${tag})`, ts, values: vs, color: pal.marker, markers: true, scale: 'y2' });
      }
      const f = this.results.get(`${dir}|failures`);
      if (f?.data.kind === 'failures' && f.data.ts.length)
        failures.push({
          label: `failures (${tag})`,
          ts: f.data.ts,
          values: [],
          color: pal.failure,
          markers: true,
          text: new Map(f.data.ts.map((t, i) => [t, (f.data as { errors: string[] }).errors[i]])),
        });
    }
    for (const fl of failures) lines.push(failureLine(fl.label, fl.ts, [...fl.text!.values()], lines, fl.color));
    const errs = [...this.errors.entries()]
      .filter(([k]) => k.endsWith(`|${p.eventType}`) || (p.markers && k.endsWith(`|${p.markers}`)))
      .map(([k, v]) => `${k.replace('|', ' ')}: ${v}`);
    b.note.textContent = dirs.map((d) => this.describe(d, p.eventType)).join(' · ');
    const hasMain = lines.some((l) => !l.markers && l.ts.length);
    const pending = dirs.some(
      (d) => !this.results.has(`${d}|${p.eventType}`) && !this.errors.has(`${d}|${p.eventType}`),
    );
    b.box.classList.toggle('loading', pending);
    b.box.classList.toggle('has-error', errs.length > 0);
    b.status.textContent = errs.length
      ? errs.join('\n')
      : pending && !hasMain
        ? 'Loading…'
        : !hasMain
          ? `No ${p.eventType} data in ${formatTime(this.range.start)} … ${formatTime(this.range.end)}.`
          : '';
    const old = this.group.all().find((u) => u.root.parentElement === b.plot);
    if (old) {
      this.group.remove(old);
      old.destroy();
    }
    clear(b.plot);
    if (!hasMain && !lines.length) return;
    const rs = dirs.map((d) => this.results.get(`${d}|${p.eventType}`)).filter((r): r is SeriesResult => !!r);
    b.box.dataset.points = String(rs.reduce((n, r) => n + r.data.ts.length, 0));
    const onDrawn = (drawMs: number): void => {
      this.metrics[p.id] = {
        points: rs.reduce((n, r) => n + r.received, 0),
        totalMs: performance.now() - this.shownAt,
        drawMs,
        fetchMs: Math.max(0, ...rs.map((r) => r.fetchMs)),
        transformMs: Math.max(0, ...rs.map((r) => r.transformMs)),
        series: lines.map((l) => l.label),
      };
    };
    createTimeChart(
      b.plot,
      {
        id: `chart-${p.id}`,
        title: p.title,
        unit: p.unit,
        secondaryUnit: 'count',
        secondaryLabel: 'retransmits',
        lines,
        range: this.view ?? this.range,
        onDrawn,
      },
      pal,
      this.group,
    );
  }

  private renderFailures(): void {
    const b = this.boxes.get('failures');
    if (!b) return;
    clear(b.plot);
    const items: { t: number; dir: Dir; text: string }[] = [];
    for (const dir of ['forward', 'reverse'] as Dir[]) {
      const f = this.results.get(`${dir}|failures`);
      if (f?.data.kind === 'failures')
        f.data.ts.forEach((t, i) => items.push({ t, dir, text: (f.data as { errors: string[] }).errors[i] }));
    }
    const err = this.errors.get('forward|failures');
    b.box.classList.remove('loading');
    b.box.classList.toggle('has-error', !!err);
    b.status.textContent = err ? `forward failures: ${err}` : items.length ? '' : 'No failures in this range.';
    items.sort((a, c) => c.t - a.t);
    if (items.length)
      b.plot.append(
        h(
          'ul',
          { class: 'failures' },
          ...items
            .slice(0, 200)
            .map((i) => h('li', {}, h('span', { class: 'muted' }, `${formatTime(i.t)} ${i.dir}: `), i.text)),
        ),
      );
  }

  private renderTrace(): void {
    const b = this.boxes.get('trace');
    if (!b || !this.ctx) return;
    for (const u of this.group.all())
      if (b.plot.contains(u.root)) {
        this.group.remove(u);
        u.destroy();
      }
    clear(b.plot);
    b.box.classList.remove('loading');
    const errs = ['forward', 'reverse'].map((d) => this.errors.get(`${d}|packet-trace`)).filter(Boolean);
    b.status.textContent = errs.join('\n');
    for (const dir of ['forward', 'reverse'] as Dir[]) {
      const r = this.results.get(`${dir}|packet-trace`);
      if (r) renderTraces(b.plot, dir === 'forward' ? 'Forward' : 'Reverse', r, this.palette, this.group, this.range);
    }
  }

  private renderDetails(): void {
    const b = this.boxes.get('tests');
    if (!b) return;
    clear(b.plot);
    const fwd = new Map<string, SeriesResult>();
    for (const [k, r] of this.results)
      if (k.startsWith('forward|') && DETAIL_TYPES.includes(r.eventType)) fwd.set(r.eventType, r);
    const errs = DETAIL_TYPES.map((t) => this.errors.get(`forward|${t}`)).filter(Boolean);
    b.status.textContent = errs.join('\n');
    renderTestDetails(b.plot, fwd, this.palette);
  }

  private renderOther(eventType: string): void {
    const b = this.boxes.get(`other-${eventType}`);
    if (!b) return;
    clear(b.plot);
    const err = this.errors.get(`forward|${eventType}`);
    const lines: ChartLine[] = [];
    const pal = this.palette;
    for (const dir of ['forward', 'reverse'] as Dir[]) {
      const r = this.results.get(`${dir}|${eventType}`);
      const dash = dir === 'reverse';
      const tag = dir === 'forward' ? 'fwd' : 'rev';
      if (r?.data.kind === 'number')
        lines.push({
          label: `${eventType} (${tag})`,
          ts: r.data.ts,
          values: r.data.values,
          color: pal.series[dash ? 1 : 0],
          dash,
        });
      else if (r?.data.kind === 'stats')
        lines.push({ label: `mean (${tag})`, ts: r.data.ts, values: r.data.mean, color: pal.series[2], dash });
      else if (r && r.data.ts.length && dir === 'forward') {
        const raw = r.data;
        b.plot.append(
          h(
            'pre',
            { class: 'raw' },
            raw.ts
              .slice(-20)
              .map(
                (t, i) =>
                  `${formatTime(t)}  ${JSON.stringify(raw.kind === 'raw' ? raw.values[raw.values.length - Math.min(20, raw.ts.length) + i] : '')}`,
              )
              .join('\n'),
          ),
        );
      }
    }
    const r = this.results.get(`forward|${eventType}`);
    b.note.textContent = r ? this.describe('forward', eventType) : '';
    b.status.textContent = err ? `forward: ${err}` : r && r.data.ts.length === 0 ? 'No data in this range.' : '';
    if (lines.some((l) => l.ts.length))
      createTimeChart(
        b.plot,
        { id: `chart-${eventType}`, title: eventType, unit: r?.unit ?? '', lines, range: this.range },
        pal,
        this.group,
      );
  }
}
