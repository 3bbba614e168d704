// `psconfig-tools archive search|get`: the archive client on the command line. Exit 0 on success, 1 when the
// archive fails (the message says what happened), 2 on a usage error.
import { ArchiveError, redact } from '../archive-client/errors';
import { closeArchiveConnections } from '../archive-client/http';
import { searchMetadata } from '../archive-client/search';
import { fetchSeries } from '../archive-client/series';
import { parseSeriesUri } from '../archive-client/summaries';
import type { ArchiveOptions, Metadata, SearchFilters } from '../archive-client/types';
import { parseTimestamp, readDuration, SEARCH_FIELDS } from '../archive-client/url';
import { normalisePoints } from '../archive-client/values';
import { toCsv } from '../archive-client/export-csv';
import { bulk, explainWriteError, post, register, writeToken, WriteUsageError } from './archive-write';
import { flag, scanOptions, wantsHelp, type CommandOptions, type OptionSpec, type ValueOption } from './options';

const USAGE = `usage:
  psconfig-tools archive search URL [--source A] [--destination B] [--measurement-agent M] [--tool-name T]
      [--input-source S] [--input-destination D] [--event-type E] [--summary-type T] [--summary-window W]
      [--dns-match-rule R] [--filter key=value]... [--time T] [--time-start T] [--time-end T] [--time-range S]
      [--limit N (page size)] [--offset N] [--format json|table]
  psconfig-tools archive get SERIES_URL [--time T] [--time-start T] [--time-end T] [--time-range S]
      [--page-size N] [--format json|csv]
  psconfig-tools archive register URL METADATA.json        register metadata (POST); prints it with its key and URIs
  psconfig-tools archive post BASE_URI (--ts T --val JSON | POINTS.json)
                                                           post points to a series (POST <base_uri>, one per point)
  psconfig-tools archive bulk METADATA_URI DATA.json       store many points and event types at once (PUT <metadata_uri>)
      writes: [--token-file PATH] (else PSCONFIG_ARCHIVE_TOKEN; never on the command line) [--archive URL]
      (JSON files may be - for standard input)
common: [--timeout SECONDS] [--max-response-mb N (default 32)] [--token-on-reads]
      (token from PSCONFIG_ARCHIVE_TOKEN; sent on reads only with --token-on-reads, and only to the archive's origin)
times: UNIX seconds or ISO 8601; ranges: seconds, 30s, 10min, 2h, 7d, 1w or ISO 8601 (PT10M, P7D); "m" is refused
      (minutes or months?), and so are months and years
`;

class UsageError extends Error {}

interface Parsed {
  positional: string[];
  options: Map<string, string[]>;
  flags: Set<string>;
}

const WRITES = new Set(['register', 'post', 'bulk']);

/** A value option of archive: each value kept under its name without dashes (a subcommand reads those it knows). */
const valueOption = (key: string): ValueOption<Parsed> => ({
  value: (p, v, name) => {
    if (v === undefined) return `${name} needs a value`;
    p.options.set(key, [...(p.options.get(key) ?? []), v]);
  },
});

const TIME_OPTIONS = ['time', 'time-start', 'time-end', 'time-range'];
const KNOWN_SEARCH = SEARCH_FIELDS;
const ALIASES: Record<string, string> = {
  agent: 'measurement-agent',
  tool: 'tool-name',
  dest: 'destination',
  src: 'source',
};
// `--token` is known only to be refused with its reason (archive-write.ts: a token on the command line shows in the
// process list).
const WRITE_OPTIONS = ['token-file', 'token'];
/** The value options each subcommand reads, besides --timeout and --max-response-mb; any other is unknown. */
const SUBCOMMAND_OPTIONS: Record<string, readonly string[]> = {
  search: [...TIME_OPTIONS, 'limit', 'offset', 'format', 'filter', ...KNOWN_SEARCH, ...Object.keys(ALIASES)],
  get: [...TIME_OPTIONS, 'page-size', 'format'],
  register: WRITE_OPTIONS,
  post: [...WRITE_OPTIONS, 'archive', 'ts', 'val'],
  bulk: [...WRITE_OPTIONS, 'archive'],
};

