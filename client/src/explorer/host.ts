// The explorer's host side (pure: no vscode import): answers webview requests with the archive client — search,
// series for a measurement + event type + summary window + range, reverse-direction lookup, export. The VS Code
// provider and the Chromium test harness both run this, so tests exercise the real logic against a real archive.
import { ArchiveError } from '../../../archive-client/errors';
import { searchMetadata } from '../../../archive-client/search';
import { fetchSeries } from '../../../archive-client/series';
import { chooseSeries, statisticsFromHistograms, summaryWindowForRange } from '../../../archive-client/summaries';
import type { ArchiveOptions, EventTypeInfo, SearchFilters } from '../../../archive-client/types';
import { normaliseArchiveUrl } from '../../../archive-client/url';
import { normalisePoints, valueKindOf } from '../../../archive-client/values';
import { bucketToMs, eventTypeInfoOf, rowOfMetadata, seriesDataOf, statsDataOf, unitOf } from './archive-view';
import { exportCsv, exportJson } from './export';
import type {
  ArchiveEntry,
  ErrorInfo,
  HostToWebview,
  MeasurementRow,
  Prefill,
  SearchForm,
  SeriesData,
  SeriesResult,
  TimeSpec,
  WebviewToHost,
} from './messages';
import { resolveTime } from './time';

export interface ExplorerHostDeps {
  post(msg: HostToWebview): void;
  archives(): ArchiveEntry[];
  /** Token settings of an archive (keyed by its normalised URL); never logged. */
  credentials(normalisedUrl: string): Promise<{ token?: string; tokenOnReads: boolean }>;
  /** Write an export: VS Code shows a save dialog; the harness returns the text. Undefined = cancelled. */
  save(
    suggestedName: string,
    text: string,
    format: 'csv' | 'json',
  ): Promise<{ path?: string; text?: string } | undefined>;
  /** Commands the webview can trigger (Add Archive…, Set Archive Token…); absent in the harness. */
  command?(name: 'addArchive' | 'setToken', archive?: string): void;
  log?(level: 'info' | 'error', text: string): void;
  /** Seconds since the epoch (tests pin it). */
  now?(): number;
  timeoutMs?: number;
  /** Largest single response in bytes (setting psconfig.archive.maxResponseMb); read when each request starts. */
  maxResponseBytes?(): number | undefined;
  /** Points per series request (esmond honours any limit; default 10000). */
  pageSize?: number;
}

export interface ExplorerHost {
  handle(msg: WebviewToHost): Promise<void>;
  /** Ask the webview to pre-fill (and run) a search (openArchiveExplorer with an argument). */
  prefill(p: Prefill): void;
  /** Settings changed: send the new archive list. */
  archivesChanged(): void;
}

/** What the explorer says beside a chart about where its data came from and what the archive got wrong. */
export function seriesNote(fetched: {
  otherOrigin?: string;
  credentialsWithheld?: boolean;
  warning?: string;
}): string | undefined {
  const parts: string[] = [];
  if (fetched.otherOrigin)
    parts.push(
      fetched.credentialsWithheld
        ? `read from ${fetched.otherOrigin}, another origin than the archive's, without the archive's token`
        : `read from ${fetched.otherOrigin}, another origin than the archive's (no token sent)`,
    );
  if (fetched.warning) parts.push(fetched.warning);
  return parts.length ? parts.join('; ') : undefined;
}

export function errorInfo(err: unknown): ErrorInfo {
  if (err instanceof ArchiveError) return { message: err.message, kind: err.kind, status: err.status };
  return { message: err instanceof Error ? err.message : String(err), kind: 'internal' };
}

/** The search form as archive filters (blank fields are no filter; `key=value` extras verbatim). */
export function filtersOfForm(form: SearchForm, range: { start: number; end: number } | undefined): SearchFilters {
  const f: SearchFilters = {};
  const set = (k: keyof SearchFilters, v: string): void => {
    if (v.trim() !== '') (f as Record<string, unknown>)[k] = v.trim();
  };
  set('source', form.source);
  set('destination', form.destination);
  set('measurement-agent', form.measurementAgent);
  set('tool-name', form.toolName);
  set('event-type', form.eventType);
  set('input-source', form.inputSource);
  set('input-destination', form.inputDestination);
  set('dns-match-rule', form.dnsMatchRule);
  const fields: Record<string, string> = {};
  for (const [k, v] of form.fields) if (k.trim() !== '') fields[k.trim()] = v.trim();
  if (Object.keys(fields).length) f.fields = fields;
  if (range && form.timeFilterMetadata) {
    f['time-start'] = range.start;
    f['time-end'] = range.end;
  }
  return f;
}

