// The host timeline on a canvas: time runs left to right (UTC), one row per host (or per class of each host), runs
// coloured by their template task. In a host row the exclusive and normal runs (those that block each other) fill
// the upper band and the background classes, which never conflict, a thin lower band; non-starters are hatched,
// outlined in the error colour and marked with a triangle. Only the rows in view are drawn (the canvas stays the
// size of the viewport while the page scrolls a spacer), narrow runs of one task merge into one rectangle per
// pixel, and the hover and drag selection live on an overlay canvas so moving the mouse never redraws the runs.
// Zoom: drag across a stretch of time, Ctrl/⌘ + wheel around the cursor, +/- keys; pan with Shift + wheel or the
// arrow keys; double-click or Escape shows the whole span.
import { CLASS_CODES, REAL_FAILED, REAL_NONSTART, RUN_NONSTART, type TimelineData } from '../../schedule/messages';
import {
  NONSTART_ROW,
  REAL_ROW,
  realRunsAt,
  rowLabel,
  runsAt,
  type RowMode,
  type TimelineRow,
} from '../../schedule/timeline-rows';
import { LayeredCanvas, pixelRatio, redrawOnResize } from '../kit/canvas';
import { pixelOf } from '../kit/pixels';
import { readTimelinePalette, type TimelinePalette } from './colours';

export interface RunHover {
  row: number;
  /** Runs under the cursor (at most 8), by start time: indexes into `data.real` when `real`. */
  runs: number[];
  /** The row is a host's real runs (read from its pScheduler). */
  real?: boolean;
  /** More runs than `runs` overlap the cursor. */
  more: number;
  t: number;
  clientX: number;
  clientY: number;
}

export interface TimelineHandlers {
  hover(h: RunHover | undefined): void;
  click(h: RunHover): void;
  viewChanged(): void;
}

const AXIS_H = 38;
/** The shortest stretch of time one can zoom into (seconds). */
const MIN_SPAN = 10;
const TICKS = [1, 5, 10, 30, 60, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 172800, 604800];
const BACKGROUND = CLASS_CODES.indexOf('background');

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

export class TimelineView {
  readonly el: HTMLDivElement;
  private readonly stage: HTMLDivElement;
  private readonly spacer: HTMLDivElement;
  private readonly canvas = new LayeredCanvas('timeline', 'Host timeline: runs per host over time');
  private readonly base = this.canvas.base;
  private readonly overlay = this.canvas.overlay;
  private readonly redrawSoon: () => void;
  private data?: TimelineData;
  private rows: TimelineRow[] = [];
  private mode: RowMode = 'hosts';
  private view = { t0: 0, t1: 1 };
  private focusTask = -1;
  private labelW = 120;
  private rowH = 22;
  private width = 0;
  private height = 0;
  private pal?: TimelinePalette;
  private dpr = 1;
  private hovered?: RunHover;
  private drag?: { x: number; moved: boolean };
  private dragX = 0;
  /** Milliseconds the last draw took, and how many runs were in view. */
  lastDrawMs = 0;
  lastRuns = 0;

  constructor(private readonly handlers: TimelineHandlers) {
    this.el = document.createElement('div');
    this.el.className = 'timeline';
    this.stage = document.createElement('div');
    this.stage.className = 'timeline-stage';
    this.spacer = document.createElement('div');
    this.stage.append(this.base, this.overlay);
    this.el.append(this.stage, this.spacer);
    this.redrawSoon = redrawOnResize(this.el, () => this.draw());
    this.el.addEventListener('scroll', () => this.redrawSoon());
    this.canvas.listen({
      move: (e) => this.onMove(e),
      leave: () => {
        if (!this.drag) this.setHover(undefined);
      },
      down: (e) => this.onDown(e),
      up: (e) => this.onUp(e),
      wheel: (e) => this.onWheel(e),
      dblclick: () => this.resetZoom(),
      key: (e) => this.onKey(e),
    });
    window.addEventListener('resize', () => this.redrawSoon());
  }

  /** New data (the whole span shown) or new rows of the same data (the zoom kept). */
  setRows(data: TimelineData, rows: TimelineRow[], mode: RowMode): void {
    const fresh = data !== this.data;
    this.data = data;
    this.rows = rows;
    this.mode = mode;
    if (fresh) this.view = { t0: 0, t1: Math.max(MIN_SPAN, (data.end - data.start) / 1000) };
    this.hovered = undefined;
    this.draw();
  }

  setFocusTask(task: number): void {
    this.focusTask = task;
    this.draw();
  }

  get visible(): { t0: number; t1: number } {
    return { ...this.view };
  }

