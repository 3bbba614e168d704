// Time charts on uPlot: several series on one time axis (forward solid, reverse dashed), marker series (retransmits,
// failures with their error text), select-to-zoom, wheel zoom, shift/middle-drag pan, double-click or "Reset" to
// the requested range, and one shared x range across every chart of the view.
import uPlot from 'uplot';
import type { Unit } from '../explorer/messages';
import { h } from './dom';
import { formatTick, formatTime, formatValue } from './format';
import type { Palette } from './theme';

export interface ChartLine {
  label: string;
  ts: number[];
  values: (number | null)[];
  color: string;
  dash?: boolean;
  /** Draw points only (retransmits, failures). */
  markers?: boolean;
  /** 'y' (the chart's unit) or 'y2' (secondary axis, e.g. retransmit counts). */
  scale?: 'y' | 'y2';
  /** Per-point text shown in the legend instead of the value (failure messages), keyed by timestamp. */
  text?: Map<number, string>;
}

export interface ChartSpec {
  id: string;
  title: string;
  unit: Unit;
  secondaryUnit?: Unit;
  secondaryLabel?: string;
  lines: ChartLine[];
  range: { start: number; end: number };
  /** Called once, after the first complete draw, with milliseconds since construction began. */
  onDrawn?: (ms: number) => void;
}

/** Keeps the x range of every chart in step and knows the requested range for "reset". */
export class ChartGroup {
  private readonly plots = new Set<uPlot>();
  private syncing = false;
  private quiet = false;
  range: { start: number; end: number } = { start: 0, end: 1 };
  /** Called after the user zoomed or panned (not for programmatic changes such as reset or a new chart). */
  onUserZoom?: (min: number, max: number) => void;

  /** Run `fn` without reporting scale changes as user zooms. */
  quietly<T>(fn: () => T): T {
    const was = this.quiet;
    this.quiet = true;
    try {
      return fn();
    } finally {
      this.quiet = was;
    }
  }

  add(u: uPlot): void {
    this.plots.add(u);
  }
  remove(u: uPlot): void {
    this.plots.delete(u);
  }
  get size(): number {
    return this.plots.size;
  }
  all(): uPlot[] {
    return [...this.plots];
  }

  /** Apply an x range to every chart except `from`. */
  setX(min: number, max: number, from?: uPlot): void {
    if (this.syncing) return;
    this.syncing = true;
    try {
      for (const p of this.plots) if (p !== from) p.setScale('x', { min, max });
    } finally {
      this.syncing = false;
    }
    if (from && !this.quiet) this.onUserZoom?.(min, max);
  }

  /** Back to the requested range; `onReset` (if set) may re-fetch instead. */
  onReset?: () => boolean;
  reset(): void {
    if (this.onReset?.()) return;
    this.quietly(() => this.setX(this.range.start, this.range.end));
  }

  destroyAll(): void {
    for (const p of this.plots) p.destroy();
    this.plots.clear();
  }
}

/** uPlot.join, with each line's own timestamps; alignment gaps become `undefined` (bridged), nulls stay gaps. */
function align(lines: ChartLine[]): uPlot.AlignedData {
  if (lines.length === 1) return [lines[0].ts, lines[0].values];
  const tables: uPlot.AlignedData[] = lines.map((l) => [l.ts, l.values]);
  return uPlot.join(tables);
}

