// Parse cache keyed by (uri, version): one parse and one symbol index per document version, shared by
// diagnostics and every navigation request. Very large documents are not analysed at all (see MAX_ANALYSIS_CHARS).
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { parseTemplate } from '../template/parse';
import { buildSymbolIndex } from '../template/symbols';
import type { NavModel } from '../template/navigation/model';

/**
 * Documents above this size get one diagnostic saying so and no analysis: parsing 10 MB of JSON into an AST
 * takes seconds, and the server must never block that long. Real templates are far below (the largest public
 * mesh we know is 330 KB; the bench's 2,000-address template is under 1 MB).
 */
export const MAX_ANALYSIS_CHARS = 3 * 1024 * 1024;

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
    const a: Analysis = { uri: doc.uri, version: doc.version, text, model };
    this.entries.set(doc.uri, a);
    return a;
  }

  /** The cached analysis only if it is for this exact version. */
  peek(uri: string, version: number): Analysis | undefined {
    const hit = this.entries.get(uri);
    return hit?.version === version ? hit : undefined;
  }

  delete(uri: string): void {
    this.entries.delete(uri);
  }

  clear(): void {
    this.entries.clear();
  }
}
