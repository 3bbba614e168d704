// The completion results of the navigation modules: plain offset-based items the LSP layer converts.
import type { SymbolKind } from '../symbols';

export interface NavCompletionItem {
  label: string;
  /** What the name refers to (a section, `labels`), `variable`, or in pScheduler payloads a `field` (key), a
   *  `value` (enum value, boolean, schema version) or a `plugin` (test type, archiver, context). */
  kind: SymbolKind | 'variable' | 'field' | 'value' | 'plugin';
  detail?: string;
  documentation?: string;
  /** Replaces the document text [replaceStart, replaceEnd). */
  insertText: string;
  replaceStart: number;
  replaceEnd: number;
  sortText?: string;
  /** What the client matches against the text typed in the range (default: the label). */
  filterText?: string;
  /** The same text as a snippet (`$1` placeholders, choices), for clients that take snippets. */
  snippet?: string;
  /** Edits elsewhere in the document (setting `schema` for a key of a later version); never touching the range. */
  additionalEdits?: { start: number; end: number; newText: string }[];
}

export interface NavCompletionResult {
  /**
   * 'reference': a name slot; 'variable': inside `{% %}`; 'pscheduler': a key or value of a spec / data, or a
   * plug-in name (the LSP layer merges schema completion after these); 'none': leave it to schema completion.
   */
  context: 'reference' | 'variable' | 'pscheduler' | 'none';
  items: NavCompletionItem[];
  /**
   * Set for name slots: the items are the candidate list `source` (cached per model and slot) with one replace
   * range, quoted or not. The same source and quoting give the same items at any position, so a caller may
   * reuse its own conversion of them (the LSP layer does, for lists of thousands of names).
   */
  reuse?: { source: object; quoted: boolean };
}
