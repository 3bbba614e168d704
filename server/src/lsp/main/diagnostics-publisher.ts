// Debounced, per-document diagnostics: one pass publishes everything the synchronous rules find, then slower
// checks (jq compiling expressions), then the simulated schedule's findings, are merged in when they finish, if the
// document has not changed meanwhile (an edit stops them). On a large document the pass's early phase (syntax
// errors, references to nothing: right after the parse) is published first, when it tells something new; the
// pass's full answer replaces it.
// The checks run in the worker thread (the `diagnostics` job of jobs/jobs.ts), so the main thread keeps answering
// requests.
import type { Connection, Diagnostic } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { TemplateDiagnostic } from '../../template/rules/diagnostic';
import type { CheckSettings } from '../../template/diagnostics';
import { MAX_ANALYSIS_CHARS } from './analysis';
import { toDiagnostic } from './to-lsp';
import { CancelFlag, type DiagnosticsOutcome, type EarlyDiagnostics, type ScheduleDiagnosticsOutcome } from '../jobs';
import type { BackgroundRunner } from './worker-client';
import type { JqConfig } from '../../template/jq/config';
import type { Logger } from './guard';
import type { IncludeScope } from '../../template/includes/scope';
import { applySeverityOverrides, type SeverityOverrides } from '../../template/severity-overrides';
import { capDiagnostics, withCapNote } from '../../template/diagnostic-cap';

/** How the publisher learns a template's include scope and tells the server what it includes. */
export interface IncludeHooks {
  scopeFor: (uri: string) => IncludeScope;
  /** Records the local include paths of `uri`'s check; true to check it again (an included file is open). */
  record: (uri: string, paths: string[]) => boolean;
}

export class DiagnosticsPublisher {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly inFlight = new Set<string>();
  private readonly dirty = new Set<string>();
  /** The pass in flight per document: an edit cancels it (its jq compile checks are killed). */
  private readonly cancels = new Map<string, CancelFlag>();
  /** What was last published per document, with its version (the "fix all in the file" code actions read it). */
  private readonly last = new Map<string, { version: number; diagnostics: TemplateDiagnostic[] }>();

  constructor(
    private readonly connection: Connection,
    private readonly log: Logger,
    private readonly current: (uri: string) => TextDocument | undefined,
    private readonly delayMs: number,
    private readonly runner: Pick<BackgroundRunner, 'send'>,
    private readonly jq: () => JqConfig,
    /** Resolves once the client's settings are known (nothing runs jq before). */
    private readonly ready: () => Promise<void>,
    private readonly includes: IncludeHooks,
    /** `psconfig.diagnostics.severity`, read (severity-overrides.ts). */
    private readonly severity: () => SeverityOverrides | undefined = () => undefined,
    /** The simulated schedule's diagnostics of a version, after the checks (or cancelled once an edit stopped it). */
    private readonly scheduleFindings?: (doc: TextDocument, cancel: CancelFlag) => Promise<ScheduleDiagnosticsOutcome>,
    /** What the settings change in the checks (`psconfig.archives.ipAllowedHosts`). */
    private readonly checks: () => CheckSettings = () => ({}),
    /** From this size on, the pass's early phase is published before its full answer (options.ts). */
    private readonly earlyMinChars = Infinity,
  ) {}