function wheelZoomAndPan(group: ChartGroup): uPlot.Plugin {
  return {
    hooks: {
      ready: (u: uPlot) => {
        const over = u.over;
        over.addEventListener(
          'wheel',
          (ev: WheelEvent) => {
            ev.preventDefault();
            const { min, max } = u.scales.x;
            if (min === undefined || max === undefined) return;
            const rect = over.getBoundingClientRect();
            const at = u.posToVal(ev.clientX - rect.left, 'x');
            if (ev.shiftKey) {
              const shift = ((max - min) * Math.sign(ev.deltaY || ev.deltaX)) / 10;
              u.setScale('x', { min: min + shift, max: max + shift });
              return;
            }
            const f = ev.deltaY < 0 ? 0.8 : 1.25;
            u.setScale('x', { min: at - (at - min) * f, max: at + (max - at) * f });
          },
          { passive: false },
        );
        // Shift-drag or middle-drag pans; plain drag stays uPlot's select-to-zoom.
        over.addEventListener(
          'mousedown',
          (ev: MouseEvent) => {
            if (!(ev.shiftKey || ev.button === 1)) return;
            ev.preventDefault();
            ev.stopImmediatePropagation();
            const { min, max } = u.scales.x;
            if (min === undefined || max === undefined) return;
            const x0 = ev.clientX;
            const perPx = (max - min) / Math.max(1, u.bbox.width / devicePixelRatio);
            const move = (e: MouseEvent): void => {
              const d = (x0 - e.clientX) * perPx;
              u.setScale('x', { min: min + d, max: max + d });
            };
            const up = (): void => {
              window.removeEventListener('mousemove', move);
              window.removeEventListener('mouseup', up);
            };
            window.addEventListener('mousemove', move);
            window.addEventListener('mouseup', up);
          },
          { capture: true },
        );
      },
      setScale: (u: uPlot, key: string) => {
        if (key !== 'x') return;
        const { min, max } = u.scales.x;
        if (min !== undefined && max !== undefined) group.setX(min, max, u);
      },
    },
  };
}

function maxOf(values: readonly (number | null | undefined)[]): number {
  let m = -Infinity;
  for (const v of values) if (v !== null && v !== undefined && v > m) m = v;
  return m;
}

/** Markers for failures sit at 0.9 × the chart's maximum (as the perfSONAR graphs place them). */
export function failureLine(
  label: string,
  ts: number[],
  errors: string[],
  lines: ChartLine[],
  color: string,
): ChartLine {
  const top = Math.max(0, ...lines.filter((l) => !l.markers && (l.scale ?? 'y') === 'y').map((l) => maxOf(l.values)));
  const y = top > 0 && Number.isFinite(top) ? top * 0.9 : 1;
  const text = new Map<number, string>();
  ts.forEach((t, i) => text.set(t, errors[i]));
  return { label, ts, values: ts.map(() => y), color, markers: true, text };
}

export function createTimeChart(parent: HTMLElement, spec: ChartSpec, palette: Palette, group: ChartGroup): uPlot {
  const t0 = performance.now();
  const data = align(spec.lines);
  const xs = data[0] as number[];
  const axisStyle = {
    stroke: palette.fg,
    grid: { stroke: palette.grid, width: 1 },
    ticks: { stroke: palette.grid, width: 1 },
  };
  const series: uPlot.Series[] = [{ label: 'time (UTC)', value: (_u, v) => formatTime(v) }];
  for (const l of spec.lines) {
    const unit = l.scale === 'y2' ? (spec.secondaryUnit ?? 'count') : spec.unit;
    const s: uPlot.Series = {
      label: l.label,
      stroke: l.color,
      width: 1.5,
      scale: l.scale ?? 'y',
      spanGaps: false,
      dash: l.dash ? [6, 4] : undefined,
      value: (_u, v, _si, idx) => {
        if (l.text) {
          const t = idx === null || idx === undefined ? undefined : l.text.get(xs[idx]);
          return t ?? '';
        }
        return formatValue(v, unit);
      },
    };
    if (l.markers) {
      s.paths = () => null;
      s.points = { show: true, size: 8, width: 1, stroke: l.color, fill: l.color };
    } else {
      s.points = { show: false };
    }
    series.push(s);
  }
  const axes: uPlot.Axis[] = [
    { ...axisStyle },
    { ...axisStyle, scale: 'y', size: 70, values: (_u, ticks) => ticks.map((t) => formatTick(t, spec.unit)) },
  ];
  // Rates and loss start at 0; latency zooms onto its band so small changes stay visible.
  const fromZero = spec.unit === 'bps' || spec.unit === '%' || spec.unit === 'count';
  const yRange: uPlot.Range.Function = (_u, min, max) => {
    if (min === null || max === null || !Number.isFinite(min) || !Number.isFinite(max)) return [0, 1];
    if (fromZero) return [Math.min(0, min), max > 0 ? max * 1.05 : 1];
    const pad = Math.max((max - min) * 0.1, Math.abs(max) * 0.02, 1e-6);
    return [min - pad, max + pad];
  };
  const scales: uPlot.Scales = { x: { time: true }, y: { range: yRange } };
  if (spec.lines.some((l) => l.scale === 'y2')) {
    axes.push({
      ...axisStyle,
      scale: 'y2',
      side: 1,
      grid: { show: false },
      size: 50,
      label: spec.secondaryLabel,
      values: (_u, ticks) => ticks.map((t) => formatTick(t, spec.secondaryUnit ?? 'count')),
    });
    scales.y2 = { range: (_u, _min, max) => [0, Math.max(1, max * 1.1)] };
  }
  const width = Math.max(240, parent.clientWidth || 600);
  const opts: uPlot.Options = {
    id: spec.id,
    class: 'ex-chart',
    width,
    height: 220,
    series,
    axes,
    scales,
    cursor: {
      drag: { x: true, y: false, setScale: true },
      sync: { key: 'psconfig-explorer' },
      bind: {
        dblclick: () => () => {
          group.reset();
          return null;
        },
      },
    },
    legend: { live: true },
    plugins: [wheelZoomAndPan(group)],
  };
  if (spec.onDrawn) {
    let reported = false;
    const onDrawn = spec.onDrawn;
    opts.hooks = {
      draw: [
        () => {
          if (!reported) {
            reported = true;
            onDrawn(performance.now() - t0);
          }
        },
      ],
    };
  }
  const u = group.quietly(() => new uPlot(opts, data, parent));
  group.add(u);
  group.quietly(() => u.setScale('x', { min: spec.range.start, max: spec.range.end }));
  return u;
}

