// psconfig-tools hosts TEMPLATE [--host ADDRESS]... [--since DURATION] [--format table|json|markdown] ...
// What each host really runs: the template's tasks for each agent beside what its pScheduler has
// (pscheduler-client/: GET only, bounded; server/src/template/hosts/: the comparison). Exit 0: every host read has
// every task, no run failed and no archiving failed; 1: a host could not be read, lacks a task, holds a different
// or expired one, or a run or archiving failed in the span; 2: usage, or the template cannot be read or expanded.
import { readFileSync, statSync } from 'node:fs';
import { expandText } from '../server/src/template/expand/from-text';
import { compareHosts, type HostsResult } from '../server/src/template/hosts';
import {
  closePSchedulerConnections,
  defaultPSchedulerUrl,
  durationSeconds,
  readHosts,
  type HostReadOptions,
} from '../pscheduler-client';
import { DEFAULT_INPUT_LIMITS, readTemplateArg, unexpandedExit, type InputLimits } from './inputs';
import { renderHosts } from './hosts-render';
import {
  commandArgs,
  expandingOptions,
  formatOption,
  listOption,
  onePositional,
  type CommandOptions,
  type JqArgs,
} from './options';

const USAGE = `usage: psconfig-tools hosts TEMPLATE [--host ADDRESS]... [--since DURATION] [--format table|json|markdown]
                            [--url HOST=URL]... [--insecure HOST]... [--ca HOST=FILE]... [--request-timeout SECONDS]
                            [--max-response-mb N] [--max-tasks N] [--max-runs N] [--concurrency N] [--jq PATH]
                            [--allow-remote-includes] [--timeout SECONDS]

  TEMPLATE            a template file, - for standard input, or an http(s) URL
  --host ADDRESS      read this host (repeatable; default: every agent of the template)
  --since DURATION    the span whose runs are read, ISO 8601 (default P1D)
  --format table      (default) per host its tasks' verdicts and runs; json: docs/cli.md; markdown: for an issue or PR
  --url HOST=URL      the host's pScheduler API (default https://HOST/pscheduler)
  --insecure HOST     accept the host's certificate unchecked (self-signed; * for every host)
  --ca HOST=FILE      verify the host's certificate with the CA(s) in FILE (PEM; * for every host)
  --request-timeout SECONDS  connect, answer and stall timeout of each request (default 10; each request ends within 3×)
  --max-response-mb N largest answer read (default 16)
  --max-tasks N       tasks read per host (default 2000);  --max-runs N: runs read per task (default 300)
  --concurrency N     requests in flight per host (default 4; hosts: 4 at once)
  --jq PATH, --allow-remote-includes, --timeout SECONDS: as for expand
Only GET requests are sent, with no credentials. Exit 0: every host has its tasks and no run or archiving failed;
1: a host could not be read, lacks a task, holds a different or expired one, or a run or archiving failed;
2: usage, or the template cannot be read or expanded.
`;

interface Args extends JqArgs {
  file?: string;
  hosts: string[];
  since: string;
  format: 'table' | 'json' | 'markdown';
  urls: Map<string, string>;
  insecure: string[];
  cas: Map<string, string>;
  timeoutMs: number;
  maxResponseMb: number;
  maxTasks: number;
  maxRuns: number;
  concurrency: number;
  limits: InputLimits;
}

function pair(v: string | undefined, what: string): [string, string] | string {
  const i = v?.indexOf('=') ?? -1;
  if (!v || i <= 0 || i === v.length - 1) return `${what} needs HOST=VALUE (got ${v ?? 'nothing'})`;
  return [v.slice(0, i), v.slice(i + 1)];
}

function whole(name: string, min: number, max: number, set: (a: Args, n: number) => void) {
  return {
    value: (a: Args, v: string | undefined) => {
      if (!v || !/^\d+$/.test(v) || Number(v) < min || Number(v) > max)
        return `${name} needs a whole number from ${min} to ${max} (got ${v ?? 'nothing'})`;
      set(a, Number(v));
    },
  };
}

