// esmond's handle_time_filters (reference esmond.md §1b): inclusive [start, end] from time, time-start, time-end
// and time-range; integers only. Metadata and data differ only in their open ends.
import { StoreError } from './store';

export interface Window {
  start: number;
  end: number;
  /** True when no time parameter was given. */
  none: boolean;
}

function int(q: URLSearchParams, name: string): number | undefined {
  const v = q.get(name);
  if (v === null) return undefined;
  if (!/^\s*-?\d+\s*$/.test(v)) throw new StoreError(400, 'Time parameter must be an integer');
  return Number(v);
}

export function timeWindow(q: URLSearchParams, kind: 'metadata' | 'data', now: number): Window {
  const time = int(q, 'time');
  const s = int(q, 'time-start');
  const e = int(q, 'time-end');
  const r = int(q, 'time-range');
  const openEnd = kind === 'metadata' ? Infinity : now + 3600;
  let w: Window;
  if (time !== undefined) w = { start: time, end: time, none: false };
  else if (s !== undefined && e !== undefined) w = { start: s, end: e, none: false };
  else if (s !== undefined && r !== undefined) w = { start: s, end: s + r, none: false };
  else if (e !== undefined && r !== undefined) w = { start: e - r, end: e, none: false };
  else if (s !== undefined) w = { start: s, end: openEnd, none: false };
  else if (e !== undefined) w = { start: 0, end: e, none: false };
  else if (r !== undefined) w = { start: now - r, end: openEnd, none: false };
  else w = { start: 0, end: kind === 'metadata' ? Infinity : now, none: true };
  if (w.start > w.end) throw new StoreError(400, 'Requested start time must be less than end time');
  return w;
}

/** DRF LimitOffsetPagination: a limit that is not a positive integer falls back to the default; a bad offset is 0. */
export function limitOffset(q: URLSearchParams, def = 1500): { limit: number; offset: number } {
  const l = Number(q.get('limit'));
  const o = Number(q.get('offset'));
  return {
    limit: q.get('limit') !== null && Number.isInteger(l) && l > 0 ? l : def,
    offset: q.get('offset') !== null && Number.isInteger(o) && o > 0 ? o : 0,
  };
}