  get zoomed(): boolean {
    const d = this.data;
    return !!d && (this.view.t0 > 0 || this.view.t1 < (d.end - d.start) / 1000);
  }

  resetZoom(): void {
    const d = this.data;
    if (!d) return;
    this.zoomTo(0, (d.end - d.start) / 1000);
  }

  /** Show [t0, t1) seconds from the span's start (clamped to the span, at least MIN_SPAN long). */
  zoomTo(t0: number, t1: number): void {
    const d = this.data;
    if (!d) return;
    const span = Math.max(MIN_SPAN, (d.end - d.start) / 1000);
    let len = Math.max(MIN_SPAN, Math.min(span, t1 - t0));
    if (!Number.isFinite(len)) len = span;
    const a = Math.max(0, Math.min(span - len, Number.isFinite(t0) ? t0 : 0));
    this.view = { t0: a, t1: a + len };
    this.draw();
    this.handlers.viewChanged();
  }

  private zoomBy(factor: number, around: number): void {
    const { t0, t1 } = this.view;
    const f = (around - t0) / (t1 - t0);
    const len = (t1 - t0) * factor;
    this.zoomTo(around - f * len, around - f * len + len);
  }

  private panBy(fraction: number): void {
    const { t0, t1 } = this.view;
    const dt = (t1 - t0) * fraction;
    this.zoomTo(t0 + dt, t1 + dt);
  }

  private get plotW(): number {
    return Math.max(10, this.width - this.labelW - 8);
  }

  private xOf(t: number): number {
    return this.labelW + ((t - this.view.t0) / (this.view.t1 - this.view.t0)) * this.plotW;
  }

  private tOf(x: number): number {
    return this.view.t0 + ((x - this.labelW) / this.plotW) * (this.view.t1 - this.view.t0);
  }

  /** The upper band (blocking classes) and lower band (background) of a row at `y`. */
  private bands(y: number): { main: [number, number]; back: [number, number] } {
    const h = this.rowH;
    if (this.mode === 'classes') return { main: [y + 2, h - 4], back: [y + 2, h - 4] };
    const mainH = Math.max(2, Math.round(h * 0.6) - 2);
    return { main: [y + 2, mainH], back: [y + 3 + mainH, Math.max(1, h - mainH - 5)] };
  }

  private isBackground(run: number): boolean {
    return this.data!.comboClass[this.data!.runCombination[run]] >= BACKGROUND;
  }

  /** Client coordinates of a run in the first row (of `host`, when given) that shows it; scrolls it into view. */
  locate(run: number, host?: number): { x: number; y: number } | undefined {
    const d = this.data;
    if (!d || run < 0 || run >= d.runStart.length) return undefined;
    const i = this.rows.findIndex(
      (r) => r.cls !== REAL_ROW && (host === undefined || r.host === host) && r.runs.includes(run),
    );
    if (i < 0) return undefined;
    const top = i * this.rowH;
    if (top < this.el.scrollTop || top + this.rowH > this.el.scrollTop + this.height - AXIS_H)
      this.el.scrollTop = Math.max(0, top - (this.height - AXIS_H) / 2);
    const mid = (d.runStart[run] + Math.max(d.runEnd[run], d.runStart[run])) / 2;
    const w = this.view.t1 - this.view.t0;
    if (mid < this.view.t0 || mid > this.view.t1) this.zoomTo(mid - w / 2, mid + w / 2);
    this.draw();
    const y = AXIS_H + i * this.rowH - this.el.scrollTop;
    const b = this.bands(y);
    const band = this.isBackground(run) ? b.back : b.main;
    const x0 = Math.max(this.xOf(d.runStart[run]), this.labelW);
    const x1 = Math.min(Math.max(this.xOf(d.runEnd[run]), x0 + 1), this.labelW + this.plotW);
    const rect = this.overlay.getBoundingClientRect();
    return { x: rect.left + (x0 + x1) / 2, y: rect.top + band[0] + band[1] / 2 };
  }

  /** Client coordinates of a real run (an index into `data.real`) in its host's real row; scrolls it into view. */
  locateReal(run: number): { x: number; y: number } | undefined {
    const real = this.data?.real;
    if (!real || run < 0 || run >= real.start.length) return undefined;
    const i = this.rows.findIndex((r) => r.cls === REAL_ROW && r.runs.includes(run));
    if (i < 0) return undefined;
    const top = i * this.rowH;
    if (top < this.el.scrollTop || top + this.rowH > this.el.scrollTop + this.height - AXIS_H)
      this.el.scrollTop = Math.max(0, top - (this.height - AXIS_H) / 2);
    const mid = (real.start[run] + Math.max(real.end[run], real.start[run])) / 2;
    const w = this.view.t1 - this.view.t0;
    if (mid < this.view.t0 || mid > this.view.t1) this.zoomTo(mid - w / 2, mid + w / 2);
    this.draw();
    const [y0, hh] = this.realBand(AXIS_H + i * this.rowH - this.el.scrollTop);
    const x0 = Math.max(this.xOf(real.start[run]), this.labelW);
    const x1 = Math.min(Math.max(this.xOf(real.end[run]), x0 + 1), this.labelW + this.plotW);
    const rect = this.overlay.getBoundingClientRect();
    return { x: rect.left + (x0 + x1) / 2, y: rect.top + y0 + hh / 2 };
  }

