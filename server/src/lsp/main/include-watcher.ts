// File watchers for included files (LSP dynamic registration), so a change on disk refreshes the templates including
// them (document-handlers.ts, didChangeWatchedFiles). One registration for all the paths include-tracker.ts knows,
// replaced when they change.
import { basename, dirname } from 'node:path';
import { URI } from 'vscode-uri';
import { DidChangeWatchedFilesNotification, type Connection, type Disposable } from 'vscode-languageserver/node';
import type { ClientCapabilities } from './client-capabilities';
import type { Logger } from './guard';
import type { IncludeTracker } from './include-tracker';

export class IncludeWatcher {
  private watched = '';
  private registration: Promise<Disposable> | undefined;

  constructor(
    private readonly connection: Connection,
    private readonly log: Logger,
    private readonly client: ClientCapabilities,
    private readonly includes: IncludeTracker,
  ) {}

  /** Watches the included paths known now (nothing to do when they did not change). */
  async update(): Promise<void> {
    const support = this.client.watchers;
    if (support === 'none') return;
    const paths = this.includes.allPaths();
    const key = paths.join('\n');
    if (key === this.watched) return;
    this.watched = key;
    const previous = this.registration;
    this.registration = undefined;
    if (previous) (await previous.catch(() => undefined))?.dispose();
    if (paths.length === 0) return;
    const watchers = paths.map((p) => ({
      globPattern: support === 'relative' ? { baseUri: URI.file(dirname(p)).toString(), pattern: basename(p) } : p,
    }));
    this.registration = this.connection.client.register(DidChangeWatchedFilesNotification.type, { watchers });
    this.registration.catch((err: unknown) => this.log.warn(`cannot watch included files: ${String(err)}`));
  }
}
