// The one typed definition of every message between the archive explorer webview and its host (the VS Code
// extension, or the Chromium test harness). Both sides import this file. Every message is plain JSON (no typed
// arrays, no Dates) so it crosses VS Code's postMessage and Playwright's exposeFunction unchanged.

/** An archive the user configured (`psconfig.archives`). */
export interface ArchiveEntry {
  name: string;
  url: string;
}

/** The time presets of the perfSONAR graphs' menu (plus 1h). */
export const TIME_PRESETS = ['1h', '12h', '1d', '3d', '1w', '1m', '1y'] as const;
export type TimePreset = (typeof TIME_PRESETS)[number];

/** A time range: a preset relative to "now" at request time, or absolute UNIX seconds. */
export type TimeSpec = { preset: TimePreset } | { start: number; end: number };

/** The search form, as the user filled it (empty strings are "no filter"). */
export interface SearchForm {
  source: string;
  destination: string;
  measurementAgent: string;
  toolName: string;
  eventType: string;
  inputSource: string;
  inputDestination: string;
  dnsMatchRule: string;
  /** Any other metadata field, `key=value` pairs. */
  fields: [string, string][];
  /** Also send the time range to the metadata search (esmond then matches on last-write time). */
  timeFilterMetadata: boolean;
}

/** A summary of an event type (singular JSON form of the type; window in seconds). */
export interface SummaryRef {
  type: string;
  window: number;
  uri: string;
}

export interface EventTypeRef {
  eventType: string;
  baseUri: string;
  timeUpdated: number | null;
  summaries: SummaryRef[];
}

/** One row of the results table: a metadata object reduced to what the explorer shows and needs. */
export interface MeasurementRow {
  key: string;
  uri: string;
  subjectType: string;
  source: string;
  destination: string;
  measurementAgent: string;
  toolName: string;
  inputSource: string;
  inputDestination: string;
  eventTypes: EventTypeRef[];
  /** Latest `time-updated` of its event types (the last write, not the last measurement). */
  lastUpdate: number | null;
  /** Every other (free-form) field, as strings. */
  fields: Record<string, string>;
}

/** Which summary to read: the perfSONAR graphs' choice for the range, or a window the user picked. */
export type WindowChoice = 'auto' | number;

/** Hop of a packet trace, normalised (strings to numbers, `error_message` / `error-message`). */
export interface TraceHop {
  ttl: number;
  query: number;
  success: boolean;
  ip: string;
  hostname?: string;
  asn?: number;
  asOwner?: string;
  rtt: number | null;
  mtu: number | null;
  error?: string;
}

export interface Subinterval {
  start: number;
  duration: number;
  value: number | null;
}

/** Value columns of a series, by kind. Arrays are parallel to `ts`. */
export type SeriesData =
  | { kind: 'number'; ts: number[]; values: (number | null)[] }
  | {
      kind: 'stats';
      ts: number[];
      min: (number | null)[];
      median: (number | null)[];
      mean: (number | null)[];
      p95: (number | null)[];
      max: (number | null)[];
      computed: boolean;
    }
  | { kind: 'failures'; ts: number[]; errors: string[] }
  | { kind: 'trace'; ts: number[]; hops: TraceHop[][] }
  | { kind: 'subintervals'; ts: number[]; intervals: Subinterval[][] }
  | { kind: 'streams'; ts: number[]; streams: (number | null)[][] }
  | { kind: 'stream-subintervals'; ts: number[]; streams: Subinterval[][][] }
  | { kind: 'raw'; ts: number[]; values: unknown[] };

/** Units the webview formats: bits/s (SI), percent, milliseconds, plain counts, or none. */
export type Unit = 'bps' | '%' | 'ms' | 'count' | 's' | 'ppm' | '';