  /** The one band of a real row at `y`. */
  private realBand(y: number): [number, number] {
    return [y + 3, Math.max(2, this.rowH - 6)];
  }

  private layout(ctx: CanvasRenderingContext2D, pal: TimelinePalette): void {
    const d = this.data!;
    const many = this.rows.length > 80;
    this.rowH = this.mode === 'classes' ? (many ? 12 : 16) : many ? 14 : 22;
    this.width = Math.max(320, this.el.clientWidth);
    ctx.font = `12px ${pal.font}`;
    let host = 0;
    let cls = 0;
    const seen = new Set<number>();
    for (const r of this.rows) {
      if (!seen.has(r.host)) {
        seen.add(r.host);
        host = Math.max(host, ctx.measureText(d.hosts[r.host].address).width);
      }
      if (r.cls >= 0) cls = Math.max(cls, ctx.measureText(rowLabel(d, r)).width);
      if (seen.size > 3000) break;
    }
    // Host, its exclusive load ("100%"), and the class in classes mode.
    const wanted = host + 52 + (this.mode === 'classes' ? cls + 12 : 0);
    this.labelW = Math.ceil(Math.min(this.width * 0.45, Math.max(90, wanted)));
    const total = AXIS_H + this.rows.length * this.rowH;
    const maxH = Math.max(240, Math.round(window.innerHeight * 0.72));
    this.height = Math.min(total, maxH);
    this.el.style.height = `${this.height}px`;
    this.stage.style.height = `${this.height}px`;
    this.spacer.style.height = `${Math.max(0, total - this.height)}px`;
  }

  draw(): void {
    const d = this.data;
    const ctx = this.base.getContext('2d');
    if (!d || !ctx) return;
    const t0 = performance.now();
    const dpr = pixelRatio();
    if (!this.pal || dpr !== this.dpr) {
      this.dpr = dpr;
      this.pal = readTimelinePalette();
      this.pixels.clear();
    }
    const pal = this.pal;
    this.layout(ctx, pal);
    const W = Math.ceil(this.width * dpr);
    const H = Math.ceil(this.height * dpr);
    this.canvas.size(this.width, this.height, dpr);
    const first = Math.max(0, Math.floor(this.el.scrollTop / this.rowH));
    const last = Math.min(this.rows.length, Math.ceil((this.el.scrollTop + this.height - AXIS_H) / this.rowH) + 1);
    // The runs straight into an ImageData (one write per device pixel: a mesh's hundreds of thousands of runs as
    // fillRect calls take seconds in software rendering), then grid, labels, markers and axis on top.
    const img = ctx.createImageData(W, H);
    const buf = new Uint32Array(img.data.buffer);
    const scratch = new RowScratch(W);
    const marks: { x: number; y: number }[] = [];
    this.colours = this.taskColours(d.taskNames.length);
    this.lastRuns = 0;
    for (let i = first; i < last; i++)
      this.paintRow(buf, W, H, scratch, i, AXIS_H + i * this.rowH - this.el.scrollTop, marks);
    this.paintGrid(buf, W, H);
    this.tintRealRows(buf, W, H, first, last);
    ctx.putImageData(img, 0, 0);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.save();
    ctx.beginPath();
    ctx.rect(0, AXIS_H, this.width, this.height - AXIS_H);
    ctx.clip();
    for (let i = first; i < last; i++)
      this.drawLabel(ctx, pal, this.rows[i], AXIS_H + i * this.rowH - this.el.scrollTop);
    // Non-starters' triangles above their start.
    ctx.fillStyle = pal.error;
    for (const m of marks) {
      ctx.beginPath();
      ctx.moveTo(m.x - 3, m.y - 3);
      ctx.lineTo(m.x + 3, m.y - 3);
      ctx.lineTo(m.x, m.y + 2);
      ctx.fill();
    }
    ctx.restore();
    this.drawAxis(ctx, pal);
    this.lastDrawMs = performance.now() - t0;
    this.drawOverlay();
  }

