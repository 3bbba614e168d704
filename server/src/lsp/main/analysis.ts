// Parse cache keyed by (uri, version): one analysis per document version (the parsed tree, its symbol index and
// the template model the checks build, template/model.ts), shared by every navigation request. A large document is
// parsed whole once; after that each version is the previous one with the edit re-parsed in place
// (template/incremental.ts) and its symbol index the previous one's plus the members the edit touched
// (template/symbols-edited.ts), so no request after an edit waits for a full parse or index on this thread.
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { buildModel, analyseTemplate, type TemplateModel } from '../../template/model';
import { extendRegion, reparseEditedSplice, type EditedRegion } from '../../template/incremental';
import { editedSymbolIndex } from '../../template/symbols-edited';

/**
 * Documents above this size get one diagnostic saying so and no analysis (a bound for hostile input; real
 * templates are far below: the largest public mesh we know is 330 KB, the bench's 2,000-address template 1.6 MB).
 */
export const MAX_ANALYSIS_CHARS = 16 * 1024 * 1024;

/** From this size on, a version after an edit is re-parsed in place rather than whole. */
export const INCREMENTAL_MIN_CHARS = 256 * 1024;

export interface Analysis {
  uri: string;
  version: number;
  text: string;
  /** Undefined when the document is too large to analyse. */
  model: TemplateModel | undefined;
}

export class AnalysisCache {
  constructor(
    /** From this size on, a version after an edit is re-parsed in place (tests lower it to cover small documents). */
    private readonly incrementalMinChars = INCREMENTAL_MIN_CHARS,
  ) {}

  private readonly entries = new Map<string, Analysis>();
  /** Per uri: what changed since its cached analysis (null: replaced wholesale, so unusable). */
  private readonly edits = new Map<string, EditedRegion | null>();
  /** Per uri: the analysis the current one replaced. A request that started on it may still be reading it (hover
   *  waits for expansion figures); its tree is released when a newer version replaces this one too. */
  private readonly retired = new Map<string, Analysis>();

  /** Per uri: the pending refreshLater timer. */
  private readonly refreshes = new Map<string, NodeJS.Timeout>();

  /**
   * Analyses the document's current version after `delayMs` without a newer edit, if an older version was analysed
   * (navigation was used on it). Completion right after an edit answers from the previous analysis when it can
   * (navigation-handlers.ts): this keeps that analysis one quiet period old, so the edits since stay few and
   * small, and it builds the whole text and re-parses while the user pauses rather than at the next request.
   */
  refreshLater(doc: TextDocument, delayMs: number): void {
    const pending = this.refreshes.get(doc.uri);
    if (pending) clearTimeout(pending);
    if (!this.entries.has(doc.uri)) return;
    const timer = setTimeout(() => {
      this.refreshes.delete(doc.uri);
      try {
        if (this.entries.has(doc.uri)) this.get(doc);
      } catch {
        // The next request needing it analyses this version again, under its own guard (which reports it).
      }
    }, delayMs);
    // Never what keeps the process alive.
    timer.unref();
    this.refreshes.set(doc.uri, timer);
  }

  /** The analysis of the document's current version if it exists already (never parses). */
  peek(doc: TextDocument): Analysis | undefined {
    const hit = this.entries.get(doc.uri);
    return hit && hit.version === doc.version ? hit : undefined;
  }

  /** An older analysis and the one region of text edited since, when the changes can be described that way. */
  edited(doc: TextDocument): { analysis: Analysis; region: EditedRegion } | undefined {
    const hit = this.entries.get(doc.uri);
    const region = this.edits.get(doc.uri);
    return hit && hit.version !== doc.version && region ? { analysis: hit, region } : undefined;
  }

  /** Called for each incremental change before it is applied (offsets in the text before the change). */
  noteChange(uri: string, start: number, end: number, insertedLength: number): void {
    if (!this.entries.has(uri)) return;
    const region = this.edits.get(uri);
    if (region === null) return;
    this.edits.set(uri, extendRegion(region, start, end, insertedLength));
  }

  /** Called when the whole text is replaced. */
  noteReplaced(uri: string): void {
    if (this.entries.has(uri)) this.edits.set(uri, null);
  }

  get(doc: TextDocument): Analysis {
    const hit = this.entries.get(doc.uri);
    if (hit && hit.version === doc.version) return hit;
    const text = doc.getText();
    let model: TemplateModel | undefined;
    if (text.length <= MAX_ANALYSIS_CHARS) {
      const region = this.edits.get(doc.uri);
      const prev = hit?.model;
      const step =
        prev && region && text.length >= this.incrementalMinChars && !prev.parsed.approximate
          ? reparseEditedSplice(prev.parsed, text, region)
          : undefined;
      // The symbol index too: the previous one plus the members the edit touched (symbols-edited.ts).
      model =
        prev && step
          ? buildModel(
              step.parsed,
              editedSymbolIndex(prev.index, prev.parsed.tree, step.parsed.tree, step.parsed.root, step.splice),
            )
          : analyseTemplate(text);
    }
    return this.set({ uri: doc.uri, version: doc.version, text, model });
  }

  /** Analyses kept, the ones they replaced, and edits noted since (per open document: at most one of each). */
  entryCounts(): Record<string, number> {
    return { analyses: this.entries.size, replacedAnalyses: this.retired.size, notedEdits: this.edits.size };
  }

  delete(uri: string): void {
    clearTimeout(this.refreshes.get(uri));
    this.refreshes.delete(uri);
    release(this.entries.get(uri));
    release(this.retired.get(uri));
    this.entries.delete(uri);
    this.retired.delete(uri);
    this.edits.delete(uri);
  }

  clear(): void {
    for (const uri of [...this.entries.keys()]) this.delete(uri);
  }

  private set(a: Analysis): Analysis {
    const previous = this.entries.get(a.uri);
    if (previous) {
      release(this.retired.get(a.uri));
      this.retired.set(a.uri, previous);
    }
    this.entries.set(a.uri, a);
    this.edits.delete(a.uri);
    return a;
  }
}

/** Gives an analysis' tree storage back for the next parse (tree.ts). */
function release(a: Analysis | undefined): void {
  a?.model?.parsed.tree.release();
}
