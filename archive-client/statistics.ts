// Statistics of a histogram, computed the way esmond computes its `statistics` summary (reference esmond.md §1d):
// mean, population variance, mode list, min/max bucket, and the NIST percentile walk for 25/50/75/95.
// Used by the client when an archive has no statistics summary, and by the local archive to compute one.

export interface HistogramStatistics {
  minimum: number;
  maximum: number;
  mean: number;
  median: number;
  'percentile-25': number;
  'percentile-75': number;
  'percentile-95': number;
  variance: number;
  'standard-deviation': number;
  /** Bucket values tied for the highest count, ascending. */
  mode: number[];
  /** Total sample count (not part of esmond's object; handy for tooltips). */
  count?: number;
}

/** Buckets of a histogram as ascending [value, count] pairs; undefined when a key or count is not numeric. */
export function histogramBuckets(hist: Record<string, unknown>): [number, number][] | undefined {
  const out: [number, number][] = [];
  for (const [k, c] of Object.entries(hist)) {
    const key = Number(k);
    const count = typeof c === 'number' ? c : typeof c === 'string' && c.trim() !== '' ? Number(c) : NaN;
    if (k.trim() === '' || !Number.isFinite(key) || !Number.isFinite(count)) return undefined;
    if (count === 0) continue;
    out.push([key, count]);
  }
  out.sort((a, b) => a[0] - b[0]);
  return out;
}

/**
 * One NIST percentile (p/100·(N+1) = k + d) as esmond's `Percentile` class resolves it: fed (cumulative count,
 * bucket value) pairs; may need the following bucket to interpolate.
 */
export class NistPercentile {
  value: number | undefined;
  done = false;
  readonly k: number;
  readonly d: number;

  constructor(
    readonly percentile: number,
    readonly sampleSize: number,
  ) {
    const n = (percentile / 100) * (sampleSize + 1);
    this.k = Math.floor(n);
    this.d = n - this.k;
  }

  feed(cumulative: number, bucket: number): void {
    if (this.value !== undefined) {
      this.value += this.d * (bucket - this.value);
      this.done = true;
    } else if (
      this.k === 0 ||
      (cumulative >= this.sampleSize && this.k >= this.sampleSize) ||
      this.k + this.d < cumulative
    ) {
      this.value = bucket;
      this.done = true;
    } else {
      this.value = bucket; // interpolated at the next bucket
    }
  }
}

/** Statistics of a histogram ({bucket: count}); undefined when empty or when a bucket is not numeric. */
export function histogramStatistics(hist: Record<string, unknown>): HistogramStatistics | undefined {
  const buckets = histogramBuckets(hist);
  if (!buckets || buckets.length === 0) return undefined;
  return statisticsOfBuckets(buckets);
}

export function statisticsOfBuckets(buckets: readonly [number, number][]): HistogramStatistics | undefined {
  let n = 0;
  let sum = 0;
  let best = -Infinity;
  let mode: number[] = [];
  for (const [v, c] of buckets) {
    n += c;
    sum += v * c;
    if (c > best) {
      best = c;
      mode = [v];
    } else if (c === best) mode.push(v);
  }
  if (n <= 0) return undefined;
  const mean = sum / n;
  const pending = [25, 50, 75, 95].map((p) => new NistPercentile(p, n));
  const found = new Map<number, number>();
  let sq = 0;
  let cumulative = 0;
  let i = 0;
  for (const [v, c] of buckets) {
    sq += (v - mean) ** 2 * c;
    cumulative += c;
    while (i < pending.length && cumulative >= pending[i].k) {
      const p = pending[i];
      p.feed(cumulative, v);
      if (!p.done) break;
      found.set(p.percentile, p.value as number);
      i++;
    }
  }
  const last = buckets[buckets.length - 1][0];
  const pick = (p: number): number => found.get(p) ?? last;
  const variance = sq / n;
  return {
    minimum: buckets[0][0],
    maximum: last,
    mean,
    median: pick(50),
    'percentile-25': pick(25),
    'percentile-75': pick(75),
    'percentile-95': pick(95),
    variance,
    'standard-deviation': Math.sqrt(variance),
    mode,
    count: n,
  };
}

/** Bucket-wise sum of histograms (esmond's histogram `aggregation`). Keys are kept exactly as posted. */
export function mergeHistograms(hists: readonly Record<string, unknown>[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const h of hists) {
    for (const [k, c] of Object.entries(h)) {
      const n = Number(c);
      if (Number.isFinite(n)) out[k] = (out[k] ?? 0) + n;
    }
  }
  return out;
}
