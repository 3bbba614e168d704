// Server-side summaries, updated on every write (reference esmond.md §1d): epoch-aligned bins of `window` seconds
// (0 = one bin per point); integer/float aggregation = sum, average = mean; percentage aggregation = Σnum/Σden;
// histogram aggregation = bucket-wise sum; statistics = esmond statistics of the bin's merged histogram.
import { histogramStatistics } from '../../../archive-client/statistics';
import type { ValueClass } from './event-types';
import { SortedSeries } from './sorted-series';

export interface Bin {
  sum: number;
  count: number;
  num: number;
  den: number;
  hist?: Record<string, number>;
}

export class SummaryRow {
  readonly bins = new SortedSeries<Bin>();
  timeUpdated: number | null = null;
  /** Points loaded verbatim (fixtures of summaries); a verbatim row is not computed from base writes. */
  readonly loaded = new SortedSeries<unknown>();
  verbatim = false;
  /**
   * Statistics read their histograms from elsewhere instead of merging their own: the aggregation row of the same
   * window (as esmond does when one exists) or, for window 0, the base series itself.
   */
  statsFrom?: SummaryRow;
  statsFromBase?: SortedSeries<unknown>;

  constructor(
    readonly type: string,
    readonly window: number,
    readonly cls: ValueClass,
  ) {}

  binOf(ts: number): number {
    return this.window > 0 ? Math.floor(ts / this.window) * this.window : ts;
  }

  /** Add (sign 1) or remove (sign -1) one stored base value. */
  apply(ts: number, value: unknown, sign: 1 | -1): void {
    if (this.verbatim || this.statsFrom || this.statsFromBase) return;
    const t = this.binOf(ts);
    let bin = this.bins.get(t);
    if (!bin) {
      if (sign < 0) return;
      bin = { sum: 0, count: 0, num: 0, den: 0 };
      this.bins.set(t, bin);
    }
    bin.count += sign;
    if (this.cls === 'integer' || this.cls === 'float') bin.sum += sign * (value as number);
    else if (this.cls === 'percentage') {
      const p = value as { numerator: number; denominator: number };
      bin.num += sign * p.numerator;
      bin.den += sign * p.denominator;
    } else if (this.cls === 'histogram') {
      const h = (bin.hist ??= {});
      for (const [k, c] of Object.entries(value as Record<string, number>)) {
        h[k] = (h[k] ?? 0) + sign * c;
        if (h[k] === 0) delete h[k];
      }
    }
  }

  /** The value esmond would return for a bin. */
  valueOf(bin: Bin): unknown {
    const round4 = (x: number): number => Math.round(x * 10000) / 10000;
    switch (this.cls) {
      case 'integer':
        return this.type === 'average' ? bin.sum / bin.count : bin.sum;
      case 'float':
        return round4(this.type === 'average' ? bin.sum / bin.count : bin.sum);
      case 'percentage':
        return bin.den > 0 ? bin.num / bin.den : 0;
      case 'histogram':
        return this.type === 'statistics' ? statisticsValue(bin.hist ?? {}) : { ...(bin.hist ?? {}) };
      default:
        return null;
    }
  }

  /** Points with bin start in [start, end]. */
  read(start: number, end: number): { ts: number; val: unknown }[] {
    const out: { ts: number; val: unknown }[] = [];
    if (this.statsFromBase) {
      const [a, b] = this.statsFromBase.range(start, end);
      for (let i = a; i < b; i++)
        out.push({
          ts: this.statsFromBase.ts[i],
          val: statisticsValue(this.statsFromBase.vals[i] as Record<string, number>),
        });
      return out;
    }
    if (this.statsFrom) {
      const src = this.statsFrom.bins;
      const [a, b] = src.range(start, end);
      for (let i = a; i < b; i++)
        if (src.vals[i].count > 0) out.push({ ts: src.ts[i], val: statisticsValue(src.vals[i].hist ?? {}) });
      return out;
    }
    const [a, b] = this.bins.range(start, end);
    for (let i = a; i < b; i++)
      if (this.bins.vals[i].count > 0) out.push({ ts: this.bins.ts[i], val: this.valueOf(this.bins.vals[i]) });
    const [c, d] = this.loaded.range(start, end);
    for (let i = c; i < d; i++) out.push({ ts: this.loaded.ts[i], val: this.loaded.vals[i] });
    if (c < d && a < b) out.sort((x, y) => x.ts - y.ts);
    return out;
  }
}

/** esmond's statistics object for a histogram; `{}` when a bucket is not numeric (as esmond stores it). */
function statisticsValue(hist: Record<string, number>): Record<string, unknown> {
  const s = histogramStatistics(hist);
  if (!s) return {};
  const { count: _count, ...rest } = s;
  return rest;
}
