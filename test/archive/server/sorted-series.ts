// A time-ordered series of (ts, value) with binary-search inserts and range reads; appends in order are O(1).

export class SortedSeries<V> {
  readonly ts: number[] = [];
  readonly vals: V[] = [];

  get length(): number {
    return this.ts.length;
  }

  /** First index with ts >= t. */
  lowerBound(t: number): number {
    let lo = 0;
    let hi = this.ts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.ts[mid] < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  indexOf(t: number): number {
    const i = this.lowerBound(t);
    return i < this.ts.length && this.ts[i] === t ? i : -1;
  }

  get(t: number): V | undefined {
    const i = this.indexOf(t);
    return i < 0 ? undefined : this.vals[i];
  }

  /** Insert or replace the value at t. */
  set(t: number, v: V): void {
    const n = this.ts.length;
    if (n === 0 || this.ts[n - 1] < t) {
      this.ts.push(t);
      this.vals.push(v);
      return;
    }
    const i = this.lowerBound(t);
    if (this.ts[i] === t) this.vals[i] = v;
    else {
      this.ts.splice(i, 0, t);
      this.vals.splice(i, 0, v);
    }
  }

  /** Indices [from, to) of points with start <= ts <= end. */
  range(start: number, end: number): [number, number] {
    return [this.lowerBound(start), this.lowerBound(Math.floor(end) + 1)];
  }
}
