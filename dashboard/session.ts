// One dashboard's refreshes: the grids of a template, each direction matched to the archive's metadata and given
// its latest value. Per refresh: one metadata search per archive (all pages), then one short series read per
// measurement written in the window — skipped when `time-updated` says nothing was written since the last read
// (the value is recomputed from the kept samples), incremental otherwise — within a request budget and a
// concurrency limit. Pure (archive-client I/O only, no vscode): the extension, the CLI and the tests share it.
import { ArchiveError } from '../archive-client/errors';
import { searchMetadata } from '../archive-client/search';
import { fetchSeries } from '../archive-client/series';
import type { ArchiveOptions, Metadata, SearchFilters } from '../archive-client/types';
import { normaliseArchiveUrl } from '../archive-client/url';
import { normaliseValue } from '../archive-client/values';
import type { DashboardTaskPairs } from '../common/protocol';
import { buildGrid, type DashboardGrid } from './grid';
import { eventTypeInfo, matchDirection, MetadataIndex, pairKey, pairKeysOf, timeUpdated } from './match';
import { classify, eventTypeOf, METRICS, type MetricId, type Thresholds } from './metrics';
import { planRead, reduceSamples, samplesOf, type ReadPlan, type Sample } from './samples';

/**
 * - `ok` / `warning` / `critical`: the value against the thresholds;
 * - `failed`: the latest run failed (the archive's `failures` was written after the metric);
 * - `no-data`: configured, but the archive has no measurement of the pair, or nothing in the window;
 * - `pending`: data was written in the window but has not been read (in progress, or over the request budget);
 * - `error`: the archive could not be searched or read;
 * - `unsupported`: the test type has no dashboard metric;
 * - `refused`: pScheduler would refuse the direction's task, so the agent creates none (nothing is read for it).
 * A half no direction fills is "not configured" (no result at all).
 */
export type DirState =
  'ok' | 'warning' | 'critical' | 'failed' | 'no-data' | 'pending' | 'error' | 'unsupported' | 'refused';

export interface DirectionResult {
  state: DirState;
  /** Raw value: bits/s, loss fraction, ms, distinct paths. */
  value?: number;
  /** Newest sample in the window (the last result); for `no-data` and `failed`, the archive's last write. */
  time?: number;
  /** Samples the value was computed from; route changes for traces. */
  samples?: number;
  changes?: number;
  /** The measurement: archive (normalised URL), metadata key and its subject. */
  archive?: string;
  key?: string;
  eventType?: string;
  toolName?: string;
  source?: string;
  destination?: string;
  inputSource?: string;
  inputDestination?: string;
  /** Other measurements of the pair that would fit too. */
  alternatives?: number;
  /** Why, in words: the failure's error, what is missing, the archive's error. */
  note?: string;
}

export type WindowChoice = 'auto' | number;

export interface SessionOptions {
  /** Metric shown for a grid (default: the test type's first). */
  metric?: (grid: DashboardGrid) => MetricId | undefined;
  window: WindowChoice;
  thresholds: Record<MetricId, Thresholds>;
  /** Read every direction from this archive instead of the archives its task writes to. */
  archive?: string;
  /** Series reads per refresh beyond the searches (each page counts); the rest stays `pending`. */
  maxReads: number;
  /** Requests in flight at once. */
  concurrency: number;
  /** Metadata per search page. */
  pageSize: number;
  /** Token and timeout of an archive (keyed by its normalised URL). */
  archiveOptions?: (url: string) => Promise<Omit<ArchiveOptions, 'url'>>;
  /** Seconds since the epoch (tests pin it). */
  now?: () => number;
  /** Kept samples to start from (a dashboard keeps one across template edits). */
  cache?: SampleCache;
  /** Seconds after which a refresh searches an archive in full again instead of asking what was written since. */
  fullSearchSeconds: number;
}

export const DEFAULT_SESSION_OPTIONS: Omit<SessionOptions, 'thresholds'> = {
  window: 'auto',
  fullSearchSeconds: 3600,
  maxReads: 40000,
  concurrency: 8,
  pageSize: 5000,
};

export interface ArchiveSearchStats {
  url: string;
  /** Only metadata written since the previous search was asked for. */
  incremental: boolean;
  pages: number;
  metadata: number;
  ms: number;
  error?: string;
  warning?: string;
}