  /** Queues a pass over `doc` after the quiet period (the one in flight, now stale, is cancelled). */
  queuePass(doc: TextDocument): void {
    this.cancels.get(doc.uri)?.cancel();
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

  /** The diagnostics published for `version` of the document (after severity overrides), if that is the last. */
  published(uri: string, version: number): readonly TemplateDiagnostic[] | undefined {
    const p = this.last.get(uri);
    return p && p.version === version ? p.diagnostics : undefined;
  }

  /** What is kept per document: the last publication, passes waiting for the quiet period, passes that can stop. */
  entryCounts(): Record<string, number> {
    return { publications: this.last.size, queuedPasses: this.timers.size, runningPasses: this.cancels.size };
  }

  clear(uri: string): void {
    this.last.delete(uri);
    this.cancels.get(uri)?.cancel();
    this.cancels.delete(uri);
    const pending = this.timers.get(uri);
    if (pending) clearTimeout(pending);
    this.timers.delete(uri);
    void this.connection.sendDiagnostics({ uri, diagnostics: [] });
  }

  dispose(): void {
    for (const c of this.cancels.values()) c.cancel();
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }

  private async run(uri: string): Promise<void> {
    await this.ready();
    const doc = this.current(uri);
    if (!doc) return;
    if (this.inFlight.has(uri)) {
      // One check per document at a time; the newest version is checked when this one finishes.
      this.dirty.add(uri);
      return;
    }
    const version = doc.version;
    const text = doc.getText();
    if (text.length > MAX_ANALYSIS_CHARS) {
      await this.publish(doc, [tooLarge(text.length)]);
      return;
    }
    this.inFlight.add(uri);
    const cancel = new CancelFlag();
    this.cancels.set(uri, cancel);
    let outcome: DiagnosticsOutcome | undefined;
    const early = text.length >= this.earlyMinChars;
    if (early) lineOffsetsAhead(doc);
    try {
      const started = Date.now();
      outcome = await this.runner.send(
        'diagnostics',
        {
          text,
          jq: this.jq(),
          includeScope: this.includes.scopeFor(uri),
          cancel: cancel.buffer,
          overrides: this.severity(),
          checks: this.checks(),
          early,
        },
        (found) => this.publishEarly(uri, version, cancel, found),
      );
      const ms = Date.now() - started;
      if (ms > 2000) this.log.info(`diagnostics for ${uri} took ${ms} ms`);
    } catch (err) {
      this.log.error(
        `diagnostics for ${uri} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
      );
    } finally {
      this.inFlight.delete(uri);
    }
    const now = this.current(uri);
    // A check asked for while this one ran runs now: for a newer version, or for this version when something else
    // changed (an included file, the settings), which cancelled this pass: otherwise that check would be lost.
    if (this.dirty.delete(uri) && now && (now.version !== version || cancel.cancelled)) {
      this.queuePass(now);
      return;
    }
    if (!outcome || outcome.kind === 'cancelled' || !now || now.version !== version) return;
    if (this.includes.record(uri, outcome.includePaths)) {
      // The check read an included file from disk while the editor has it open: check again with its text.
      this.queuePass(now);
      return;
    }
    // Already capped (worst first) where the checks ran; jq's errors, then the schedule's findings, are merged in
    // and the whole cut again.
    let shown = { shown: outcome.diagnostics, omitted: outcome.omitted };
    await this.publish(now, withCapNote(shown));
    try {
      // Each later result is published only while this pass stands: an edit, or a change of an included file or of
      // the settings (the version stays the same), cancelled it and the next pass publishes instead.
      const extra = await outcome.later;
      const latest = this.current(uri);
      if (extra.length > 0 && latest && latest.version === version && !cancel.cancelled) {
        shown = capDiagnostics([...shown.shown, ...extra], undefined, shown.omitted);
        await this.publish(latest, withCapNote(shown));
      }
      // Last and heaviest: the simulated schedule of this version's expansion, stopped by the next edit.
      if (this.scheduleFindings && latest && latest.version === version && !cancel.cancelled) {
        const started = Date.now();
        const found = await this.scheduleFindings(latest, cancel);
        const ms = Date.now() - started;
        if (ms > 2000) this.log.info(`schedule diagnostics for ${uri} took ${ms} ms`);
        const after = this.current(uri);
        if (
          found.kind === 'found' &&
          found.diagnostics.length > 0 &&
          after &&
          after.version === version &&
          !cancel.cancelled
        )
          await this.publish(
            after,
            withCapNote(capDiagnostics([...shown.shown, ...found.diagnostics], undefined, shown.omitted)),
          );
      }
    } catch (err) {
      this.log.warn(`asynchronous checks for ${uri} failed: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      if (this.cancels.get(uri) === cancel) this.cancels.delete(uri);
    }
  }

  /**
   * The early phase's findings of `version`, published while that version is current and its pass stands (the
   * worker posts them before the pass's answer, and an answer is published after it: never over it), unless the
   * document's last publication already shows each of them (an edit elsewhere of a document with a known error: the
   * warnings and hints would vanish until the full answer, for nothing new).
   */
  private publishEarly(uri: string, version: number, cancel: CancelFlag, found: EarlyDiagnostics): void {
    const now = this.current(uri);
    if (!now || now.version !== version || cancel.cancelled) return;
    const shown = this.last.get(uri);
    if (shown) {
      const known = new Set(shown.diagnostics.map(earlyKey));
      if (found.diagnostics.every((d) => known.has(earlyKey(d)))) return;
    }
    void this.publish(now, withCapNote({ shown: found.diagnostics, omitted: found.omitted })).catch((err: unknown) =>
      this.log.warn(`early diagnostics for ${uri} failed: ${err instanceof Error ? err.message : String(err)}`),
    );
  }

  /** Severity overrides are applied again here: the cap's note and the size warning are overridable too. */
  private async publish(doc: TextDocument, diagnostics: TemplateDiagnostic[]): Promise<void> {
    const shown = applySeverityOverrides(diagnostics, this.severity());
    this.last.set(doc.uri, { version: doc.version, diagnostics: shown });
    const out: Diagnostic[] = shown.map((d) => toDiagnostic(doc, d));
    await this.connection.sendDiagnostics({ uri: doc.uri, version: doc.version, diagnostics: out });
  }
}

/** A diagnostic as the early phase's publication compares it with the last one (offsets move with edits). */
function earlyKey(d: TemplateDiagnostic): string {
  return `${d.severity}\u0000${d.code}\u0000${d.message}`;
}

/**
 * The document's line offsets, computed while the worker parses (the main thread waits then): the first
 * publication converts offsets to positions, and on a 16 MB text the line table costs a quarter of a second.
 */
function lineOffsetsAhead(doc: TextDocument): void {
  setImmediate(() => doc.positionAt(0));
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
