// Gives plain `json` documents that are pSConfig templates the `psconfig` language: those matched by the
// `psconfig.files` globs and, with `psconfig.detectByContent`, those whose top level has `tasks` and `groups`.
//
// No loops, no fighting the user: only `json` documents are looked at (a switched document reopens as
// `psconfig` and is ignored); a switch already under way is not repeated; and a document the user turns back
// into JSON (its `psconfig` copy closes and a `json` copy opens in the same tick) is left alone for the session.
import * as vscode from 'vscode';
import { LANGUAGE_ID } from './language-id';
import { isAgentConfigFile, looksLikeMeshConfig, looksLikeTemplate } from './template-detection';
import { TASK_DOCUMENT_SCHEME } from './document-schemes';

export class TemplateLanguageSwitch implements vscode.Disposable {
  private readonly pending = new Map<string, Promise<void>>();
  private readonly optedOut = new Set<string>();
  private readonly justClosedTemplates = new Set<string>();
  private readonly disposables: vscode.Disposable[] = [];
  /** Number of documents switched so far (for the log and tests). */
  switched = 0;

  constructor(private readonly output: vscode.OutputChannel) {
    this.disposables.push(
      vscode.workspace.onDidOpenTextDocument((doc) => this.check(doc)),
      vscode.workspace.onDidCloseTextDocument((doc) => this.noteClosed(doc)),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('psconfig.files') || e.affectsConfiguration('psconfig.detectByContent'))
          this.checkAll();
      }),
    );
  }

  checkAll(): void {
    for (const doc of vscode.workspace.textDocuments) this.check(doc);
  }

  /** Why `doc` is a template ('glob' or 'content', or 'meshconfig' for a MeshConfig file the server offers to
   *  translate), or undefined. Only for `json` documents; never for the agents' own configuration files. */
  reason(doc: vscode.TextDocument): 'glob' | 'content' | 'meshconfig' | undefined {
    if (doc.languageId !== 'json' || doc.uri.scheme === TASK_DOCUMENT_SCHEME) return undefined;
    if (isAgentConfigFile(doc.uri.path)) return undefined;
    const config = vscode.workspace.getConfiguration('psconfig', doc.uri);
    const globs = config.get<string[]>('files') ?? [];
    if (globs.some((pattern) => vscode.languages.match({ pattern }, doc) > 0)) return 'glob';
    if (!config.get<boolean>('detectByContent', true)) return undefined;
    const text = doc.getText();
    if (looksLikeTemplate(text)) return 'content';
    if (looksLikeMeshConfig(text)) return 'meshconfig';
    return undefined;
  }

  private check(doc: vscode.TextDocument): void {
    if (doc.languageId !== 'json') return;
    const key = doc.uri.toString();
    if (this.justClosedTemplates.has(key)) {
      // The user changed this template's language to JSON: respect that from now on.
      this.optedOut.add(key);
      this.output.appendLine(`${doc.uri.fsPath || key}: kept as JSON (language chosen by the user)`);
      return;
    }
    if (this.pending.has(key) || this.optedOut.has(key)) return;
    const reason = this.reason(doc);
    if (reason) void this.switchLanguage(doc, reason);
  }

  /**
   * The `psconfig` document of `doc`'s file: `doc` itself, the result of a switch under way, or of a switch made
   * now (an explicit request, for example Preview Expanded Tasks on a JSON file, overrides detection).
   */
  async asTemplate(doc: vscode.TextDocument): Promise<vscode.TextDocument> {
    if (doc.languageId === LANGUAGE_ID) return doc;
    const key = doc.uri.toString();
    await (this.pending.get(key) ??
      (doc.languageId === 'json' ? this.switchLanguage(doc, 'request') : Promise.resolve()));
    return (
      vscode.workspace.textDocuments.find((d) => d.uri.toString() === key && d.languageId === LANGUAGE_ID) ??
      vscode.languages.setTextDocumentLanguage(doc, LANGUAGE_ID)
    );
  }

  private switchLanguage(
    doc: vscode.TextDocument,
    reason: 'glob' | 'content' | 'meshconfig' | 'request',
  ): Promise<void> {
    const key = doc.uri.toString();
    const why =
      reason === 'glob'
        ? 'psconfig.files'
        : reason === 'content'
          ? 'top-level tasks and groups'
          : reason === 'meshconfig'
            ? 'a MeshConfig file, to translate'
            : 'requested';
    const done = Promise.resolve(vscode.languages.setTextDocumentLanguage(doc, LANGUAGE_ID))
      .then(
        () => {
          this.switched++;
          this.output.appendLine(`${doc.uri.fsPath || key}: pSConfig template (${why})`);
        },
        (err: unknown) =>
          this.output.appendLine(
            `${key}: could not switch to pSConfig: ${err instanceof Error ? err.message : String(err)}`,
          ),
      )
      .finally(() => this.pending.delete(key));
    this.pending.set(key, done);
    return done;
  }

  private noteClosed(doc: vscode.TextDocument): void {
    if (doc.languageId !== LANGUAGE_ID) return;
    const key = doc.uri.toString();
    this.justClosedTemplates.add(key);
    // A language change closes and reopens the document synchronously; a real close leaves nothing behind.
    setTimeout(() => this.justClosedTemplates.delete(key), 0);
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
