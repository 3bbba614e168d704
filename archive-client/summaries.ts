// Which series to read for a chart, as perfSONAR graphs choose it (reference esmond.md §1g), and statistics
// computed from base histograms when the archive has no statistics summary.
import { statisticsOfBuckets, type HistogramStatistics } from './statistics';
import type { EventTypeInfo } from './types';
import type { NormalPoint } from './values';

/** Summary window for a time range in seconds: ≤12h base, ≤3d 300, ≤1m (31d) 3600, else 86400. */
export function summaryWindowForRange(rangeSeconds: number): number {
  if (rangeSeconds <= 12 * 3600) return 0;
  if (rangeSeconds <= 3 * 86400) return 300;
  if (rangeSeconds <= 31 * 86400) return 3600;
  return 86400;
}

/** Nearest window as graphData.cgi's select_summary_window: exact, else nearest smaller, else nearest larger. */
export function selectWindow(wanted: number, available: readonly number[]): number | undefined {
  if (available.includes(wanted)) return wanted;
  const smaller = available.filter((w) => w < wanted).sort((a, b) => b - a)[0];
  if (smaller !== undefined) return smaller;
  return available.filter((w) => w > wanted).sort((a, b) => a - b)[0];
}

export interface SeriesChoice {
  /** URI to read (base-uri or a summary uri). */
  uri: string;
  summaryType: 'base' | 'aggregation' | 'average' | 'statistics';
  window: number;
  /** True when statistics must be computed client-side from histograms (base or aggregation). */
  computeStatistics: boolean;
}

/** The URL form of a JSON summary type (aggregation → aggregations). */
export function summaryUrlForm(summaryType: string): string {
  return summaryType === 'base' || summaryType.endsWith('s') ? summaryType : `${summaryType}s`;
}

function summaryUri(et: EventTypeInfo, type: string, window: number): string | undefined {
  const s = (et.summaries ?? []).find((x) => x['summary-type'] === type && Number(x['summary-window']) === window);
  if (!s) return undefined;
  if (s.uri) return s.uri;
  return et['base-uri'] ? et['base-uri'].replace(/\/base\/?$/, `/${summaryUrlForm(type)}/${window}`) : undefined;
}

function windowsOf(et: EventTypeInfo, type: string): number[] {
  return (et.summaries ?? [])
    .filter((s) => s['summary-type'] === type)
    .map((s) => Number(s['summary-window']))
    .filter(Number.isFinite);
}

/** Event types whose values are rates or readings: summarised by `average`, never by a sum. */
const GAUGES = /^(throughput|streams-throughput|ntp-.*|time-error-estimates|path-mtu)$/;

/**
 * Choose the series for an event type and a wanted window (0 = base): histograms prefer `statistics` (falling back
 * to aggregation or base histograms, with statistics computed client-side); counts and loss prefer `aggregation`
 * (then `average`) at exactly that window, rates such as throughput only `average`; else base.
 */
export function chooseSeries(et: EventTypeInfo, wantedWindow: number): SeriesChoice | undefined {
  const base = et['base-uri'];
  const isHist = et['event-type'].startsWith('histogram-');
  // Statistics fall back to the nearest window (rtt at 300 → statistics/0, as the graphs do); aggregation and
  // average only at the exact window, else base data.
  const pick = (type: 'aggregation' | 'average' | 'statistics'): SeriesChoice | undefined => {
    const available = windowsOf(et, type);
    const w =
      type === 'statistics'
        ? selectWindow(wantedWindow, available)
        : available.includes(wantedWindow) && wantedWindow > 0
          ? wantedWindow
          : undefined;
    if (w === undefined) return undefined;
    const uri = summaryUri(et, type, w);
    return uri ? { uri, summaryType: type, window: w, computeStatistics: false } : undefined;
  };
  if (isHist) {
    const stats = pick('statistics');
    if (stats) return stats;
    const agg = pick('aggregation');
    if (agg) return { ...agg, computeStatistics: true };
    return base ? { uri: base, summaryType: 'base', window: 0, computeStatistics: true } : undefined;
  }
  if (wantedWindow > 0) {
    // An aggregation sums over the window: right for counts and pooled loss, wrong for rates and gauges.
    const c = GAUGES.test(et['event-type']) ? pick('average') : (pick('aggregation') ?? pick('average'));
    if (c) return c;
  }
  return base ? { uri: base, summaryType: 'base', window: 0, computeStatistics: false } : undefined;
}

export interface StatisticsPoint {
  ts: number;
  stats: Partial<HistogramStatistics>;
}

/**
 * Statistics per point of a histogram series (base or aggregation); when `window` > 0 the histograms are first
 * merged into epoch-aligned bins of that window, as esmond's statistics summary would be.
 */
export function statisticsFromHistograms(points: readonly NormalPoint[], window = 0): StatisticsPoint[] {
  const bins = new Map<number, Map<number, number>>();
  for (const p of points) {
    if (p.val.kind !== 'histogram') continue;
    const bin = window > 0 ? Math.floor(p.ts / window) * window : p.ts;
    let acc = bins.get(bin);
    if (!acc) bins.set(bin, (acc = new Map<number, number>()));
    for (const [v, c] of p.val.buckets) acc.set(v, (acc.get(v) ?? 0) + c);
  }
  const out: StatisticsPoint[] = [];
  for (const [ts, acc] of [...bins.entries()].sort((a, b) => a[0] - b[0])) {
    const stats = statisticsOfBuckets([...acc.entries()].sort((a, b) => a[0] - b[0]));
    if (stats) out.push({ ts, stats });
  }
  return out;
}

/** Parse `<…>/<event-type>/<base|summary-kind>[/<window>]` out of a series URL. */
export function parseSeriesUri(uri: string): { eventType: string; summaryType: string; window: number } | undefined {
  const path = uri
    .replace(/^[a-z]+:\/\/[^/]+/i, '')
    .split('?')[0]
    .replace(/\/+$/, '');
  const parts = path.split('/');
  const last = parts[parts.length - 1];
  if (last === 'base') return { eventType: parts[parts.length - 2], summaryType: 'base', window: 0 };
  if (/^\d+$/.test(last) && parts.length >= 3) {
    const kind = parts[parts.length - 2];
    const single = kind === 'statistics' ? 'statistics' : kind.replace(/s$/, '');
    return { eventType: parts[parts.length - 3], summaryType: single, window: Number(last) };
  }
  return undefined;
}
