// Archive URLs: what users paste (`host`, `https://host`, `https://host/esmond/perfsonar/archive`, with or without
// a slash) becomes the list URL `…/esmond/perfsonar/archive/` (esmond requires the trailing slash, §1a).
import { jsonText } from '../common/json';
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
    throw new ArchiveError(`${name} must be an integer number of seconds, got ${jsonText(v)}`, { kind: 'bad-input' });
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

/** The metadata search's named filters (esmond's REST interface), in the order they are sent. */
export const SEARCH_FIELDS = [
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

/** Query parameters of a metadata search (every filter of the interface; free-form fields verbatim). */
export function searchParams(f: SearchFilters): Record<string, Param> {
  const out: Record<string, Param> = {};
  for (const [k, v] of Object.entries(f.fields ?? {})) out[k] = v;
  for (const k of SEARCH_FIELDS) if (f[k] !== undefined) out[k] = f[k];
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

/** A duration in seconds (readDuration below), or undefined when it is refused. */
export function parseDuration(text: string): number | undefined {
  const r = readDuration(text);
  return 'seconds' in r ? r.seconds : undefined;
}

const UNIT_SECONDS: Record<string, number> = {
  s: 1,
  sec: 1,
  secs: 1,
  second: 1,
  seconds: 1,
  min: 60,
  mins: 60,
  minute: 60,
  minutes: 60,
  h: 3600,
  hr: 3600,
  hrs: 3600,
  hour: 3600,
  hours: 3600,
  d: 86400,
  day: 86400,
  days: 86400,
  w: 604800,
  wk: 604800,
  week: 604800,
  weeks: 604800,
};

/**
 * A duration as users type it, in seconds, or why it is refused: whole seconds (`3600`), a number with an
 * unambiguous unit (`30s`, `10min`, `2h`, `7d`, `1w`) or ISO 8601 (`PT10M`, `P7D`, `P1W`, `P1DT12H`). `m` (minutes
 * or months?) is refused, and so are months and years, which have no fixed length.
 */
export function readDuration(text: string): { seconds: number } | { error: string } {
  const t = text.trim();
  if (/^\d+$/.test(t)) return { seconds: Number(t) };
  const iso = /^P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/i.exec(
    t,
  );
  if (iso && t.length > 1 && !/T$/i.test(t)) {
    if (iso[1] || iso[2])
      return { error: `"${text}": months and years have no fixed length; give days (e.g. P30D or 30d)` };
    const [w, d, h, m, s] = [iso[3], iso[4], iso[5], iso[6], iso[7]].map((x) => Number(x ?? 0));
    return { seconds: Math.round(w * 604800 + d * 86400 + h * 3600 + m * 60 + s) };
  }
  const unit = /^(\d+(?:\.\d+)?)\s*([a-z]+)$/i.exec(t);
  if (unit) {
    const name = unit[2].toLowerCase();
    const n = Number(unit[1]);
    if (name in UNIT_SECONDS) return { seconds: Math.round(n * UNIT_SECONDS[name]) };
    if (name === 'm')
      return {
        error: `"${text}" is ambiguous (minutes or months?): write ${unit[1]}min for minutes, or days such as 30d`,
      };
    if (/^(mo|mon|mons|month|months|y|yr|yrs|year|years)$/.test(name))
      return { error: `"${text}": months and years have no fixed length; give days (e.g. 30d or 365d)` };
    return { error: `"${text}": unknown unit "${unit[2]}" (use s, min, h, d or w, or ISO 8601 such as PT10M)` };
  }
  return { error: `"${text}" is not a duration (seconds, 10min, 2h, 7d, 1w, or ISO 8601 such as PT10M or P7D)` };
}
