// From a measurement to one number per cell: which series to read for a metric over a window (the cheapest the
// archive offers: a statistics summary instead of histograms, an aggregation over long windows), each point as one
// sample, and the window's samples reduced as the MaDDash checks reduce them.
import { selectWindow, summaryUrlForm, summaryWindowForRange } from '../archive-client/summaries';
import { statisticsOfBuckets } from '../archive-client/statistics';
import type { Metadata, RawPoint } from '../archive-client/types';
import { normaliseValue } from '../archive-client/values';
import { eventTypeInfo } from './match';
import type { MetricId } from './metrics';

export interface ReadPlan {
  eventType: string;
  /** Series URI (base-uri or a summary uri) as the archive lists it. */
  uri: string;
  summaryType: 'base' | 'aggregation' | 'average' | 'statistics';
  window: number;
  /** Histogram delays are bucket indexes scaled by this to ms (owdelay's `sample-bucket-width` / 0.001). */
  scale: number;
}

/** A sample: a number (bits/s, loss fraction, median ms) or, for traces, the route as text. */
export type Sample = [ts: number, value: number | string];

function summaryUri(m: Metadata, eventType: string, type: string, window: number): string | undefined {
  const et = eventTypeInfo(m, eventType);
  const s = (et?.summaries ?? []).find((x) => x['summary-type'] === type && Number(x['summary-window']) === window);
  if (!s) return undefined;
  if (s.uri) return s.uri;
  return et?.['base-uri']?.replace(/\/base\/?$/, `/${summaryUrlForm(type)}/${window}`);
}

function windows(m: Metadata, eventType: string, type: string): number[] {
  return (eventTypeInfo(m, eventType)?.summaries ?? [])
    .filter((s) => s['summary-type'] === type)
    .map((s) => Number(s['summary-window']))
    .filter(Number.isFinite);
}

/**
 * The series to read for `metric` over a window of `windowSeconds`. Delays read the `statistics` summary at the
 * graphs' window for the range or a finer one (one median per point instead of whole histograms), else base
 * histograms; loss reads the aggregation at exactly that window (pooled per bin), else base; throughput its average
 * at that window, else base (a few runs a day); traces base.
 */
export function planRead(
  metric: MetricId,
  m: Metadata,
  eventType: string,
  windowSeconds: number,
): ReadPlan | undefined {
  const et = eventTypeInfo(m, eventType);
  const base = et?.['base-uri'];
  const wanted = summaryWindowForRange(windowSeconds);
  const scale =
    eventType === 'histogram-owdelay' && Number(m['sample-bucket-width']) > 0
      ? Number(m['sample-bucket-width']) / 0.001
      : 1;
  if (metric === 'owdelay' || metric === 'rtt') {
    const w = selectWindow(
      wanted,
      windows(m, eventType, 'statistics').filter((x) => x <= wanted),
    );
    const uri = w === undefined ? undefined : summaryUri(m, eventType, 'statistics', w);
    if (uri && w !== undefined) return { eventType, uri, summaryType: 'statistics', window: w, scale };
  } else if ((metric === 'loss' || metric === 'throughput') && wanted > 0) {
    const type = metric === 'loss' ? 'aggregation' : 'average';
    const uri = windows(m, eventType, type).includes(wanted) ? summaryUri(m, eventType, type, wanted) : undefined;
    if (uri) return { eventType, uri, summaryType: type, window: wanted, scale };
  }
  return base ? { eventType, uri: base, summaryType: 'base', window: 0, scale } : undefined;
}

/** The route of a trace as one comparable string: hop addresses in TTL order (`*` for a silent hop). */
function routeOf(hops: { ttl: number; ip?: string; success: boolean }[]): string {
  const byTtl = new Map<number, string>();
  for (const h of hops) if (!byTtl.has(h.ttl) || h.ip) byTtl.set(h.ttl, h.success && h.ip ? h.ip : '*');
  return [...byTtl.entries()]
    .sort((a, b) => a[0] - b[0])
    .map((e) => e[1])
    .join(' ');
}

/** Points of a read as samples; points that are not the expected shape are skipped (counted by the caller). */
export function samplesOf(metric: MetricId, plan: ReadPlan, points: readonly RawPoint[]): Sample[] {
  const out: Sample[] = [];
  for (const p of points) {
    const ts = typeof p.ts === 'number' ? p.ts : Number(p.ts);
    if (!Number.isFinite(ts)) continue;
    const v = normaliseValue(plan.eventType, plan.summaryType, p.val);
    if (metric === 'paths') {
      if (v.kind === 'packet-trace' && v.hops.length) out.push([ts, routeOf(v.hops)]);
    } else if (v.kind === 'number' || v.kind === 'loss') {
      if (Number.isFinite(v.value)) out.push([ts, v.value]);
    } else if (v.kind === 'statistics') {
      const med = v.stats.median;
      if (typeof med === 'number' && Number.isFinite(med)) out.push([ts, med * plan.scale]);
    } else if (v.kind === 'histogram') {
      const med = statisticsOfBuckets(v.buckets)?.median;
      if (med !== undefined && Number.isFinite(med)) out.push([ts, med * plan.scale]);
    }
  }
  return out;
}

export interface Reduced {
  value: number;
  /** Samples in the window. */
  count: number;
  /** Time of the newest sample (the last result). */
  last: number;
  /** Traces: how often the route changed between consecutive runs. */
  changes?: number;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/**
 * The window's value: throughput and loss averaged (as check_throughput.pl and check_loss.pl average the runs in
 * their time range), delays the median of the runs' medians, traces the number of distinct routes (as
 * check_traceroute.pl counts paths) with the route changes alongside. Samples must be sorted by time.
 */
export function reduceSamples(
  metric: MetricId,
  samples: readonly Sample[],
  start: number,
  end: number,
): Reduced | undefined {
  const inWindow = samples.filter((s) => s[0] >= start && s[0] <= end);
  if (!inWindow.length) return undefined;
  const last = inWindow[inWindow.length - 1][0];
  if (metric === 'paths') {
    const routes = inWindow.map((s) => String(s[1]));
    let changes = 0;
    for (let i = 1; i < routes.length; i++) if (routes[i] !== routes[i - 1]) changes++;
    return { value: new Set(routes).size, count: routes.length, last, changes };
  }
  const nums = inWindow.map((s) => Number(s[1]));
  const value = metric === 'owdelay' || metric === 'rtt' ? median(nums) : nums.reduce((a, b) => a + b, 0) / nums.length;
  return { value, count: nums.length, last };
}
