// Reading what one host's pScheduler runs, by GET only and within budgets:
//   GET BASE/tasks?expanded=true&detail=true&json={"reference":{"psconfig":{"created-by":{"user-agent":...}}}}
//     tasks.py `tasks()` (GET): `json` is matched with `task.json_detail @> json`, `expanded` gives the task JSON,
//     `detail` its `detail` block; ordered by `added`, no paging (so one answer, bounded by maxResponseBytes).
//   GET TASK/runs?start=T0&end=T1&limit=N      runs.py `tasks_uuid_runs()`: `lower(times) >= start`,
//     `upper(times) <= end`, `ORDER BY times`, `LIMIT`; the answer is a list of run URLs.
//   GET RUN                                      runs.py `tasks_uuid_runs_run()`: `run_json()` (database/run.sql):
//     `state` (run_state.sql's enum), `errors` (why a non-starter was not scheduled), `result-merged`, and
//     `archivings` (database/archiving.sql `archiving_json`: archiver, completed, archived, diags).
// Every URL requested is on the base URL's origin: hrefs pScheduler answers with are re-rooted there.
import type { HostRead, ObservedArchiving, ObservedRun, ObservedTask } from '../common/protocol';
import { PSchedulerError } from './errors';
import { getJson, type GetOptions, type TlsOptions } from './http';
import { isObject } from '../common/json';

export const PSCONFIG_USER_AGENT = 'psconfig-pscheduler-agent';

export interface ReadLimits {
  /** Per request: connect, headers, body-stall timeout (ms). Default 10 s. */
  timeoutMs?: number;
  /** Per request: whole exchange (ms). Default 30 s. */
  deadlineMs?: number;
  /** Per answer (bytes). Default 16 MB. */
  maxResponseBytes?: number;
  /** Tasks read per host (the newest kept). Default 2,000. */
  maxTasks?: number;
  /** Runs read per task within the span. Default 300. */
  maxRunsPerTask?: number;
  /** Runs read per host, all tasks together. Default 5,000. */
  maxRunsPerHost?: number;
  /** Requests in flight per host. Default 4. */
  concurrency?: number;
}

export interface HostReadOptions extends TlsOptions, ReadLimits {
  host: string;
  /** The API base URL; default https://HOST/pscheduler. */
  url?: string;
  /** ISO 8601 duration of the span whose runs are read; default P1D. */
  since?: string;
  /** The time of the read (default now). */
  now?: Date;
  /** Skip the runs (tasks only). */
  noRuns?: boolean;
  /** Called with every answer read, as parsed (the live suite records them for replays: test/pscheduler/hosts-live.ts). */
  onAnswer?: (url: string, body: unknown) => void;
}

/** https://HOST/pscheduler, with an IPv6 address in brackets. */
export function defaultPSchedulerUrl(host: string): string {
  const h = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return `https://${h}/pscheduler`;
}

/** The base URL checked and without a trailing slash; throws a `bad-url` PSchedulerError. */
export function normaliseBaseUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new PSchedulerError(`not a URL: ${url}`, { kind: 'bad-url', url });
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:')
    throw new PSchedulerError(`not an http(s) URL: ${url}`, { kind: 'bad-url', url });
  if (u.username || u.password)
    throw new PSchedulerError(`${u.origin}: a pScheduler URL carries no credentials`, { kind: 'bad-url', url });
  u.search = '';
  u.hash = '';
  return u.toString().replace(/\/+$/, '');
}

/** Seconds of an ISO 8601 duration of days, hours, minutes, seconds (PnDTnHnMnS, PnW); undefined when not one. */
export function durationSeconds(iso: string): number | undefined {
  const m = /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(iso);
  if (!m || iso === 'P' || iso.endsWith('T')) return undefined;
  const [, w, d, h, min, s] = m;
  return (
    Number(w ?? 0) * 604800 + Number(d ?? 0) * 86400 + Number(h ?? 0) * 3600 + Number(min ?? 0) * 60 + Number(s ?? 0)
  );
}

/** `href`'s path and query on `base`'s origin (pScheduler may name itself differently from the URL we used). */
function onOrigin(base: string, href: string): string {
  const b = new URL(base);
  try {
    const h = new URL(href, base);
    return `${b.origin}${h.pathname}${h.search}`;
  } catch {
    return `${b.origin}${href}`;
  }
}

