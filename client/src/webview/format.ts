// Number and time formatting for the explorer (pure; unit-tested in Node).
import type { Unit } from '../explorer/messages';

const SI = [
  { f: 1e12, p: 'T' },
  { f: 1e9, p: 'G' },
  { f: 1e6, p: 'M' },
  { f: 1e3, p: 'k' },
];

/** 3 significant digits, no trailing zeros beyond what is needed ("9.41", "941", "0.5"). */
function sig3(v: number): string {
  const a = Math.abs(v);
  if (a === 0) return '0';
  const digits = a >= 100 ? 0 : a >= 10 ? 1 : 2;
  const text = v.toFixed(digits);
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

/** SI-prefixed value: 9.41e9 → "9.41 G" (base 1000, as perfSONAR shows bits/s). */
export function siPrefix(v: number): string {
  const a = Math.abs(v);
  for (const { f, p } of SI) if (a >= f) return `${sig3(v / f)} ${p}`;
  return `${sig3(v)} `;
}

export function formatValue(v: number | null | undefined, unit: Unit): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '—';
  switch (unit) {
    case 'bps':
      return `${siPrefix(v)}b/s`;
    case '%':
      return `${v < 0.01 && v > 0 ? v.toPrecision(2) : sig3(v)} %`;
    case 'ms':
      return `${Math.abs(v) < 1 && v !== 0 ? v.toPrecision(3) : sig3(v)} ms`;
    case 's':
      return `${sig3(v)} s`;
    case 'ppm':
      return `${sig3(v)} ppm`;
    case 'count':
      return Number.isInteger(v) ? String(v) : sig3(v);
    default:
      return sig3(v);
  }
}

/** Short axis tick label (no unit suffix for bits/s beyond the prefix). */
export function formatTick(v: number, unit: Unit): string {
  if (unit === 'bps') return `${siPrefix(v).trim()}b/s`.replace(/^0 b\/s$/, '0');
  if (unit === '%') return `${sig3(v)}%`;
  if (unit === 'ms') return `${sig3(v)} ms`;
  return sig3(v);
}

/** UTC "2014-02-05 12:00:00" from UNIX seconds (archives bin summaries on UTC boundaries). */
export function formatTime(ts: number | null | undefined): string {
  if (ts === null || ts === undefined || !Number.isFinite(ts)) return '—';
  return new Date(ts * 1000)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, 'Z');
}

/** "5 min", "1 h", "1 d", "base" for a summary window. */
export function formatWindow(seconds: number): string {
  if (seconds === 0) return 'base';
  if (seconds % 86400 === 0) return `${seconds / 86400} d`;
  if (seconds % 3600 === 0) return `${seconds / 3600} h`;
  if (seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}

/** `<input type="datetime-local">` value (UTC) ⇄ UNIX seconds. */
export function toDateTimeLocal(ts: number): string {
  return new Date(ts * 1000).toISOString().slice(0, 16);
}
export function fromDateTimeLocal(text: string): number | undefined {
  if (!text) return undefined;
  const ms = Date.parse(`${text}:00Z`);
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
}
