// The MeshConfig translation in the editor, for every LSP client: the quick fix on the `psconfig/meshconfig`
// diagnostic carries a WorkspaceEdit that creates the pSConfig template beside the MeshConfig file (CreateFile, then
// its text), and the server command openTranslation, which asks the client to show it (`window/showDocument`).
// A client that cannot create files through an edit gets the command translateMeshConfig instead: the server
// writes the file itself (never over an existing one) and shows it.
import { promises as fs, existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import {
  CodeActionKind,
  CreateFile,
  TextDocumentEdit,
  TextEdit,
  type CodeAction,
  type Connection,
  type Diagnostic,
  type TextDocuments,
} from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';
import { ServerCommands, type TranslateMeshConfigResult } from '../../../../common/protocol';
import { isMeshConfig } from '../../template/meshconfig/detect';
import { translateMeshConfig, translationText } from '../../template/meshconfig/translate';
import { translationFileName } from '../../template/meshconfig/target-name';
import { parseTemplate, toValue, type ParsedTemplate } from '../../template/parse';

export const TRANSLATE_TITLE = 'Translate MeshConfig to pSConfig (new file beside it)';

export interface ClientFileCapabilities {
  /** workspaceEdit.documentChanges with the `create` resource operation. */
  createFiles: boolean;
  /** window.showDocument.support. */
  showDocument: boolean;
}

/** The translation of a MeshConfig document and the file: URI beside it to write it to. */
function plan(
  uri: string,
  parsed: ParsedTemplate,
  isOpen: (uri: string) => boolean,
): { target: string; text: string } | undefined {
  const source = URI.parse(uri);
  if (source.scheme !== 'file' || !parsed.root || !isMeshConfig(parsed)) return undefined;
  const dir = dirname(source.fsPath);
  const name = translationFileName(basename(source.fsPath), (n) => {
    const path = join(dir, n);
    return existsSync(path) || isOpen(URI.file(path).toString());
  });
  if (!name) return undefined;
  const text = translationText(translateMeshConfig(toValue(parsed.root)));
  return { target: URI.file(join(dir, name)).toString(), text };
}

/** The quick fix for one `psconfig/meshconfig` diagnostic (none for documents that are not files). */
export function meshConfigActions(
  doc: TextDocument,
  parsed: ParsedTemplate,
  diagnostic: Diagnostic,
  caps: ClientFileCapabilities,
  isOpen: (uri: string) => boolean,
): CodeAction[] {
  const base = { title: TRANSLATE_TITLE, kind: CodeActionKind.QuickFix, diagnostics: [diagnostic], isPreferred: true };
  if (!caps.createFiles)
    return URI.parse(doc.uri).scheme === 'file'
      ? [
          {
            ...base,
            command: { title: TRANSLATE_TITLE, command: ServerCommands.translateMeshConfig, arguments: [doc.uri] },
          },
        ]
      : [];
  const p = plan(doc.uri, parsed, isOpen);
  if (!p) return [];
  return [
    {
      ...base,
      edit: {
        documentChanges: [
          CreateFile.create(p.target, { overwrite: false, ignoreIfExists: false }),
          TextDocumentEdit.create({ uri: p.target, version: null }, [
            TextEdit.insert({ line: 0, character: 0 }, p.text),
          ]),
        ],
      },
      command: { title: 'Open the translation', command: ServerCommands.openTranslation, arguments: [p.target] },
    },
  ];
}

/** openTranslation: show the file the quick fix created. */
export async function openTranslation(
  connection: Connection,
  caps: ClientFileCapabilities,
  arg: unknown,
): Promise<null> {
  if (typeof arg === 'string' && caps.showDocument) await connection.window.showDocument({ uri: arg, takeFocus: true });
  return null;
}

/** translateMeshConfig: write the translation beside the document (open or on disk), then show it. */
export async function translateToFile(
  connection: Connection,
  documents: TextDocuments<TextDocument>,
  caps: ClientFileCapabilities,
  arg: unknown,
): Promise<TranslateMeshConfigResult> {
  if (typeof arg !== 'string') return { error: 'translateMeshConfig needs the URI of a MeshConfig file' };
  const source = URI.parse(arg);
  let text = documents.get(arg)?.getText();
  if (text === undefined && source.scheme === 'file')
    text = await fs.readFile(source.fsPath, 'utf8').catch(() => undefined);
  if (text === undefined) return { error: `cannot read ${arg}` };
  const isOpen = (uri: string): boolean => documents.get(uri) !== undefined;
  const p = plan(arg, parseTemplate(text), isOpen);
  if (!p) return { error: `${arg} is not a MeshConfig file on disk` };
  try {
    await fs.writeFile(URI.parse(p.target).fsPath, p.text, { flag: 'wx' });
  } catch (e) {
    return { error: `cannot write ${p.target}: ${(e as Error).message}` };
  }
  await openTranslation(connection, caps, p.target);
  return { uri: p.target };
}
