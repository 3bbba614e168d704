// Helpers for the suite that runs inside the extension host: open workspace templates, wait for state by
// events or polling (never fixed sleeps), find positions by text, and run the extension's own CLI.
import * as vscode from 'vscode';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { writeFileSync, readFileSync } from 'node:fs';

export const EXTENSION_ID = 'perfsonar-tools.psconfig-vscode';

export function extension(): vscode.Extension<unknown> {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  if (!ext) throw new Error(`extension ${EXTENSION_ID} is not installed in this host`);
  return ext;
}

export function workspaceDir(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('the e2e suite needs a workspace folder (the runner opens one)');
  return folder.uri.fsPath;
}

export function workspaceUri(name: string): vscode.Uri {
  return vscode.Uri.file(join(workspaceDir(), name));
}

/** Writes a copy of a workspace template under a new name, so a test that edits it leaves the original alone. */
export function copyTemplate(from: string, to: string): vscode.Uri {
  writeFileSync(join(workspaceDir(), to), readFileSync(join(workspaceDir(), from)));
  return workspaceUri(to);
}

export async function openTemplate(
  name: string | vscode.Uri,
): Promise<{ doc: vscode.TextDocument; editor: vscode.TextEditor }> {
  const uri = typeof name === 'string' ? workspaceUri(name) : name;
  const doc = await vscode.workspace.openTextDocument(uri);
  const editor = await vscode.window.showTextDocument(doc, { preview: false });
  return { doc, editor };
}

/** Polls `probe` until it returns a value other than undefined/false; fails with `what` and the last error. */
export async function waitFor<T>(
  what: string,
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 45_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (e) {
      lastError = e;
    }
    if (Date.now() > deadline) {
      const why = lastError instanceof Error ? `: ${lastError.message}` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${why}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The code lens of `uri` running `command` on `task` (its argument's `task`), once the lenses list it resolved. */
export function lensOf(uri: vscode.Uri, command: string, task: string, timeoutMs?: number): Promise<vscode.CodeLens> {
  return waitFor(
    `the ${command} lens of ${task}`,
    async () => {
      const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, 20);
      return lenses?.find(
        (l) =>
          l.command?.command === command && (l.command.arguments?.[0] as { task?: string } | undefined)?.task === task,
      );
    },
    timeoutMs,
  );
}

/** Resolves with the document's diagnostics once `accept` holds, re-checking on each diagnostics change. */
export function waitForDiagnostics(
  uri: vscode.Uri,
  accept: (d: vscode.Diagnostic[]) => boolean,
  timeoutMs = 45_000,
): Promise<vscode.Diagnostic[]> {
  return new Promise((resolve, reject) => {
    const check = (): boolean => {
      const diags = vscode.languages.getDiagnostics(uri);
      if (!accept(diags)) return false;
      finish();
      resolve(diags);
      return true;
    };
    const sub = vscode.languages.onDidChangeDiagnostics((e) => {
      if (e.uris.some((u) => u.toString() === uri.toString())) check();
    });
    const timer = setTimeout(() => {
      finish();
      const now = vscode.languages.getDiagnostics(uri).map(describeDiagnostic).join('\n  ');
      reject(
        new Error(
          `timed out after ${timeoutMs} ms waiting for diagnostics of ${uri.fsPath}; now:\n  ${now || '(none)'}`,
        ),
      );
    }, timeoutMs);
    const finish = (): void => {
      clearTimeout(timer);
      sub.dispose();
    };
    check();
  });
}

export function describeDiagnostic(d: vscode.Diagnostic): string {
  const r = d.range;
  const code = typeof d.code === 'object' ? d.code.value : d.code;
  return `${r.start.line + 1}:${r.start.character + 1}-${r.end.line + 1}:${r.end.character + 1} ${vscode.DiagnosticSeverity[d.severity]} ${code ?? ''} ${d.message}`;
}

/**
 * The position of the `nth` (0-based) occurrence of `needle` in the document, moved `delta` characters
 * from its start (so `"mesh-all"` with delta 1 is just inside the opening quote).
 */
export function positionOf(doc: vscode.TextDocument, needle: string, delta = 0, nth = 0): vscode.Position {
  const text = doc.getText();
  let at = -1;
  for (let i = 0; i <= nth; i++) {
    at = text.indexOf(needle, at + 1);
    if (at < 0) throw new Error(`"${needle}" occurs fewer than ${nth + 1} times in ${doc.uri.fsPath}`);
  }
  return doc.positionAt(at + delta);
}

/** The range of the `nth` occurrence of `needle`. */
export function rangeOf(doc: vscode.TextDocument, needle: string, nth = 0): vscode.Range {
  const start = positionOf(doc, needle, 0, nth);
  return new vscode.Range(start, doc.positionAt(doc.offsetAt(start) + needle.length));
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the installed extension's own CLI bundle (dist/cli.js) with the host's Node. */
export function runCli(args: string[], cwd?: string): Promise<CliResult> {
  const cli = join(extension().extensionPath, 'dist', 'cli.js');
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [cli, ...args],
      {
        env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
        cwd,
        maxBuffer: 64 * 1024 * 1024,
        timeout: 120_000,
      },
      (err, stdout, stderr) => {
        const code =
          err && typeof (err as NodeJS.ErrnoException & { code?: unknown }).code === 'number'
            ? Number((err as { code: number }).code)
            : err
              ? 1
              : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** Item labels of completion results, as plain strings. */
export function completionLabels(list: vscode.CompletionList): string[] {
  return list.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
}
