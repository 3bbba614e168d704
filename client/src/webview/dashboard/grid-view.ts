// One grid on a canvas: rows are sources, columns destinations, each cell split in two halves (top: row → column,
// bottom: column → row). Drawn in one pass per state (a 200-address mesh is 79,600 halves), hover and selection on
// an overlay canvas so moving the mouse never redraws the grid. Drag a rectangle to zoom into a block, wheel to zoom
// around the cursor, double-click (or Escape) to see everything; rows and columns sort in template order or worst
// first.
import { STATE_CODES, type GridInfo } from '../../dashboard/messages';
import { LayeredCanvas, pixelRatio, redrawOnResize } from '../kit/canvas';
import { readPalette, SEVERITY, type Palette } from './palette';

export interface HoverInfo {
  row: number;
  col: number;
  /** The half under the cursor. */
  half: 0 | 1;
  /** Directions of the two halves (-1: not configured). */
  dirs: [number, number];
  clientX: number;
  clientY: number;
}

export interface GridHandlers {
  hover(h: HoverInfo | undefined): void;
  click(h: HoverInfo): void;
  viewChanged(): void;
}

export type SortOrder = 'template' | 'worst';

const MAX_CELL = 36;
/** Above this many visible cells the grid is drawn pixel by pixel. */
const PIXEL_MODE_CELLS = 2500;
const LABEL_MIN_CELL = 10;

interface Layout {
  labelW: number;
  labelH: number;
  cs: number;
  width: number;
  height: number;
}

export class GridView {
  readonly el: HTMLDivElement;
  private readonly canvas = new LayeredCanvas('grid');
  private readonly base = this.canvas.base;
  private readonly overlay = this.canvas.overlay;
  private info?: GridInfo;
  private states: Uint8Array = new Uint8Array(0);
  private rowOrder: number[] = [];
  private colOrder: number[] = [];
  private rowPos: number[] = [];
  private colPos: number[] = [];
  private view = { r0: 0, r1: 0, c0: 0, c1: 0 };
  private layout: Layout = { labelW: 0, labelH: 0, cs: 1, width: 0, height: 0 };
  private palette?: Palette;
  private dpr = 1;
  private drag?: { x: number; y: number; r: number; c: number; moved: boolean };
  private hovered?: HoverInfo;
  sort: SortOrder = 'template';
  /** Milliseconds the last full draw took. */
  lastDrawMs = 0;

  constructor(private readonly handlers: GridHandlers) {
    this.el = document.createElement('div');
    this.el.className = 'grid-view';
    this.el.append(this.base, this.overlay);
    this.canvas.listen({
      move: (e) => this.onMove(e),
      leave: () => {
        if (!this.drag) this.setHover(undefined);
      },
      down: (e) => this.onDown(e),
      up: (e) => this.onUp(e),
      wheel: (e) => this.onWheel(e),
      dblclick: () => this.resetZoom(),
      key: (e) => {
        if (e.key === 'Escape') this.resetZoom();
      },
    });
    redrawOnResize(this.el, () => this.draw());
  }

  /** A new grid, or new data for the same one (its zoom and order are kept when the shape is unchanged). */
  setGrid(info: GridInfo, states: Uint8Array): void {
    const same =
      this.info &&
      this.info.task === info.task &&
      this.info.rows.length === info.rows.length &&
      this.info.cols.length === info.cols.length;
    this.info = info;
    this.states = states;
    if (!same) {
      this.order();
      this.view = { r0: 0, r1: info.rows.length, c0: 0, c1: info.cols.length };
    } else if (this.sort === 'worst') this.order();
    this.hovered = undefined;
    this.draw();
  }

  setSort(s: SortOrder): void {
    this.sort = s;
    this.order();
    this.resetZoom();
  }

  resetZoom(): void {
    if (!this.info) return;
    this.view = { r0: 0, r1: this.info.rows.length, c0: 0, c1: this.info.cols.length };
    this.draw();
    this.handlers.viewChanged();
  }

  get zoomed(): boolean {
    return (
      !!this.info &&
      (this.view.r0 > 0 ||
        this.view.c0 > 0 ||
        this.view.r1 < this.info.rows.length ||
        this.view.c1 < this.info.cols.length)
    );
  }

