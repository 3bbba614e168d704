// Colours of the dashboard's states, from the VS Code theme (dashboard.css maps each --db-* variable to a
// --vscode-charts-* colour with a fallback). "Configured, no data" and "failed" also get a pattern, so they stand
// out from red and green for everyone, colour vision or not; "not configured" is only a faint cell.
import { STATE_CODES, type StateName } from '../../dashboard/messages';
import { pixelOf } from '../kit/pixels';

export interface Palette {
  fg: string;
  muted: string;
  grid: string;
  font: string;
  /** Per state code: a colour or a pattern. */
  fill: (string | CanvasPattern)[];
  /** Per state code: the plain colour (legend swatches, tooltip dots). */
  colour: string[];
  /** Per state code: the colour as one RGBA pixel (little-endian, for ImageData), and the pattern's dark pixel. */
  pixel: Uint32Array;
  dark: number;
}

function cssVar(name: string, fallback: string): string {
  const v = getComputedStyle(document.body).getPropertyValue(name).trim();
  return v || fallback;
}

const FALLBACK: Record<StateName, string> = {
  none: 'rgba(128,128,128,0.10)',
  ok: '#388a34',
  warning: '#e0b000',
  critical: '#e51400',
  failed: '#b00000',
  'no-data': '#f28500',
  pending: 'rgba(128,128,128,0.45)',
  error: '#8a3fc7',
  unsupported: 'rgba(128,128,128,0.25)',
  refused: '#6b2d2d',
};

/** A small tile: `base` with dark diagonal stripes (no data) or a cross (failed). */
function pattern(
  ctx: CanvasRenderingContext2D,
  base: string,
  kind: 'stripes' | 'cross',
  dpr: number,
): CanvasPattern | string {
  const size = Math.max(4, Math.round(6 * dpr));
  const tile = document.createElement('canvas');
  tile.width = size;
  tile.height = size;
  const t = tile.getContext('2d');
  if (!t) return base;
  t.fillStyle = base;
  t.fillRect(0, 0, size, size);
  t.strokeStyle = 'rgba(0,0,0,0.55)';
  t.lineWidth = Math.max(1, dpr);
  t.beginPath();
  if (kind === 'stripes') {
    t.moveTo(0, size);
    t.lineTo(size, 0);
    t.moveTo(-size / 2, size / 2);
    t.lineTo(size / 2, -size / 2);
    t.moveTo(size / 2, size * 1.5);
    t.lineTo(size * 1.5, size / 2);
  } else {
    t.moveTo(0, 0);
    t.lineTo(size, size);
    t.moveTo(size, 0);
    t.lineTo(0, size);
  }
  t.stroke();
  return ctx.createPattern(tile, 'repeat') ?? base;
}

export function readPalette(ctx: CanvasRenderingContext2D, dpr: number): Palette {
  const colour = STATE_CODES.map((s) => cssVar(`--db-${s}`, FALLBACK[s]));
  const fill: (string | CanvasPattern)[] = [...colour];
  fill[STATE_CODES.indexOf('no-data')] = pattern(ctx, colour[STATE_CODES.indexOf('no-data')], 'stripes', dpr);
  fill[STATE_CODES.indexOf('failed')] = pattern(ctx, colour[STATE_CODES.indexOf('failed')], 'cross', dpr);
  const family = getComputedStyle(document.body).fontFamily || 'sans-serif';
  return {
    pixel: Uint32Array.from(colour, pixelOf),
    dark: pixelOf('rgba(0,0,0,0.55)'),
    fg: cssVar('--pn-fg', '#333'),
    muted: cssVar('--pn-muted', '#777'),
    grid: cssVar('--db-gridline', 'rgba(128,128,128,0.35)'),
    font: family,
    fill,
    colour,
  };
}

/** How much a state weighs when rows and columns are sorted worst first. */
export const SEVERITY: Record<StateName, number> = {
  none: 0,
  ok: 0,
  unsupported: 0,
  refused: 500,
  pending: 1,
  warning: 10,
  error: 100,
  'no-data': 300,
  critical: 1000,
  failed: 1000,
};
