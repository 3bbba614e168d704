// Entry point of the language server: `node dist/server.js --stdio` (or --node-ipc when started by the client).
// The only place that reads the process environment; the same bundle also runs as the background worker thread.
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { isBackgroundWorker, serveBackgroundJobs } from './lsp/worker';
import { consoleLogger, DEFAULT_SERVER_OPTIONS, startServer, type ServerOptions } from './lsp/main';

/** A positive number from the environment, else the default. */
function envNumber(name: string, fallback: number): number {
  return Number(process.env[name] ?? '') || fallback;
}

/** Set by the build (scripts/build.mjs) from package.json; absent in the transpiled tests. */
declare const PSCONFIG_VERSION: string | undefined;
const VERSION = typeof PSCONFIG_VERSION === 'string' ? PSCONFIG_VERSION : 'development';

const USAGE = `psconfig-language-server ${VERSION}: the pSConfig template language server (perfSONAR)

usage: psconfig-language-server --stdio      LSP over standard input and output (what editors start)
       psconfig-language-server --node-ipc   LSP over Node's IPC channel (VS Code)
       psconfig-language-server --socket=PORT | --pipe=NAME
       psconfig-language-server --version

jq for {% jq %} variables: the client's psconfig.jq.path setting, else JQ_PATH, else jq on PATH.
`;

/** One of the transports vscode-languageserver's createConnection reads from the command line. */
const hasTransport = (args: string[]): boolean =>
  args.some((a) => a === '--stdio' || a === '--node-ipc' || a.startsWith('--socket=') || a.startsWith('--pipe='));

const args = process.argv.slice(2);
if (isBackgroundWorker()) serveBackgroundJobs();
else if (args.includes('--version')) process.stdout.write(`${VERSION}\n`);
else if (args.includes('--help') || !hasTransport(args)) {
  // (Without a transport createConnection would throw "Connection input stream is not set".)
  process.stdout.write(USAGE);
  if (!args.includes('--help')) process.exitCode = 2;
} else {
  const connection = createConnection(ProposedFeatures.all);
  const log = consoleLogger(connection);
  // stdout is the protocol channel with --stdio: anything printed by a library must go to the log instead.
  console.log = (...a: unknown[]) => connection.console.log(a.map(String).join(' '));
  console.info = console.log;
  console.warn = (...a: unknown[]) => connection.console.warn(a.map(String).join(' '));
  console.error = (...a: unknown[]) => connection.console.error(a.map(String).join(' '));
  process.on('uncaughtException', (err) => log.error(`uncaught exception: ${err.stack ?? err.message}`));
  process.on('unhandledRejection', (reason) =>
    log.error(`unhandled rejection: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`),
  );
  const options: ServerOptions = {
    // Tests shorten the quiet period and lower the size thresholds (the incremental one follows the edited-text one
    // unless given; the editing bench raises it to compare); PSCONFIG_NO_WORKER keeps jobs in-process.
    diagnosticsDelayMs: envNumber('PSCONFIG_DIAGNOSTICS_DELAY_MS', DEFAULT_SERVER_OPTIONS.diagnosticsDelayMs),
    editedTextMinChars: envNumber('PSCONFIG_EDITED_TEXT_MIN_CHARS', DEFAULT_SERVER_OPTIONS.editedTextMinChars),
    incrementalMinChars: envNumber(
      'PSCONFIG_INCREMENTAL_MIN_CHARS',
      envNumber('PSCONFIG_EDITED_TEXT_MIN_CHARS', DEFAULT_SERVER_OPTIONS.incrementalMinChars),
    ),
    workerEntry: process.env.PSCONFIG_NO_WORKER ? undefined : require.main?.filename,
    defaultJqPath: process.env.JQ_PATH || undefined,
    // Tests and the fuzzer shorten the idle time after which the worker is retired once a document was closed.
    workerIdleRetireMs: envNumber('PSCONFIG_WORKER_IDLE_RETIRE_MS', DEFAULT_SERVER_OPTIONS.workerIdleRetireMs),
    // Tests make a schedule lens say "simulating…" at once, or wait for its figures whatever the machine's load.
    scheduleLensWaitMs: envNumber('PSCONFIG_SCHEDULE_LENS_WAIT_MS', DEFAULT_SERVER_OPTIONS.scheduleLensWaitMs),
    // Tests lower it, or raise it past the largest document to compare with one publication per pass.
    earlyDiagnosticsMinChars: envNumber(
      'PSCONFIG_EARLY_DIAGNOSTICS_MIN_CHARS',
      DEFAULT_SERVER_OPTIONS.earlyDiagnosticsMinChars,
    ),
  };
  const cleanup = startServer(connection, options);
  // However the process ends: `exit`, or the client closing the pipe without it (Emacs and Neovim quitting).
  process.on('exit', cleanup.atExit);
}