  /** A CSS colour as one ImageData pixel with the given alpha (0-255), kept per colour and alpha. */
  private pixelOf(colour: string, alpha: number): number {
    const key = `${colour}|${alpha}`;
    let p = this.pixels.get(key);
    if (p !== undefined) return p;
    p = pixelOf(colour, alpha);
    this.pixels.set(key, p);
    return p;
  }
  private readonly pixels = new Map<string, number>();

  /** Per task: its pixel in full, faded (another task is highlighted), as a non-starter's fill, and both faded. */
  private taskColours(n: number): { full: Uint32Array; dim: Uint32Array; ns: Uint32Array; nsDim: Uint32Array } {
    const pal = this.pal!;
    const of = (alpha: number): Uint32Array =>
      Uint32Array.from({ length: n }, (_, t) => this.pixelOf(pal.task(t), alpha));
    return { full: of(255), dim: of(56), ns: of(110), nsDim: of(40) };
  }
  private colours: { full: Uint32Array; dim: Uint32Array; ns: Uint32Array; nsDim: Uint32Array } = {
    full: new Uint32Array(0),
    dim: new Uint32Array(0),
    ns: new Uint32Array(0),
    nsDim: new Uint32Array(0),
  };

  /** Vertical lines at the axis ticks, behind the runs (only where no run is drawn). */
  private paintGrid(buf: Uint32Array, W: number, H: number): void {
    const d = this.data!;
    const pal = this.pal!;
    const step = this.tickStep();
    const origin = d.start / 1000;
    const top = Math.round(AXIS_H * this.dpr);
    const faint = this.pixelOf(pal.grid, 90);
    const strong = this.pixelOf(pal.grid, 220);
    for (let t = Math.ceil((origin + this.view.t0) / step) * step; t <= origin + this.view.t1; t += step) {
      const x = Math.round(this.xOf(t - origin) * this.dpr);
      if (x < 0 || x >= W) continue;
      const colour = t % 86400 === 0 ? strong : faint;
      for (let py = top; py < H; py++) if (!buf[py * W + x]) buf[py * W + x] = colour;
    }
  }

  /**
   * One row's runs into the pixel buffer. Each band is first painted as a line of pixels (a run fills its columns;
   * a later run wins a shared column), then copied to every pixel row of the band, so a row costs about its runs'
   * width in pixels however many runs overlap. Non-starters go over the scheduled runs as a hatch with an outline
   * in the error colour, so what took their slot still shows beneath.
   */
  private paintRow(
    buf: Uint32Array,
    W: number,
    H: number,
    sc: RowScratch,
    i: number,
    y: number,
    marks: { x: number; y: number }[],
  ): void {
    const d = this.data!;
    const pal = this.pal!;
    const dpr = this.dpr;
    const row = this.rows[i];
    if (row.cls === REAL_ROW) return this.paintRealRow(buf, W, H, sc, i, y, marks);
    const b = this.bands(y);
    const { t0, t1 } = this.view;
    const scale = (this.plotW * dpr) / (t1 - t0);
    const left = Math.round(this.labelW * dpr);
    const right = Math.round((this.labelW + this.plotW) * dpr);
    const gap = Math.max(1, Math.round(dpr));
    sc.reset();
    let lastMark = -1e9;
    const runs = row.runs;
    for (let k = 0; k < runs.length; k++) {
      const r = runs[k];
      const s = d.runStart[r];
      if (s >= t1) break;
      const e = Math.max(d.runEnd[r], s);
      if (e < t0 || (e === t0 && e > s)) continue;
      this.lastRuns++;
      const x0 = Math.max(left, Math.floor(left + (s - t0) * scale));
      let x1 = Math.min(right, Math.ceil(left + (e - t0) * scale));
      if (x1 <= x0) x1 = Math.min(right, x0 + 1);
      if (x1 <= x0) continue;
      const c = d.runCombination[r];
      const task = d.comboTask[c];
      const dim = this.focusTask >= 0 && task !== this.focusTask;
      const lower = this.mode === 'hosts' && d.comboClass[c] >= BACKGROUND;
      if (d.runState[r] === RUN_NONSTART) {
        const line = lower ? sc.nsBack : sc.nsMain;
        const fill = (dim ? this.colours.nsDim : this.colours.ns)[task];
        for (let x = x0; x < x1; x++) line[x] = fill;
        (lower ? sc.edgeBack : sc.edgeMain)[x0] = 1;
        (lower ? sc.edgeBack : sc.edgeMain)[x1 - 1] = 1;
        const mx = x0 / dpr;
        if (mx - lastMark >= 4) {
          lastMark = mx;
          marks.push({ x: mx, y: (lower ? b.back : b.main)[0] });
        }
        continue;
      }
      const colour = (dim ? this.colours.dim : this.colours.full)[task];
      // Wide runs keep a gap at their end so back-to-back runs of one task stay apart.
      const end = x1 - x0 >= 4 * dpr ? x1 - gap : x1;
      const line = lower ? sc.back : sc.main;
      for (let x = x0; x < end; x++) line[x] = colour;
      sc.used[lower ? 1 : 0] = 1;
    }
    const error = this.pixelOf(pal.error, 255);
    const dark = this.pixelOf('#000000', 150);
    const period = Math.max(4, Math.round(5 * dpr));
    const paintBand = (
      band: [number, number],
      line: Uint32Array,
      ns: Uint32Array,
      edge: Uint8Array,
      used: number,
    ): void => {
      const top = Math.max(Math.round(AXIS_H * dpr), Math.round(band[0] * dpr));
      const bottom = Math.min(H, Math.round((band[0] + band[1]) * dpr));
      if (bottom <= top) return;
      if (used) for (let py = top; py < bottom; py++) buf.set(line, py * W);
      if (!sc.anyNonstart(ns, left, right)) return;
      for (let py = top; py < bottom; py++) {
        const at = py * W;
        const rim = py === top || py === bottom - 1;
        for (let x = left; x < right; x++) {
          const n = ns[x];
          if (!n) continue;
          if (rim || edge[x]) buf[at + x] = error;
          else if ((x + py) % period === 0) buf[at + x] = dark;
          else if (!line[x]) buf[at + x] = n;
        }
      }
    };
    paintBand(b.main, sc.main, sc.nsMain, sc.edgeMain, sc.used[0]);
    if (this.mode === 'hosts') paintBand(b.back, sc.back, sc.nsBack, sc.edgeBack, sc.used[1]);
    // Row separators: a stronger line between hosts in classes mode.
    if (i > 0) {
      const py = Math.round(y * dpr);
      if (py >= Math.round(AXIS_H * dpr) && py < H)
        buf.fill(this.pixelOf(pal.grid, row.first ? 160 : 60), py * W, py * W + W);
    }
  }