/** A chart whose x axis is seconds into a test (subintervals), not time. */
export function createOffsetChart(
  parent: HTMLElement,
  title: string,
  unit: Unit,
  xs: number[],
  lines: { label: string; values: (number | null)[]; color: string }[],
  palette: Palette,
): uPlot {
  const axisStyle = {
    stroke: palette.fg,
    grid: { stroke: palette.grid, width: 1 },
    ticks: { stroke: palette.grid, width: 1 },
  };
  return new uPlot(
    {
      title,
      width: Math.max(240, parent.clientWidth || 600),
      height: 200,
      scales: { x: { time: false }, y: { range: (_u, min, max) => [Math.min(0, min), max > 0 ? max * 1.05 : 1] } },
      series: [
        { label: 'offset (s)', value: (_u, v) => (v === null ? '—' : `${v} s`) },
        ...lines.map((l) => ({
          label: l.label,
          stroke: l.color,
          width: 1.5,
          value: (_u: uPlot, v: number | null) => formatValue(v, unit),
          points: { show: true, size: 4 },
        })),
      ],
      axes: [
        { ...axisStyle, values: (_u, ticks) => ticks.map((t) => `${t}s`) },
        { ...axisStyle, size: 70, values: (_u, ticks) => ticks.map((t) => formatTick(t, unit)) },
      ],
      cursor: { drag: { x: true, y: false } },
    },
    [xs, ...lines.map((l) => l.values)],
    parent,
  );
}

/** Resize charts with their container. */
export function autoResize(container: HTMLElement, group: ChartGroup): void {
  new ResizeObserver(() => {
    for (const u of group.all()) {
      const w = Math.max(240, u.root.parentElement?.clientWidth ?? 600);
      if (Math.abs(w - u.width) > 2) group.quietly(() => u.setSize({ width: w, height: u.height }));
    }
  }).observe(container);
}

export function chartBox(
  id: string,
  title: string,
): { box: HTMLElement; plot: HTMLElement; status: HTMLElement; note: HTMLElement } {
  const plot = h('div', { class: 'plot' });
  const status = h('div', { class: 'status', role: 'status' });
  const note = h('div', { class: 'note' });
  const box = h('section', { class: 'chart-box', id, 'aria-label': title }, h('h3', {}, title), note, status, plot);
  return { box, plot, status, note };
}
