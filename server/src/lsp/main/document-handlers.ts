// Documents opening, changing and closing, and files changing on disk: each queues a diagnostics pass, keeps the
// expansions and the parse cache to the current versions, tells the client (psconfig/templateChanged), and
// re-checks the templates that include the file (include-tracker.ts).
import { recheck, type ServerContext } from './context';
import { guarded } from './guard';
import { fsPathOf } from './include-tracker';

export function registerDocumentHandlers(ctx: ServerContext): void {
  const { connection, documents, log, publisher, expansion } = ctx;

  /** A file changed (edited, opened, closed, or changed on disk): re-check and refresh the templates including it. */
  const refreshDependents = (uri: string): void => {
    const path = fsPathOf(uri);
    if (!path) return;
    for (const dependent of ctx.includes.dependentsOf(path)) {
      const doc = documents.get(dependent);
      if (!doc || dependent === uri) continue;
      recheck(ctx, doc);
    }
  };

  connection.onDidChangeWatchedFiles((p) =>
    guarded(log, 'didChangeWatchedFiles', () => {
      for (const change of p.changes) refreshDependents(change.uri);
    }),
  );

  documents.onDidOpen((e) =>
    guarded(log, 'didOpen', () => {
      ctx.lastTouched = e.document.uri;
      publisher.queuePass(e.document);
      refreshDependents(e.document.uri);
    }),
  );
  documents.onDidChangeContent((e) =>
    guarded(log, 'didChange', () => {
      ctx.lastTouched = e.document.uri;
      publisher.queuePass(e.document);
      expansion.documentChanged(e.document.uri, e.document.version);
      if (e.document.length >= ctx.options.editedTextMinChars)
        ctx.cache.refreshLater(e.document, ctx.options.diagnosticsDelayMs);
      ctx.templateChanges.notify(e.document);
      refreshDependents(e.document.uri);
    }),
  );
  documents.onDidClose((e) =>
    guarded(log, 'didClose', () => {
      if (ctx.lastTouched === e.document.uri) ctx.lastTouched = undefined;
      ctx.includes.forget(e.document.uri);
      // Templates including it now read the disk again.
      setImmediate(() => refreshDependents(e.document.uri));
      publisher.clear(e.document.uri);
      ctx.cache.delete(e.document.uri);
      ctx.schema.forget(e.document.uri);
      expansion.forget(e.document.uri);
      ctx.templateChanges.forget(e.document.uri);
      ctx.runner.documentClosed();
    }),
  );
}
