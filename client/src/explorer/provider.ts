// VS Code side of the archive explorer: the webview view `psconfig.archiveExplorer` (state kept when hidden), and
// the commands Add Archive…, Set Archive Token… and Open Archive Explorer. Archive logic lives in host.ts (pure).
// Bundled on its own (dist/archive-explorer.js, with the archive client and undici) and loaded by the extension
// the first time the view is shown or one of the commands runs.
import * as vscode from 'vscode';
import { searchMetadata } from '../../../archive-client/search';
import { normaliseArchiveUrl } from '../../../archive-client/url';
import { buildExplorerHtml } from './html';
import { createExplorerHost, type ExplorerHost } from './host';
import type { ArchiveEntry, Prefill, WebviewToHost } from './messages';
import { prefillOf } from './prefill';

export const VIEW_ID = 'psconfig.archiveExplorer';
const SECRET_PREFIX = 'psconfig.archiveToken:';

interface StoredToken {
  token: string;
  tokenOnReads: boolean;
}

/** The `psconfig.archives` setting, tolerating hand-edited entries that are not `{ name, url }`. */
export function readArchives(): ArchiveEntry[] {
  const raw = vscode.workspace.getConfiguration('psconfig').get<unknown>('archives', []);
  if (!Array.isArray(raw)) return [];
  const out: ArchiveEntry[] = [];
  for (const a of raw) {
    if (a && typeof a === 'object' && typeof (a as ArchiveEntry).url === 'string') {
      const url = (a as ArchiveEntry).url;
      out.push({ name: typeof (a as ArchiveEntry).name === 'string' ? (a as ArchiveEntry).name : url, url });
    }
  }
  return out;
}

function secretKey(url: string): string {
  let normal = url;
  try {
    normal = normaliseArchiveUrl(url);
  } catch {
    /* keyed by the text as given */
  }
  return SECRET_PREFIX + normal;
}

async function readToken(secrets: vscode.SecretStorage, url: string): Promise<StoredToken | undefined> {
  const text = await secrets.get(secretKey(url));
  if (!text) return undefined;
  try {
    const v = JSON.parse(text) as Partial<StoredToken>;
    return typeof v.token === 'string' ? { token: v.token, tokenOnReads: v.tokenOnReads === true } : undefined;
  } catch {
    return undefined;
  }
}

/** The token settings of an archive as the explorer stores them (the dashboard reads the same). */
export async function archiveCredentials(
  secrets: vscode.SecretStorage,
  url: string,
): Promise<{ token?: string; tokenOnReads: boolean }> {
  return (await readToken(secrets, url)) ?? { tokenOnReads: false };
}

function isWebviewMessage(m: unknown): m is WebviewToHost {
  return !!m && typeof m === 'object' && typeof (m as { type?: unknown }).type === 'string';
}

class ArchiveExplorerProvider implements vscode.WebviewViewProvider {
  private view?: vscode.WebviewView;
  private host?: ExplorerHost;
  private pending?: Prefill;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    const dist = vscode.Uri.joinPath(this.context.extensionUri, 'dist', 'webview');
    view.webview.options = { enableScripts: true, localResourceRoots: [dist] };
    const uri = (file: string): string => view.webview.asWebviewUri(vscode.Uri.joinPath(dist, file)).toString();
    const host = createExplorerHost({
      post: (msg) => void view.webview.postMessage(msg),
      archives: readArchives,
      credentials: async (url) => (await readToken(this.context.secrets, url)) ?? { tokenOnReads: false },
      save: (name, text, format) => saveExport(name, text, format),
      command: (name, archive) =>
        void vscode.commands.executeCommand(
          name === 'addArchive' ? 'psconfig.addArchive' : 'psconfig.setArchiveToken',
          archive,
        ),
      log: (level, text) => (level === 'error' ? this.log.error(text) : this.log.info(text)),
      maxResponseBytes: () => {
        const mb = vscode.workspace.getConfiguration('psconfig').get<number>('archive.maxResponseMb');
        return typeof mb === 'number' && mb > 0 ? mb * 1024 * 1024 : undefined;
      },
    });
    this.view = view;
    this.host = host;
    const subs = [
      view.webview.onDidReceiveMessage((m: unknown) => {
        if (isWebviewMessage(m)) void host.handle(m);
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('psconfig.archives')) host.archivesChanged();
      }),
    ];
    view.onDidDispose(() => {
      for (const s of subs) s.dispose();
      if (this.view === view) {
        this.view = undefined;
        this.host = undefined;
      }
    });
    if (this.pending) host.prefill(this.pending);
    this.pending = undefined;
    view.webview.html = buildExplorerHtml({
      scriptUri: uri('explorer.js'),
      styleUris: [uri('uPlot.min.css'), uri('explorer.css')],
      cspSource: view.webview.cspSource,
    });
  }

  /** Show the view and pre-fill its search (sent once the webview is ready). */
  async open(p?: Prefill): Promise<void> {
    await vscode.commands.executeCommand(`${VIEW_ID}.focus`);
    if (!p) return;
    if (this.host && this.view) {
      this.view.show(true);
      this.host.prefill(p);
    } else this.pending = p;
  }
}

