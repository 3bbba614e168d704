// Every LSP handler runs through these wrappers: an exception becomes a logged error and an empty result,
// never a dead server; a cancelled request is answered with RequestCancelled as the protocol asks.
import { CancellationToken, LSPErrorCodes, ResponseError, type Connection } from 'vscode-languageserver/node';

export interface Logger {
  error(message: string): void;
  warn(message: string): void;
  info(message: string): void;
}

/** The client's log (window/logMessage): the server never writes to stdout, the protocol channel of --stdio. */
export function consoleLogger(connection: Connection): Logger {
  return {
    error: (m) => connection.console.error(m),
    warn: (m) => connection.console.warn(m),
    info: (m) => connection.console.info(m),
  };
}

function describe(err: unknown): string {
  return err instanceof Error ? (err.stack ?? err.message) : String(err);
}

function cancelled(): ResponseError<void> {
  return new ResponseError<void>(LSPErrorCodes.RequestCancelled, 'Request cancelled');
}

/**
 * Runs `work` on a later tick (so a queued cancellation or a newer edit can arrive first), checks the
 * token before and after, and turns an exception into `fallback` plus a log line naming the handler.
 */
export function runSafe<T>(
  log: Logger,
  what: string,
  fallback: T,
  token: CancellationToken | undefined,
  work: () => T | Promise<T>,
): Promise<T | ResponseError<void>> {
  return new Promise((resolve) => {
    setImmediate(() => {
      if (token?.isCancellationRequested) {
        resolve(cancelled());
        return;
      }
      Promise.resolve()
        .then(work)
        .then(
          (result) => resolve(token?.isCancellationRequested ? cancelled() : result),
          (err: unknown) => {
            if (err instanceof ResponseError) {
              // Deliberate answers (for example a refused rename) go back to the client as they are.
              resolve(err as ResponseError<void>);
              return;
            }
            log.error(`${what} failed: ${describe(err)}`);
            resolve(fallback);
          },
        );
    });
  });
}

/** For notifications and internal callbacks: run now, log instead of throwing. */
export function guarded(log: Logger, what: string, work: () => void | Promise<void>): void {
  try {
    const r = work();
    if (r && typeof r.catch === 'function') {
      r.catch((err: unknown) => log.error(`${what} failed: ${describe(err)}`));
    }
  } catch (err) {
    log.error(`${what} failed: ${describe(err)}`);
  }
}

/** `p`'s value, or undefined when it takes longer than `ms` or fails (a handler answers without it). */
export function withTimeout<T>(p: Promise<T>, ms: number): Promise<T | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), ms);
    p.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      () => {
        clearTimeout(timer);
        resolve(undefined);
      },
    );
  });
}
