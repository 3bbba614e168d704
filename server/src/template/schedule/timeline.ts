// One host's timeline as pScheduler's database holds it for scheduling: the runs that can conflict (not non-starters,
// not background), exclusive and normal apart, each kept sorted by `times` (start, then end) in typed arrays, and
// the two questions the scheduler asks of it:
// - the free ranges a proposed run may use (DB/schedule.sql api_proposed_times, ~376-563), and
// - whether a chosen start collides at insert time (DB/run.sql run_has_conflicts, ~271-360).
// Times are seconds from the simulation's start; every interval is half-open, [start, end).

export class RunList {
  starts = new Float64Array(64);
  ends = new Float64Array(64);
  tasks = new Int32Array(64);
  length = 0;
  /** The longest run in the list: a run overlapping t starts no earlier than t - maxLength. */
  maxLength = 0;

  /** Insert keeping (start, end) order. */
  insert(start: number, end: number, task: number): void {
    if (this.length === this.starts.length) this.grow();
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const s = this.starts[mid];
      if (s < start || (s === start && this.ends[mid] <= end)) lo = mid + 1;
      else hi = mid;
    }
    const n = this.length;
    if (lo < n) {
      this.starts.copyWithin(lo + 1, lo, n);
      this.ends.copyWithin(lo + 1, lo, n);
      this.tasks.copyWithin(lo + 1, lo, n);
    }
    this.starts[lo] = start;
    this.ends[lo] = end;
    this.tasks[lo] = task;
    this.length = n + 1;
    if (end - start > this.maxLength) this.maxLength = end - start;
  }

  /** Index of the first run that may overlap `t` or come after it (start >= t - maxLength). */
  firstFrom(t: number): number {
    const from = t - this.maxLength;
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.starts[mid] < from) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Does some run overlap [start, end)? */
  overlaps(start: number, end: number): boolean {
    for (let i = this.firstFrom(start); i < this.length && this.starts[i] < end; i++)
      if (this.ends[i] > start) return true;
    return false;
  }

  private grow(): void {
    this.starts = doubled(this.starts);
    this.ends = doubled(this.ends);
    this.tasks = doubled(this.tasks);
  }
}

/** A typed array twice the size holding the same values first (the lists grow by doubling). */
function doubled<T extends Float64Array | Int32Array>(a: T): T {
  const out = new (a.constructor as new (n: number) => T)(a.length * 2);
  out.set(a);
  return out;
}

/** A host's conflictable runs: exclusive and normal apart (background runs never count). */
export class HostTimeline {
  readonly exclusive = new RunList();
  readonly normal = new RunList();
}

/** A growable list of ranges [lower, upper) in two typed arrays (scratch space reused between proposals). */
export class RangeList {
  lowers = new Float64Array(64);
  uppers = new Float64Array(64);
  length = 0;

  clear(): void {
    this.length = 0;
  }

  push(lower: number, upper: number): void {
    if (this.length === this.lowers.length) {
      this.lowers = doubled(this.lowers);
      this.uppers = doubled(this.uppers);
    }
    this.lowers[this.length] = lower;
    this.uppers[this.length] = upper;
    this.length++;
  }
}

/** What a proposal must avoid, and how pScheduler sees the host at the time. */
export interface ProposalQuery {
  /** [rangeStart, rangeEnd): the search window, already clipped to now + margin and the horizon. */
  rangeStart: number;
  rangeEnd: number;
  horizonEnd: number;
  duration: number;
  /** Exclusive proposals avoid exclusive and normal runs; normal ones avoid exclusive runs only. */
  exclusive: boolean;
  /** NULL-priority defect (assumptions.nullPriorityDefect): only runs running at this time are avoided; NaN: all. */
  onlyRunningAt: number;
}

/**
 * api_proposed_times for one host: walk the runs to avoid that overlap the window, ordered by `times`, and return the
 * gaps of at least `duration`. As the SQL does, `last_end` takes each run's end in turn (not the largest end so far),
 * and an end beyond the horizon counts as the horizon. (Written out with local variables: this is the hot loop of a
 * simulation, run for every try on every participant.)
 */
