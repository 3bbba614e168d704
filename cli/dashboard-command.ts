// psconfig-tools dashboard TEMPLATE [--task T]... [--archive URL] [--metric M] [--window W] [--format table|json]
// The template's configured pairs against the archive's latest results, as the editor's dashboard shows them:
// for cron and monitoring. Exit 0: every configured pair has a value inside its thresholds (or a warning);
// 1: some configured pair is red (critical or its latest run failed), has no data, or its archive failed;
// 2: the template cannot be read or expanded, or bad usage.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { closeArchiveConnections } from '../archive-client/http';
import { readDuration } from '../archive-client/url';
import { dashboardPairsOf } from '../server/src/template/expand/dashboard-pairs';
import { expandText } from '../server/src/template/expand/from-text';
import { commandLineScope, policyFor } from '../server/src/template/includes/scope';
import { summarise, type DashboardReport, reportOf } from '../dashboard/report';
import { effectiveThresholds, METRIC_IDS, type MetricId } from '../dashboard/metrics';
import { DashboardSession, DEFAULT_SESSION_OPTIONS, type WindowChoice } from '../dashboard/session';
import { renderTable } from './dashboard-table';
import { unexpandedExit } from './inputs';
import {
  allowRemoteOption,
  commandArgs,
  flag,
  formatOption,
  jqOption,
  listOption,
  onePositional,
  timeoutOption,
  type CommandOptions,
  type JqArgs,
} from './options';

const USAGE = `usage: psconfig-tools dashboard TEMPLATE [--task T]... [--archive URL] [--metric M] [--window W]
                                [--threshold METRIC.warning=N]... [--format table|json] [--max-reads N]
                                [--timeout SECONDS] [--max-response-mb N] [--token-on-reads] [--jq PATH]
                                [--allow-remote-includes]

  --task T          only this task (repeatable; default every task: one grid each)
  --archive URL     read every pair from this archive instead of the archives the tasks write to
  --metric M        throughput, loss, owdelay, rtt or paths (default per test type: throughput, loss, rtt, paths)
  --window W        auto (default: MaDDash's range per metric: throughput 1d, loss/delay/rtt 45min, paths 1h),
                    or a duration (45min, 1h, 12h, 1d, 3600)
  --threshold M.warning=N, M.critical=N   override a default (Gbps for throughput, % for loss, ms, paths)
  --format table    (default) the grid, each cell "forward/reverse", then every problem pair; json: everything
  --max-reads N     series requests per run (default ${DEFAULT_SESSION_OPTIONS.maxReads})
  --max-response-mb N  largest single archive response (default 32)
  --token-on-reads  send PSCONFIG_ARCHIVE_TOKEN on reads (only to the --archive URL)
Exit 0: all configured pairs ok or warning; 1: some pair is red, failed, has no data or its archive failed; 2: usage,
or the template cannot be read or expanded.
`;

interface Args extends JqArgs {
  file?: string;
  tasks: string[];
  archive?: string;
  metric?: MetricId;
  window: WindowChoice;
  thresholds: Record<string, Record<string, number>>;
  format: 'table' | 'json';
  maxReads: number;
  timeoutMs?: number;
  maxResponseBytes?: number;
  tokenOnReads: boolean;
}

