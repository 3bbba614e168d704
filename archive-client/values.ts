// Value shapes of every event type in the seed, normalised: numbers (also as strings), loss fractions (also as
// {numerator, denominator}), histograms, statistics, packet traces (bwctl strings or pScheduler numbers,
// `error_message` or `error-message`), subintervals, per-stream arrays and failures. A value that does not fit
// becomes `{kind: 'invalid'}` with the reason, never an exception, so one bad point cannot blank a chart.
import { type HistogramStatistics, histogramBuckets } from './statistics';
import type { RawPoint } from './types';
import { isObject, jsonText } from '../common/json';

export type ValueKind =
  | 'number'
  | 'loss'
  | 'histogram'
  | 'statistics'
  | 'packet-trace'
  | 'subintervals'
  | 'streams'
  | 'stream-subintervals'
  | 'failure'
  | 'json';

export interface TraceHop {
  ttl: number;
  query: number;
  success: boolean;
  ip?: string;
  hostname?: string;
  rtt?: number;
  mtu?: number;
  error?: string;
  as?: { number?: number; owner?: string };
}

export interface Subinterval {
  start: number;
  duration: number;
  value: number | undefined;
}

export type NormalValue =
  | { kind: 'number'; value: number }
  | { kind: 'loss'; value: number; numerator?: number; denominator?: number }
  | { kind: 'histogram'; buckets: [number, number][] }
  | { kind: 'statistics'; stats: Partial<HistogramStatistics> }
  | { kind: 'packet-trace'; hops: TraceHop[] }
  | { kind: 'subintervals'; intervals: Subinterval[] }
  | { kind: 'streams'; streams: (number | undefined)[] }
  | { kind: 'stream-subintervals'; streams: Subinterval[][] }
  | { kind: 'failure'; error: string }
  | { kind: 'json'; value: unknown }
  | { kind: 'invalid'; reason: string; raw: unknown };

export interface NormalPoint {
  ts: number;
  val: NormalValue;
}

/** The value shape an event type has, given the summary type of the series read (`base` when reading base data). */
export function valueKindOf(eventType: string, summaryType = 'base'): ValueKind {
  const st = summaryType.replace(/s$/, ''); // URL form (averages) or JSON form (average)
  if (eventType === 'failures') return 'failure';
  if (eventType.startsWith('histogram-')) return st === 'statistic' || st === 'statistics' ? 'statistics' : 'histogram';
  if (eventType === 'packet-loss-rate' || eventType === 'packet-loss-rate-bidir') return 'loss';
  if (eventType === 'packet-trace' || eventType === 'packet-trace-multi') return 'packet-trace';
  if (eventType.startsWith('streams-'))
    return eventType.endsWith('-subintervals')
      ? 'stream-subintervals'
      : eventType === 'streams-tcpinfo'
        ? 'json'
        : 'streams';
  if (eventType.endsWith('-subintervals')) return 'subintervals';
  if (['pscheduler-raw', 'pscheduler-run-href', 'iostat', 'mpstat', 'rusage', 'tcpinfo'].includes(eventType))
    return 'json';
  return 'number';
}

/** A number from a number or numeric string; undefined otherwise. */
export function toNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

const invalid = (reason: string, raw: unknown): NormalValue => ({ kind: 'invalid', reason, raw });

export function normaliseLoss(v: unknown): NormalValue {
  const n = toNumber(v);
  if (n !== undefined) return { kind: 'loss', value: n };
  if (isObject(v)) {
    const num = toNumber(v.numerator);
    const den = toNumber(v.denominator);
    if (num !== undefined && den !== undefined && den > 0)
      return { kind: 'loss', value: num / den, numerator: num, denominator: den };
  }
  return invalid('loss must be a number or {numerator, denominator}', v);
}

