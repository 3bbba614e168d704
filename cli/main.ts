// psconfig-tools: the command line on the same modules as the language server.
import { runValidateCommand } from './validate-command';
import { runExpandCommand } from './expand-command';
import { runArchiveCommand } from './archive-command';
import { runDashboardCommand } from './dashboard-command';
import { runScheduleCommand } from './schedule-command';
import { runDiffCommand } from './diff-command';
import { runFixCommand } from './fix-command';
import { runTranslateCommand } from './translate-command';
import { runHostsCommand } from './hosts-command';
import { exitQuietlyOnClosedPipe } from './stdout';

const USAGE = `usage: psconfig-tools <command> [options]

commands:
  validate INPUT... [--format text|json|sarif] [--quiet] [--ignore CODE] [--error CODE]
                                               check templates (schema, references, variables, semantics);
                                               INPUT: a file, - (standard input) or an http(s) URL
  expand INPUT [--agent ADDRESS]... [--format json|pscheduler]
                                               the pScheduler tasks each agent would create
  diff OLD NEW [--agent ADDRESS]... [--format text|json|markdown] [--report-only]
                                               what a change does to each agent's tasks (OLD, NEW: file, URL
                                               or REV:PATH from git); exit 1 when it removes tasks or adds errors
  archive search URL [filters] [--format json|table]
  archive get SERIES_URL [--time-start T] [--time-end T] [--time-range S] [--format json|csv]
  archive register URL METADATA.json | post BASE_URI (--ts T --val V | POINTS.json) | bulk METADATA_URI DATA.json
                                               write (token: --token-file or PSCONFIG_ARCHIVE_TOKEN)
  translate MESHCONFIG [-o OUT] [--as-4x]     a MeshConfig file (perfSONAR 4.0) as a pSConfig template, as
                                               pSConfig 4.x's translator made it; lists what is not translated
  dashboard TEMPLATE [--task T] [--archive URL] [--format table|json]
                                               configured pairs against the archive's latest results;
                                               exit 1 when a pair is red or has no data
  fix TEMPLATE [--write] [--only CODE]... [--archive-host HOST]
                                               perfSONAR 5 fixes (esmond archives, _meta in data, draft
                                               placeholders, localhost archives): a unified diff, or --write
  schedule TEMPLATE [--days N] [--seed S] [--host ADDRESS]... [--format table|json] [--runs]
                                               pScheduler's scheduler simulated: load per host, runs that will not
                                               fit and why; exit 1 when a task loses runs or a host is over its time
  hosts TEMPLATE [--host ADDRESS]... [--since DURATION] [--format table|json|markdown] [--url HOST=URL]...
        [--insecure HOST]... [--ca HOST=FILE]...
                                               what each host's pScheduler really runs beside the template (GET
                                               only): present, missing, different, extra tasks, failed runs and
                                               archivings; exit 1 when a host lacks tasks or runs/archivings fail
`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'validate':
      return runValidateCommand(rest);
    case 'expand':
      return runExpandCommand(rest);
    case 'diff':
      return runDiffCommand(rest);
    case 'archive':
      return runArchiveCommand(rest);
    case 'dashboard':
      return runDashboardCommand(rest);
    case 'fix':
      return runFixCommand(rest);
    case 'translate':
      return runTranslateCommand(rest);
    case 'schedule':
      return runScheduleCommand(rest);
    case 'hosts':
      return runHostsCommand(rest);
    case '-h':
    case '--help':
    case 'help':
      process.stdout.write(USAGE);
      return 0;
    default:
      process.stderr.write(command ? `unknown command: ${command}\n\n${USAGE}` : USAGE);
      return 2;
  }
}

exitQuietlyOnClosedPipe();
main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`psconfig-tools: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 2;
  },
);