  /** Rows and columns shown (display positions, end exclusive). */
  get visible(): { r0: number; r1: number; c0: number; c1: number } {
    return { ...this.view };
  }

  /** Zoom to display positions [r0, r1) × [c0, c1). */
  zoomTo(r0: number, r1: number, c0: number, c1: number): void {
    if (!this.info) return;
    const clamp = (v: number, max: number): number => Math.max(0, Math.min(max, v));
    const nr = this.info.rows.length;
    const nc = this.info.cols.length;
    r0 = clamp(r0, nr - 1);
    c0 = clamp(c0, nc - 1);
    this.view = { r0, r1: clamp(Math.max(r1, r0 + 1), nr), c0, c1: clamp(Math.max(c1, c0 + 1), nc) };
    this.draw();
    this.handlers.viewChanged();
  }

  /** Row and column indexes in display order (tests check the "worst first" order with it). */
  get displayOrder(): { rows: number[]; cols: number[] } {
    return { rows: [...this.rowOrder], cols: [...this.colOrder] };
  }

  /** Centre of a cell half in client coordinates (tests drive the mouse with it); undefined when not in view. */
  halfCenter(row: number, col: number, half: 0 | 1): { x: number; y: number } | undefined {
    const rp = this.rowPos[row];
    const cp = this.colPos[col];
    if (rp === undefined || cp === undefined) return undefined;
    const { r0, r1, c0, c1 } = this.view;
    if (rp < r0 || rp >= r1 || cp < c0 || cp >= c1) return undefined;
    const rect = this.overlay.getBoundingClientRect();
    const { labelW, labelH, cs } = this.layout;
    return {
      x: rect.left + labelW + (cp - c0) * cs + cs / 2,
      y: rect.top + labelH + (rp - r0) * cs + (half === 0 ? cs * 0.25 : cs * 0.75),
    };
  }

  private order(): void {
    const info = this.info;
    if (!info) return;
    const nr = info.rows.length;
    const nc = info.cols.length;
    const rows = Array.from({ length: nr }, (_, i) => i);
    const cols = Array.from({ length: nc }, (_, i) => i);
    if (this.sort === 'worst') {
      const rs = new Float64Array(nr);
      const cscore = new Float64Array(nc);
      for (let r = 0; r < nr; r++)
        for (let c = 0; c < nc; c++)
          for (let h = 0; h < 2; h++) {
            const d = info.halves[(r * nc + c) * 2 + h];
            if (d < 0) continue;
            const w = SEVERITY[STATE_CODES[this.states[d]]];
            rs[r] += w;
            cscore[c] += w;
          }
      rows.sort((a, b) => rs[b] - rs[a] || a - b);
      cols.sort((a, b) => cscore[b] - cscore[a] || a - b);
    }
    this.rowOrder = rows;
    this.colOrder = cols;
    this.rowPos = new Array<number>(nr);
    rows.forEach((r, p) => (this.rowPos[r] = p));
    this.colPos = new Array<number>(nc);
    cols.forEach((c, p) => (this.colPos[c] = p));
  }

  private computeLayout(ctx: CanvasRenderingContext2D, pal: Palette): Layout {
    const info = this.info!;
    const width = Math.max(200, this.el.clientWidth);
    const nR = this.view.r1 - this.view.r0;
    const nC = this.view.c1 - this.view.c0;
    let cs = Math.max(1, Math.min(MAX_CELL, Math.floor(width / nC)));
    let labelW = 0;
    let labelH = 0;
    if (cs >= LABEL_MIN_CELL) {
      ctx.font = `11px ${pal.font}`;
      const widest = (labels: string[], from: number, to: number, order: number[]): number => {
        let w = 0;
        for (let p = from; p < to; p++) w = Math.max(w, ctx.measureText(labels[order[p]]).width);
        return w;
      };
      labelW = Math.min(240, Math.ceil(widest(info.rows, this.view.r0, this.view.r1, this.rowOrder)) + 10);
      labelH = Math.min(160, Math.ceil(widest(info.cols, this.view.c0, this.view.c1, this.colOrder)) + 10);
      cs = Math.max(1, Math.min(MAX_CELL, Math.floor((width - labelW) / nC)));
      if (cs < LABEL_MIN_CELL) {
        labelW = 0;
        labelH = 0;
        cs = Math.max(1, Math.min(MAX_CELL, Math.floor(width / nC)));
      }
    }
    return { labelW, labelH, cs, width: labelW + cs * nC, height: labelH + cs * nR };
  }

