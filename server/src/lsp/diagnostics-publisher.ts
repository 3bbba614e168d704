// Debounced, per-document diagnostics: one pass publishes everything the synchronous rules find, then slower
// checks (jq compiling expressions) are merged in when they finish, if the document has not changed meanwhile.
import type { Connection, Diagnostic } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { TemplateDiagnostic } from '../template/rules/diagnostic';
import { MAX_ANALYSIS_CHARS, type AnalysisCache } from './analysis';
import { toDiagnostic } from './convert';
import { computeDiagnostics } from './diagnostics-source';
import type { Logger } from './guard';

export class DiagnosticsPublisher {
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly connection: Connection,
    private readonly log: Logger,
    private readonly current: (uri: string) => TextDocument | undefined,
    private readonly delayMs: number,
    private readonly cache: AnalysisCache,
    private readonly jqPath: () => string | undefined,
  ) {}

  schedule(doc: TextDocument): void {
    const pending = this.timers.get(doc.uri);
    if (pending) clearTimeout(pending);
    this.timers.set(
      doc.uri,
      setTimeout(() => {
        this.timers.delete(doc.uri);
        void this.run(doc.uri);
      }, this.delayMs),
    );
  }

  clear(uri: string): void {
    const pending = this.timers.get(uri);
    if (pending) clearTimeout(pending);
    this.timers.delete(uri);
    void this.connection.sendDiagnostics({ uri, diagnostics: [] });
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }

  private async run(uri: string): Promise<void> {
    const doc = this.current(uri);
    if (!doc) return;
    const version = doc.version;
    const text = doc.getText();
    if (text.length > MAX_ANALYSIS_CHARS) {
      await this.publish(doc, [tooLarge(text.length)]);
      return;
    }
    let diagnostics: TemplateDiagnostic[];
    let later: (() => Promise<TemplateDiagnostic[]>) | undefined;
    try {
      const started = Date.now();
      const pass = computeDiagnostics(text, this.jqPath());
      ({ diagnostics, later } = pass);
      this.cache.store(doc, text, pass.result.parsed, pass.result.index);
      const ms = Date.now() - started;
      if (ms > 500) this.log.warn(`diagnostics for ${uri} took ${ms} ms`);
    } catch (err) {
      this.log.error(`diagnostics for ${uri} failed: ${err instanceof Error ? err.stack ?? err.message : String(err)}`);
      diagnostics = [];
    }
    await this.publish(doc, diagnostics);
    if (!later) return;
    try {
      const extra = await later();
      const now = this.current(uri);
      if (extra.length > 0 && now && now.version === version) await this.publish(now, [...diagnostics, ...extra]);
    } catch (err) {
      this.log.error(`asynchronous checks for ${uri} failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  private async publish(doc: TextDocument, diagnostics: TemplateDiagnostic[]): Promise<void> {
    const out: Diagnostic[] = diagnostics.map((d) => toDiagnostic(doc, d));
    await this.connection.sendDiagnostics({ uri: doc.uri, version: doc.version, diagnostics: out });
  }
}

function tooLarge(chars: number): TemplateDiagnostic {
  const mb = (n: number): string => (n / (1024 * 1024)).toFixed(1);
  return {
    code: 'psconfig/too-large',
    severity: 'warning',
    message: `This file is ${mb(chars)} MB; pSConfig checks and navigation are off for files over ${mb(MAX_ANALYSIS_CHARS)} MB so the editor stays responsive. Split it with \`includes\` to get them back.`,
    start: 0,
    end: 1,
  };
}
