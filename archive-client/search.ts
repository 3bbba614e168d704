// Metadata search (GET {base_url}) with every filter, and paging over all pages when asked. Paging copes with
// esmond's defaults (1500 real, 1000 documented), the first-element paging fields, short or empty pages, a
// server that ignores `offset` (repeated page), and one that never stops (budget of objects and bytes per read).
// Objects of the wrong shape are left out with a warning naming the URL and the field (shapes.ts).
import { ArchiveError } from './errors';
import { requestJson } from './http';
import { ReadBudget, readHttp } from './request-options';
import { checkedItems, metadataProblem } from './shapes';
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

/** Shape warnings kept per read: the first few, then a count. */
export class Warnings {
  private readonly list: string[] = [];
  private more = 0;
  add(w: string | undefined): void {
    if (w === undefined) return;
    if (this.list.length < 3) this.list.push(w);
    else this.more++;
  }
  text(): string | undefined {
    if (!this.list.length) return undefined;
    return this.more ? `${this.list.join('; ')}; and ${this.more} more` : this.list.join('; ');
  }
}

function asMetadataList(json: unknown, url: string, warnings: Warnings): Metadata[] {
  if (json === undefined) return [];
  if (!Array.isArray(json)) {
    const shape = json === null ? 'null' : typeof json;
    throw new ArchiveError(
      `${url} did not return a list of metadata (got ${shape === 'object' ? 'an object' : shape})`,
      { kind: 'not-json', url },
    );
  }
  const checked = checkedItems<Metadata>(json, metadataProblem, 'metadata object', url);
  warnings.add(checked.warning);
  return checked.items;
}

export async function searchMetadata(
  archive: ArchiveOptions,
  filters: SearchFilters = {},
  opts: SearchOptions = {},
): Promise<SearchResult> {
  const base = normaliseArchiveUrl(archive.url);
  const params = searchParams(filters);
  const http = readHttp(archive);
  const warnings = new Warnings();
  if (!opts.all) {
    const url = withQuery(base, params);
    const res = await requestJson(url, http);
    const metadata = asMetadataList(res.json, url, warnings);
    const total = metadata[0]?.['metadata-count-total'];
    return {
      metadata,
      pages: 1,
      total: typeof total === 'number' ? total : undefined,
      requests: [url],
      warning: warnings.text(),
    };
  }
  const pageSize = opts.pageSize ?? filters.limit ?? 1000;
  const maxPages = opts.maxPages ?? 10000;
  const budget = new ReadBudget(archive, 'metadata objects');
  const out: Metadata[] = [];
  const requests: string[] = [];
  const seenFirst = new Set<string>();
  let offset = filters.offset ?? 0;
  let total: number | undefined;
  for (let page = 0; ; page++) {
    if (page >= maxPages) {
      warnings.add(`stopped after ${maxPages} pages`);
      break;
    }
    const url = withQuery(base, { ...params, limit: pageSize, offset });
    requests.push(url);
    const res = await requestJson(url, http);
    const items = asMetadataList(res.json, url, warnings);
    budget.add(res.bytes, items.length, url);
    if (items.length === 0) break;
    const first = items[0];
    const firstKey = String(first['metadata-key'] ?? first.uri ?? JSON.stringify(first));
    if (seenFirst.has(firstKey)) {
      warnings.add(`the archive returned the same page again at offset ${offset}; it may ignore offset`);
      break;
    }
    seenFirst.add(firstKey);
    for (const m of items) out.push(m); // (not push(...items): a huge page exceeds the argument limit)
    offset += items.length;
    const count = first['metadata-count-total'];
    if (page === 0 && typeof count === 'number') total = count;
    const next = first['metadata-next-page'];
    if (typeof count === 'number') {
      if (offset >= count) break;
    } else if (next === null) break;
    else if (next === undefined && items.length < pageSize) break;
  }
  return { metadata: out, pages: requests.length, total, requests, warning: warnings.text() };
}

/**
 * Fetch one metadata object by its `uri` (GET <metadata_uri>). A URI on another origin is read without the
 * archive's token.
 */
export async function getMetadata(archive: ArchiveOptions, metadataUri: string): Promise<Metadata> {
  const url = new URL(metadataUri, normaliseArchiveUrl(archive.url)).toString();
  const res = await requestJson(url, readHttp(archive));
  const json = Array.isArray(res.json) ? (res.json[0] as unknown) : res.json;
  if (!json || typeof json !== 'object')
    throw new ArchiveError(`${url} did not return a metadata object`, { kind: 'not-json', url });
  const problem = metadataProblem(json);
  if (problem) throw new ArchiveError(`${url}: the metadata object ${problem}`, { kind: 'bad-shape', url });
  return json as Metadata;
}