  /**
   * A host's real runs (read from its pScheduler) into the pixel buffer, in one band: a run in its template task's
   * colour (a neutral one for a task the template does not make), a failed or missed run in the error colour with a
   * triangle, a non-starter hatched and outlined as the simulated ones are. A task highlighted elsewhere fades the
   * rest here too.
   */
  private paintRealRow(
    buf: Uint32Array,
    W: number,
    H: number,
    sc: RowScratch,
    i: number,
    y: number,
    marks: { x: number; y: number }[],
  ): void {
    const d = this.data!;
    const real = d.real;
    const pal = this.pal!;
    const dpr = this.dpr;
    const row = this.rows[i];
    if (!real) return;
    const band = this.realBand(y);
    const { t0, t1 } = this.view;
    const scale = (this.plotW * dpr) / (t1 - t0);
    const left = Math.round(this.labelW * dpr);
    const right = Math.round((this.labelW + this.plotW) * dpr);
    const gap = Math.max(1, Math.round(dpr));
    const neutral = this.pixelOf(pal.muted, 255);
    const neutralDim = this.pixelOf(pal.muted, 56);
    const neutralNs = this.pixelOf(pal.muted, 110);
    const error = this.pixelOf(pal.error, 255);
    const errorDim = this.pixelOf(pal.error, 80);
    sc.reset();
    let lastMark = -1e9;
    for (let k = 0; k < row.runs.length; k++) {
      const r = row.runs[k];
      const s = real.start[r];
      if (s >= t1) break;
      const e = Math.max(real.end[r], s);
      if (e < t0 || (e === t0 && e > s)) continue;
      const x0 = Math.max(left, Math.floor(left + (s - t0) * scale));
      let x1 = Math.min(right, Math.ceil(left + (e - t0) * scale));
      if (x1 <= x0) x1 = Math.min(right, x0 + 1);
      if (x1 <= x0) continue;
      const task = real.task[r];
      const dim = this.focusTask >= 0 && task !== this.focusTask;
      const kind = real.kind[r];
      if (kind === REAL_NONSTART) {
        const fill = task >= 0 ? (dim ? this.colours.nsDim : this.colours.ns)[task] : dim ? neutralDim : neutralNs;
        for (let x = x0; x < x1; x++) sc.nsMain[x] = fill;
        sc.edgeMain[x0] = 1;
        sc.edgeMain[x1 - 1] = 1;
        continue;
      }
      const colour =
        kind === REAL_FAILED
          ? dim
            ? errorDim
            : error
          : task >= 0
            ? (dim ? this.colours.dim : this.colours.full)[task]
            : dim
              ? neutralDim
              : neutral;
      const end = x1 - x0 >= 4 * dpr ? x1 - gap : x1;
      for (let x = x0; x < end; x++) sc.main[x] = colour;
      sc.used[0] = 1;
      const mx = x0 / dpr;
      if (kind === REAL_FAILED && !dim && mx - lastMark >= 4) {
        lastMark = mx;
        marks.push({ x: mx, y: band[0] });
      }
    }
    const top = Math.max(Math.round(AXIS_H * dpr), Math.round(band[0] * dpr));
    const bottom = Math.min(H, Math.round((band[0] + band[1]) * dpr));
    if (bottom > top) {
      if (sc.used[0]) for (let py = top; py < bottom; py++) buf.set(sc.main, py * W);
      if (sc.anyNonstart(sc.nsMain, left, right)) {
        const dark = this.pixelOf('#000000', 150);
        const period = Math.max(4, Math.round(5 * dpr));
        for (let py = top; py < bottom; py++) {
          const at = py * W;
          const rim = py === top || py === bottom - 1;
          for (let x = left; x < right; x++) {
            const n = sc.nsMain[x];
            if (!n) continue;
            if (rim || sc.edgeMain[x]) buf[at + x] = error;
            else if ((x + py) % period === 0) buf[at + x] = dark;
            else if (!sc.main[x]) buf[at + x] = n;
          }
        }
      }
    }
    // A faint separator above (the host's own row is right above it).
    const py = Math.round(y * dpr);
    if (py >= Math.round(AXIS_H * dpr) && py < H) buf.fill(this.pixelOf(pal.grid, 40), py * W, py * W + W);
  }