/** The options of `archive SUB` (the scanner refuses any other, as every command does). */
function archiveOptionsOf(sub: string): CommandOptions<Parsed> {
  const options: Record<string, OptionSpec<Parsed>> = {
    '--token-on-reads': flag((p) => p.flags.add('token-on-reads')),
  };
  for (const key of ['timeout', 'max-response-mb', ...(SUBCOMMAND_OPTIONS[sub] ?? [])])
    options[`--${key}`] = valueOption(key);
  return {
    options,
    positional: (p, arg) => {
      p.positional.push(arg);
    },
  };
}

function parseArgs(sub: string, args: string[]): Parsed {
  const parsed = scanOptions(
    args,
    { positional: [], options: new Map(), flags: new Set<string>() },
    archiveOptionsOf(sub),
  );
  if (typeof parsed === 'string') throw new UsageError(parsed);
  return parsed;
}

function one(p: Parsed, name: string): string | undefined {
  const v = p.options.get(name);
  return v ? v[v.length - 1] : undefined;
}

function intOption(
  p: Parsed,
  name: string,
  parse: (s: string) => number | undefined = (s) => (/^\d+$/.test(s) ? Number(s) : undefined),
): number | undefined {
  const v = one(p, name);
  if (v === undefined) return undefined;
  const n = parse(v);
  if (n === undefined) throw new UsageError(`--${name}: cannot read "${v}"`);
  return n;
}

/** A duration option, refused with readDuration's reason (`10m`: minutes or months?). */
function durationOption(p: Parsed, name: string): number | undefined {
  const v = one(p, name);
  if (v === undefined) return undefined;
  const r = readDuration(v);
  if ('error' in r) throw new UsageError(`--${name}: ${r.error}`);
  return r.seconds;
}

function timeOptions(p: Parsed): SearchFilters {
  return {
    time: intOption(p, 'time', parseTimestamp),
    'time-start': intOption(p, 'time-start', parseTimestamp),
    'time-end': intOption(p, 'time-end', parseTimestamp),
    'time-range': durationOption(p, 'time-range'),
  };
}

function archiveOptions(p: Parsed, url: string): ArchiveOptions {
  const timeout = intOption(p, 'timeout', (s) => (Number(s) > 0 ? Number(s) : undefined));
  const maxMb = intOption(p, 'max-response-mb', (s) => (Number(s) > 0 ? Number(s) : undefined));
  return {
    url,
    token: process.env.PSCONFIG_ARCHIVE_TOKEN || undefined,
    tokenOnReads: p.flags.has('token-on-reads'),
    timeoutMs: timeout ? timeout * 1000 : undefined,
    maxResponseBytes: maxMb ? maxMb * 1024 * 1024 : undefined,
  };
}

function searchFilters(p: Parsed): SearchFilters {
  const f: SearchFilters = { ...timeOptions(p), limit: intOption(p, 'limit'), offset: intOption(p, 'offset') };
  for (const [alias, name] of Object.entries(ALIASES))
    if (p.options.has(alias)) p.options.set(name, p.options.get(alias) ?? []);
  for (const k of KNOWN_SEARCH) {
    const v = one(p, k);
    if (v !== undefined) f[k] = v;
  }
  const fields: Record<string, string> = {};
  for (const kv of p.options.get('filter') ?? []) {
    const m = /^([^=:]+)[=:](.*)$/.exec(kv);
    if (!m) throw new UsageError(`--filter expects key=value, got "${kv}"`);
    fields[m[1]] = m[2];
  }
  if (Object.keys(fields).length) f.fields = fields;
  return f;
}

function lastUpdate(m: Metadata): string {
  const ts = (m['event-types'] ?? []).map((e) => Number(e['time-updated'] ?? 0)).filter((x) => x > 0);
  return ts.length ? new Date(Math.max(...ts) * 1000).toISOString().replace('.000Z', 'Z') : '-';
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function table(rows: Metadata[]): string {
  const head = ['SOURCE → DESTINATION', 'NAMES', 'TOOL', 'EVENT TYPES', 'LAST UPDATE', 'METADATA KEY'];
  const body = rows.map((m) => [
    `${m.source ?? '?'} → ${m.destination ?? '-'}`,
    `${m['input-source'] ?? '?'} → ${m['input-destination'] ?? '-'}`,
    String(m['tool-name'] ?? ''),
    clip(
      (m['event-types'] ?? [])
        .map((e) => e['event-type'])
        .sort()
        .join(','),
      48,
    ),
    lastUpdate(m),
    String(m['metadata-key'] ?? ''),
  ]);
  // (A loop, not Math.max(...body): a search of 200,000 objects exceeds the argument limit.)
  const widths = head.map((h, i) => body.reduce((w, r) => Math.max(w, r[i].length), h.length));
  const fmt = (r: string[]): string => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]))).join('  ');
  return `${[fmt(head), ...body.map(fmt)].join('\n')}\n${rows.length} metadata\n`;
}

