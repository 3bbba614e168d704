// The dashboard's host side (pure: no vscode import): owns one DashboardSession per template version, answers the
// page's messages, streams states and values as a refresh finds them, refreshes on a timer, and turns a clicked
// cell into the explorer's arguments. The VS Code panel and the Chromium harness both run it.
import type { DashboardPairsResult, OpenArchiveExplorerArgs } from '../../../common/protocol';
import { effectiveThresholds, formatMetric, METRICS, type MetricId } from '../../../dashboard/metrics';
import {
  DashboardSession,
  DEFAULT_SESSION_OPTIONS,
  windowSeconds,
  type RefreshStats,
  type SampleCache,
  type WindowChoice,
} from '../../../dashboard/session';
import {
  stateCode,
  type DashboardControls,
  type DashboardToHost,
  type DirectionDetail,
  type GridInfo,
  type HostToDashboard,
  type RefreshSummary,
  type ValuesUpdate,
} from './messages';

export interface DashboardDefaults {
  thresholds: unknown;
  window: WindowChoice;
  /** 0: off. */
  autoRefreshSeconds: number;
  maxReads: number;
  archive: string;
}

export interface DashboardHostDeps {
  post(msg: HostToDashboard): void;
  /** The template's grids (the language server's psconfig/dashboardPairs, or the engine directly in tests). */
  pairs(): Promise<DashboardPairsResult>;
  template: string;
  defaults(): DashboardDefaults;
  archives(): { name: string; url: string }[];
  /** Token settings of an archive (keyed by its normalised URL); never logged. */
  credentials(normalisedUrl: string): Promise<{ token?: string; tokenOnReads: boolean }>;
  openExplorer(args: OpenArchiveExplorerArgs): void | Promise<unknown>;
  log?(level: 'info' | 'error', text: string): void;
  now?(): number;
  /** Arms the auto-refresh timer (default: the global setTimeout). A test passes its own clock here rather than
   *  mocking the global timers, which the HTTP client's own timeouts also run on. */
  startTimer?: (fn: () => void, ms: number) => { cancel(): void };
  timeoutMs?: number;
  /** Largest single response in bytes (setting psconfig.archive.maxResponseMb), read when a refresh starts. */
  maxResponseBytes?(): number | undefined;
}

export interface DashboardHost {
  handle(msg: DashboardToHost): Promise<void>;
  /** The template changed: its pairs are re-read on the next refresh, which starts now. */
  templateChanged(): void;
  /** Settings changed (thresholds, defaults). */
  settingsChanged(): void;
  /** A refresh now (the page's button, the timer, a command); resolves when it ends. */
  refresh(): Promise<RefreshStats | undefined>;
  /** The current session (tests, the bench). */
  session(): DashboardSession | undefined;
  dispose(): void;
}

function summaryOf(stats: RefreshStats, at: number): RefreshSummary {
  return {
    requests: stats.requests,
    searches: stats.searches.length,
    searchPages: stats.searches.reduce((n, s) => n + s.pages, 0),
    reads: stats.reads,
    fromCache: stats.fromCache,
    deferred: stats.deferred,
    ms: stats.ms,
    matchedMs: stats.matchedMs,
    at,
    errors: stats.searches.filter((s) => s.error).map((s) => `${s.url}: ${s.error}`),
  };
}

/** The explorer plots exactly the dashboard's window (absolute, so it shows what the cell was computed from). */
function explorerTime(range: { start: number; end: number }): { start: number; end: number } {
  return { start: range.start, end: range.end };
}