export interface RefreshStats {
  /** Every HTTP request of the refresh: search pages plus series pages. */
  requests: number;
  searches: ArchiveSearchStats[];
  /** Series requests (pages). */
  reads: number;
  /** Values recomputed from kept samples because nothing was written since the last read. */
  fromCache: number;
  /** Reads left for the next refresh (over the budget, or cancelled). */
  deferred: number;
  ms: number;
  /** Until the metadata was matched: everything the grid needs to draw its configured / no-data / pending cells. */
  matchedMs: number;
  cancelled: boolean;
}

export interface RefreshHooks {
  /** Every direction has a state (values pending): draw. */
  onMatched?(): void;
  /** Results changed for these directions of grid `grid`. */
  onValues?(grid: number, directions: number[]): void;
  isCancelled?(): boolean;
}

/** Samples kept per measurement between refreshes (share one across sessions of the same dashboard). */
export type SampleCache = Map<string, CacheEntry>;

interface CacheEntry {
  samples: Sample[];
  /** Range the samples cover. */
  from: number;
  to: number;
  /** The event type's `time-updated` when read. */
  updated: number;
  /** What the last value was computed from: first sample in the window, sample count, thresholds. */
  reduced?: { first: number; count: number; failure: boolean; classKey: string };
}

interface Found {
  archive: string;
  metadata: Metadata;
  alternatives: number;
}

/** What the last refresh matched a direction to (reused while no search changes its pair). */
interface MatchMemo {
  eventType: string;
  archives: string;
  found?: Found;
  plan?: ReadPlan;
  planFor?: Metadata;
  planKey?: string;
}

/** States whose result a later refresh may keep as is when nothing changed. */
const FINAL = new Set<DirState>(['ok', 'warning', 'critical', 'failed', 'no-data']);

/** Index of the first sample at or after `start`, searching forward from `from` (samples are sorted). */
function firstAtOrAfter(samples: readonly Sample[], start: number, from: number): number {
  let i = Math.max(0, Math.min(from, samples.length));
  while (i > 0 && samples[i - 1][0] >= start) i--;
  while (i < samples.length && samples[i][0] < start) i++;
  return i;
}

interface ReadJob {
  grid: number;
  direction: number;
  archive: string;
  metadata: Metadata;
  plan: ReadPlan;
  failure: boolean;
  start: number;
  end: number;
  updated: number;
  metric: MetricId;
}

/** Samples read before the last read's end are re-read over this margin: late archiving (retries) lands there. */
const LATE_SLACK = 3600;
/** An incremental search starts this long before the newest write seen (writes in flight, clock steps). */
const INCREMENTAL_SLACK = 300;

/** What a dashboard knows of an archive's metadata between refreshes. */
interface ArchiveKnowledge {
  byKey: Map<string, Metadata>;
  index: MetadataIndex;
  /** The event types it was searched for. */
  eventKey: string;
  /** When the last full search ran (our clock). */
  fullAt: number;
  /** Newest `time-updated` seen (the archive's clock, so our clock's offset does not matter). */
  watermark?: number;
}

