// psconfig/templateChanged: tells the client a template changed, after the same quiet period as the diagnostics,
// once per burst of edits, so its version-keyed views (Tasks view, previews, comparisons) reload.
import type { Connection } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { TemplateChangedNotification, type TemplateChangedParams } from '../../../../common/protocol';

export class TemplateChanges {
  private readonly pending = new Map<string, { timer: NodeJS.Timeout; reason?: 'include' }>();

  constructor(
    private readonly connection: Connection,
    private readonly delayMs: number,
  ) {}

  /** `include`: something other than the text changed (an included file, settings): version-keyed views are stale. */
  notify(doc: TextDocument, reason?: 'include'): void {
    const pending = this.pending.get(doc.uri);
    if (pending) clearTimeout(pending.timer);
    const why = reason ?? pending?.reason;
    this.pending.set(doc.uri, {
      reason: why,
      timer: setTimeout(() => {
        this.pending.delete(doc.uri);
        const params: TemplateChangedParams = { uri: doc.uri, version: doc.version, ...(why ? { reason: why } : {}) };
        void this.connection.sendNotification(TemplateChangedNotification.method, params);
      }, this.delayMs),
    });
  }

  /** A closed document's pending notice goes (its views closed with it). */
  forget(uri: string): void {
    const pending = this.pending.get(uri);
    if (pending) clearTimeout(pending.timer);
    this.pending.delete(uri);
  }

  /** Notices waiting for the quiet period. */
  entryCounts(): Record<string, number> {
    return { templateChangeNotices: this.pending.size };
  }

  dispose(): void {
    for (const t of this.pending.values()) clearTimeout(t.timer);
  }
}