export function createDashboardHost(deps: DashboardHostDeps): DashboardHost {
  const now = (): number => (deps.now ? deps.now() : Math.floor(Date.now() / 1000));
  const d0 = deps.defaults();
  const controls: DashboardControls = {
    window: d0.window,
    archive: d0.archive,
    autoRefreshSeconds: d0.autoRefreshSeconds,
  };
  const metrics = new Map<string, MetricId>();
  const cache: SampleCache = new Map();
  let session: DashboardSession | undefined;
  let stalePairs = true;
  let running: Promise<RefreshStats | undefined> | undefined;
  let queued: Promise<RefreshStats | undefined> | undefined;
  let cancelled = false;
  let timer: { cancel(): void } | undefined;
  let disposed = false;
  const startTimer =
    deps.startTimer ??
    ((fn: () => void, ms: number) => {
      const t = setTimeout(fn, ms);
      return { cancel: () => clearTimeout(t) };
    });

  const post = (m: HostToDashboard): void => {
    if (!disposed) deps.post(m);
  };

  function options(): DashboardSession['options'] {
    const d = deps.defaults();
    return {
      ...DEFAULT_SESSION_OPTIONS,
      thresholds: effectiveThresholds(d.thresholds),
      window: controls.window,
      archive: controls.archive || undefined,
      maxReads: d.maxReads,
      metric: (g) => metrics.get(g.task),
      archiveOptions: async (url) => {
        const c = await deps.credentials(url);
        return {
          token: c.token,
          tokenOnReads: c.tokenOnReads,
          timeoutMs: deps.timeoutMs,
          maxResponseBytes: deps.maxResponseBytes?.(),
        };
      },
      now,
      cache,
    };
  }

  function gridInfo(s: DashboardSession, gi: number): GridInfo {
    const g = s.grids[gi];
    const shown = s.shown[gi];
    const metric = shown.metric;
    const endpoints = new Map<string, number>();
    const end = (x: string): number => {
      let i = endpoints.get(x);
      if (i === undefined) endpoints.set(x, (i = endpoints.size));
      return i;
    };
    const dirEnds: number[] = [];
    for (const d of g.directions) dirEnds.push(end(d.source), end(d.destination));
    const res = s.results[gi];
    return {
      task: g.task,
      testType: g.testType,
      groupType: g.groupType,
      rows: g.rowLabels,
      cols: g.colLabels,
      square: g.square,
      metric,
      metrics: [...g.metrics],
      metricLabel: metric && METRICS[metric].label,
      unit: metric && METRICS[metric].unit,
      reduction: metric && METRICS[metric].reduction,
      window: metric && windowSeconds(s.options.window, metric),
      range: { start: shown.start, end: shown.end },
      thresholds: metric && s.options.thresholds[metric],
      worse: metric && METRICS[metric].worse,
      halves: Array.from(g.halves),
      endpoints: [...endpoints.keys()],
      dirEnds,
      states: res.map((r) => stateCode(r.state)),
      values: res.map((r) => r.value ?? null),
      times: res.map((r) => r.time ?? null),
      failedCombinations: g.failed,
      error: g.error,
      ...(g.identicalNote ? { identicalNote: g.identicalNote } : {}),
    };
  }

  function schedule(): void {
    timer?.cancel();
    timer = undefined;
    if (disposed || controls.autoRefreshSeconds <= 0) return;
    timer = startTimer(() => void refresh(), controls.autoRefreshSeconds * 1000);
  }

  async function run(): Promise<RefreshStats | undefined> {
    post({ type: 'status', refreshing: true });
    if (!session || stalePairs) {
      let pairs: DashboardPairsResult;
      try {
        pairs = await deps.pairs();
      } catch (err) {
        const error = `the template could not be expanded: ${err instanceof Error ? err.message : String(err)}`;
        post({ type: 'grids', grids: [], error });
        post({ type: 'status', refreshing: false, error });
        return undefined;
      }
      if (pairs.error) {
        post({ type: 'grids', grids: [], error: pairs.error });
        post({ type: 'status', refreshing: false, error: pairs.error });
        return undefined;
      }
      stalePairs = false;
      session = new DashboardSession(pairs.tasks, options());
    } else session.options = options();
    const s = session;
    const stats = await s.refresh({
      isCancelled: () => cancelled || disposed || s !== session,
      onMatched: () => post({ type: 'grids', grids: s.grids.map((_, gi) => gridInfo(s, gi)) }),
      onValues: (grid, dirs) => {
        // The session batches these (every 100 ms while reads go on).
        const r = s.results[grid];
        const update: ValuesUpdate = {
          grid,
          dirs,
          states: dirs.map((d) => stateCode(r[d].state)),
          values: dirs.map((d) => r[d].value ?? null),
          times: dirs.map((d) => r[d].time ?? null),
        };
        post({ type: 'values', updates: [update] });
      },
    });
    const summary = summaryOf(stats, now());
    deps.log?.(
      'info',
      `dashboard ${deps.template}: ${summary.requests} requests (${summary.searches} searches, ${summary.reads} reads, ${summary.fromCache} from kept samples, ${summary.deferred} deferred) in ${Math.round(summary.ms)} ms`,
    );
    post({
      type: 'status',
      refreshing: false,
      summary,
      nextInSeconds: controls.autoRefreshSeconds > 0 ? controls.autoRefreshSeconds : undefined,
    });
    return stats;
  }

  /** A refresh that starts now, or right after the one running (requests in the meantime share it). */
  function refresh(): Promise<RefreshStats | undefined> {
    if (disposed) return Promise.resolve(undefined);
    if (running) return (queued ??= running.then(() => ((queued = undefined), refresh())));
    cancelled = false;
    const p = run()
      .catch((err: unknown) => {
        const error = err instanceof Error ? err.message : String(err);
        deps.log?.('error', `dashboard refresh: ${error}`);
        post({ type: 'status', refreshing: false, error });
        return undefined;
      })
      .finally(() => {
        running = undefined;
        if (!queued) schedule();
      });
    running = p;
    return p;
  }

  /** A change that makes the running refresh's answers obsolete: stop it and start again. */
  function restart(): void {
    if (running) cancelled = true;
    void refresh();
  }

  function details(grid: number, dirs: number[]): DirectionDetail[] {
    const s = session;
    if (!s || !s.grids[grid]) return [];
    const g = s.grids[grid];
    const metric = s.shown[grid].metric;
    return dirs
      .filter((d) => d >= 0 && d < g.directions.length)
      .map((d) => {
        const r = s.results[grid][d];
        const dir = g.directions[d];
        return {
          grid,
          dir: d,
          source: dir.source,
          destination: dir.destination,
          state: r.state,
          value: r.value,
          display: r.value !== undefined && metric ? formatMetric(metric, r.value) : undefined,
          time: r.time,
          key: r.key,
          archive: r.archive,
          eventType: r.eventType,
          toolName: r.toolName,
          samples: r.samples,
          changes: r.changes,
          alternatives: r.alternatives,
          note: r.note,
        };
      });
  }

  /** The explorer on exactly this measurement: its archive, its spec strings, its metric, the dashboard's range. */
  function explorerArgs(grid: number, dir: number): OpenArchiveExplorerArgs | undefined {
    const s = session;
    const g = s?.grids[grid];
    if (!s || !g || !g.directions[dir]) return undefined;
    const d = g.directions[dir];
    const r = s.results[grid][dir];
    const url = r.archive ?? s.archivesOf(g, dir)[0];
    if (!url) return undefined;
    const args: OpenArchiveExplorerArgs = {
      url,
      inputSource: r.inputSource ?? d.source,
      inputDestination: r.inputDestination ?? d.destination,
      task: g.task,
      time: explorerTime(s.shown[grid]),
    };
    if (r.eventType) args.eventType = r.eventType;
    if (r.toolName) args.toolName = r.toolName;
    if (r.key) args.metadataKey = r.key;
    return args;
  }

  return {
    async handle(msg) {
      switch (msg.type) {
        case 'ready':
          post({ type: 'init', template: deps.template, controls: { ...controls }, archives: deps.archives() });
          void refresh();
          return;
        case 'refresh':
          void refresh();
          return;
        case 'setMetric':
          metrics.set(session?.grids[msg.grid]?.task ?? '', msg.metric);
          restart();
          return;
        case 'setControls': {
          const c = msg.controls;
          const refetch =
            (c.window !== undefined && c.window !== controls.window) ||
            (c.archive !== undefined && c.archive !== controls.archive);
          if (c.window === 'auto' || (typeof c.window === 'number' && c.window > 0)) controls.window = c.window;
          if (typeof c.archive === 'string') controls.archive = c.archive;
          if (typeof c.autoRefreshSeconds === 'number' && c.autoRefreshSeconds >= 0)
            controls.autoRefreshSeconds = c.autoRefreshSeconds;
          post({ type: 'controls', controls: { ...controls } });
          if (refetch) restart();
          else if (!running) schedule();
          return;
        }
        case 'detail':
          post({ type: 'detail', id: msg.id, details: details(msg.grid, msg.dirs) });
          return;
        case 'open': {
          const args = explorerArgs(msg.grid, msg.dir);
          if (!args) {
            post({ type: 'notice', text: 'This pair has no archive to open: the task writes to no esmond archive.' });
            return;
          }
          await deps.openExplorer(args);
          return;
        }
        case 'log':
          deps.log?.(msg.level, msg.text);
          return;
      }
    },
    templateChanged() {
      stalePairs = true;
      restart();
    },
    settingsChanged() {
      restart();
    },
    refresh,
    session: () => session,
    dispose() {
      disposed = true;
      cancelled = true;
      timer?.cancel();
    },
  };
}