function watermarkOf(list: Iterable<Metadata>, previous: number | undefined): number | undefined {
  let w = previous;
  for (const m of list)
    for (const e of m['event-types'] ?? []) {
      const t = Number(e['time-updated']);
      if (e['time-updated'] !== null && Number.isFinite(t) && (w === undefined || t > w)) w = t;
    }
  return w;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export function windowSeconds(choice: WindowChoice, metric: MetricId): number {
  return choice === 'auto' ? METRICS[metric].window : choice;
}

/** A series URI listed by an archive, as a URL on that same archive (never another origin). */
function seriesUrl(archive: string, uri: string): string {
  const u = new URL(uri, archive);
  if (u.origin !== new URL(archive).origin)
    throw new ArchiveError(`the archive listed a series on another host (${u.origin}); not read`, {
      kind: 'bad-input',
    });
  return u.toString();
}

export class DashboardSession {
  readonly grids: DashboardGrid[];
  readonly results: DirectionResult[][];
  /** Per grid: the metric, window and range of the last refresh (the explorer opens on the same). */
  readonly shown: { metric?: MetricId; start: number; end: number }[];
  private readonly cache: SampleCache;
  private readonly known = new Map<string, ArchiveKnowledge>();
  private readonly matched: (MatchMemo | undefined)[][];
  private readonly normalised = new Map<string, string[]>();
  private readonly pairKeys: (string | undefined)[][];

  constructor(
    pairs: readonly DashboardTaskPairs[],
    public options: SessionOptions,
  ) {
    this.cache = options.cache ?? new Map<string, CacheEntry>();
    this.grids = pairs.map(buildGrid);
    this.results = this.grids.map((g) => g.directions.map((): DirectionResult => ({ state: 'pending' })));
    this.shown = this.grids.map(() => ({ start: 0, end: 0 }));
    this.matched = this.grids.map((g) => new Array<MatchMemo | undefined>(g.directions.length));
    this.pairKeys = this.grids.map((g) => new Array<string | undefined>(g.directions.length));
  }

  metricOf(grid: DashboardGrid): MetricId | undefined {
    const chosen = this.options.metric?.(grid);
    return chosen && grid.metrics.includes(chosen) ? chosen : grid.metrics[0];
  }

  /** Archives a direction is read from: the override, else the task's own (normalised; unusable URLs dropped). */
  archivesOf(grid: DashboardGrid, direction: number): string[] {
    if (this.options.archive) return [this.options.archive];
    const raw = grid.directions[direction].archives;
    // Directions of a task share a few archive lists: each is normalised once.
    const key = raw.join('\n');
    let out = this.normalised.get(key);
    if (out) return out;
    out = [];
    for (const a of raw) {
      try {
        const n = normaliseArchiveUrl(a);
        if (!out.includes(n)) out.push(n);
      } catch {
        /* not a URL (an unresolved variable): the direction reads the next one, or none */
      }
    }
    this.normalised.set(key, out);
    return out;
  }

  async refresh(hooks: RefreshHooks = {}): Promise<RefreshStats> {
    const t0 = performance.now();
    const o = this.options;
    if (o.archive) o.archive = normaliseArchiveUrl(o.archive);
    const now = o.now ? o.now() : Math.floor(Date.now() / 1000);
    const cancelled = (): boolean => hooks.isCancelled?.() === true;
    const stats: RefreshStats = {
      requests: 0,
      searches: [],
      reads: 0,
      fromCache: 0,
      deferred: 0,
      ms: 0,
      matchedMs: 0,
      cancelled: false,
    };

    // Which archives to search, and for which event types (one event type: the search can filter on it).
    const wanted = new Map<string, Set<string>>();
    this.grids.forEach((g, gi) => {
      const metric = this.metricOf(g);
      this.shown[gi] = metric
        ? { metric, start: now - windowSeconds(o.window, metric), end: now }
        : { start: now, end: now };
      if (!metric) return;
      const et = eventTypeOf(metric, g.testType);
      for (let d = 0; d < g.directions.length; d++)
        for (const a of this.archivesOf(g, d)) {
          let s = wanted.get(a);
          if (!s) wanted.set(a, (s = new Set()));
          s.add(et);
        }
    });

    const indexes = new Map<string, MetadataIndex | ArchiveSearchStats>();
    /** Per archive: the pairs whose metadata changed in this refresh's search, or all of them. */
    const dirty = new Map<string, Set<string> | 'all'>();
    await pool([...wanted.entries()], Math.min(o.concurrency, 4), async ([url, events]) => {
      const s0 = performance.now();
      const eventKey = [...events].sort().join(' ');
      const k = this.known.get(url);
      // After a full search, later ones ask only for what was written since (esmond filters metadata on the
      // event-type rows' time-updated, §1b): a steady mesh costs one small answer per refresh. No event-type filter
      // then, or a pair whose only new write is a failure would be missed. A full search at least every
      // `fullSearchSeconds` also catches deletions.
      const incremental =
        !!k && k.eventKey === eventKey && now - k.fullAt < o.fullSearchSeconds && k.watermark !== undefined;
      const filters: SearchFilters = incremental
        ? { 'time-start': Math.max(0, k.watermark! - INCREMENTAL_SLACK) }
        : events.size === 1
          ? { 'event-type': [...events][0] }
          : {};
      const st: ArchiveSearchStats = { url, pages: 0, metadata: 0, ms: 0, incremental };
      try {
        const res = await searchMetadata(await this.archiveOptions(url), filters, { all: true, pageSize: o.pageSize });
        st.pages = res.pages;
        st.metadata = res.metadata.length;
        st.warning = res.warning;
        const relevant = (m: Metadata): boolean => (m['event-types'] ?? []).some((e) => events.has(e['event-type']));
        let known: ArchiveKnowledge;
        if (incremental) {
          // Only the pairs these metadata answer for need matching again.
          known = k!;
          const changed = new Set<string>();
          for (const m of res.metadata) {
            if (!relevant(m) || typeof m['metadata-key'] !== 'string') continue;
            const old = known.byKey.get(m['metadata-key']);
            known.byKey.set(m['metadata-key'], m);
            known.index.replace(old, m);
            for (const p of pairKeysOf(m)) changed.add(p);
            if (old) for (const p of pairKeysOf(old)) changed.add(p);
          }
          known.watermark = watermarkOf(res.metadata, known.watermark);
          dirty.set(url, changed);
        } else {
          const byKey = new Map<string, Metadata>();
          let anonymous = 0;
          for (const m of res.metadata)
            byKey.set(typeof m['metadata-key'] === 'string' ? m['metadata-key'] : `#${anonymous++}`, m);
          known = {
            byKey,
            index: new MetadataIndex([...byKey.values()]),
            eventKey,
            fullAt: now,
            watermark: watermarkOf(byKey.values(), undefined),
          };
          this.known.set(url, known);
          dirty.set(url, 'all');
        }
        indexes.set(url, known.index);
      } catch (err) {
        st.pages = err instanceof ArchiveError ? 1 : 0;
        st.error = errorText(err);
        indexes.set(url, st);
        dirty.set(url, 'all');
      }
      st.ms = performance.now() - s0;
      stats.searches.push(st);
      stats.requests += Math.max(st.pages, 1);
    });

    // Match every direction; classify what metadata alone tells; queue the reads.
    const jobs: ReadJob[] = [];
    /** Kept samples whose value stood unchanged (they are in use, not to be pruned). */
    const kept = new Set<string>();
    this.grids.forEach((g, gi) => {
      const metric = this.metricOf(g);
      const res = this.results[gi];
      const { start, end } = this.shown[gi];
      const classKey = metric ? `${metric}|${JSON.stringify(o.thresholds[metric])}` : '';
      for (let d = 0; d < g.directions.length; d++) {
        const dir = g.directions[d];
        if (dir.refused !== undefined) {
          res[d] = { state: 'refused', note: dir.refused };
          continue;
        }
        if (!metric) {
          res[d] = { state: 'unsupported', note: `no dashboard metric for ${g.testType ?? 'this'} tests` };
          continue;
        }
        const eventType = eventTypeOf(metric, g.testType);
        const archives = this.archivesOf(g, d);
        if (!archives.length) {
          res[d] = {
            state: 'no-data',
            eventType,
            note: 'the task writes to no esmond archive: choose one for the dashboard',
          };
          continue;
        }
        let found: Found | undefined;
        const errors: string[] = [];
        // A direction whose pair no search changed keeps its match (an incremental search touches a few pairs).
        const memo = this.matched[gi][d];
        const archiveKey = archives.join('\n');
        const pk = (this.pairKeys[gi][d] ??= pairKey(dir.source, dir.destination));
        const clean =
          !!memo &&
          memo.eventType === eventType &&
          memo.archives === archiveKey &&
          archives.every((a) => {
            const x = dirty.get(a);
            return x !== undefined && x !== 'all' && !x.has(pk);
          });
        if (clean) found = memo.found;
        else
          for (const a of archives) {
            const idx = indexes.get(a);
            if (!(idx instanceof MetadataIndex)) {
              errors.push(`${a}: ${idx?.error ?? 'not searched'}`);
              continue;
            }
            const m = matchDirection(idx, dir.source, dir.destination, {
              eventType,
              testType: g.testType,
              ipVersion: g.spec.ipVersion,
              udp: g.spec.udp,
              tools: g.spec.tools,
            });
            if (m.metadata) {
              found = { archive: a, metadata: m.metadata, alternatives: m.alternatives };
              break;
            }
          }
        if (!clean) this.matched[gi][d] = errors.length ? undefined : { eventType, archives: archiveKey, found };
        if (!found) {
          res[d] =
            errors.length === archives.length
              ? { state: 'error', eventType, archive: archives[0], note: errors.join('; ') }
              : {
                  state: 'no-data',
                  eventType,
                  archive: archives[0],
                  note: `no ${eventType} measurement of ${dir.source} → ${dir.destination} in the archive`,
                };
          continue;
        }
        const m = found.metadata;
        const key = typeof m['metadata-key'] === 'string' ? m['metadata-key'] : undefined;
        const baseOf = (): DirectionResult => ({
          state: 'pending',
          archive: found.archive,
          key,
          eventType,
          toolName: typeof m['tool-name'] === 'string' ? m['tool-name'] : undefined,
          source: typeof m.source === 'string' ? m.source : undefined,
          destination: typeof m.destination === 'string' ? m.destination : undefined,
          inputSource: typeof m['input-source'] === 'string' ? m['input-source'] : undefined,
          inputDestination: typeof m['input-destination'] === 'string' ? m['input-destination'] : undefined,
          alternatives: found.alternatives || undefined,
        });
        const tuE = timeUpdated(m, eventType);
        const tuF = eventTypeInfo(m, 'failures') ? timeUpdated(m, 'failures') : undefined;
        const lastWrite = Math.max(tuE ?? -Infinity, tuF ?? -Infinity);
        if (!Number.isFinite(lastWrite)) {
          res[d] = { ...baseOf(), state: 'no-data', note: 'registered in the archive, never written' };
          continue;
        }
        if (lastWrite < start) {
          res[d] = {
            ...baseOf(),
            state: 'no-data',
            time: lastWrite,
            note: `nothing written in the window (last write ${isoTime(lastWrite)})`,
          };
          continue;
        }
        const failure = tuF !== undefined && tuF >= start && (tuE === undefined || tuF > tuE);
        const seconds = windowSeconds(o.window, metric);
        const planKey = `${failure}|${metric}|${seconds}`;
        const memoNow = this.matched[gi][d];
        let plan: ReadPlan | undefined;
        if (memoNow?.plan && memoNow.planFor === m && memoNow.planKey === planKey) plan = memoNow.plan;
        else {
          plan = failure ? failurePlan(m) : planRead(metric, m, eventType, seconds);
          if (memoNow) Object.assign(memoNow, { plan, planFor: m, planKey });
        }
        if (!plan) {
          res[d] = { ...baseOf(), state: 'error', note: `the archive lists no series for ${eventType}` };
          continue;
        }
        const updated = (failure ? tuF : tuE) ?? lastWrite;
        // Unchanged since the last refresh (same measurement, nothing written, no sample left the window, same
        // thresholds): the result stands as it is, no work at all.
        const prev = res[d];
        const c = this.cache.get(cacheKeyOf(found.archive, plan.uri));
        if (
          c?.reduced &&
          prev.key === key &&
          prev.eventType === eventType &&
          FINAL.has(prev.state) &&
          c.updated === updated &&
          c.from <= start &&
          c.reduced.count === c.samples.length &&
          c.reduced.failure === failure &&
          c.reduced.classKey === classKey &&
          firstAtOrAfter(c.samples, start, c.reduced.first) === c.reduced.first
        ) {
          stats.fromCache++;
          kept.add(cacheKeyOf(found.archive, plan.uri));
          continue;
        }
        res[d] = { ...baseOf(), state: 'pending', time: lastWrite };
        jobs.push({
          grid: gi,
          direction: d,
          archive: found.archive,
          metadata: m,
          plan,
          failure,
          start,
          end,
          updated,
          metric,
        });
      }
    });
    stats.matchedMs = performance.now() - t0;
    hooks.onMatched?.();

    // Values: from kept samples when nothing new was written, else one read (incremental when possible).
    const toRead: ReadJob[] = [];
    const touched = new Map<number, number[]>();
    const touch = (j: ReadJob): void => {
      let l = touched.get(j.grid);
      if (!l) touched.set(j.grid, (l = []));
      l.push(j.direction);
    };
    for (const j of jobs) {
      const c = this.cache.get(cacheKey(j));
      if (c && c.from <= j.start && c.updated === j.updated) {
        this.finish(j, c);
        stats.fromCache++;
        touch(j);
      } else toRead.push(j);
    }
    if (touched.size) for (const [g, dirs] of touched) hooks.onValues?.(g, dirs);

    let budget = o.maxReads;
    const flush = (() => {
      let pending = new Map<number, number[]>();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const send = (): void => {
        timer = undefined;
        const p = pending;
        pending = new Map();
        for (const [g, dirs] of p) hooks.onValues?.(g, dirs);
      };
      return {
        add(j: ReadJob): void {
          let l = pending.get(j.grid);
          if (!l) pending.set(j.grid, (l = []));
          l.push(j.direction);
          timer ??= setTimeout(send, 100);
        },
        done(): void {
          if (timer) clearTimeout(timer);
          send();
        },
      };
    })();
    await pool(toRead, o.concurrency, async (j) => {
      if (cancelled()) {
        stats.cancelled = true;
        stats.deferred++;
        return;
      }
      if (budget <= 0) {
        stats.deferred++;
        this.results[j.grid][j.direction] = {
          ...this.results[j.grid][j.direction],
          state: 'pending',
          note: `not read in this refresh: the budget of ${o.maxReads} series requests was spent (the next refresh continues)`,
        };
        return;
      }
      budget--;
      const key = cacheKey(j);
      const old = this.cache.get(key);
      const from =
        old && old.from <= j.start ? Math.max(j.start, old.to - Math.max(LATE_SLACK, j.plan.window)) : j.start;
      try {
        const url = seriesUrl(j.archive, j.plan.uri);
        const res = await fetchSeries(await this.archiveOptions(j.archive), url, {
          'time-start': from,
          'time-end': j.end,
          pageSize: 10000,
        });
        stats.reads += res.pages;
        stats.requests += res.pages;
        const fresh = j.failure ? failureSamples(res.points) : samplesOf(j.metric, j.plan, res.points);
        const kept = old && from > j.start ? old.samples.filter((s) => s[0] >= j.start && s[0] < from) : [];
        const entry: CacheEntry = { samples: [...kept, ...fresh], from: j.start, to: j.end, updated: j.updated };
        this.cache.set(key, entry);
        this.finish(j, entry);
      } catch (err) {
        stats.reads++;
        stats.requests++;
        this.results[j.grid][j.direction] = {
          ...this.results[j.grid][j.direction],
          state: 'error',
          note: errorText(err),
        };
      }
      flush.add(j);
    });
    flush.done();
    // Samples of measurements no longer shown (another metric, an edited template) are dropped once they outnumber
    // those in use, so a long-lived dashboard does not grow without bound.
    const used = new Set([...kept, ...jobs.map(cacheKey)]);
    if (!stats.cancelled && this.cache.size > 2 * used.size + 1000)
      for (const k of this.cache.keys()) if (!used.has(k)) this.cache.delete(k);
    stats.ms = performance.now() - t0;
    return stats;
  }

  private archiveOptions(url: string): Promise<ArchiveOptions> {
    const extra = this.options.archiveOptions;
    return extra ? extra(url).then((x) => ({ ...x, url })) : Promise.resolve({ url });
  }

  private finish(j: ReadJob, c: CacheEntry): void {
    const prev = this.results[j.grid][j.direction];
    c.reduced = {
      first: firstAtOrAfter(c.samples, j.start, 0),
      count: c.samples.length,
      failure: j.failure,
      classKey: `${j.metric}|${JSON.stringify(this.options.thresholds[j.metric])}`,
    };
    if (j.failure) {
      const last = [...c.samples].reverse().find((s) => s[0] >= j.start);
      this.results[j.grid][j.direction] = {
        ...prev,
        state: 'failed',
        value: undefined,
        time: last?.[0] ?? j.updated,
        eventType: prev.eventType,
        note: last ? `latest run failed: ${String(last[1])}` : 'latest run failed',
      };
      return;
    }
    const r = reduceSamples(j.metric, c.samples, j.start, j.end);
    if (!r) {
      this.results[j.grid][j.direction] = {
        ...prev,
        state: 'no-data',
        value: undefined,
        note: `written at ${isoTime(j.updated)}, but no ${j.plan.eventType} result is timed inside the window`,
      };
      return;
    }
    this.results[j.grid][j.direction] = {
      ...prev,
      state: classify(j.metric, r.value, this.options.thresholds[j.metric]),
      value: r.value,
      time: r.last,
      samples: r.count,
      changes: r.changes,
      note: undefined,
    };
  }
}

function cacheKey(j: ReadJob): string {
  return cacheKeyOf(j.archive, j.plan.uri);
}

function cacheKeyOf(archive: string, uri: string): string {
  return `${archive}\u0000${uri}`;
}

function failurePlan(m: Metadata): ReadPlan | undefined {
  const base = eventTypeInfo(m, 'failures')?.['base-uri'];
  return base ? { eventType: 'failures', uri: base, summaryType: 'base', window: 0, scale: 1 } : undefined;
}

function failureSamples(points: readonly { ts: number | string; val: unknown }[]): Sample[] {
  const out: Sample[] = [];
  for (const p of points) {
    const v = normaliseValue('failures', 'base', p.val);
    if (v.kind === 'failure') out.push([Number(p.ts), v.error]);
  }
  return out;
}

export function isoTime(t: number): string {
  return new Date(t * 1000).toISOString().replace(/\.\d+Z$/, 'Z');
}

/** Runs `work` over `items` with at most `limit` at once. */
export async function pool<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
}
