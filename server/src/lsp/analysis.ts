// Parse cache keyed by (uri, version): one parse and one symbol index per document version, shared by
// diagnostics and every navigation request. Very large documents are not analysed at all (see MAX_ANALYSIS_CHARS).
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { parseTemplate, toValue, type ParsedTemplate } from '../template/parse';
import { buildSymbolIndex, type SymbolIndex } from '../template/symbols';
import { countCombinations } from '../template/expand';
import type { NavModel } from '../template/navigation/model';
import type { TaskFact } from '../template/navigation/hover';

/**
 * Documents above this size get one diagnostic saying so and no analysis: parsing megabytes of JSON into an AST
 * takes long, and the server must never block for more than a moment. Real templates are far below (the largest
 * public mesh we know is 330 KB; the bench's 2,000-address template is about 0.5 MB).
 */
export const MAX_ANALYSIS_CHARS = 2 * 1024 * 1024;

export interface Analysis {
  uri: string;
  version: number;
  text: string;
  /** Undefined when the document is too large to analyse. */
  model: NavModel | undefined;
  /** Per-task counts without jq (engine's countCombinations), computed on first use. */
  counts?: TaskFact[];
}

export class AnalysisCache {
  private readonly entries = new Map<string, Analysis>();

  get(doc: TextDocument): Analysis {
    const hit = this.entries.get(doc.uri);
    if (hit && hit.version === doc.version) return hit;
    const text = doc.getText();
    let model: NavModel | undefined;
    if (text.length <= MAX_ANALYSIS_CHARS) {
      const parsed = parseTemplate(text);
      model = { text, parsed, index: buildSymbolIndex(parsed.root) };
    }
    return this.set({ uri: doc.uri, version: doc.version, text, model });
  }

  /** Diagnostics parse the same version anyway: keep their parse instead of parsing again. */
  store(doc: TextDocument, text: string, parsed: ParsedTemplate, index: SymbolIndex): void {
    const hit = this.entries.get(doc.uri);
    if (hit && hit.version === doc.version) return;
    this.set({ uri: doc.uri, version: doc.version, text, model: { text, parsed, index } });
  }

  /** Task counts (no jq, no includes) for lenses and hovers, cached with the version. */
  counts(a: Analysis): TaskFact[] {
    if (!a.counts) {
      const root = a.model?.parsed.root;
      a.counts = root ? countCombinations(toValue(root)).tasks.map((t) => ({ task: t.task, count: t.count, agents: t.agents, disabled: t.disabled, error: t.error })) : [];
    }
    return a.counts;
  }

  delete(uri: string): void {
    this.entries.delete(uri);
  }

  clear(): void {
    this.entries.clear();
  }

  private set(a: Analysis): Analysis {
    this.entries.set(a.uri, a);
    return a;
  }
}