export interface SeriesResult {
  eventType: string;
  /** What was read: `base`, or a summary type with its window. */
  summaryType: string;
  window: number;
  /** Why this summary: `auto: …` (the graphs' rule) or `chosen`. */
  windowReason: string;
  uri: string;
  unit: Unit;
  data: SeriesData;
  /** Points received from the archive (before any transformation). */
  received: number;
  pages: number;
  fetchMs: number;
  transformMs: number;
  /** Points the archive returned that could not be read (e.g. a histogram with a non-numeric key). */
  skipped: number;
  /**
   * Said beside the chart: the series is on another origin than the archive (read without the archive's token),
   * or the archive's warnings (repeated page, points of the wrong shape).
   */
  note?: string;
}

/** A series as shown, for export: one direction of one event type. */
export interface ShownSeries {
  direction: 'forward' | 'reverse';
  source: string;
  destination: string;
  result: SeriesResult;
}

// ---------------------------------------------------------------- webview → host

export type WebviewToHost =
  | { type: 'ready' }
  | { type: 'search'; id: number; archive: string; form: SearchForm; time: TimeSpec; limit?: number }
  | {
      type: 'series';
      id: number;
      archive: string;
      row: MeasurementRow;
      eventType: string;
      time: TimeSpec;
      window: WindowChoice;
    }
  | { type: 'reverse'; id: number; archive: string; row: MeasurementRow }
  | {
      type: 'export';
      id: number;
      format: 'csv' | 'json';
      suggestedName: string;
      shown: ShownSeries[];
      range: { start: number; end: number };
    }
  | { type: 'addArchive' }
  | { type: 'setToken'; archive: string }
  | { type: 'log'; level: 'info' | 'error'; text: string };

// ---------------------------------------------------------------- host → webview

/** A failure the view shows inline: what failed, and the archive's words when there were any. */
export interface ErrorInfo {
  message: string;
  /** ArchiveError kind (`http`, `refused`, `timeout`, `not-json`, …) or `internal`. */
  kind: string;
  status?: number;
}

/** What to search on open (the code lens / openArchiveExplorer argument). */
export interface Prefill {
  url: string;
  source?: string;
  destination?: string;
  inputSource?: string;
  inputDestination?: string;
  eventType?: string;
  toolName?: string;
  /** Select this measurement once the search answers (the dashboard's cell). */
  metadataKey?: string;
  /** Plot this range instead of the form's. */
  time?: TimeSpec;
  run: boolean;
}

export type HostToWebview =
  | { type: 'init'; archives: ArchiveEntry[]; prefill?: Prefill; now: number }
  | { type: 'archives'; archives: ArchiveEntry[] }
  | { type: 'prefill'; prefill: Prefill }
  | {
      type: 'searchResult';
      id: number;
      rows: MeasurementRow[];
      total: number;
      pages: number;
      elapsedMs: number;
      range: { start: number; end: number };
      /** The archive's warnings: objects of the wrong shape left out, a repeated page. */
      warning?: string;
    }
  | { type: 'seriesResult'; id: number; result: SeriesResult; range: { start: number; end: number } }
  | { type: 'reverseResult'; id: number; row: MeasurementRow | null }
  | { type: 'exported'; id: number; bytes: number; path?: string; text?: string; cancelled?: boolean }
  | { type: 'error'; id: number; request: WebviewToHost['type']; error: ErrorInfo };

/** State the webview keeps with `vscode.setState` (the query, not the data: data is re-fetched on restore). */
export interface ExplorerState {
  archive: string;
  form: SearchForm;
  time: TimeSpec;
  window: WindowChoice;
  selectedKey?: string;
  sort: { column: SortColumn; descending: boolean };
  showReverse: boolean;
}

export type SortColumn = 'pair' | 'tool' | 'eventTypes' | 'lastUpdate';

export function emptyForm(): SearchForm {
  return {
    source: '',
    destination: '',
    measurementAgent: '',
    toolName: '',
    eventType: '',
    inputSource: '',
    inputDestination: '',
    dnsMatchRule: '',
    fields: [],
    timeFilterMetadata: false,
  };
}
