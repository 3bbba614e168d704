// Inside a spec / data, our pScheduler items come first and the JSON language service's (from the official
// schema, which only knows `AnyJSON` there) follow, without an item we already offer.
import { InsertTextFormat, type CompletionItem } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { NavCompletionItem } from '../../template/navigation/completion';
import { completionKind, toRange } from './to-lsp';

/** Our items as LSP items: one text edit each (ranges differ), snippets when the client takes them. */
export function payloadItems(doc: TextDocument, items: NavCompletionItem[], snippets: boolean): CompletionItem[] {
  return items.map((i, n) => {
    const snippet = snippets && i.snippet !== undefined;
    const item: CompletionItem = {
      label: i.label,
      kind: completionKind(i.kind),
      textEdit: { range: toRange(doc, i.replaceStart, i.replaceEnd), newText: snippet ? i.snippet! : i.insertText },
      // ours before the schema's (`9…`), in our order
      sortText: `0${i.sortText ?? String(n).padStart(4, '0')}`,
    };
    if (snippet) item.insertTextFormat = InsertTextFormat.Snippet;
    if (i.filterText !== undefined && i.filterText !== i.label) item.filterText = i.filterText;
    if (i.detail) item.detail = i.detail;
    if (i.documentation) item.documentation = { kind: 'markdown', value: i.documentation };
    if (i.additionalEdits?.length)
      item.additionalTextEdits = i.additionalEdits.map((e) => ({
        range: toRange(doc, e.start, e.end),
        newText: e.newText,
      }));
    return item;
  });
}

/** A label as the JSON language service writes it (`"put"` for a string value) compared as we write it. */
function bare(label: string): string {
  return label.length >= 2 && label.startsWith('"') && label.endsWith('"') ? label.slice(1, -1) : label;
}

/** Ours first, then the schema service's items we do not already offer, after ours. */
export function mergeCompletions(ours: CompletionItem[], theirs: CompletionItem[]): CompletionItem[] {
  const seen = new Set(ours.map((i) => bare(i.label)));
  const rest: CompletionItem[] = [];
  for (const i of theirs) {
    if (seen.has(bare(i.label))) continue;
    seen.add(bare(i.label));
    rest.push({ ...i, sortText: `9${i.sortText ?? i.label}` });
  }
  return [...ours, ...rest];
}
