// The language server on a connection: documents, settings, diagnostics, navigation, expansion. The entry point
// (server/src/server.ts) creates the connection and reads the environment; everything here comes from `options`.
// Documents of language `psconfig` and the `json` documents the client decides are templates are both handled:
// the client's document selector makes that choice.
import {
  TextDocuments,
  TextDocumentSyncKind,
  CodeActionKind,
  DidChangeWatchedFilesNotification,
  type CancellationToken,
  type Disposable,
  ResponseError,
  ErrorCodes,
  type Connection,
  type InitializeResult,
  CodeLensRefreshRequest,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { basename, dirname } from 'node:path';
import { URI } from 'vscode-uri';
import {
  emptyExpansionResult,
  DashboardPairsRequest,
  emptyScheduleResult,
  ExpandTasksRequest,
  ScheduleRequest,
  ServerMemoryRequest,
  TemplateChangedNotification,
  type DashboardPairsParams,
  type DashboardPairsResult,
  type ExpandTasksParams,
  type ExpandTasksResult,
  type LensCommandResult,
  type ScheduleParams,
  type ScheduleResult,
  type PreviewTasksText,
  type ServerMemoryResult,
  ServerCommands,
  type TranslateMeshConfigResult,
  type ServerSettings,
  type TemplateChangedParams,
} from '../../../common/protocol';
import { AnalysisCache } from './analysis';
import { DiagnosticsPublisher } from './diagnostics-publisher';
import { BackgroundRunner, WORKER_IDLE_RETIRE_MS } from './background-worker';
import { heapFigures } from './memory-report';
import { ExpansionService } from './expansion-service';
import { registerFeatures, SCHEDULE_LENS_WAIT_MS } from './features';
import { registerCompareHandlers } from './compare-handlers';
import { registerHostsHandlers } from './hosts-handlers';
import { taskOnHosts } from '../template/hosts';
import { guarded, runSafe, type Logger } from './guard';
import { SchemaService } from './schema-service';
import { previewText } from '../template/expand/preview-text';
import { effectiveJqPath, jqConfigOf, toServerSettings } from './settings';
import { fsPathOf, IncludeTracker } from './include-tracker';
import { LENS_COMMANDS, LensCommands } from './lens-commands';
import { readSeverityOverrides, type SeverityOverrides } from '../template/severity-overrides';
import { openTranslation, translateToFile, type ClientFileCapabilities } from './meshconfig-actions';
import { templateFor } from './template-source';
import { grafanaExplanation } from '../template/grafana/agent-view';

/** How long the first checks wait for the client's answer to workspace/configuration. */
const SETTINGS_WAIT_MS = 5000;

export interface ServerOptions {
  /** Quiet period after the last edit before diagnostics run. */
  diagnosticsDelayMs: number;
  /** Script a background worker thread runs (this bundle); undefined: heavy jobs run on the main thread. */
  workerEntry: string | undefined;
  /** From this document size on, completion while typing in a string answers from the previous parse. */
  editedTextMinChars: number;
  /** From this document size on, each version after an edit is re-parsed in place (template/incremental.ts). */
  incrementalMinChars: number;
  /** jq binary when the `psconfig.jq.path` setting is empty (the entry point passes JQ_PATH). */
  defaultJqPath: string | undefined;
  /** After a document is closed, the worker is retired once idle this long (background-worker.ts). */
  workerIdleRetireMs: number;
  /** How long a schedule lens's resolve waits for the simulation before it says "simulating…" (features.ts). */
  scheduleLensWaitMs: number;
}

export const DEFAULT_SERVER_OPTIONS: ServerOptions = {
  diagnosticsDelayMs: 250,
  workerEntry: undefined,
  editedTextMinChars: 256 * 1024,
  incrementalMinChars: 256 * 1024,
  defaultJqPath: undefined,
  workerIdleRetireMs: WORKER_IDLE_RETIRE_MS,
  scheduleLensWaitMs: SCHEDULE_LENS_WAIT_MS,
};

export function consoleLogger(connection: Connection): Logger {
  return {
    error: (m) => connection.console.error(m),
    warn: (m) => connection.console.warn(m),
    info: (m) => connection.console.info(m),
  };
}

/** What the entry point must run however the process ends (a client may close the pipe without `shutdown`). */
export interface ServerCleanup {
  /** Synchronous: removes the files the lens commands wrote. */
  atExit: () => void;
}

/** Serves the language server on `connection` (which it starts listening). */
export function startServer(connection: Connection, options: ServerOptions = DEFAULT_SERVER_OPTIONS): ServerCleanup {
  const log = consoleLogger(connection);
  const DIAGNOSTICS_DELAY_MS = options.diagnosticsDelayMs;

  const cache = new AnalysisCache(options.incrementalMinChars);
  // Changes are applied one at a time so the cache can record where each one lands (see AnalysisCache.edited).
  const documents = new TextDocuments<TextDocument>({
    create: TextDocument.create,
    update: (doc, changes, version) => {
      if (changes.length === 0) return TextDocument.update(doc, changes, version);
      for (const change of changes) {
        if ('range' in change)
          cache.noteChange(
            doc.uri,
            doc.offsetAt(change.range.start),
            doc.offsetAt(change.range.end),
            change.text.length,
          );
        else cache.noteReplaced(doc.uri);
        TextDocument.update(doc, [change], version);
      }
      return doc;
    },
  });
  const schema = new SchemaService();
  let settings: ServerSettings = {};
  let configurationSupported = false;
  let workspaceFoldersSupported = false;
  let editRangeDefault = false;
  let snippetSupport = false;
  /** What the client can do with files (the MeshConfig translation's quick fix). */
  const fileCaps: ClientFileCapabilities = { createFiles: false, showDocument: false };
  let showDocumentSupport = false;
  let lensRefreshSupport = false;
  // The worker runs this same bundle; without an entry script (not bundled) the jobs run in-process.
  const runner = new BackgroundRunner(options.workerEntry, log, options.workerIdleRetireMs);
  const jqPath = (): string | undefined => effectiveJqPath(settings, options.defaultJqPath);
  const includes = new IncludeTracker();
  const openTexts = () => documents.all().map((d) => ({ uri: d.uri, text: d.getText() }));
  const includeScope = (uri: string) => includes.scopeFor(uri, settings, openTexts);
  // Nothing that may run jq or fetch an include starts before the client's settings are known: a restricted
  // workspace must never run jq in the moment between didOpen and the answer to workspace/configuration.
  let settingsKnown!: () => void;
  const settingsReady = new Promise<void>((resolve) => (settingsKnown = resolve));
  const ready = (): Promise<void> => settingsReady;
  const expansion = new ExpansionService(
    () => ({ ...settings, jqPath: jqPath() }),
    runner,
    (uri) => documents.get(uri),
    includeScope,
    ready,
  );
  const changed = new Map<string, { timer: NodeJS.Timeout; reason?: 'include' }>();

  const publisher = new DiagnosticsPublisher(
    connection,
    log,
    (uri) => documents.get(uri),
    DIAGNOSTICS_DELAY_MS,
    runner,
    () => jqConfigOf({ ...settings, jqPath: jqPath() }),
    ready,
    {
      scopeFor: includeScope,
      record: (uri, paths) => {
        const open = new Set(documents.all().map((d) => fsPathOf(d.uri)));
        const again = includes.record(uri, paths, (p) => open.has(p));
        void watchIncludes();
        return again;
      },
    },
    () => severityOverrides(),
    (doc, cancel) => expansion.scheduleDiagnostics(doc, cancel),
    () => ({ ipAllowedHosts: settings.ipAllowedHosts }),
  );

  // psconfig.diagnostics.severity, read once per settings value; what cannot be used is logged once.
  let severityRead: { source: unknown; overrides: SeverityOverrides } | undefined;
  const severityOverrides = (): SeverityOverrides => {
    const source = settings.diagnosticsSeverity;
    if (severityRead && severityRead.source === source) return severityRead.overrides;
    const { overrides, problems } = readSeverityOverrides(source);
    for (const p of problems) log.warn(`psconfig.diagnostics.severity: ${p}`);
    severityRead = { source, overrides };
    return overrides;
  };

  // File watchers for included files (LSP dynamic registration), so a change on disk refreshes the templates.
  let watcherSupport: 'none' | 'glob' | 'relative' = 'none';
  let watched = '';
  let watchRegistration: Promise<Disposable> | undefined;
  const watchIncludes = async (): Promise<void> => {
    if (watcherSupport === 'none') return;
    const paths = includes.allPaths();
    const key = paths.join('\n');
    if (key === watched) return;
    watched = key;
    const previous = watchRegistration;
    watchRegistration = undefined;
    if (previous) (await previous.catch(() => undefined))?.dispose();
    if (paths.length === 0) return;
    const watchers = paths.map((p) => ({
      globPattern:
        watcherSupport === 'relative' ? { baseUri: URI.file(dirname(p)).toString(), pattern: basename(p) } : p,
    }));
    watchRegistration = connection.client.register(DidChangeWatchedFilesNotification.type, { watchers });
    watchRegistration.catch((err: unknown) => log.warn(`cannot watch included files: ${String(err)}`));
  };

  /** A file changed (edited, opened, closed, or changed on disk): re-check and refresh the templates including it. */
  const refreshDependents = (uri: string): void => {
    const path = fsPathOf(uri);
    if (!path) return;
    for (const dependent of includes.dependentsOf(path)) {
      const doc = documents.get(dependent);
      if (!doc || dependent === uri) continue;
      publisher.schedule(doc);
      expansion.forget(dependent);
      notifyChanged(doc, 'include');
    }
  };

  connection.onInitialize((params): InitializeResult => {
    configurationSupported = params.capabilities.workspace?.configuration === true;
    if (!configurationSupported) settingsKnown(); // initializationOptions (below) are all there is
    workspaceFoldersSupported = params.capabilities.workspace?.workspaceFolders === true;
    const watch = params.capabilities.workspace?.didChangeWatchedFiles;
    if (watch?.dynamicRegistration) watcherSupport = watch.relativePatternSupport ? 'relative' : 'glob';
    includes.setWorkspaceFolders(
      params.workspaceFolders?.map((f) => f.uri) ?? (params.rootUri ? [params.rootUri] : []),
    );
    editRangeDefault =
      params.capabilities.textDocument?.completion?.completionList?.itemDefaults?.includes('editRange') === true;
    snippetSupport = params.capabilities.textDocument?.completion?.completionItem?.snippetSupport === true;
    const editCaps = params.capabilities.workspace?.workspaceEdit;
    fileCaps.createFiles =
      editCaps?.documentChanges === true && editCaps.resourceOperations?.includes('create') === true;
    fileCaps.showDocument = params.capabilities.window?.showDocument?.support === true;
    showDocumentSupport = params.capabilities.window?.showDocument?.support === true;
    lensRefreshSupport = params.capabilities.workspace?.codeLens?.refreshSupport === true;
    if (params.initializationOptions && typeof params.initializationOptions === 'object') {
      // `{ settings }` (the VS Code client), `{ psconfig }` (Helix sends its `config` table here), or the section.
      const options = params.initializationOptions as Record<string, unknown>;
      settings = toServerSettings(options.settings ?? options.psconfig ?? options);
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
    if (!configurationSupported) return;
    const section: unknown = await connection.workspace.getConfiguration({ section: 'psconfig' });
    settings = toServerSettings(section);
  };

  connection.onInitialized(() =>
    guarded(log, 'initialized', async () => {
      // (A client that never answers must not hold everything up for ever: after 5 s the defaults apply.)
      const giveUp = setTimeout(settingsKnown, SETTINGS_WAIT_MS);
      try {
        await refreshSettings();
      } finally {
        clearTimeout(giveUp);
        settingsKnown();
      }
      if (!workspaceFoldersSupported) return;
      connection.workspace.onDidChangeWorkspaceFolders((e) =>
        guarded(log, 'didChangeWorkspaceFolders', () => {
          includes.addWorkspaceFolders(
            e.added.map((f) => f.uri),
            e.removed.map((f) => f.uri),
          );
          for (const doc of documents.all()) {
            publisher.schedule(doc);
            expansion.forget(doc.uri);
            notifyChanged(doc, 'include');
          }
        }),
      );
    }),
  );
  connection.onDidChangeWatchedFiles((p) =>
    guarded(log, 'didChangeWatchedFiles', () => {
      for (const change of p.changes) refreshDependents(change.uri);
    }),
  );
  connection.onDidChangeConfiguration((change) =>
    guarded(log, 'didChangeConfiguration', async () => {
      const pushed = (change.settings as Record<string, unknown> | null)?.psconfig;
      if (pushed !== undefined) settings = toServerSettings(pushed);
      else await refreshSettings();
      // Settings change diagnostics (jq path, trust, includes) and expansion (jq, includes): every open document is
      // checked again, and previews and lenses recomputed (their versions did not change: reason `include`).
      for (const doc of documents.all()) {
        expansion.forget(doc.uri);
        publisher.schedule(doc);
        notifyChanged(doc, 'include');
      }
    }),
  );

  /** `include`: something other than the text changed (an included file, settings): version-keyed views are stale. */
  const notifyChanged = (doc: TextDocument, reason?: 'include'): void => {
    const pending = changed.get(doc.uri);
    if (pending) clearTimeout(pending.timer);
    const why = reason ?? pending?.reason;
    changed.set(doc.uri, {
      reason: why,
      timer: setTimeout(() => {
        changed.delete(doc.uri);
        const params: TemplateChangedParams = { uri: doc.uri, version: doc.version, ...(why ? { reason: why } : {}) };
        void connection.sendNotification(TemplateChangedNotification.method, params);
      }, DIAGNOSTICS_DELAY_MS),
    });
  };

  /** The document last opened or edited: the server commands' default argument. */
  let lastTouched: string | undefined;
  documents.onDidOpen((e) =>
    guarded(log, 'didOpen', () => {
      lastTouched = e.document.uri;
      publisher.schedule(e.document);
      refreshDependents(e.document.uri);
    }),
  );
  documents.onDidChangeContent((e) =>
    guarded(log, 'didChange', () => {
      lastTouched = e.document.uri;
      publisher.schedule(e.document);
      expansion.documentChanged(e.document.uri, e.document.version);
      notifyChanged(e.document);
      refreshDependents(e.document.uri);
    }),
  );
  documents.onDidClose((e) =>
    guarded(log, 'didClose', () => {
      if (lastTouched === e.document.uri) lastTouched = undefined;
      includes.forget(e.document.uri);
      // Templates including it now read the disk again.
      setImmediate(() => refreshDependents(e.document.uri));
      publisher.clear(e.document.uri);
      cache.delete(e.document.uri);
      schema.forget(e.document.uri);
      expansion.forget(e.document.uri);
      runner.documentClosed();
    }),
  );

  /** The expansion of an open document (or the file on disk), for the request and the server command alike. */
  const expandFor = async (params: ExpandTasksParams, token?: CancellationToken): Promise<ExpandTasksResult> => {
    if (!params || typeof params.uri !== 'string')
      throw new ResponseError(ErrorCodes.InvalidParams, 'expandTasks needs { uri }');
    const t = await templateFor(documents, params.uri);
    if ('error' in t) return emptyExpansionResult(params.uri, null, t.error);
    // Not open in the editor: the file on disk, expanded for this request alone.
    return t.open ? expansion.expand(t.doc, params, token) : expansion.expandUncached(t.doc, params);
  };

  connection.onRequest(ExpandTasksRequest.method, (params: ExpandTasksParams, token) =>
    runSafe<ExpandTasksResult>(
      log,
      'expandTasks',
      emptyExpansionResult(params?.uri ?? '', null, 'internal error while expanding (see the server log)'),
      token,
      () => expandFor(params, token),
    ),
  );

  // The Hosts view's comparisons, kept per document for the task lenses and hovers (hosts-handlers.ts).
  const hostsResults = registerHostsHandlers({
    connection,
    documents,
    expansion,
    log,
    refreshLenses: () => {
      if (lensRefreshSupport) connection.sendRequest(CodeLensRefreshRequest.type).catch(() => undefined);
    },
  });

  // What every code lens runs (lens-commands.ts).
  const lensCommands = new LensCommands({
    connection,
    log,
    canShowDocument: () => showDocumentSupport,
    expand: expandFor,
    dashboardPairs: (uri, tasks) => dashboardPairsFor({ uri, tasks }),
    schedule: (uri, token) => scheduleFor({ uri, noTasks: true }, token),
    grafana: (uri, task) => {
      const doc = documents.get(uri);
      const model = doc && cache.get(doc).model;
      return model ? grafanaExplanation(model, task) : undefined;
    },
    hosts: (uri, task) => {
      const result = hostsResults.of(uri);
      return result && taskOnHosts(result, task)?.lines;
    },
  });

  // The same for clients without our custom request (Neovim, Emacs, Helix): workspace/executeCommand.
  connection.onExecuteCommand((params, token) =>
    runSafe<ExpandTasksResult | PreviewTasksText | TranslateMeshConfigResult | LensCommandResult | null>(
      log,
      'executeCommand',
      null,
      token,
      async () => {
        const arg: unknown = params.arguments?.[0];
        // Without an argument (Helix's :lsp-workspace-command): the document last opened or edited, as below.
        if (LENS_COMMANDS.includes(params.command))
          return lensCommands.run(params.command, arg ?? (lastTouched ? { uri: lastTouched } : undefined), token);
        // Without an argument (Helix's :lsp-workspace-command passes none): the document last opened or edited.
        const request: ExpandTasksParams =
          typeof arg === 'string' ? { uri: arg } : ((arg ?? { uri: lastTouched ?? '' }) as ExpandTasksParams);
        if (params.command === ServerCommands.expandTasks) return expandFor(request, token);
        if (params.command === ServerCommands.previewTasks) return previewText(await expandFor(request, token));
        if (params.command === ServerCommands.openTranslation) return openTranslation(connection, fileCaps, arg);
        if (params.command === ServerCommands.translateMeshConfig)
          return translateToFile(connection, documents, fileCaps, arg);
        throw new ResponseError(ErrorCodes.InvalidParams, `unknown command ${params.command}`);
      },
    ),
  );

  /** The dashboard pairs of an open document (or the file on disk), for the request and the Dashboard lens alike. */
  const dashboardPairsFor = async (params: DashboardPairsParams): Promise<DashboardPairsResult> => {
    if (!params || typeof params.uri !== 'string')
      throw new ResponseError(ErrorCodes.InvalidParams, 'dashboardPairs needs { uri }');
    const tasks = Array.isArray(params.tasks) ? params.tasks.filter((t) => typeof t === 'string') : undefined;
    const t = await templateFor(documents, params.uri);
    if ('error' in t) return { uri: params.uri, version: null, error: t.error, tasks: [], elapsedMs: 0 };
    return expansion.dashboardPairs(t.doc, tasks, t.open);
  };

  /** The simulated schedule of an open document (or the file on disk): the request, the lenses, the hovers. */
  const scheduleFor = async (params: ScheduleParams, token?: CancellationToken): Promise<ScheduleResult> => {
    if (!params || typeof params.uri !== 'string')
      throw new ResponseError(ErrorCodes.InvalidParams, 'schedule needs { uri }');
    const strings = (v: unknown): string[] | undefined =>
      Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined;
    const clean: ScheduleParams = {
      uri: params.uri,
      runs: params.runs === true,
      noTasks: params.noTasks === true,
      hosts: strings(params.hosts),
      task: typeof params.task === 'string' ? params.task : undefined,
      agent: typeof params.agent === 'string' ? params.agent : undefined,
    };
    const t = await templateFor(documents, params.uri);
    if ('error' in t) return emptyScheduleResult(params.uri, t.error);
    return expansion.schedule(t.doc, clean, t.open, token);
  };

  connection.onRequest(ScheduleRequest.method, (params: ScheduleParams, token) =>
    runSafe<ScheduleResult>(
      log,
      'schedule',
      emptyScheduleResult(params?.uri ?? '', 'internal error (see the server log)'),
      token,
      () => scheduleFor(params, token),
    ),
  );

  connection.onRequest(DashboardPairsRequest.method, (params: DashboardPairsParams, token) =>
    runSafe<DashboardPairsResult>(
      log,
      'dashboardPairs',
      { uri: params?.uri ?? '', version: null, error: 'internal error (see the server log)', tasks: [], elapsedMs: 0 },
      token,
      () => dashboardPairsFor(params),
    ),
  );

  // Live heaps after a full collection, and the resident size (for leak checks: `npm run fuzz`).
  connection.onRequest(ServerMemoryRequest.method, (_params, token) =>
    runSafe<ServerMemoryResult | null>(log, 'serverMemory', null, token, async () => {
      const worker = await runner.workerHeap();
      const main = heapFigures('main');
      return { rssMb: Math.round(process.memoryUsage.rss() / (1024 * 1024)), heaps: worker ? [main, worker] : [main] };
    }),
  );

  connection.onShutdown(() => {
    lensCommands.dispose();
    publisher.dispose();
    runner.dispose();
    for (const t of changed.values()) clearTimeout(t.timer);
    cache.clear();
  });

  registerCompareHandlers({ connection, documents, expansion, runner, log });
  registerFeatures({
    connection,
    documents,
    cache,
    schema,
    expansion,
    log,
    supportsEditRangeDefault: () => editRangeDefault,
    supportsSnippets: () => snippetSupport,
    fileCapabilities: () => fileCaps,
    editedTextMinChars: options.editedTextMinChars,
    publishedDiagnostics: (uri, version) => publisher.published(uri, version),
    supportsLensRefresh: () => lensRefreshSupport,
    hostsResult: (uri) => hostsResults.of(uri),
    scheduleLensWaitMs: options.scheduleLensWaitMs,
  });
  documents.listen(connection);
  connection.listen();
  return { atExit: () => lensCommands.dispose() };
}
