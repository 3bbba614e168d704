// The language server's state on the main thread, made once per connection and handed to every group of handlers
// (lifecycle-, document-, expansion-, command-, compare-, navigation-, lens-handlers.ts): the open documents and
// their parse cache, the client's capabilities and settings, the worker's client, and the services built on them.
import { TextDocuments, type Connection } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { HostsResult } from '../../../../common/protocol';
import type { TemplateModel } from '../../template/model';
import { AnalysisCache } from './analysis';
import { noClientCapabilities, type ClientCapabilities } from './client-capabilities';
import { DiagnosticsPublisher } from './diagnostics-publisher';
import { ExpansionService } from './expansion-service';
import { consoleLogger, type Logger } from './guard';
import { fsPathOf, IncludeTracker } from './include-tracker';
import { IncludeWatcher } from './include-watcher';
import { PiecedDocument } from './pieced-document';
import type { ServerOptions } from './options';
import { SchemaService } from './schema-service';
import { SettingsState } from './settings-state';
import { TemplateChanges } from './template-changes';
import { BackgroundRunner } from './worker-client';

export interface ServerContext {
  readonly connection: Connection;
  readonly log: Logger;
  readonly options: ServerOptions;
  /** Filled in by `initialize` (lifecycle-handlers.ts); read its fields when a handler runs, not before. */
  readonly client: ClientCapabilities;
  readonly settings: SettingsState;
  /** Their text is read through the edits since it was last built whole (pieced-document.ts). */
  readonly documents: TextDocuments<PiecedDocument>;
  /** One analysis per (uri, version) (analysis.ts). */
  readonly cache: AnalysisCache;
  readonly schema: SchemaService;
  readonly includes: IncludeTracker;
  readonly includeWatcher: IncludeWatcher;
  /** The worker thread's client: every heavy job goes through its `send` (jobs/jobs.ts). */
  readonly runner: BackgroundRunner;
  readonly expansion: ExpansionService;
  readonly publisher: DiagnosticsPublisher;
  readonly templateChanges: TemplateChanges;
  /** The document last opened or edited: the server commands' default argument (document-handlers.ts sets it). */
  lastTouched: string | undefined;
  /** The last psconfig/compareHosts answer per open document, for its task lenses and hovers (hosts-handlers.ts). */
  readonly hostsResults: Map<string, HostsResult>;
}

export function createContext(connection: Connection, options: ServerOptions): ServerContext {
  const log = consoleLogger(connection);
  const cache = new AnalysisCache(options.incrementalMinChars);
  // Changes are applied one at a time so the cache can record where each one lands (see AnalysisCache.edited).
  // An edit copies no text (pieced-document.ts): completion right after it reads a few characters and the
  // previous analysis, and whoever needs the whole text builds it then.
  const documents = new TextDocuments<PiecedDocument>({
    create: (uri, languageId, version, content) => PiecedDocument.create(uri, languageId, version, content),
    update: (doc, changes, version) => {
      if (changes.length === 0) return PiecedDocument.update(doc, changes, version);
      for (const change of changes) {
        if ('range' in change)
          cache.noteChange(
            doc.uri,
            doc.offsetAt(change.range.start),
            doc.offsetAt(change.range.end),
            change.text.length,
          );
        else cache.noteReplaced(doc.uri);
        PiecedDocument.update(doc, [change], version);
      }
      return doc;
    },
  });
  const client = noClientCapabilities();
  const settings = new SettingsState(log, options.defaultJqPath);
  const includes = new IncludeTracker();
  const includeWatcher = new IncludeWatcher(connection, log, client, includes);
  const openTexts = () => documents.all().map((d) => ({ uri: d.uri, text: d.getText() }));
  const includeScope = (uri: string) => includes.scopeFor(uri, settings.value, openTexts);
  // The worker runs this same bundle; without an entry script (not bundled) the jobs run in-process.
  const runner = new BackgroundRunner(options.workerEntry, log, options.workerIdleRetireMs);
  const expansion = new ExpansionService(
    () => settings.effective(),
    runner,
    (uri) => documents.get(uri),
    includeScope,
    settings.ready,
  );
  const publisher = new DiagnosticsPublisher(
    connection,
    log,
    (uri) => documents.get(uri),
    options.diagnosticsDelayMs,
    runner,
    () => settings.jq(),
    settings.ready,
    {
      scopeFor: includeScope,
      record: (uri, paths) => {
        const open = new Set(documents.all().map((d) => fsPathOf(d.uri)));
        const again = includes.record(uri, paths, (p) => open.has(p));
        void includeWatcher.update();
        return again;
      },
    },
    () => settings.severityOverrides(),
    (doc, cancel) => expansion.scheduleDiagnostics(doc, cancel),
    () => settings.checks(),
    options.earlyDiagnosticsMinChars,
  );
  return {
    hostsResults: new Map(),
    connection,
    log,
    options,
    client,
    settings,
    documents,
    cache,
    schema: new SchemaService(),
    includes,
    includeWatcher,
    runner,
    expansion,
    publisher,
    templateChanges: new TemplateChanges(connection, options.diagnosticsDelayMs),
    lastTouched: undefined,
  };
}

/**
 * What the main thread keeps per document, store by store (psconfig/serverMemory): an open document has at most one
 * entry in each, a closed one none.
 */
export function documentEntries(ctx: ServerContext): Record<string, number> {
  return {
    openDocuments: ctx.documents.keys().length,
    ...ctx.cache.entryCounts(),
    ...ctx.schema.entryCounts(),
    ...ctx.expansion.entryCounts(),
    ...ctx.publisher.entryCounts(),
    ...ctx.includes.entryCounts(),
    ...ctx.templateChanges.entryCounts(),
    hostsResults: ctx.hostsResults.size,
  };
}

/** An open document and its model (none when it is not open, or too large to analyse). */
export function openModel(ctx: ServerContext, uri: string): { doc: PiecedDocument; model: TemplateModel } | undefined {
  const doc = ctx.documents.get(uri);
  if (!doc) return undefined;
  const model = ctx.cache.get(doc).model;
  return model ? { doc, model } : undefined;
}

/**
 * Something other than the text of `doc` changed (an included file, the settings, the workspace folders): its checks
 * run again, its expansions are dropped, and the client's version-keyed views are told (reason `include`).
 */
export function recheck(ctx: ServerContext, doc: TextDocument): void {
  ctx.publisher.queuePass(doc);
  ctx.expansion.forget(doc.uri);
  ctx.templateChanges.notify(doc, 'include');
}