const OPTIONS: CommandOptions<Args> = {
  options: {
    '--task': listOption((a) => a.tasks, '--task needs a task name'),
    '--archive': {
      value: (a, v) => {
        if (!v) return '--archive needs a URL';
        a.archive = v;
      },
    },
    '--metric': {
      value: (a, v) => {
        if (!METRIC_IDS.includes(v as MetricId)) return `--metric must be one of ${METRIC_IDS.join(', ')}`;
        a.metric = v as MetricId;
      },
    },
    '--window': {
      value: (a, v) => {
        if (v === 'auto') a.window = 'auto';
        else {
          const r = readDuration(v ?? '');
          if ('error' in r) return `--window must be auto or a duration such as 1h, 1d or 3600: ${r.error}`;
          if (r.seconds <= 0) return `--window must be a positive duration (got ${v ?? 'nothing'})`;
          a.window = r.seconds;
        }
      },
    },
    '--threshold': {
      value: (a, given) => {
        const v = given ?? '';
        const m = /^([a-z]+)\.(warning|critical)=(-?[\d.]+(?:e-?\d+)?)$/i.exec(v);
        if (!m || !METRIC_IDS.includes(m[1] as MetricId) || !Number.isFinite(Number(m[3])))
          return `--threshold must be METRIC.warning=N or METRIC.critical=N with METRIC one of ${METRIC_IDS.join(', ')} (got ${v})`;
        (a.thresholds[m[1]] ??= {})[m[2]] = Number(m[3]);
      },
    },
    '--format': formatOption(['table', 'json'], (a, f) => (a.format = f)),
    '--max-reads': {
      value: (a, v) => {
        if (!v || !/^\d+$/.test(v)) return '--max-reads needs a whole number';
        a.maxReads = Number(v);
      },
    },
    '--timeout': timeoutOption((a, ms) => (a.timeoutMs = ms)),
    '--max-response-mb': {
      value: (a, v) => {
        if (!v || !(Number(v) > 0)) return '--max-response-mb needs a number of megabytes';
        a.maxResponseBytes = Number(v) * 1024 * 1024;
      },
    },
    '--token-on-reads': flag((a) => (a.tokenOnReads = true)),
    '--jq': jqOption(),
    '--allow-remote-includes': allowRemoteOption(),
  },
  positional: onePositional((first, second) => `only one TEMPLATE (got ${first} and ${second})`),
  done: (a) => (a.file ? undefined : 'missing TEMPLATE'),
};

export async function runDashboardCommand(argv: string[]): Promise<number> {
  const initial: Args = {
    tasks: [],
    window: 'auto',
    thresholds: {},
    format: 'table',
    maxReads: DEFAULT_SESSION_OPTIONS.maxReads,
    tokenOnReads: false,
    allowRemote: false,
  };
  const args = commandArgs('dashboard', USAGE, argv, initial, OPTIONS);
  if (typeof args === 'number') return args;
  const file = resolve(args.file as string);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    process.stderr.write(`psconfig-tools dashboard: cannot read ${args.file}: ${(e as Error).message}\n`);
    return 2;
  }
  const expansion = await expandText({
    uri: pathToFileURL(file).toString(),
    version: null,
    text,
    includes: await policyFor(commandLineScope(file, args.allowRemote)),
    jqPath: args.jq,
  });
  const failed = unexpandedExit(args.file as string, expansion);
  if (failed !== undefined) return failed;
  const unknown = args.tasks.filter((t) => !expansion.tasks.some((s) => s.task === t));
  if (unknown.length) {
    process.stderr.write(
      `psconfig-tools dashboard: no task ${unknown.join(', ')} in ${args.file} (tasks: ${expansion.tasks.map((t) => t.task).join(', ')})\n`,
    );
    return 2;
  }
  const pairs = dashboardPairsOf(expansion, JSON.parse(text) as unknown, args.tasks);
  const token = process.env.PSCONFIG_ARCHIVE_TOKEN;
  const session: DashboardSession = new DashboardSession(pairs.tasks, {
    ...DEFAULT_SESSION_OPTIONS,
    metric: args.metric ? () => args.metric : undefined,
    window: args.window,
    thresholds: effectiveThresholds(args.thresholds),
    archive: args.archive,
    maxReads: args.maxReads,
    // The one token of the environment belongs to the one archive named on the command line: never sent to the
    // archives the tasks name (one per agent, say), whose hosts could read it.
    archiveOptions: (url) =>
      Promise.resolve({
        token: args.archive && url === session.options.archive ? token : undefined,
        tokenOnReads: args.tokenOnReads && !!token && !!args.archive && url === session.options.archive,
        timeoutMs: args.timeoutMs,
        maxResponseBytes: args.maxResponseBytes,
      }),
  });
  let report: DashboardReport;
  try {
    const stats = await session.refresh();
    report = reportOf(session, stats, args.file as string);
  } catch (e) {
    process.stderr.write(`psconfig-tools dashboard: ${(e as Error).message}\n`);
    return 2;
  } finally {
    await closeArchiveConnections();
  }
  process.stdout.write(args.format === 'json' ? `${JSON.stringify(report, null, 2)}\n` : renderTable(report));
  return summarise(report).problems > 0 ? 1 : 0;
}
