// Archive URLs: what users paste (`host`, `https://host`, `https://host/esmond/perfsonar/archive`, with or without
// a slash) becomes the list URL `…/esmond/perfsonar/archive/` (esmond requires the trailing slash, §1a).
import { ArchiveError } from './errors';
import type { SearchFilters, TimeFilters } from './types';

export const DEFAULT_ARCHIVE_PATH = '/esmond/perfsonar/archive/';

const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?$/i;

/** Normalise an archive base URL; throws ArchiveError('bad-url') when it cannot be one. */
export function normaliseArchiveUrl(input: string): string {
  let text = input.trim();
  if (text === '') throw new ArchiveError('archive URL is empty', { kind: 'bad-url' });
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    const host = text.split('/')[0];
    text = `${LOOPBACK.test(host) ? 'http' : 'https'}://${text}`;
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ArchiveError(`not a URL: ${input}`, { kind: 'bad-url' });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ArchiveError(`archive URL must be http or https, got ${url.protocol} in ${input}`, { kind: 'bad-url' });
  }
  url.hash = '';
  url.search = '';
  let path = url.pathname.replace(/\/+$/, '').replace(/\.json$/, '');
  if (path === '') path = DEFAULT_ARCHIVE_PATH;
  else if (/\/esmond$/.test(path)) path += '/perfsonar/archive/';
  else if (/\/perfsonar$/.test(path)) path += '/archive/';
  else path += '/';
  url.pathname = path;
  return url.toString();
}

/** Resolve a server-generated URI (`/esmond/perfsonar/archive/<key>/throughput/base`) against the archive. */
export function resolveArchiveUri(archiveUrl: string, uri: string): string {
  if (/^https?:\/\//i.test(uri)) return uri;
  return new URL(uri, archiveUrl).toString();
}

type Param = string | number | undefined | null;

/** Append query parameters to a URL, keeping those already present unless overridden. */
export function withQuery(url: string, params: Record<string, Param>): string {
  const u = new URL(url);
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null || v === '') continue;
    u.searchParams.set(k, String(v));
  }
  return u.toString();
}

const TIME_KEYS = ['time', 'time-start', 'time-end', 'time-range'] as const;

function checkInteger(name: string, v: unknown): void {
  if (v === undefined) return;
  if (typeof v !== 'number' || !Number.isFinite(v) || !Number.isInteger(v)) {
    throw new ArchiveError(`${name} must be an integer number of seconds, got ${String(v)}`, { kind: 'bad-input' });
  }
}

export function timeParams(t: TimeFilters): Record<string, number | undefined> {
  const out: Record<string, number | undefined> = {};
  for (const k of TIME_KEYS) {
    checkInteger(k, t[k]);
    out[k] = t[k];
  }
  return out;
}

/** Query parameters of a metadata search (every filter of the interface; free-form fields verbatim). */
export function searchParams(f: SearchFilters): Record<string, Param> {
  const out: Record<string, Param> = {};
  for (const [k, v] of Object.entries(f.fields ?? {})) out[k] = v;
  const named = [
    'source',
    'destination',
    'measurement-agent',
    'input-source',
    'input-destination',
    'tool-name',
    'event-type',
    'summary-type',
    'summary-window',
    'dns-match-rule',
    'subject-type',
    'metadata-key',
  ] as const;
  for (const k of named) if (f[k] !== undefined) out[k] = f[k];
  checkInteger('limit', f.limit);
  checkInteger('offset', f.offset);
  for (const [k, v] of Object.entries({ ...timeParams(f), limit: f.limit, offset: f.offset }))
    if (v !== undefined) out[k] = v;
  return out;
}

/** Parse a time given on the command line or in a form: UNIX seconds, or an ISO 8601 date/time. */
export function parseTimestamp(text: string): number | undefined {
  const t = text.trim();
  if (/^-?\d+(\.\d+)?$/.test(t)) return Math.floor(Number(t));
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
}

/** Parse a duration: seconds (`3600`) or with a unit as in the explorer presets (`1h`, `12h`, `1d`, `1w`, `1m`, `1y`). */
export function parseDuration(text: string): number | undefined {
  const m = /^(\d+)\s*(s|min|h|d|w|m|mo|y)?$/i.exec(text.trim());
  if (!m) return undefined;
  const n = Number(m[1]);
  const unit = (m[2] ?? 's').toLowerCase();
  const mult: Record<string, number> = {
    s: 1,
    min: 60,
    h: 3600,
    d: 86400,
    w: 604800,
    m: 2592000,
    mo: 2592000,
    y: 31536000,
  };
  return n * mult[unit];
}
