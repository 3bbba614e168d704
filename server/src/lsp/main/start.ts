// The language server on a connection: documents, settings, diagnostics, navigation, expansion. The entry point
// (server/src/server.ts) creates the connection and reads the environment; everything here comes from `options`.
// Documents of language `psconfig` and the `json` documents the client decides are templates are both handled:
// the client's document selector makes that choice.
// The state lives in one context (context.ts); each group of handlers registers itself on it.
import type { Connection } from 'vscode-languageserver/node';
import { registerCommandHandlers } from './command-handlers';
import { registerCompareHandlers } from './compare-handlers';
import { createContext } from './context';
import { registerDocumentHandlers } from './document-handlers';
import { registerExpansionHandlers } from './expansion-handlers';
import { registerHostsHandlers } from './hosts-handlers';
import { registerLensHandlers } from './lens-handlers';
import { registerLifecycleHandlers } from './lifecycle-handlers';
import { registerNavigationHandlers } from './navigation-handlers';
import { DEFAULT_SERVER_OPTIONS, type ServerOptions } from './options';

/** What the entry point must run however the process ends (a client may close the pipe without `shutdown`). */
export interface ServerCleanup {
  /** Synchronous: removes the files the lens commands wrote. */
  atExit: () => void;
}

/** Serves the language server on `connection` (which it starts listening). */
export function startServer(connection: Connection, options: ServerOptions = DEFAULT_SERVER_OPTIONS): ServerCleanup {
  const ctx = createContext(connection, options);
  registerLifecycleHandlers(ctx);
  registerDocumentHandlers(ctx);
  const requests = registerExpansionHandlers(ctx);
  const lensCommands = registerCommandHandlers(ctx, requests);
  registerCompareHandlers(ctx);
  registerHostsHandlers(ctx);
  registerNavigationHandlers(ctx);
  registerLensHandlers(ctx);

  connection.onShutdown(() => {
    lensCommands.dispose();
    ctx.publisher.dispose();
    ctx.runner.dispose();
    ctx.templateChanges.dispose();
    ctx.cache.clear();
  });
  ctx.documents.listen(connection);
  connection.listen();
  return { atExit: () => lensCommands.dispose() };
}