  /** Real rows get a tint behind their runs (where nothing else is drawn), so they read apart from simulated ones. */
  private tintRealRows(buf: Uint32Array, W: number, H: number, first: number, last: number): void {
    const tint = this.pixelOf(this.pal!.fg, 20);
    const dpr = this.dpr;
    const left = Math.round(this.labelW * dpr);
    const right = Math.round((this.labelW + this.plotW) * dpr);
    for (let i = first; i < last; i++) {
      if (this.rows[i].cls !== REAL_ROW) continue;
      const y = AXIS_H + i * this.rowH - this.el.scrollTop;
      const top = Math.max(Math.round(AXIS_H * dpr), Math.round(y * dpr) + 1);
      const bottom = Math.min(H, Math.round((y + this.rowH) * dpr));
      for (let py = top; py < bottom; py++) {
        const at = py * W;
        for (let x = left; x < right; x++) if (!buf[at + x]) buf[at + x] = tint;
      }
    }
  }

  private drawLabel(ctx: CanvasRenderingContext2D, pal: TimelinePalette, row: TimelineRow, y: number): void {
    const d = this.data!;
    const host = d.hosts[row.host];
    const mid = y + this.rowH / 2;
    ctx.font = `${this.rowH < 16 ? 10 : 12}px ${pal.font}`;
    ctx.textBaseline = 'middle';
    if (row.cls === REAL_ROW) {
      // Under the host's row: the label indented (hosts mode) or where the class goes (classes mode).
      ctx.fillStyle = pal.muted;
      ctx.textAlign = this.mode === 'classes' ? 'right' : 'left';
      const x = this.mode === 'classes' ? this.labelW - 6 : 14;
      ctx.fillText(`${rowLabel(d, row)} (${row.runs.length})`, x, mid, this.labelW - 20);
      return;
    }
    const loadW = 44;
    const hostW = this.labelW - 12 - loadW - (this.mode === 'classes' ? this.labelW * 0.38 : 0);
    if (row.first) {
      ctx.textAlign = 'left';
      ctx.fillStyle = d.focus?.host === host.address ? pal.error : pal.fg;
      ctx.fillText(host.address, 4, mid, Math.max(20, hostW));
      const load = host.exclusiveLoad;
      ctx.textAlign = 'right';
      ctx.fillStyle = load > 1 ? pal.error : pal.muted;
      ctx.fillText(`${Math.round(load * 100)}%`, 4 + Math.max(20, hostW) + loadW, mid);
    }
    if (row.cls >= 0) {
      ctx.textAlign = 'right';
      ctx.fillStyle = row.cls === NONSTART_ROW ? pal.error : pal.muted;
      ctx.fillText(rowLabel(d, row), this.labelW - 6, mid, this.labelW * 0.38);
    }
  }

  private tickStep(): number {
    const span = this.view.t1 - this.view.t0;
    const fit = this.plotW / 90;
    return TICKS.find((s) => span / s <= fit) ?? TICKS[TICKS.length - 1];
  }