async function search(p: Parsed): Promise<number> {
  const url = p.positional[0];
  if (!url) throw new UsageError('archive search needs the archive URL');
  const format = one(p, 'format') ?? 'json';
  if (format !== 'json' && format !== 'table') throw new UsageError(`--format must be json or table, got ${format}`);
  const filters = searchFilters(p);
  const res = await searchMetadata(archiveOptions(p, url), filters, { all: true, pageSize: filters.limit });
  if (res.warning) process.stderr.write(`warning: ${res.warning}\n`);
  process.stdout.write(format === 'table' ? table(res.metadata) : `${JSON.stringify(res.metadata, null, 2)}\n`);
  return 0;
}

async function get(p: Parsed): Promise<number> {
  const url = p.positional[0];
  if (!url) throw new UsageError('archive get needs the series URL (a base-uri or summary uri, absolute)');
  if (!/^https?:\/\//i.test(url))
    throw new UsageError(`the series URL must be absolute (http://host/…/<event-type>/base), got ${url}`);
  const format = one(p, 'format') ?? 'json';
  if (format !== 'json' && format !== 'csv') throw new UsageError(`--format must be json or csv, got ${format}`);
  const res = await fetchSeries(archiveOptions(p, url), url, {
    ...timeOptions(p),
    pageSize: intOption(p, 'page-size'),
  });
  if (res.warning) process.stderr.write(`warning: ${res.warning}\n`);
  if (format === 'json') {
    process.stdout.write(`${JSON.stringify(res.points)}\n`);
    return 0;
  }
  const shape = parseSeriesUri(url);
  if (!shape)
    process.stderr.write('warning: cannot tell the event type from the URL; values written as numbers or JSON\n');
  process.stdout.write(toCsv(normalisePoints(shape?.eventType ?? 'unknown', shape?.summaryType ?? 'base', res.points)));
  return 0;
}

export async function runArchiveCommand(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  let secret: string | undefined;
  // Help wins wherever it stands, as in every command (options.ts wantsHelp); no subcommand at all is a usage error.
  if (sub === undefined || sub === 'help' || wantsHelp(args)) {
    process.stdout.write(USAGE);
    return sub === undefined ? 2 : 0;
  }
  try {
    if (!Object.hasOwn(SUBCOMMAND_OPTIONS, sub)) throw new UsageError(`unknown archive command: ${sub}`);
    const p = parseArgs(sub, rest);
    if (sub === 'search') return await search(p);
    if (sub === 'get') return await get(p);
    if (WRITES.has(sub)) {
      const token = await writeToken(p);
      secret = token; // redacted from any message below
      if (sub === 'register') {
        const url = p.positional[0];
        if (!url) throw new UsageError('archive register needs the archive URL and a metadata JSON file');
        return await register(p, { ...archiveOptions(p, url), token });
      }
      const { url: _u, ...options } = archiveOptions(p, p.positional[0] ?? '');
      return await (sub === 'post' ? post : bulk)(p, { ...options, token });
    }
    throw new UsageError(`unknown archive command: ${sub}`); // (not reached: SUBCOMMAND_OPTIONS names them all)
  } catch (err) {
    if (err instanceof UsageError || err instanceof WriteUsageError) {
      process.stderr.write(`psconfig-tools archive: ${err.message}\n\n${USAGE}`);
      return 2;
    }
    const token = secret ?? process.env.PSCONFIG_ARCHIVE_TOKEN;
    const msg =
      err instanceof ArchiveError
        ? WRITES.has(sub ?? '')
          ? explainWriteError(err)
          : err.message
        : err instanceof Error
          ? err.message
          : String(err);
    process.stderr.write(`psconfig-tools archive: ${redact(msg, [token])}\n`);
    return 1;
  } finally {
    await closeArchiveConnections();
  }
}
