// The REST interface of the local archive (seed 001 + esmond's real behaviour, reference esmond.md §1a):
// GET/POST archive/, GET/PUT archive/{key}/, GET archive/{key}/{et}/, GET archive/{key}/{et}/{kind}/[{window}],
// POST archive/{key}/{et}/base. Two modes where the seed and deployed esmond differ: `seed` (the default) answers
// 200 to writes with no body, errors as `{error}`, metadata pages of 1000, a series without time filters in full,
// statistics with string `maximum`/`minimum`/`mode`; `esmond` answers 201 (body `""`), errors with `error` and
// DRF's `detail`, pages of 1500 for metadata and series, statistics as numbers.
import type { IncomingMessage } from 'node:http';
import { jsonText } from '../../../common/json';
import { SUMMARY_URL_TO_JSON, VALUE_CLASS } from './event-types';
import { searchRecords, type HostTable } from './search-filters';
import { ARCHIVE_PATH, ArchiveStore, type MetadataRecord, StoreError } from './store';
import { limitOffset, timeWindow } from './time-filters';
import { checkTs, checkValue } from './validate-value';

export type ArchiveMode = 'seed' | 'esmond';

export interface RouteContext {
  store: ArchiveStore;
  mode: ArchiveMode;
  hosts: () => HostTable;
  /** Tokens that may write; empty set: writes need any non-empty token. */
  tokens: Set<string>;
  now: () => number;
}

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** An error reply: the seed's `{error}`; esmond's DRF `detail` too in esmond mode. */
const errorBody = (mode: ArchiveMode, message: string): Record<string, string> =>
  mode === 'seed' ? { error: message } : { error: message, detail: message };

const err = (ctx: RouteContext, status: number, message: string): Reply => ({
  status,
  body: errorBody(ctx.mode, message),
});

/** A successful write: the seed's 200 with no body, or esmond's 201 with `""`. */
const written = (ctx: RouteContext): Reply => (ctx.mode === 'seed' ? { status: 200 } : { status: 201, body: '' });

function origin(req: IncomingMessage): string {
  return `http://${req.headers.host ?? '127.0.0.1'}`;
}

/** Authentication as DRF TokenAuthentication + IsAuthenticatedOrReadOnly (§1c). */
function authenticate(ctx: RouteContext, req: IncomingMessage): Reply | 'ok' | 'anonymous' {
  const h = req.headers.authorization;
  if (h === undefined) return 'anonymous';
  const m = /^token(?:\s+(.*))?$/i.exec(h.trim());
  if (!m) return 'anonymous';
  const key = (m[1] ?? '').trim();
  if (key === '')
    return {
      status: 401,
      body: errorBody(ctx.mode, 'Invalid token header. No credentials provided.'),
      headers: { 'www-authenticate': 'Token' },
    };
  if (/\s/.test(key))
    return {
      status: 401,
      body: errorBody(ctx.mode, 'Invalid token header. Token string should not contain spaces.'),
      headers: { 'www-authenticate': 'Token' },
    };
  if (ctx.tokens.size > 0 && !ctx.tokens.has(key))
    return {
      status: 401,
      body: errorBody(ctx.mode, 'Invalid token.'),
      headers: { 'www-authenticate': 'Token' },
    };
  return 'ok';
}

function listMetadata(ctx: RouteContext, req: IncomingMessage, url: URL): Reply {
  const all = searchRecords(ctx.store.records.values(), url.searchParams, ctx.hosts(), ctx.now());
  // The seed's default page is 1000 results; deployed esmond's 1500 (PSMetadataPaginator).
  const { limit, offset } = limitOffset(url.searchParams, ctx.mode === 'seed' ? 1000 : 1500);
  const page = all.slice(offset, offset + limit).map((r) => ctx.store.toJson(r, origin(req)));
  if (page.length > 0) {
    const link = (o: number): string => {
      const u = new URL(url.toString().replace(/^http:\/\/[^/]+/, origin(req)));
      u.searchParams.set('limit', String(limit));
      u.searchParams.set('offset', String(o));
      return u.toString();
    };
    page[0]['metadata-count-total'] = all.length;
    page[0]['metadata-previous-page'] = offset > 0 ? link(Math.max(0, offset - limit)) : null;
    page[0]['metadata-next-page'] = offset + limit < all.length ? link(offset + limit) : null;
  }
  return { status: 200, body: page };
}