/**
 * Event types whose aggregation (a sum over the window) is not a value of the same quantity — rates and gauges.
 * For these the average is read instead (throughput's default summary is `average`, reference §1d), or base data
 * when there is no average at or below the wanted window; counts and loss keep their aggregation (sum, pooled loss).
 */
const AVERAGED = /^(throughput|tcp-windowsize|packet-rtt|path-mtu|time-error-estimates|ntp-.*)$/;

export function summariesFor(et: EventTypeInfo, wanted: number): EventTypeInfo {
  if (!AVERAGED.test(et['event-type'])) return et;
  // Only averages no coarser than asked: a daily average is no stand-in for a 1-hour view (base data is).
  return {
    ...et,
    summaries: (et.summaries ?? []).filter(
      (s) => s['summary-type'] === 'average' && Number(s['summary-window']) <= wanted,
    ),
  };
}

const KIND_OF_VALUE: Record<string, SeriesData['kind']> = {
  number: 'number',
  loss: 'number',
  histogram: 'stats',
  statistics: 'stats',
  'packet-trace': 'trace',
  subintervals: 'subintervals',
  streams: 'streams',
  'stream-subintervals': 'stream-subintervals',
  failure: 'failures',
  json: 'raw',
};

export function createExplorerHost(deps: ExplorerHostDeps): ExplorerHost {
  const now = (): number => (deps.now ? deps.now() : Math.floor(Date.now() / 1000));
  let pendingPrefill: Prefill | undefined;
  let ready = false;

  async function archiveOptions(url: string): Promise<ArchiveOptions> {
    const normal = normaliseArchiveUrl(url);
    const c = await deps.credentials(normal);
    return {
      url: normal,
      token: c.token,
      tokenOnReads: c.tokenOnReads,
      timeoutMs: deps.timeoutMs,
      maxResponseBytes: deps.maxResponseBytes?.(),
    };
  }

  async function search(
    archive: string,
    form: SearchForm,
    time: TimeSpec,
    limit?: number,
  ): Promise<Extract<HostToWebview, { type: 'searchResult' }>> {
    const t0 = performance.now();
    const range = resolveTime(time, now());
    const res = await searchMetadata(await archiveOptions(archive), filtersOfForm(form, range), {
      all: true,
      pageSize: limit ?? 1500,
    });
    const rows = res.metadata.map(rowOfMetadata);
    const reply: Extract<HostToWebview, { type: 'searchResult' }> = {
      type: 'searchResult',
      id: 0,
      rows,
      total: res.total ?? rows.length,
      pages: res.pages,
      elapsedMs: performance.now() - t0,
      range,
    };
    if (res.warning) reply.warning = res.warning;
    return reply;
  }

  async function series(
    archive: string,
    row: MeasurementRow,
    eventType: string,
    time: TimeSpec,
    window: 'auto' | number,
  ): Promise<{ result: SeriesResult; range: { start: number; end: number } }> {
    const et = row.eventTypes.find((e) => e.eventType === eventType);
    if (!et) throw new Error(`measurement ${row.key} has no event type ${eventType}`);
    const range = resolveTime(time, now());
    const wanted = window === 'auto' ? summaryWindowForRange(range.end - range.start) : window;
    const choice = chooseSeries(summariesFor(eventTypeInfoOf(et), wanted), wanted);
    if (!choice) throw new Error(`event type ${eventType} of ${row.key} has no base-uri to read`);
    const t0 = performance.now();
    const fetched = await fetchSeries(await archiveOptions(archive), choice.uri, {
      'time-start': range.start,
      'time-end': range.end,
      pageSize: deps.pageSize ?? 10000,
    });
    const t1 = performance.now();
    const points = normalisePoints(eventType, choice.summaryType, fetched.points);
    const valueKind = valueKindOf(eventType, choice.summaryType);
    const kind = KIND_OF_VALUE[valueKind] ?? 'raw';
    const scale =
      valueKind === 'loss' ? 100 : eventType.startsWith('histogram-') ? bucketToMs(eventType, row.fields) : 1;
    let data: SeriesData;
    let skipped: number;
    if (choice.computeStatistics) {
      // Base histograms are binned to the wanted window (as esmond's statistics summary would be); an aggregation is already binned.
      const stats = statisticsFromHistograms(points, choice.summaryType === 'base' ? wanted : 0);
      data = statsDataOf(stats, scale);
      skipped = points.filter((p) => p.val.kind !== 'histogram').length;
    } else {
      ({ data, skipped } = seriesDataOf(points, kind, scale));
    }
    const win = (w: number): string => (w === 0 ? 'base data' : `${w} s window`);
    const got =
      choice.summaryType === 'base' && !choice.computeStatistics
        ? 'no such summary, base data read'
        : `nearest available: ${win(choice.window)}`;
    const reason = `${window === 'auto' ? `auto: ${win(wanted)} for this range` : `chosen: ${win(wanted)}`}${choice.window !== wanted || (choice.summaryType === 'base' && wanted > 0) ? `; ${got}` : ''}`;
    const result: SeriesResult = {
      eventType,
      summaryType: choice.computeStatistics && choice.summaryType === 'base' ? 'base' : choice.summaryType,
      window: choice.computeStatistics && choice.summaryType === 'base' ? wanted : choice.window,
      windowReason: choice.computeStatistics
        ? `${reason}; statistics computed from ${choice.summaryType} histograms`
        : reason,
      uri: choice.uri,
      unit: unitOf(eventType),
      data,
      received: fetched.points.length,
      pages: fetched.pages,
      fetchMs: t1 - t0,
      transformMs: performance.now() - t1,
      skipped,
    };
    const note = seriesNote(fetched);
    if (note) result.note = note;
    return { result, range };
  }

  /** The same test the other way: source and destination swapped, same tool, most event types in common. */
  async function reverse(archive: string, row: MeasurementRow): Promise<MeasurementRow | null> {
    if (!row.source || !row.destination) return null;
    const filters: SearchFilters = { source: row.destination, destination: row.source };
    if (row.toolName) filters['tool-name'] = row.toolName;
    const res = await searchMetadata(await archiveOptions(archive), filters, { all: true, pageSize: 1500 });
    const mine = new Set(row.eventTypes.map((e) => e.eventType));
    let best: MeasurementRow | null = null;
    let bestScore = 0;
    for (const m of res.metadata) {
      const r = rowOfMetadata(m);
      if (r.key === row.key) continue;
      const common = r.eventTypes.filter((e) => mine.has(e.eventType)).length;
      const score = common * 2 + (r.fields['ip-transport-protocol'] === row.fields['ip-transport-protocol'] ? 1 : 0);
      if (common > 0 && score > bestScore) {
        best = r;
        bestScore = score;
      }
    }
    return best;
  }

  async function answer(msg: WebviewToHost): Promise<HostToWebview | undefined> {
    switch (msg.type) {
      case 'ready':
        ready = true;
        return { type: 'init', archives: deps.archives(), prefill: pendingPrefill, now: now() };
      case 'search':
        return { ...(await search(msg.archive, msg.form, msg.time, msg.limit)), id: msg.id };
      case 'series':
        return {
          type: 'seriesResult',
          id: msg.id,
          ...(await series(msg.archive, msg.row, msg.eventType, msg.time, msg.window)),
        };
      case 'reverse':
        return { type: 'reverseResult', id: msg.id, row: await reverse(msg.archive, msg.row) };
      case 'export': {
        const text = msg.format === 'csv' ? exportCsv(msg.shown) : exportJson(msg.shown, msg.range);
        const saved = await deps.save(msg.suggestedName, text, msg.format);
        const bytes = new TextEncoder().encode(text).length;
        return saved
          ? { type: 'exported', id: msg.id, bytes, path: saved.path, text: saved.text }
          : { type: 'exported', id: msg.id, bytes, cancelled: true };
      }
      case 'addArchive':
        deps.command?.('addArchive');
        return undefined;
      case 'setToken':
        deps.command?.('setToken', msg.archive);
        return undefined;
      case 'log':
        deps.log?.(msg.level, msg.text);
        return undefined;
    }
  }

  return {
    async handle(msg) {
      try {
        const reply = await answer(msg);
        if (reply) deps.post(reply);
        if (msg.type === 'ready') pendingPrefill = undefined;
      } catch (err) {
        const info = errorInfo(err);
        deps.log?.('error', `${msg.type}: ${info.message}`);
        if ('id' in msg) deps.post({ type: 'error', id: msg.id, request: msg.type, error: info });
      }
    },
    prefill(p) {
      if (ready) deps.post({ type: 'prefill', prefill: p });
      else pendingPrefill = p;
    },
    archivesChanged() {
      deps.post({ type: 'archives', archives: deps.archives() });
    },
  };
}