async function saveExport(name: string, text: string, format: 'csv' | 'json'): Promise<{ path: string } | undefined> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const target = await vscode.window.showSaveDialog({
    defaultUri: folder ? vscode.Uri.joinPath(folder, name) : undefined,
    filters: format === 'csv' ? { CSV: ['csv'] } : { JSON: ['json'] },
    saveLabel: 'Export',
  });
  if (!target) return undefined;
  await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(text));
  return { path: target.fsPath };
}

async function addArchive(): Promise<void> {
  const name = await vscode.window.showInputBox({
    title: 'Add Archive (1/2)',
    prompt: 'A name for the archive',
    validateInput: (v) => (v.trim() ? undefined : 'Give it a name'),
  });
  if (name === undefined) return;
  const url = await vscode.window.showInputBox({
    title: 'Add Archive (2/2)',
    prompt: 'Archive URL (https://host, or …/esmond/perfsonar/archive/)',
    placeHolder: 'https://ps.example.net/esmond/perfsonar/archive/',
    validateInput: (v) => {
      try {
        normaliseArchiveUrl(v);
        return undefined;
      } catch (e) {
        return e instanceof Error ? e.message : String(e);
      }
    },
  });
  if (url === undefined) return;
  const normal = normaliseArchiveUrl(url);
  const problem = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Checking ${normal}…` },
    async () => {
      try {
        await searchMetadata({ url: normal, timeoutMs: 10000 }, { limit: 1 });
        return undefined;
      } catch (e) {
        return e instanceof Error ? e.message : String(e);
      }
    },
  );
  if (problem) {
    const pick = await vscode.window.showWarningMessage(
      `The archive did not answer a search: ${problem}`,
      'Add Anyway',
      'Cancel',
    );
    if (pick !== 'Add Anyway') return;
  }
  const config = vscode.workspace.getConfiguration('psconfig');
  const list = readArchives();
  if (list.some((a) => a.url === normal)) {
    void vscode.window.showInformationMessage(`${normal} is already in psconfig.archives.`);
    return;
  }
  await config.update('archives', [...list, { name: name.trim(), url: normal }], vscode.ConfigurationTarget.Global);
  void vscode.window.showInformationMessage(`Added archive ${name.trim()} (${normal}).`);
}

async function setArchiveToken(secrets: vscode.SecretStorage, archive?: string): Promise<void> {
  let url = typeof archive === 'string' && archive ? archive : undefined;
  if (!url) {
    const items = readArchives().map((a) => ({ label: a.name, description: a.url, url: a.url }));
    if (!items.length) {
      void vscode.window.showWarningMessage('No archive configured: run "pSConfig: Add Archive…" first.');
      return;
    }
    url = (await vscode.window.showQuickPick(items, { title: 'Set Archive Token', placeHolder: 'Which archive?' }))
      ?.url;
    if (!url) return;
  }
  const token = await vscode.window.showInputBox({
    title: `API token for ${url}`,
    prompt: 'esmond API key (sent as "Authorization: Token …"). Leave empty to remove the stored token.',
    password: true,
    ignoreFocusOut: true,
    validateInput: (v) => (/\s/.test(v.trim()) ? 'A token has no spaces' : undefined),
  });
  if (token === undefined) return;
  if (token.trim() === '') {
    await secrets.delete(secretKey(url));
    void vscode.window.showInformationMessage(`Removed the token of ${url}.`);
    return;
  }
  const reads = await vscode.window.showQuickPick(
    [
      {
        label: 'Writes only',
        description: 'recommended: esmond rejects every request, reads too, when a token is invalid',
        onReads: false,
      },
      { label: 'Reads and writes', description: 'for archives that require authentication to read', onReads: true },
    ],
    { title: 'Send the token on…' },
  );
  if (!reads) return;
  const stored: StoredToken = { token: token.trim(), tokenOnReads: reads.onReads };
  await secrets.store(secretKey(url), JSON.stringify(stored));
  void vscode.window.showInformationMessage(
    `Stored the token of ${url} in VS Code's secret storage (${reads.label.toLowerCase()}).`,
  );
}

/** What the extension's lazy stand-in (client/src/extension.ts) delegates to once this module is loaded. */
export interface ArchiveExplorer {
  provider: vscode.WebviewViewProvider;
  addArchive(): Promise<void>;
  setArchiveToken(archive?: unknown): Promise<void>;
  open(arg?: unknown): Promise<void>;
  /** The token settings of an archive as stored by Set Archive Token… (the dashboard reads with the same). */
  credentials(url: string): Promise<{ token?: string; tokenOnReads: boolean }>;
  disposables: vscode.Disposable[];
}

/** The explorer view's provider and its commands (registered by the caller under VIEW_ID and the command ids). */
export function createArchiveExplorer(context: vscode.ExtensionContext): ArchiveExplorer {
  const log = vscode.window.createOutputChannel('pSConfig Archive Explorer', { log: true });
  const provider = new ArchiveExplorerProvider(context, log);
  return {
    provider,
    addArchive: () => addArchive(),
    setArchiveToken: (archive) => setArchiveToken(context.secrets, typeof archive === 'string' ? archive : undefined),
    open: (arg) => provider.open(prefillOf(arg)),
    credentials: (url) => archiveCredentials(context.secrets, url),
    disposables: [log],
  };
}
