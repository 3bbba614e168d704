// The session: initialize (the client's capabilities and first settings, the server's capabilities), initialized
// (the settings asked for), settings and workspace folders changing, the server's memory.
import {
  TextDocumentSyncKind,
  CodeActionKind,
  type CancellationToken,
  type InitializeResult,
} from 'vscode-languageserver/node';
import { ServerCommands, ServerMemoryRequest, type ServerMemoryResult } from '../../../../common/protocol';
import { heapFigures } from '../jobs';
import { readClientCapabilities } from './client-capabilities';
import { documentEntries, recheck, type ServerContext } from './context';
import { guarded, runSafe } from './guard';

/** How long the first checks wait for the client's answer to workspace/configuration. */
const SETTINGS_WAIT_MS = 5000;

export function registerLifecycleHandlers(ctx: ServerContext): void {
  const { connection, log, settings, client } = ctx;

  connection.onInitialize((params): InitializeResult => {
    Object.assign(client, readClientCapabilities(params.capabilities));
    if (!client.configuration) settings.markKnown(); // initializationOptions (below) are all there is
    ctx.includes.setWorkspaceFolders(
      params.workspaceFolders?.map((f) => f.uri) ?? (params.rootUri ? [params.rootUri] : []),
    );
    if (params.initializationOptions && typeof params.initializationOptions === 'object') {
      // `{ settings }` (the VS Code client), `{ psconfig }` (Helix sends its `config` table here), or the section.
      const options = params.initializationOptions as Record<string, unknown>;
      settings.set(options.settings ?? options.psconfig ?? options);
    }
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
        completionProvider: { triggerCharacters: ['"', ':', '%', ' '], resolveProvider: true },
        hoverProvider: true,
        definitionProvider: true,
        referencesProvider: true,
        renameProvider: { prepareProvider: true },
        documentSymbolProvider: true,
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
        codeLensProvider: { resolveProvider: true },
        executeCommandProvider: { commands: Object.values(ServerCommands) },
        workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
      },
      serverInfo: { name: 'psconfig-language-server', version: '0.1.0' },
    };
  });

  const refreshSettings = async (): Promise<void> => {
    if (!client.configuration) return;
    settings.set(await connection.workspace.getConfiguration({ section: 'psconfig' }));
  };

  connection.onInitialized(() =>
    guarded(log, 'initialized', async () => {
      ctx.runner.start();
      // (A client that never answers must not hold everything up for ever: after 5 s the defaults apply.)
      const giveUp = setTimeout(() => settings.markKnown(), SETTINGS_WAIT_MS);
      try {
        await refreshSettings();
      } finally {
        clearTimeout(giveUp);
        settings.markKnown();
      }
      if (!client.workspaceFolders) return;
      connection.workspace.onDidChangeWorkspaceFolders((e) =>
        guarded(log, 'didChangeWorkspaceFolders', () => {
          ctx.includes.addWorkspaceFolders(
            e.added.map((f) => f.uri),
            e.removed.map((f) => f.uri),
          );
          for (const doc of ctx.documents.all()) recheck(ctx, doc);
        }),
      );
    }),
  );

  connection.onDidChangeConfiguration((change) =>
    guarded(log, 'didChangeConfiguration', async () => {
      const pushed = (change.settings as Record<string, unknown> | null)?.psconfig;
      if (pushed !== undefined) settings.set(pushed);
      else await refreshSettings();
      // Settings change diagnostics (jq path, trust, includes) and expansion (jq, includes): every open document is
      // checked again, and previews and lenses recomputed (their versions did not change: reason `include`).
      for (const doc of ctx.documents.all()) recheck(ctx, doc);
    }),
  );

  // Live heaps after a full collection, and the resident size (for leak checks: `npm run fuzz`).
  connection.onRequest(ServerMemoryRequest.method, (_params: unknown, token: CancellationToken) =>
    runSafe<ServerMemoryResult | null>(log, 'serverMemory', null, token, async () => {
      const worker = await ctx.runner.workerHeap();
      const main = heapFigures('main', documentEntries(ctx));
      const usage = process.memoryUsage();
      return {
        rssMb: Math.round(usage.rss / (1024 * 1024)),
        arrayBuffersMb: Math.round((usage.arrayBuffers / (1024 * 1024)) * 10) / 10,
        heaps: worker ? [main, worker] : [main],
      };
    }),
  );
}
