// Shapes of the esmond-style archive REST interface as a client sees them (seed 001, reference esmond.md §1a).
// Real servers return numbers as strings in places, so raw fields are typed loosely and normalised elsewhere.

/** A summary listed under an event type. `summary-window` is an integer on registration, a string in responses. */
export interface SummaryInfo {
  'summary-type': string;
  'summary-window': string | number;
  uri?: string;
  'time-updated'?: number | null;
}

export interface EventTypeInfo {
  'event-type': string;
  'base-uri'?: string;
  'time-updated'?: number | null;
  summaries?: SummaryInfo[];
}

/** A metadata object as returned by a search; unknown fields are kept (free-form parameters are strings). */
export interface Metadata {
  'metadata-key'?: string;
  'subject-type'?: string;
  source?: string;
  destination?: string;
  'measurement-agent'?: string;
  'input-source'?: string;
  'input-destination'?: string;
  'tool-name'?: string;
  uri?: string;
  url?: string;
  'event-types'?: EventTypeInfo[];
  /** Paging fields real esmond puts on the first element of a list only. */
  'metadata-count-total'?: number;
  'metadata-next-page'?: string | null;
  'metadata-previous-page'?: string | null;
  [field: string]: unknown;
}

/** One point of a time series exactly as the archive returned it. */
export interface RawPoint {
  ts: number | string;
  val: unknown;
}

/** Time filters shared by metadata search and series reads (UNIX seconds / seconds). */
export interface TimeFilters {
  time?: number;
  'time-start'?: number;
  'time-end'?: number;
  'time-range'?: number;
}

/** Every filter of GET {base_url}; any other metadata field goes in `fields`. */
export interface SearchFilters extends TimeFilters {
  source?: string;
  destination?: string;
  'measurement-agent'?: string;
  'input-source'?: string;
  'input-destination'?: string;
  'tool-name'?: string;
  'event-type'?: string;
  'summary-type'?: string;
  'summary-window'?: number | string;
  'dns-match-rule'?: 'v4v6' | 'only-v4' | 'only-v6' | 'prefer-v4' | 'prefer-v6' | (string & {}); // the known rules, or any string
  'subject-type'?: string;
  'metadata-key'?: string;
  limit?: number;
  offset?: number;
  /** Other exact-match metadata fields, e.g. `{ 'ip-transport-protocol': 'tcp' }`. */
  fields?: Record<string, string | number>;
}

/** Connection settings for one archive. The token is sent on writes, and on reads only when `tokenOnReads`. */
export interface ArchiveOptions {
  /** Base URL of the archive as the user gave it; normalised by `normaliseArchiveUrl`. */
  url: string;
  token?: string;
  tokenOnReads?: boolean;
  /** Milliseconds to connect and to wait for headers/body (default 20000, as esmond's client). */
  timeoutMs?: number;
  /** Extra fetch dispatcher options are deliberately not exposed; tests use real servers. */
  userAgent?: string;
  /** Largest single response, bytes (default 32 MB; setting `psconfig.archive.maxResponseMb`). */
  maxResponseBytes?: number;
  /** Whole-exchange deadline of one request, ms (default 3 × timeoutMs): a slow drip still ends. */
  deadlineMs?: number;
  /** Budget of one paged read (a search with every page, a series range): bytes of all pages together. */
  maxReadBytes?: number;
  /** Budget of one paged read: metadata objects or points of all pages together. */
  maxReadItems?: number;
}
