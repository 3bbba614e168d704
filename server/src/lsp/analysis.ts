// Parse cache keyed by (uri, version): one parse and one symbol index per document version, shared by
// diagnostics and every navigation request. Very large documents are not analysed at all (see MAX_ANALYSIS_CHARS).
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { parseTemplate } from '../template/parse';
import { buildSymbolIndex } from '../template/symbols';
import type { NavModel } from '../template/navigation/model';

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
