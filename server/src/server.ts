// Entry point of the language server: `node dist/server.js --stdio` (or --node-ipc when started by the client).
// The only place that reads the process environment; the same bundle also runs as the background worker thread.
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { isBackgroundWorker, serveBackgroundJobs } from './lsp/background-worker';
import { consoleLogger, DEFAULT_SERVER_OPTIONS, startServer, type ServerOptions } from './lsp/start';

/** A positive number from the environment, else the default. */
function envNumber(name: string, fallback: number): number {
  return Number(process.env[name] ?? '') || fallback;
}

if (isBackgroundWorker()) serveBackgroundJobs();
else {
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
  };
  startServer(connection, options);
}