/** A small gate: at most `n` of the functions it runs are in flight at once. */
function gate(n: number): <T>(f: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async <T>(f: () => Promise<T>): Promise<T> => {
    if (active >= n) await new Promise<void>((r) => waiting.push(r));
    active++;
    try {
      return await f();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}

function archivingOf(v: unknown): ObservedArchiving {
  const a = isObject(v) ? v : {};
  const archiver = isObject(a.archiver) && typeof a.archiver.name === 'string' ? a.archiver.name : '(unknown archiver)';
  const diags: unknown[] = Array.isArray(a.diags) ? a.diags : [];
  const last = diags.length ? diags[diags.length - 1] : undefined;
  const out: ObservedArchiving = {
    archiver,
    // archiver.raw: success sets completed and archived; giving up (no retry, or a non-zero exit) sets completed only.
    outcome: a.completed === true ? (a.archived === true ? 'succeeded' : 'failed') : 'pending',
    attempts: diags.length,
  };
  if (isObject(last)) {
    const m = typeof last.stderr === 'string' && last.stderr ? last.stderr : undefined;
    if (m && out.outcome !== 'succeeded') out.message = m;
  }
  return out;
}

/** A failed run's reason: its `errors`, else the merged or local result's `error`. */
function reasonOf(r: Record<string, unknown>): string | undefined {
  if (typeof r.errors === 'string' && r.errors) return r.errors;
  for (const k of ['result-merged', 'result']) {
    const v = r[k];
    if (isObject(v) && typeof v.error === 'string' && v.error) return v.error;
  }
  const full = r['result-full'];
  if (Array.isArray(full))
    for (const p of full) if (isObject(p) && typeof p.error === 'string' && p.error) return p.error;
  return undefined;
}

export function runOf(href: string, v: unknown): ObservedRun {
  if (!isObject(v) || typeof v.state !== 'string')
    throw new PSchedulerError(`${href}: not a pScheduler run (no state)`, { kind: 'bad-shape', url: href });
  const run: ObservedRun = {
    href,
    state: v.state,
    archivings: Array.isArray(v.archivings) ? v.archivings.map(archivingOf) : [],
  };
  if (typeof v['start-time'] === 'string') run.start = v['start-time'];
  if (typeof v['end-time'] === 'string') run.end = v['end-time'];
  if (v.state === 'failed' || v.state === 'nonstart' || v.state === 'missed') {
    const reason = reasonOf(v);
    if (reason) run.reason = reason;
  }
  return run;
}

/** The tasks of a `GET /tasks?expanded=true` answer; throws `bad-shape` when it is not a list of task objects. */
export function tasksOf(url: string, v: unknown): { href: string; json: Record<string, unknown> }[] {
  if (!Array.isArray(v))
    throw new PSchedulerError(`${url}: the answer is not a list of tasks`, { kind: 'bad-shape', url });
  return v.map((t, i) => {
    if (!isObject(t) || typeof t.href !== 'string' || !isObject(t.test))
      throw new PSchedulerError(`${url}: item ${i} of the answer is not a pScheduler task`, { kind: 'bad-shape', url });
    return { href: t.href, json: t };
  });
}

function iso(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Reads one host. Never rejects: a failure of the whole host is `error` in the answer, of one task's runs `runsError`. */
export async function readHost(o: HostReadOptions): Promise<HostRead> {
  const since = o.since ?? 'P1D';
  const now = o.now ?? new Date();
  const read: HostRead = {
    host: o.host,
    url: o.url ?? defaultPSchedulerUrl(o.host),
    tasks: [],
    readAt: iso(now),
    since,
  };
  const get: GetOptions = {
    timeoutMs: o.timeoutMs ?? 10_000,
    deadlineMs: o.deadlineMs ?? 30_000,
    maxBytes: o.maxResponseBytes ?? 16 * 1024 * 1024,
    insecure: o.insecure,
    ca: o.ca,
  };
  const maxTasks = o.maxTasks ?? 2000;
  const maxRuns = o.maxRunsPerTask ?? 300;
  let runBudget = o.maxRunsPerHost ?? 5000;
  const run = gate(Math.max(1, o.concurrency ?? 4));
  const fetchJson = async (url: string): Promise<unknown> => {
    const v = await getJson(url, get);
    o.onAnswer?.(url, v);
    return v;
  };
  let base: string;
  let listed: { href: string; json: Record<string, unknown> }[];
  try {
    base = normaliseBaseUrl(read.url);
    read.url = base;
    const filter = JSON.stringify({ reference: { psconfig: { 'created-by': { 'user-agent': PSCONFIG_USER_AGENT } } } });
    const url = `${base}/tasks?expanded=true&detail=true&json=${encodeURIComponent(filter)}`;
    listed = tasksOf(url, await run(() => fetchJson(url)));
  } catch (e) {
    read.error = e instanceof Error ? e.message : String(e);
    read.errorKind = e instanceof PSchedulerError ? e.kind : 'network';
    return read;
  }
  if (listed.length > maxTasks) {
    read.tasksTruncated = true;
    listed = listed.slice(listed.length - maxTasks); // ordered by `added`: keep the newest
  }
  const seconds = durationSeconds(since) ?? 86400;
  const start = iso(new Date(now.getTime() - seconds * 1000));
  const end = iso(now);
  read.tasks = listed.map(({ href, json }) => {
    const taskUrl = onOrigin(base, href);
    const uuid =
      taskUrl
        .replace(/[?#].*$/, '')
        .split('/')
        .pop() ?? '';
    const t: ObservedTask = { href: taskUrl, uuid, json, runs: [] };
    return t;
  });
  if (o.noRuns) return read;
  await Promise.all(
    read.tasks.map(async (t) => {
      try {
        const url = `${t.href}/runs?start=${encodeURIComponent(start)}&end=${encodeURIComponent(end)}&limit=${maxRuns + 1}`;
        const list = await run(() => fetchJson(url));
        if (!Array.isArray(list) || list.some((x) => typeof x !== 'string'))
          throw new PSchedulerError(`${url}: the answer is not a list of run URLs`, { kind: 'bad-shape', url });
        let hrefs = list as string[];
        if (hrefs.length > maxRuns) {
          t.runsTruncated = true;
          hrefs = hrefs.slice(0, maxRuns);
        }
        if (hrefs.length > runBudget) {
          t.runsTruncated = true;
          hrefs = hrefs.slice(0, Math.max(0, runBudget));
        }
        runBudget -= hrefs.length;
        const runs = await Promise.all(
          hrefs.map(async (h) => {
            const runUrl = onOrigin(base, h);
            return runOf(runUrl, await run(() => fetchJson(runUrl)));
          }),
        );
        t.runs = runs;
      } catch (e) {
        t.runsError = e instanceof Error ? e.message : String(e);
      }
    }),
  );
  return read;
}

/** Reads several hosts, at most `hostConcurrency` at once (default 4); answers in the order given. */
export async function readHosts(hosts: HostReadOptions[], hostConcurrency = 4): Promise<HostRead[]> {
  const run = gate(Math.max(1, hostConcurrency));
  return Promise.all(hosts.map((h) => run(() => readHost(h))));
}