function parseJsonBody(raw: string, forData: boolean, contentType: string | undefined): unknown {
  if (forData && !/^application\/json/i.test(contentType ?? ''))
    throw new StoreError(400, 'Must post content-type: application/json header and json-formatted payload.');
  if (!forData && contentType && !/^application\/json/i.test(contentType))
    throw new StoreError(415, `Unsupported media type "${contentType}" in request.`);
  if (raw.trim() === '') throw new StoreError(400, 'No data payload POSTed.');
  try {
    return JSON.parse(raw) as unknown;
  } catch (e) {
    throw new StoreError(
      400,
      forData
        ? `POST data payload could not be decoded to a JSON object - given: ${raw.slice(0, 80)}`
        : `JSON parse error - ${(e as Error).message}`,
    );
  }
}

function bulkPut(ctx: RouteContext, record: MetadataRecord, body: unknown): Reply {
  if (!body || typeof body !== 'object' || !('data' in body))
    return err(ctx, 400, "Request must contain 'data' element");
  const data = body.data;
  if (!Array.isArray(data)) return err(ctx, 400, "The 'data' element must be an array");
  const writes: [string, number, unknown][] = [];
  for (let i = 0; i < data.length; i++) {
    const item = data[i] as Record<string, unknown>;
    if (!item || item.ts === undefined)
      return err(ctx, 400, `Missing ts field in provided data list at position ${i + 1}`);
    if (item.val === undefined) return err(ctx, 400, `Missing val field in provided data list at position ${i + 1}`);
    if (!Array.isArray(item.val))
      return err(ctx, 400, `'val' field must be an array in provided data list at position ${i + 1}`);
    const ts = checkTs(item.ts);
    if (ts === undefined) return err(ctx, 400, 'Time must be a unix timestamp');
    for (let j = 0; j < item.val.length; j++) {
      const v = item.val[j] as Record<string, unknown>;
      if (!v || v['event-type'] === undefined)
        return err(ctx, 400, `Missing event-type field at data item ${i + 1} in value ${j + 1} `);
      if (v.val === undefined) return err(ctx, 400, `Missing val field at data item ${i + 1} in value ${j + 1} `);
      const et = jsonText(v['event-type']);
      if (!VALUE_CLASS.has(et)) return err(ctx, 400, `Invalid event type ${et}`);
      writes.push([et, ts, v.val]);
    }
  }
  // Atomic (a documented deviation from esmond): refuse duplicates of stored counter values before writing any.
  for (const [et, ts] of writes) {
    const row = record.events.get(et);
    if (
      row &&
      row.base.get(ts) !== undefined &&
      (row.cls === 'integer' || row.cls === 'float' || row.cls === 'percentage')
    ) {
      return err(ctx, 409, `Time series value already exists with event type ${et} at time ${ts}`);
    }
  }
  for (const [et, , v] of writes) {
    const checked = checkValue(VALUE_CLASS.get(et) ?? 'json', v);
    if (!checked.ok) return err(ctx, 400, checked.error); // before anything is stored
  }
  for (const [et, ts, v] of writes) ctx.store.write(record, et, ts, v, { sumDuplicates: true });
  return written(ctx);
}

function readSeries(
  ctx: RouteContext,
  record: MetadataRecord | undefined,
  et: string,
  kind: string,
  windowText: string | undefined,
  url: URL,
): Reply {
  if (!VALUE_CLASS.has(et)) return err(ctx, 400, `Unsupported event type '${et}' provided`);
  const summaryType = SUMMARY_URL_TO_JSON[kind];
  if (!summaryType) return err(ctx, 400, `Invalid summary type '${kind}'`);
  const window = windowText === undefined ? 0 : Number(windowText);
  if (!Number.isInteger(window)) return err(ctx, 400, 'Summary window parameter must be an integer');
  const t = timeWindow(url.searchParams, 'data', ctx.now());
  // The seed: "with none given, all data for that URI is returned"; esmond caps a page at 1500 (PSPaginator).
  const { limit, offset } = limitOffset(url.searchParams, ctx.mode === 'seed' ? Infinity : 1500);
  const row = record?.events.get(et);
  if (!row) return { status: 200, body: [] };
  let points: { ts: number; val: unknown }[];
  if (summaryType === 'base') {
    const [a, b] = row.base.range(t.start, t.end);
    const from = Math.min(b, a + offset);
    const to = Math.min(b, from + limit);
    points = new Array<{ ts: number; val: unknown }>(Math.max(0, to - from));
    for (let i = from; i < to; i++)
      points[i - from] = { ts: row.base.ts[i], val: ArchiveStore.output(row, row.base.vals[i]) };
    return { status: 200, body: points };
  }
  const s = row.summaries.find((x) => x.type === summaryType && x.window === window);
  if (!s) return { status: 200, body: [] };
  const summary = s.read(t.start, t.end).slice(offset, offset + limit);
  return {
    status: 200,
    body: summaryType === 'statistics' && ctx.mode === 'seed' ? summary.map(seedStatistics) : summary,
  };
}

