// The skeleton the extension's webview panels share (the mesh dashboard, the host timeline): which template a
// command argument leaves open, one panel per key (revealed when opened again), its page loaded from dist/webview/,
// the page's typed messages handed to a pure host, the template's edits matched by the server's name for it, and
// everything let go when the panel closes. Each panel keeps its own host, arguments and summary.
import * as vscode from 'vscode';
import type { TemplateChangedParams } from '../../../common/protocol';

/** What every template panel is given by extension.ts. */
export interface TemplatePanelDeps {
  context: vscode.ExtensionContext;
  log: vscode.LogOutputChannel;
  /** The server's name for a document (to match template-changed notifications). */
  serverUri(template: vscode.Uri): Promise<string>;
  onTemplateChanged: vscode.Event<TemplateChangedParams>;
  /** The template the Tasks view shows (its context menu passes only the node). */
  tasksTemplate(): vscode.Uri | undefined;
}

/** The page side of a panel's host: it answers the page's messages and lets go of its timers. */
export interface PanelHost<ToHost> {
  handle(msg: ToHost): unknown;
  dispose(): void;
}

/** The URIs a page's HTML loads, as the webview can load them. */
export interface PageUris {
  scriptUri: string;
  styleUri: string;
  cspSource: string;
  title: string;
}

export interface PanelOptions<Host extends PanelHost<ToHost>, ToHost, FromHost> {
  /** The extension's folder (its dist/webview/ holds the pages). */
  extensionUri: vscode.Uri;
  key: string;
  /** The panel's view type (`psconfig.dashboard`). */
  viewType: string;
  title: string;
  /** The page's bundle and style in dist/webview/ (`dashboard.js`, `dashboard.css`). */
  script: string;
  style: string;
  html(uris: PageUris): string;
  /** The panel's host, given the function that posts to the page. */
  host(post: (msg: FromHost) => void): Host;
  /** What else the panel listens to while it is open (disposed with it). */
  listen?(host: Host): vscode.Disposable[];
  /** Called first when the panel closes. */
  onDispose?(): void;
}

/** The template a panel command opens: the one the argument names, else the active pSConfig editor's, else the
 *  Tasks view's; none: `warning` is shown. */
export function templateOf(
  named: vscode.Uri | undefined,
  deps: Pick<TemplatePanelDeps, 'tasksTemplate'>,
  warning: string,
): vscode.Uri | undefined {
  const editor = vscode.window.activeTextEditor?.document;
  const uri = named ?? (editor?.languageId === 'psconfig' ? editor.uri : deps.tasksTemplate());
  if (!uri) void vscode.window.showWarningMessage(warning);
  return uri;
}

/** The file name a panel's title shows. */
export function fileName(uri: vscode.Uri): string {
  return uri.path.split('/').pop() ?? uri.toString();
}

/** Calls `changed` on every template-changed notification about `uri` (named as the server names it). */
export function onTemplateEdited(deps: TemplatePanelDeps, uri: vscode.Uri, changed: () => void): vscode.Disposable {
  const serverUri = deps.serverUri(uri).catch(() => uri.toString());
  return deps.onTemplateChanged(async (p) => {
    if (p.uri === (await serverUri)) changed();
  });
}

/** A pure host's log lines into the panel's output channel. */
export function logTo(log: vscode.LogOutputChannel): (level: 'info' | 'error', text: string) => void {
  return (level, text) => (level === 'error' ? log.error(text) : log.info(text));
}

/** A message from a page: an object with a string `type` (anything else is dropped). */
export function isPageMessage(m: unknown): boolean {
  return !!m && typeof m === 'object' && typeof (m as { type?: unknown }).type === 'string';
}

/** The open panels of one kind, one per key. */
export class PanelSet<Host extends PanelHost<ToHost>, ToHost, FromHost> {
  private readonly open = new Map<string, { panel: vscode.WebviewPanel; host: Host }>();

  /** The open panel of `key`, left where it is. */
  get(key: string): { panel: vscode.WebviewPanel; host: Host } | undefined {
    return this.open.get(key);
  }

  /** The open panel of `key`, revealed. */
  reveal(key: string): { panel: vscode.WebviewPanel; host: Host } | undefined {
    const existing = this.open.get(key);
    existing?.panel.reveal();
    return existing;
  }

  create(o: PanelOptions<Host, ToHost, FromHost>): { panel: vscode.WebviewPanel; host: Host } {
    const dist = vscode.Uri.joinPath(o.extensionUri, 'dist', 'webview');
    const panel = vscode.window.createWebviewPanel(o.viewType, o.title, vscode.ViewColumn.Active, {
      enableScripts: true,
      localResourceRoots: [dist],
      retainContextWhenHidden: true,
    });
    const asUri = (file: string): string => panel.webview.asWebviewUri(vscode.Uri.joinPath(dist, file)).toString();
    const host = o.host((msg) => void panel.webview.postMessage(msg));
    this.open.set(o.key, { panel, host });
    const subs = [
      panel.webview.onDidReceiveMessage((m: unknown) => {
        if (isPageMessage(m)) void host.handle(m as ToHost);
      }),
      ...(o.listen?.(host) ?? []),
    ];
    panel.onDidDispose(() => {
      o.onDispose?.();
      host.dispose();
      for (const s of subs) s.dispose();
      if (this.open.get(o.key)?.panel === panel) this.open.delete(o.key);
    });
    panel.webview.html = o.html({
      scriptUri: asUri(o.script),
      styleUri: asUri(o.style),
      cspSource: panel.webview.cspSource,
      title: o.title,
    });
    return { panel, host };
  }
}