const OPTIONS: CommandOptions<Args> = {
  options: {
    '--host': listOption((a) => a.hosts, '--host needs an address'),
    '--since': {
      value: (a, v) => {
        const s = v ? durationSeconds(v) : undefined;
        if (!v || s === undefined || s <= 0 || s > 31 * 86400)
          return `--since needs an ISO 8601 duration up to P31D, e.g. P1D or PT6H (got ${v ?? 'nothing'})`;
        a.since = v;
      },
    },
    '--format': formatOption(['table', 'json', 'markdown'], (a, f) => (a.format = f)),
    '--url': {
      value: (a, v) => {
        const p = pair(v, '--url');
        if (typeof p === 'string') return p;
        if (!/^https?:\/\//.test(p[1])) return `--url ${p[0]}: not an http(s) URL: ${p[1]}`;
        a.urls.set(p[0], p[1]);
      },
    },
    '--insecure': listOption((a) => a.insecure, '--insecure needs a host (or *)'),
    '--ca': {
      value: (a, v) => {
        const p = pair(v, '--ca');
        if (typeof p === 'string') return p;
        try {
          if (statSync(p[1]).size > 1024 * 1024) return `--ca ${p[0]}: ${p[1]} is larger than 1 MB`;
          a.cas.set(p[0], readFileSync(p[1], 'utf8'));
        } catch (e) {
          return `--ca ${p[0]}: cannot read ${p[1]}: ${(e as Error).message}`;
        }
      },
    },
    '--request-timeout': whole('--request-timeout', 1, 600, (a, n) => (a.timeoutMs = n * 1000)),
    '--max-response-mb': whole('--max-response-mb', 1, 1024, (a, n) => (a.maxResponseMb = n)),
    '--max-tasks': whole('--max-tasks', 1, 100_000, (a, n) => (a.maxTasks = n)),
    '--max-runs': whole('--max-runs', 0, 100_000, (a, n) => (a.maxRuns = n)),
    '--concurrency': whole('--concurrency', 1, 32, (a, n) => (a.concurrency = n)),
    ...expandingOptions(),
  },
  positional: onePositional((first, second) => `only one TEMPLATE (got ${first} and ${second})`),
  done: (a) => (a.file ? undefined : 'missing TEMPLATE'),
};

export async function runHostsCommand(argv: string[]): Promise<number> {
  const initial: Args = {
    hosts: [],
    since: 'P1D',
    format: 'table',
    urls: new Map(),
    insecure: [],
    cas: new Map(),
    timeoutMs: 10_000,
    maxResponseMb: 16,
    maxTasks: 2000,
    maxRuns: 300,
    concurrency: 4,
    allowRemote: false,
    limits: { ...DEFAULT_INPUT_LIMITS },
  };
  const args = commandArgs('hosts', USAGE, argv, initial, OPTIONS);
  if (typeof args === 'number') return args;
  const read = await readTemplateArg('hosts', args.file as string, args.limits, args.allowRemote);
  if (!read) return 2;
  const { input, uri, includes } = read;
  const expansion = await expandText({ uri, version: null, text: input.text, includes, jq: { path: args.jq } });
  const failed = unexpandedExit(args.file as string, expansion);
  if (failed !== undefined) return failed;
  const hosts = args.hosts.length ? args.hosts : expansion.agents;
  if (!hosts.length) {
    process.stderr.write(
      `${args.file}: the template has no agent (no task would be created), and no --host was given\n`,
    );
    return 1;
  }
  for (const h of [...args.urls.keys(), ...args.insecure, ...args.cas.keys()])
    if (h !== '*' && !hosts.includes(h))
      process.stderr.write(`note: ${h} is given a URL or TLS option but is not read (hosts: ${hosts.join(', ')})\n`);
  const options: HostReadOptions[] = hosts.map((host) => {
    const o: HostReadOptions = {
      host,
      url: args.urls.get(host) ?? defaultPSchedulerUrl(host),
      since: args.since,
      timeoutMs: args.timeoutMs,
      deadlineMs: args.timeoutMs * 3,
      maxResponseBytes: args.maxResponseMb * 1024 * 1024,
      maxTasks: args.maxTasks,
      maxRunsPerTask: args.maxRuns,
      concurrency: args.concurrency,
      insecure: args.insecure.includes(host) || args.insecure.includes('*'),
    };
    const ca = args.cas.get(host) ?? args.cas.get('*');
    if (ca !== undefined) o.ca = ca;
    return o;
  });
  let result: HostsResult;
  try {
    const reads = await readHosts(options);
    result = compareHosts({
      combinations: expansion.combinations,
      agents: expansion.agents,
      reads,
      template: args.file,
      since: args.since,
    });
  } finally {
    await closePSchedulerConnections();
  }
  process.stdout.write(
    args.format === 'json' ? `${JSON.stringify(result, null, 2)}\n` : renderHosts(result, args.format),
  );
  return result.problems ? 1 : 0;
}