export function proposedTimes(h: HostTimeline, q: ProposalQuery, out: RangeList): void {
  out.clear();
  const { rangeStart, rangeEnd, horizonEnd, duration, onlyRunningAt: at } = q;
  const x = h.exclusive;
  const y = q.exclusive ? h.normal : EMPTY;
  const xs = x.starts;
  const xe = x.ends;
  const ys = y.starts;
  const ye = y.ends;
  const xn = x.length;
  const yn = y.length;
  let i = x.firstFrom(rangeStart);
  let j = yn > 0 ? y.firstFrom(rangeStart) : 0;
  let lastEnd = rangeStart;
  for (;;) {
    // The next run in (start, end) order from the two lists.
    let start: number;
    let end: number;
    // With the defect only runs running at `at` count, and none starting after it can be (`> NaN` is false).
    const xOk = i < xn && xs[i] < rangeEnd && !(xs[i] > at);
    const yOk = j < yn && ys[j] < rangeEnd && !(ys[j] > at);
    if (xOk && (!yOk || xs[i] < ys[j] || (xs[i] === ys[j] && xe[i] <= ye[j]))) {
      start = xs[i];
      end = xe[i++];
    } else if (yOk) {
      start = ys[j];
      end = ye[j++];
    } else break;
    if (end <= rangeStart) continue; // no overlap with the window
    if (at === at && !(start <= at && at < end)) continue; // at === at: the defect is modelled (not NaN)
    if (end > horizonEnd) end = horizonEnd;
    if (start > lastEnd && start - lastEnd >= duration) out.push(lastEnd, start);
    lastEnd = end;
  }
  if (lastEnd < rangeEnd && rangeEnd - lastEnd >= duration) out.push(lastEnd, rangeEnd);
}

const EMPTY = new RunList();

/**
 * The common free time of two hosts, for the usual case: the runs to avoid are exclusive runs only (they never
 * overlap each other on one host) and the NULL-priority defect is not modelled. Each host's gaps are then exactly
 * its free time in the window, and the ranges fetch_proposals keeps (intersections of one gap of each, at least
 * `duration` long) are the stretches free on both, at least `duration` long. Found without building either host's
 * gap list: walk the first host's runs, and only inside its gaps of at least `duration` look at the second's.
 */
export function commonFreeTime(a: RunList, b: RunList, q: ProposalQuery, out: RangeList): void {
  out.clear();
  const { rangeStart, rangeEnd, duration } = q;
  const as = a.starts;
  const ae = a.ends;
  const bs = b.starts;
  const be = b.ends;
  const an = a.length;
  const bn = b.length;
  let i = a.firstFrom(rangeStart);
  let j = b.firstFrom(rangeStart);
  let lastEnd = rangeStart; // end of the first host's busy time so far
  for (;;) {
    const more = i < an && as[i] < rangeEnd;
    const gapEnd = more ? as[i] : rangeEnd;
    if (gapEnd - lastEnd >= duration) {
      // The second host inside [lastEnd, gapEnd): skip its runs that end before, then cut the gap by the others.
      while (j < bn && be[j] <= lastEnd) j++;
      let free = lastEnd;
      while (j < bn && bs[j] < gapEnd) {
        if (bs[j] - free >= duration) out.push(free, bs[j]);
        if (be[j] > free) free = be[j];
        if (be[j] >= gapEnd) break; // it reaches into the first host's next run: keep it for the next gap
        j++;
      }
      if (gapEnd - free >= duration) out.push(free, gapEnd);
    }
    if (!more) break;
    if (ae[i] > lastEnd) lastEnd = ae[i];
    i++;
  }
}

/**
 * SCHED find_overlaps for two participants, then `length() >= task_duration`: the common parts of two sorted lists
 * of disjoint ranges (Range.__or__ keeps touching ranges as empty overlaps; the length filter drops them).
 */
export function intersectRanges(x: RangeList, y: RangeList, duration: number, out: RangeList): void {
  out.clear();
  const xl = x.lowers;
  const xu = x.uppers;
  const yl = y.lowers;
  const yu = y.uppers;
  const xn = x.length;
  const yn = y.length;
  let i = 0;
  let j = 0;
  while (i < xn && j < yn) {
    const lo = xl[i] > yl[j] ? xl[i] : yl[j];
    const hi = xu[i] < yu[j] ? xu[i] : yu[j];
    if (hi - lo >= duration) out.push(lo, hi);
    if (xu[i] < yu[j]) i++;
    else j++;
  }
}

/** run_has_conflicts at insert time: does [start, end) overlap a run the class must avoid? */
export function hasConflict(h: HostTimeline, start: number, end: number, exclusive: boolean): boolean {
  return h.exclusive.overlaps(start, end) || (exclusive && h.normal.overlaps(start, end));
}

/**
 * Is a run the class must avoid running at `at` (start <= at < end) and still running at `from`? What a proposal
 * under the NULL-priority defect can see of the window [from, ...) (api_proposed_times: `run.state = running`).
 */
export function runningInto(h: HostTimeline, at: number, from: number, exclusive: boolean): boolean {
  return runsInto(h.exclusive, at, from) || (exclusive && runsInto(h.normal, at, from));
}

function runsInto(list: RunList, at: number, from: number): boolean {
  for (let i = list.firstFrom(at); i < list.length && list.starts[i] <= at; i++)
    if (list.ends[i] > at && list.ends[i] > from) return true;
  return false;
}