export function normaliseStatistics(v: unknown): NormalValue {
  if (!isObject(v)) return invalid('statistics must be an object', v);
  const stats: Partial<HistogramStatistics> = {};
  const keys = [
    'minimum',
    'maximum',
    'mean',
    'median',
    'percentile-25',
    'percentile-75',
    'percentile-95',
    'variance',
    'standard-deviation',
  ] as const;
  for (const k of keys) {
    const n = toNumber(v[k]);
    if (n !== undefined) stats[k] = n;
  }
  const mode = Array.isArray(v.mode) ? v.mode : v.mode !== undefined ? [v.mode] : [];
  stats.mode = mode.map(toNumber).filter((n): n is number => n !== undefined);
  return { kind: 'statistics', stats };
}

function normaliseHop(h: unknown, i: number): TraceHop {
  const o = isObject(h) ? h : {};
  const success = o.success === 1 || o.success === true || o.success === '1';
  const err = o['error-message'] ?? o.error_message ?? o.error;
  const as = isObject(o.as)
    ? { number: toNumber(o.as.number), owner: typeof o.as.owner === 'string' ? o.as.owner : undefined }
    : undefined;
  return {
    ttl: toNumber(o.ttl) ?? i + 1,
    query: toNumber(o.query) ?? 1,
    success,
    ip: typeof o.ip === 'string' ? o.ip : undefined,
    hostname: typeof o.hostname === 'string' ? o.hostname : undefined,
    rtt: toNumber(o.rtt),
    mtu: toNumber(o.mtu),
    error: typeof err === 'string' && err !== '' ? err : undefined,
    as,
  };
}

export function normaliseSubintervals(v: unknown): Subinterval[] | undefined {
  if (!Array.isArray(v)) return undefined;
  const out: Subinterval[] = [];
  for (const s of v) {
    if (!isObject(s)) return undefined;
    const start = toNumber(s.start);
    const duration = toNumber(s.duration);
    if (start === undefined || duration === undefined) return undefined;
    out.push({ start, duration, value: toNumber(s.val) });
  }
  return out;
}

/** Normalise one value of an event type (and summary type). */
export function normaliseValue(eventType: string, summaryType: string, v: unknown): NormalValue {
  switch (valueKindOf(eventType, summaryType)) {
    case 'number': {
      const n = toNumber(v);
      return n === undefined ? invalid(`${eventType} value is not a number`, v) : { kind: 'number', value: n };
    }
    case 'loss':
      return normaliseLoss(v);
    case 'histogram': {
      const b = isObject(v) ? histogramBuckets(v) : undefined;
      return b ? { kind: 'histogram', buckets: b } : invalid('histogram must map numeric buckets to counts', v);
    }
    case 'statistics':
      return normaliseStatistics(v);
    case 'packet-trace':
      return Array.isArray(v)
        ? { kind: 'packet-trace', hops: v.map(normaliseHop).sort((a, b) => a.ttl - b.ttl || a.query - b.query) }
        : invalid('packet trace must be an array of hops', v);
    case 'subintervals': {
      const s = normaliseSubintervals(v);
      return s ? { kind: 'subintervals', intervals: s } : invalid('subintervals must be [{start, duration, val}]', v);
    }
    case 'streams':
      return Array.isArray(v)
        ? { kind: 'streams', streams: v.map(toNumber) }
        : invalid('per-stream value must be an array', v);
    case 'stream-subintervals': {
      if (!Array.isArray(v)) return invalid('per-stream subintervals must be an array', v);
      const streams = v.map(normaliseSubintervals);
      return streams.every((s): s is Subinterval[] => s !== undefined)
        ? { kind: 'stream-subintervals', streams }
        : invalid('a stream has malformed subintervals', v);
    }
    case 'failure': {
      if (isObject(v) && v.error !== undefined) return { kind: 'failure', error: jsonText(v.error) };
      return typeof v === 'string' ? { kind: 'failure', error: v } : invalid('failure must be {error}', v);
    }
    case 'json':
      return { kind: 'json', value: v };
  }
}

export function normalisePoints(eventType: string, summaryType: string, points: readonly RawPoint[]): NormalPoint[] {
  const out = new Array<NormalPoint>(points.length);
  for (let i = 0; i < points.length; i++) {
    const p = points[i];
    out[i] = { ts: typeof p.ts === 'number' ? p.ts : Number(p.ts), val: normaliseValue(eventType, summaryType, p.val) };
  }
  return out;
}
