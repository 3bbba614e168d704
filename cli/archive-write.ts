// `psconfig-tools archive register|post|bulk`: the archive client's write side (archive-client/write.ts) on the
// command line. The token comes from --token-file or PSCONFIG_ARCHIVE_TOKEN, never from the command line (where
// every user of the machine can read it in the process list).
import { readFile } from 'node:fs/promises';
import { ArchiveError } from '../archive-client/errors';
import type { ArchiveOptions } from '../archive-client/types';
import { parseTimestamp } from '../archive-client/url';
import {
  postPoint,
  putBulk,
  registerMetadata,
  type BulkItem,
  type MetadataRegistration,
} from '../archive-client/write';
import { isObject } from '../common/json';
import { noun } from '../common/text';

export interface WriteArgs {
  positional: string[];
  options: Map<string, string[]>;
  flags: Set<string>;
}

/** A mistake in the arguments (exit 2). */
export class WriteUsageError extends Error {}

const last = (a: WriteArgs, name: string): string | undefined => a.options.get(name)?.at(-1);

/** The write token: --token-file (first line, trimmed) or PSCONFIG_ARCHIVE_TOKEN. */
export async function writeToken(a: WriteArgs): Promise<string> {
  if (a.options.has('token'))
    throw new WriteUsageError(
      '--token is not accepted: a token on the command line shows in the process list. Use --token-file PATH or PSCONFIG_ARCHIVE_TOKEN',
    );
  const file = last(a, 'token-file');
  if (file !== undefined) {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (e) {
      throw new WriteUsageError(`--token-file: cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? ''}`);
    }
    const token = text.split(/\r?\n/)[0].trim();
    if (!token) throw new WriteUsageError(`--token-file: ${file} is empty`);
    return token;
  }
  const env = process.env.PSCONFIG_ARCHIVE_TOKEN?.trim();
  if (!env) throw new WriteUsageError('writing needs a token: --token-file PATH or PSCONFIG_ARCHIVE_TOKEN');
  return env;
}

/** JSON from a file, `-` (standard input) or, for --val, the argument itself. */
async function readJson(source: string, what: string): Promise<unknown> {
  let text: string;
  try {
    text = source === '-' ? await readStdin() : await readFile(source, 'utf8');
  } catch (e) {
    throw new WriteUsageError(`${what}: cannot read ${source}: ${(e as NodeJS.ErrnoException).code ?? ''}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new WriteUsageError(`${what}: ${source} is not JSON (${(e as Error).message})`);
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** `http://h/esmond/perfsonar/archive/KEY/…` → `http://h/esmond/perfsonar/archive/` (where the token belongs). */
function archiveBaseOf(uri: string): string {
  const m = /^(https?:\/\/[^?#]*?\/archive\/)/i.exec(uri);
  if (!m) throw new WriteUsageError(`${uri} is not an archive URI (…/archive/<metadata-key>/…); give --archive URL`);
  return m[1];
}

/** A clear message for the statuses a writer meets, with the archive's own `error`/`detail` (already in `e`). */
export function explainWriteError(e: ArchiveError): string {
  if (e.status === 401)
    return `the archive did not accept the credentials (${e.message}). Check --token-file / PSCONFIG_ARCHIVE_TOKEN`;
  if (e.status === 403) return `the token may not write here (${e.message})`;
  if (e.status === 400) return `the archive refused the request (${e.message})`;
  return e.message;
}

/** archive register URL METADATA.json: prints the registered metadata object (with its key and URIs). */
export async function register(a: WriteArgs, archive: ArchiveOptions): Promise<number> {
  const file = a.positional[1];
  if (!file) throw new WriteUsageError('archive register needs the archive URL and a metadata JSON file (or -)');
  const body = await readJson(file, 'metadata');
  if (!isObject(body) || typeof body['subject-type'] !== 'string' || !Array.isArray(body['event-types']))
    throw new WriteUsageError('metadata needs `subject-type` (a string) and `event-types` (a list)');
  const created = await registerMetadata(archive, body as MetadataRegistration);
  process.stdout.write(`${JSON.stringify(created, null, 2)}\n`);
  return 0;
}

/** The points to post: --ts T --val JSON, or a file of {ts, val} / [{ts, val}, …]. */
async function pointsOf(a: WriteArgs): Promise<{ ts: number; val: unknown }[]> {
  const ts = last(a, 'ts');
  const val = last(a, 'val');
  const file = a.positional[1];
  if (ts !== undefined || val !== undefined) {
    if (ts === undefined || val === undefined) throw new WriteUsageError('--ts and --val go together');
    const t = parseTimestamp(ts);
    if (t === undefined) throw new WriteUsageError(`--ts: "${ts}" is not a UNIX time or ISO 8601 time`);
    let v: unknown;
    try {
      v = JSON.parse(val) as unknown;
    } catch {
      v = val; // a bare word: a string value
    }
    return [{ ts: t, val: v }];
  }
  if (!file) throw new WriteUsageError('archive post needs --ts T --val VALUE, or a JSON file (or -) of points');
  const data = await readJson(file, 'points');
  const list = Array.isArray(data) ? data : [data];
  return list.map((p, i) => {
    if (!isObject(p) || typeof p.ts !== 'number' || p.val === undefined)
      throw new WriteUsageError(`point ${i + 1} of ${file} needs a numeric \`ts\` and a \`val\``);
    return { ts: p.ts, val: p.val };
  });
}

/** archive post BASE_URI (--ts T --val V | POINTS.json): one POST per point, in order. */
export async function post(a: WriteArgs, options: Omit<ArchiveOptions, 'url'>): Promise<number> {
  const uri = a.positional[0];
  if (!uri || !/^https?:\/\//i.test(uri))
    throw new WriteUsageError('archive post needs the absolute base URI of a series (…/<key>/<event-type>/base)');
  if (!/\/base\/?$/.test(new URL(uri).pathname))
    throw new WriteUsageError(
      `${uri}: data is posted to a series' base URI (…/<event-type>/base); summaries are computed by the archive`,
    );
  const archive = { ...options, url: last(a, 'archive') ?? archiveBaseOf(uri) };
  const points = await pointsOf(a);
  for (const p of points) await postPoint(archive, uri, p.ts, p.val);
  process.stderr.write(`posted ${points.length} ${noun(points.length, 'point')} to ${uri}\n`);
  return 0;
}

/** archive bulk METADATA_URI DATA.json: one PUT of {data: [{ts, val: [{event-type, val}]}]} (or the bare list). */
export async function bulk(a: WriteArgs, options: Omit<ArchiveOptions, 'url'>): Promise<number> {
  const [uri, file] = a.positional;
  if (!uri || !/^https?:\/\//i.test(uri) || !file)
    throw new WriteUsageError('archive bulk needs the absolute metadata URI and a JSON file (or -) of data');
  const body = await readJson(file, 'bulk data');
  const data = Array.isArray(body) ? body : isObject(body) ? body.data : undefined;
  if (!Array.isArray(data))
    throw new WriteUsageError(`${file} needs {"data": [{"ts": …, "val": [{"event-type": …, "val": …}]}]} or that list`);
  const archive = { ...options, url: last(a, 'archive') ?? archiveBaseOf(uri) };
  await putBulk(archive, uri, data as BulkItem[]);
  process.stderr.write(`stored ${data.length} ${noun(data.length, 'timestamp')} at ${uri}\n`);
  return 0;
}