  draw(): void {
    const info = this.info;
    const ctx = this.base.getContext('2d');
    if (!info || !ctx) return;
    const t0 = performance.now();
    const dpr = pixelRatio();
    if (!this.palette || dpr !== this.dpr) {
      this.dpr = dpr;
      this.palette = readPalette(ctx, dpr);
    }
    const pal = this.palette;
    const L = (this.layout = this.computeLayout(ctx, pal));
    this.canvas.size(L.width, L.height, dpr);
    this.el.style.height = `${L.height}px`;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, L.width, L.height);
    const { r0, r1, c0, c1 } = this.view;
    const nc = info.cols.length;
    const cs = L.cs;
    const gap = cs >= 6 ? 1 : 0;
    const inner = cs - gap;
    const top = inner >= 2 ? Math.floor(inner / 2) : inner;
    if ((r1 - r0) * (c1 - c0) > PIXEL_MODE_CELLS) {
      this.drawPixels(ctx, pal, L, inner, top);
      if (L.labelW > 0) this.drawLabels(ctx, pal, L);
      this.lastDrawMs = performance.now() - t0;
      this.drawOverlay();
      return;
    }
    // Rectangles per state code, then one fill per state.
    const rects: number[][] = STATE_CODES.map(() => []);
    for (let rp = r0; rp < r1; rp++) {
      const r = this.rowOrder[rp];
      const y = L.labelH + (rp - r0) * cs;
      for (let cp = c0; cp < c1; cp++) {
        const c = this.colOrder[cp];
        const x = L.labelW + (cp - c0) * cs;
        const base = (r * nc + c) * 2;
        const f = info.halves[base];
        const b = info.halves[base + 1];
        const sf = f < 0 ? 0 : this.states[f];
        const sb = b < 0 ? 0 : this.states[b];
        if (inner < 2) {
          // One pixel per cell: show the worse half.
          const worse = SEVERITY[STATE_CODES[sb]] > SEVERITY[STATE_CODES[sf]] ? sb : sf;
          rects[worse].push(x, y, inner, inner);
          continue;
        }
        rects[sf].push(x, y, inner, top);
        rects[sb].push(x, y + top, inner, inner - top);
      }
    }
    for (let s = 0; s < rects.length; s++) {
      const list = rects[s];
      if (!list.length) continue;
      ctx.fillStyle = pal.fill[s];
      for (let i = 0; i < list.length; i += 4) ctx.fillRect(list[i], list[i + 1], list[i + 2], list[i + 3]);
    }
    if (L.labelW > 0) this.drawLabels(ctx, pal, L);
    this.lastDrawMs = performance.now() - t0;
    this.drawOverlay();
  }

  /**
   * Large grids straight into an ImageData: one pixel write per device pixel instead of 80,000 fillRect calls
   * (pattern fills are slow in software rendering). The no-data stripes and the failed crosses are computed per pixel.
   */
  private drawPixels(ctx: CanvasRenderingContext2D, pal: Palette, L: Layout, inner: number, top: number): void {
    const info = this.info!;
    const dpr = this.dpr;
    const W = Math.ceil(L.width * dpr);
    const H = Math.ceil(L.height * dpr);
    const img = ctx.createImageData(W, H);
    const buf = new Uint32Array(img.data.buffer);
    const { r0, r1, c0, c1 } = this.view;
    const nc = info.cols.length;
    const noData = STATE_CODES.indexOf('no-data');
    const failed = STATE_CODES.indexOf('failed');
    const period = Math.max(4, Math.round(6 * dpr));
    const fill = (x: number, y: number, w: number, h: number, state: number): void => {
      const x0 = Math.round(x * dpr);
      const y0 = Math.round(y * dpr);
      const x1 = Math.min(W, Math.round((x + w) * dpr));
      const y1 = Math.min(H, Math.round((y + h) * dpr));
      const colour = pal.pixel[state];
      for (let py = y0; py < y1; py++) {
        const row = py * W;
        for (let px = x0; px < x1; px++) {
          let c = colour;
          if (state === noData && (px + py) % period < 1 + (dpr >> 1)) c = pal.dark;
          else if (state === failed && ((px - py) % period === 0 || (px + py) % period === 0)) c = pal.dark;
          buf[row + px] = c;
        }
      }
    };
    for (let rp = r0; rp < r1; rp++) {
      const r = this.rowOrder[rp];
      const y = L.labelH + (rp - r0) * L.cs;
      for (let cp = c0; cp < c1; cp++) {
        const c = this.colOrder[cp];
        const x = L.labelW + (cp - c0) * L.cs;
        const base = (r * nc + c) * 2;
        const f = info.halves[base];
        const b = info.halves[base + 1];
        const sf = f < 0 ? 0 : this.states[f];
        const sb = b < 0 ? 0 : this.states[b];
        if (inner < 2) {
          fill(x, y, inner, inner, SEVERITY[STATE_CODES[sb]] > SEVERITY[STATE_CODES[sf]] ? sb : sf);
          continue;
        }
        fill(x, y, inner, top, sf);
        fill(x, y + top, inner, inner - top, sb);
      }
    }
    ctx.putImageData(img, 0, 0);
  }

  private drawLabels(ctx: CanvasRenderingContext2D, pal: Palette, L: Layout): void {
    const info = this.info!;
    const { r0, r1, c0, c1 } = this.view;
    ctx.fillStyle = pal.fg;
    ctx.font = `11px ${pal.font}`;
    ctx.textBaseline = 'middle';
    ctx.textAlign = 'right';
    for (let rp = r0; rp < r1; rp++)
      ctx.fillText(info.rows[this.rowOrder[rp]], L.labelW - 6, L.labelH + (rp - r0) * L.cs + L.cs / 2, L.labelW - 8);
    ctx.textAlign = 'left';
    for (let cp = c0; cp < c1; cp++) {
      ctx.save();
      ctx.translate(L.labelW + (cp - c0) * L.cs + L.cs / 2, L.labelH - 6);
      ctx.rotate(-Math.PI / 2);
      ctx.fillText(info.cols[this.colOrder[cp]], 0, 0, L.labelH - 8);
      ctx.restore();
    }
  }

  private drawOverlay(): void {
    const ctx = this.overlay.getContext('2d');
    if (!ctx) return;
    const L = this.layout;
    ctx.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
    ctx.clearRect(0, 0, L.width, L.height);
    const pal = this.palette!;
    const h = this.hovered;
    if (h) {
      const rp = this.rowPos[h.row] - this.view.r0;
      const cp = this.colPos[h.col] - this.view.c0;
      ctx.strokeStyle = pal.fg;
      ctx.lineWidth = 1;
      ctx.strokeRect(L.labelW + cp * L.cs - 0.5, L.labelH + rp * L.cs - 0.5, L.cs + 1, L.cs + 1);
      if (L.cs >= 4) {
        ctx.globalAlpha = 0.12;
        ctx.fillStyle = pal.fg;
        ctx.fillRect(L.labelW, L.labelH + rp * L.cs, L.width - L.labelW, L.cs);
        ctx.fillRect(L.labelW + cp * L.cs, L.labelH, L.cs, L.height - L.labelH);
        ctx.globalAlpha = 1;
      }
    }
    const d = this.drag;
    if (d?.moved && h) {
      const rA = Math.min(d.r, this.rowPos[h.row]);
      const rB = Math.max(d.r, this.rowPos[h.row]);
      const cA = Math.min(d.c, this.colPos[h.col]);
      const cB = Math.max(d.c, this.colPos[h.col]);
      ctx.setLineDash([4, 3]);
      ctx.strokeStyle = pal.fg;
      ctx.strokeRect(
        L.labelW + (cA - this.view.c0) * L.cs,
        L.labelH + (rA - this.view.r0) * L.cs,
        (cB - cA + 1) * L.cs,
        (rB - rA + 1) * L.cs,
      );
      ctx.setLineDash([]);
    }
  }

  /** Display positions under canvas-relative (x, y), or undefined outside the cells. */
  private cellAt(x: number, y: number): { rp: number; cp: number; half: 0 | 1 } | undefined {
    const L = this.layout;
    if (x < L.labelW || y < L.labelH) return undefined;
    const cp = Math.floor((x - L.labelW) / L.cs) + this.view.c0;
    const rp = Math.floor((y - L.labelH) / L.cs) + this.view.r0;
    if (cp >= this.view.c1 || rp >= this.view.r1) return undefined;
    const within = y - L.labelH - (rp - this.view.r0) * L.cs;
    return { rp, cp, half: within < L.cs / 2 ? 0 : 1 };
  }

  private hoverAt(e: MouseEvent): HoverInfo | undefined {
    const info = this.info;
    if (!info) return undefined;
    const p = this.canvas.at(e);
    const at = this.cellAt(p.x, p.y);
    if (!at) return undefined;
    const row = this.rowOrder[at.rp];
    const col = this.colOrder[at.cp];
    const base = (row * info.cols.length + col) * 2;
    return {
      row,
      col,
      half: at.half,
      dirs: [info.halves[base], info.halves[base + 1]],
      clientX: e.clientX,
      clientY: e.clientY,
    };
  }

  private setHover(h: HoverInfo | undefined): void {
    const prev = this.hovered;
    this.hovered = h;
    if (prev?.row !== h?.row || prev?.col !== h?.col || this.drag) this.drawOverlay();
    this.handlers.hover(h);
  }

  private onMove(e: MouseEvent): void {
    const h = this.hoverAt(e);
    const d = this.drag;
    if (d && !d.moved) {
      const p = this.canvas.at(e);
      if (Math.hypot(p.x - d.x, p.y - d.y) > 4) d.moved = true;
    }
    this.setHover(h);
  }

  private onDown(e: MouseEvent): void {
    if (e.button !== 0) return;
    const { x, y } = this.canvas.at(e);
    const at = this.cellAt(x, y);
    if (!at) return;
    this.drag = { x, y, r: at.rp, c: at.cp, moved: false };
  }

  private onUp(e: MouseEvent): void {
    const d = this.drag;
    this.drag = undefined;
    if (!d) return;
    const { x, y } = this.canvas.at(e);
    const moved = d.moved || Math.hypot(x - d.x, y - d.y) > 4;
    const at = this.cellAt(x, y);
    if (moved && at) {
      this.zoomTo(Math.min(d.r, at.rp), Math.max(d.r, at.rp) + 1, Math.min(d.c, at.cp), Math.max(d.c, at.cp) + 1);
      return;
    }
    if (!moved) {
      const h = this.hoverAt(e);
      if (h) this.handlers.click(h);
    }
    this.drawOverlay();
  }

  private onWheel(e: WheelEvent): void {
    const info = this.info;
    if (!info || !e.deltaY) return;
    e.preventDefault();
    const p = this.canvas.at(e);
    const at = this.cellAt(p.x, p.y);
    const { r0, r1, c0, c1 } = this.view;
    const factor = e.deltaY < 0 ? 1 / 1.5 : 1.5;
    const rc = at?.rp ?? (r0 + r1) / 2;
    const cc = at?.cp ?? (c0 + c1) / 2;
    const nr = Math.max(1, Math.min(info.rows.length, Math.round((r1 - r0) * factor)));
    const nc = Math.max(1, Math.min(info.cols.length, Math.round((c1 - c0) * factor)));
    const fr = (rc - r0) / (r1 - r0);
    const fc = (cc - c0) / (c1 - c0);
    const nr0 = Math.max(0, Math.min(info.rows.length - nr, Math.round(rc - fr * nr)));
    const nc0 = Math.max(0, Math.min(info.cols.length - nc, Math.round(cc - fc * nc)));
    this.zoomTo(nr0, nr0 + nr, nc0, nc0 + nc);
  }
}