/** The seed's statistics value: `maximum` and `minimum` as strings, `mode` an array of strings. */
function seedStatistics(p: { ts: number; val: unknown }): { ts: number; val: unknown } {
  const v = p.val as Record<string, unknown> | null;
  if (!v || typeof v !== 'object' || !('maximum' in v)) return p;
  return {
    ts: p.ts,
    val: {
      ...v,
      maximum: String(v.maximum),
      minimum: String(v.minimum),
      mode: Array.isArray(v.mode) ? v.mode.map(String) : v.mode,
    },
  };
}

/** Route one request under the archive path; `rest` is the path after `…/archive/`. */
export function route(ctx: RouteContext, req: IncomingMessage, url: URL, rest: string, rawBody: string): Reply {
  const method = req.method ?? 'GET';
  const auth = authenticate(ctx, req);
  if (typeof auth === 'object') return auth;
  const write = method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS';
  if (write && auth !== 'ok')
    return {
      status: 401,
      body: errorBody(ctx.mode, 'Authentication credentials were not provided.'),
      headers: { 'www-authenticate': 'Token' },
    };
  const parts = rest.split('/').filter((p) => p !== '');
  try {
    if (parts.length === 0) {
      if (method === 'GET') return listMetadata(ctx, req, url);
      if (method === 'POST') {
        const { record, created } = ctx.store.register(parseJsonBody(rawBody, false, req.headers['content-type']));
        const body = ctx.store.toJson(record, origin(req));
        void created; // 201 (esmond) / 200 (seed) for a new and for an existing (identical) registration alike
        return { status: ctx.mode === 'seed' ? 200 : 201, body, headers: { location: String(body.url) } };
      }
      return err(ctx, 405, `Method "${method}" not allowed.`);
    }
    const record =
      ctx.store.records.get(parts[0]) ??
      [...ctx.store.records.values()].find((r) => r.key.toLowerCase() === parts[0].toLowerCase());
    if (parts.length === 1) {
      if (method === 'GET')
        return record ? { status: 200, body: ctx.store.toJson(record, origin(req)) } : err(ctx, 404, 'Not found.');
      if (method === 'PUT') {
        const body = parseJsonBody(rawBody, true, req.headers['content-type']);
        return record ? bulkPut(ctx, record, body) : written(ctx);
      }
      return err(ctx, 405, `Method "${method}" not allowed.`);
    }
    const et = parts[1];
    if (parts.length === 2) {
      if (method !== 'GET') return err(ctx, 405, `Method "${method}" not allowed.`);
      const json = record ? ctx.store.toJson(record, origin(req)) : undefined;
      const ets = (json?.['event-types'] as { 'event-type': string }[] | undefined) ?? [];
      return { status: 200, body: ets.filter((e) => e['event-type'] === et) };
    }
    const kind = parts[2];
    if (method === 'POST') {
      if (kind !== 'base')
        return err(
          ctx,
          400,
          SUMMARY_URL_TO_JSON[kind]
            ? `Only base summary-type allowed for writing. Cannot use ${kind}`
            : `Invalid summary type ${kind}`,
        );
      if (!VALUE_CLASS.has(et)) return err(ctx, 400, `Invalid event type ${et}`);
      const body = parseJsonBody(rawBody, true, req.headers['content-type']) as Record<string, unknown>;
      if (!body || body.ts === undefined) return err(ctx, 400, 'Required field ts not provided in request');
      if (body.val === undefined) return err(ctx, 400, 'Required field val not provided in request');
      const ts = checkTs(body.ts);
      if (ts === undefined) return err(ctx, 400, 'Time must be a unix timestamp');
      if (record) ctx.store.write(record, et, ts, body.val);
      return written(ctx);
    }
    if (method !== 'GET') return err(ctx, 405, `Method "${method}" not allowed.`);
    if (parts.length === 3 && kind !== 'base') {
      const json = record ? ctx.store.toJson(record, origin(req)) : undefined;
      const e = (
        json?.['event-types'] as { 'event-type': string; summaries: { 'summary-type': string }[] }[] | undefined
      )?.find((x) => x['event-type'] === et);
      const list = e?.summaries.filter((s) => s['summary-type'] === SUMMARY_URL_TO_JSON[kind]) ?? [];
      return list.length ? { status: 200, body: list } : err(ctx, 404, 'Not found.');
    }
    return readSeries(ctx, record, et, kind, parts[3], url);
  } catch (e) {
    if (e instanceof StoreError) return err(ctx, e.status, e.message);
    throw e;
  }
}

export { ARCHIVE_PATH };