  private drawAxis(ctx: CanvasRenderingContext2D, pal: TimelinePalette): void {
    const d = this.data!;
    ctx.fillStyle = pal.bg;
    ctx.fillRect(0, 0, this.width, AXIS_H);
    ctx.fillStyle = pal.grid;
    ctx.fillRect(this.labelW, AXIS_H - 1, this.plotW, 1);
    const step = this.tickStep();
    const origin = d.start / 1000;
    ctx.font = `11px ${pal.font}`;
    ctx.textBaseline = 'alphabetic';
    ctx.textAlign = 'left';
    const lo = this.labelW;
    const hi = this.labelW + this.plotW;
    /** Text centred on x, kept inside the plot. */
    const label = (text: string, x: number, y: number): void => {
      const w = ctx.measureText(text).width;
      ctx.fillText(text, Math.max(lo, Math.min(hi - w, x - w / 2)), y);
    };
    let lastDay = '';
    for (let t = Math.ceil((origin + this.view.t0) / step) * step; t <= origin + this.view.t1; t += step) {
      const x = this.xOf(t - origin);
      const date = new Date(t * 1000);
      const day = `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
      const time = `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}${step < 60 ? `:${pad(date.getUTCSeconds())}` : ''}`;
      ctx.fillStyle = pal.fg;
      ctx.fillRect(Math.round(x), AXIS_H - 5, 1, 5);
      label(step < 86400 ? time : day, x, AXIS_H - 8);
      if (step < 86400 && day !== lastDay) {
        ctx.fillStyle = pal.muted;
        label(day, x, AXIS_H - 22);
        lastDay = day;
      }
    }
    ctx.fillStyle = pal.muted;
    ctx.fillText('times in UTC', 4, AXIS_H - 22, lo - 8);
    ctx.fillText(this.mode === 'classes' ? 'host · class' : 'host · exclusive load', 4, AXIS_H - 8, lo - 8);
  }

  private drawOverlay(): void {
    const ctx = this.overlay.getContext('2d');
    const d = this.data;
    if (!ctx || !d || !this.pal) return;
    ctx.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
    ctx.clearRect(0, 0, this.width, this.height);
    const pal = this.pal;
    const hv = this.hovered;
    if (hv) {
      const y = AXIS_H + hv.row * this.rowH - this.el.scrollTop;
      ctx.globalAlpha = 0.1;
      ctx.fillStyle = pal.fg;
      ctx.fillRect(0, y, this.width, this.rowH);
      ctx.globalAlpha = 1;
      const b = this.bands(y);
      ctx.strokeStyle = pal.fg;
      ctx.lineWidth = 1.5;
      const real = d.real;
      for (const r of hv.runs) {
        if (hv.real && real) {
          const [ry, rh] = this.realBand(y);
          const rx0 = Math.max(this.labelW, this.xOf(real.start[r]));
          const rx1 = Math.min(this.labelW + this.plotW, Math.max(rx0 + 1, this.xOf(real.end[r])));
          ctx.strokeRect(rx0 - 1, ry - 1, rx1 - rx0 + 2, rh + 2);
          continue;
        }
        const [y0, hh] = this.mode === 'hosts' && this.isBackground(r) ? b.back : b.main;
        const x0 = Math.max(this.labelW, this.xOf(d.runStart[r]));
        const x1 = Math.min(this.labelW + this.plotW, Math.max(x0 + 1, this.xOf(d.runEnd[r])));
        ctx.strokeRect(x0 - 1, y0 - 1, x1 - x0 + 2, hh + 2);
      }
      const x = this.xOf(hv.t);
      ctx.globalAlpha = 0.6;
      ctx.fillRect(Math.round(x), AXIS_H, 1, this.height - AXIS_H);
      ctx.globalAlpha = 1;
    }
    const g = this.drag;
    if (g?.moved) {
      const a = Math.min(g.x, this.dragX);
      const w = Math.abs(this.dragX - g.x);
      ctx.globalAlpha = 0.15;
      ctx.fillStyle = pal.fg;
      ctx.fillRect(a, AXIS_H, w, this.height - AXIS_H);
      ctx.globalAlpha = 1;
      ctx.setLineDash([4, 3]);
      ctx.strokeStyle = pal.fg;
      ctx.strokeRect(a + 0.5, AXIS_H + 0.5, w, this.height - AXIS_H - 1);
      ctx.setLineDash([]);
    }
  }

  private hoverAt(e: MouseEvent): RunHover | undefined {
    const d = this.data;
    if (!d) return undefined;
    const { x, y } = this.canvas.at(e);
    if (y < AXIS_H || x < this.labelW || x > this.labelW + this.plotW) return undefined;
    const i = Math.floor((y - AXIS_H + this.el.scrollTop) / this.rowH);
    const row = this.rows[i];
    if (!row) return undefined;
    const t = this.tOf(x);
    const tol = (3 * (this.view.t1 - this.view.t0)) / this.plotW;
    if (row.cls === REAL_ROW) {
      const found = realRunsAt(d, row, t - tol, t + tol, 200);
      return {
        row: i,
        runs: found.slice(0, 8),
        more: Math.max(0, found.length - 8),
        real: true,
        t,
        clientX: e.clientX,
        clientY: e.clientY,
      };
    }
    let runs = runsAt(d, row, t - tol, t + tol, 200);
    if (this.mode === 'hosts' && runs.length) {
      // The band under the cursor decides between the blocking runs and the background ones.
      const b = this.bands(AXIS_H + i * this.rowH - this.el.scrollTop);
      const lower = y >= b.back[0] - 1;
      const inBand = runs.filter((r) => this.isBackground(r) === lower);
      if (inBand.length) runs = inBand;
    }
    if (!runs.length) return { row: i, runs: [], more: 0, t, clientX: e.clientX, clientY: e.clientY };
    return {
      row: i,
      runs: runs.slice(0, 8),
      more: Math.max(0, runs.length - 8),
      t,
      clientX: e.clientX,
      clientY: e.clientY,
    };
  }

  private setHover(h: RunHover | undefined): void {
    this.hovered = h;
    this.drawOverlay();
    this.handlers.hover(h);
  }

  private onMove(e: MouseEvent): void {
    const g = this.drag;
    if (g) {
      this.dragX = Math.max(this.labelW, Math.min(this.labelW + this.plotW, this.canvas.at(e).x));
      if (Math.abs(this.dragX - g.x) > 4) g.moved = true;
    }
    this.setHover(this.hoverAt(e));
  }

  private onDown(e: MouseEvent): void {
    if (e.button !== 0) return;
    const { x, y } = this.canvas.at(e);
    if (x < this.labelW || y < AXIS_H) return;
    this.drag = { x, moved: false };
    this.dragX = x;
  }

  private onUp(e: MouseEvent): void {
    const g = this.drag;
    this.drag = undefined;
    if (!g) return;
    if (g.moved) {
      const a = this.tOf(Math.min(g.x, this.dragX));
      const b = this.tOf(Math.max(g.x, this.dragX));
      this.zoomTo(a, b);
      return;
    }
    const h = this.hoverAt(e);
    if (h?.runs.length) this.handlers.click(h);
    this.drawOverlay();
  }

  private onWheel(e: WheelEvent): void {
    if (!this.data) return;
    if (e.ctrlKey || e.metaKey) {
      e.preventDefault();
      const x = Math.max(this.labelW, Math.min(this.labelW + this.plotW, this.canvas.at(e).x));
      this.zoomBy(e.deltaY < 0 ? 1 / 1.5 : 1.5, this.tOf(x));
    } else if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) {
      e.preventDefault();
      const delta = e.shiftKey ? e.deltaY || e.deltaX : e.deltaX;
      this.panBy(Math.sign(delta) * 0.15);
    }
    // A plain vertical wheel scrolls the rows.
  }

  private onKey(e: KeyboardEvent): void {
    const mid = (this.view.t0 + this.view.t1) / 2;
    if (e.key === 'Escape') this.resetZoom();
    else if (e.key === '+' || e.key === '=') this.zoomBy(1 / 1.5, mid);
    else if (e.key === '-') this.zoomBy(1.5, mid);
    else if (e.key === 'ArrowLeft') this.panBy(-0.15);
    else if (e.key === 'ArrowRight') this.panBy(0.15);
    else return;
    e.preventDefault();
  }
}

/** One row's lines of pixels, reused across the rows of a draw. */
class RowScratch {
  readonly main: Uint32Array;
  readonly back: Uint32Array;
  readonly nsMain: Uint32Array;
  readonly nsBack: Uint32Array;
  readonly edgeMain: Uint8Array;
  readonly edgeBack: Uint8Array;
  readonly used = new Uint8Array(2);
  constructor(width: number) {
    this.main = new Uint32Array(width);
    this.back = new Uint32Array(width);
    this.nsMain = new Uint32Array(width);
    this.nsBack = new Uint32Array(width);
    this.edgeMain = new Uint8Array(width);
    this.edgeBack = new Uint8Array(width);
  }
  reset(): void {
    this.main.fill(0);
    this.back.fill(0);
    this.nsMain.fill(0);
    this.nsBack.fill(0);
    this.edgeMain.fill(0);
    this.edgeBack.fill(0);
    this.used.fill(0);
  }
  anyNonstart(ns: Uint32Array, from: number, to: number): boolean {
    for (let x = from; x < to; x++) if (ns[x]) return true;
    return false;
  }
}
