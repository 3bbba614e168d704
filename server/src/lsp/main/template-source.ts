// The template a request names: the open document (its analysis and expansion are shared per version), else the
// file on disk read for this request alone, else why neither. The dashboard grids, the simulated schedule and the
// task comparison ask for templates this way.
import type { TextDocuments } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { readFile } from 'node:fs/promises';
import { URI } from 'vscode-uri';

export type TemplateSource = { doc: TextDocument; open: boolean } | { error: string };

export async function templateFor(documents: TextDocuments<TextDocument>, uri: string): Promise<TemplateSource> {
  const open = documents.get(uri);
  if (open) return { doc: open, open: true };
  const u = URI.parse(uri);
  if (u.scheme !== 'file') return { error: 'The document is not open.' };
  try {
    return { doc: TextDocument.create(uri, 'psconfig', 0, await readFile(u.fsPath, 'utf8')), open: false };
  } catch (err) {
    return { error: `Cannot read ${u.fsPath}: ${err instanceof Error ? err.message : String(err)}` };
  }
}
