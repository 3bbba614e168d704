// Metadata search (GET {base_url}) with every filter, and paging over all pages when asked. Paging copes with
// esmond's defaults (1500 real, 1000 documented), the first-element paging fields, short or empty pages, and a
// server that ignores `offset` (loop guard).
import { ArchiveError } from './errors';
import { requestJson } from './http';
import type { ArchiveOptions, Metadata, SearchFilters } from './types';
import { normaliseArchiveUrl, searchParams, withQuery } from './url';

export interface SearchOptions {
  /** Fetch every page (default false: one request with the caller's limit/offset). */
  all?: boolean;
  /** Page size when `all` (default: filters.limit, else 1000). */
  pageSize?: number;
  /** Stop after this many pages even if the archive says there are more (default 10000). */
  maxPages?: number;
}

export interface SearchResult {
  /** Metadata objects in the order the archive returned them, pages concatenated. */
  metadata: Metadata[];
  pages: number;
  /** `metadata-count-total` of the first page when the archive sent it. */
  total?: number;
  /** The URLs requested (token never in them). */
  requests: string[];
  /** Set when paging stopped early for a reason other than reaching the end. */
  warning?: string;
}

export function readToken(archive: ArchiveOptions): string | undefined {
  return archive.tokenOnReads ? archive.token : undefined;
}

function asMetadataList(json: unknown, url: string): Metadata[] {
  if (json === undefined) return [];
  if (!Array.isArray(json)) {
    const shape = json === null ? 'null' : typeof json;
    throw new ArchiveError(
      `${url} did not return a list of metadata (got ${shape === 'object' ? 'an object' : shape})`,
      { kind: 'not-json', url },
    );
  }
  return json.filter((m): m is Metadata => m !== null && typeof m === 'object' && !Array.isArray(m));
}

export async function searchMetadata(
  archive: ArchiveOptions,
  filters: SearchFilters = {},
  opts: SearchOptions = {},
): Promise<SearchResult> {
  const base = normaliseArchiveUrl(archive.url);
  const params = searchParams(filters);
  const http = { token: readToken(archive), timeoutMs: archive.timeoutMs, userAgent: archive.userAgent };
  if (!opts.all) {
    const url = withQuery(base, params);
    const res = await requestJson(url, http);
    const metadata = asMetadataList(res.json, url);
    const total = metadata[0]?.['metadata-count-total'];
    return { metadata, pages: 1, total: typeof total === 'number' ? total : undefined, requests: [url] };
  }
  const pageSize = opts.pageSize ?? filters.limit ?? 1000;
  const maxPages = opts.maxPages ?? 10000;
  const out: Metadata[] = [];
  const requests: string[] = [];
  const seenFirst = new Set<string>();
  let offset = filters.offset ?? 0;
  let total: number | undefined;
  let warning: string | undefined;
  for (let page = 0; ; page++) {
    if (page >= maxPages) {
      warning = `stopped after ${maxPages} pages`;
      break;
    }
    const url = withQuery(base, { ...params, limit: pageSize, offset });
    requests.push(url);
    const items = asMetadataList((await requestJson(url, http)).json, url);
    if (items.length === 0) break;
    const first = items[0];
    const firstKey = String(first['metadata-key'] ?? first.uri ?? JSON.stringify(first));
    if (seenFirst.has(firstKey)) {
      warning = `the archive returned the same page again at offset ${offset}; it may ignore offset`;
      break;
    }
    seenFirst.add(firstKey);
    out.push(...items);
    offset += items.length;
    const count = first['metadata-count-total'];
    if (page === 0 && typeof count === 'number') total = count;
    const next = first['metadata-next-page'];
    if (typeof count === 'number') {
      if (offset >= count) break;
    } else if (next === null) break;
    else if (next === undefined && items.length < pageSize) break;
  }
  return { metadata: out, pages: requests.length, total, requests, warning };
}

/** Fetch one metadata object by its `uri` (GET <metadata_uri>). */
export async function getMetadata(archive: ArchiveOptions, metadataUri: string): Promise<Metadata> {
  const url = new URL(metadataUri, normaliseArchiveUrl(archive.url)).toString();
  const res = await requestJson(url, {
    token: readToken(archive),
    timeoutMs: archive.timeoutMs,
    userAgent: archive.userAgent,
  });
  const json = Array.isArray(res.json) ? (res.json[0] as unknown) : res.json;
  if (!json || typeof json !== 'object')
    throw new ArchiveError(`${url} did not return a metadata object`, { kind: 'not-json', url });
  return json as Metadata;
}
