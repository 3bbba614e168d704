// The status-bar item of the active template while its working copy differs from HEAD: `−1,204 tasks on 37
// agents`, or nothing when the change leaves every task as it was. Compared in the server's worker after each pause
// in typing, on save, and when HEAD moves; clicking it opens the comparison (Compare Tasks with HEAD).
import * as vscode from 'vscode';
import type { ComparisonClient } from './comparison-client';
import { statusText } from './comparison-tree';
import { headVersion } from './git-head';

const LANGUAGE_ID = 'psconfig';
const DEBOUNCE_MS = 1500;
export const COMPARE_WITH_HEAD_COMMAND = 'psconfig.compareTasksWithHead';

export class ComparisonStatusBar implements vscode.Disposable {
  readonly item: vscode.StatusBarItem;
  private readonly disposables: vscode.Disposable[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private cts: vscode.CancellationTokenSource | undefined;
  private readonly watched = new Set<string>();
  /** What the item shows now, for tests (undefined: hidden). */
  shown: string | undefined;
  private settled: Promise<void> = Promise.resolve();

  constructor(private readonly client: ComparisonClient) {
    this.item = vscode.window.createStatusBarItem('psconfig.taskChanges', vscode.StatusBarAlignment.Left, 10);
    this.item.name = 'pSConfig Task Changes';
    this.item.command = COMPARE_WITH_HEAD_COMMAND;
    this.disposables.push(
      this.item,
      vscode.window.onDidChangeActiveTextEditor(() => this.schedule(0)),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length && e.document === vscode.window.activeTextEditor?.document) this.schedule();
      }),
      vscode.workspace.onDidSaveTextDocument((d) => {
        if (d === vscode.window.activeTextEditor?.document) this.schedule(0);
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('psconfig.compare.statusBar')) this.schedule(0);
      }),
    );
    this.schedule(0);
  }

  /** Resolves when the update in progress (if any) has finished: for tests. */
  async idle(): Promise<void> {
    while (this.timer) await new Promise((r) => setTimeout(r, 50));
    await this.settled;
  }

  private schedule(delay = DEBOUNCE_MS): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.settled = this.update().catch(() => this.hide());
    }, delay);
  }

  private hide(): void {
    this.shown = undefined;
    this.item.hide();
  }

  private async update(): Promise<void> {
    this.cts?.cancel();
    const cts = (this.cts = new vscode.CancellationTokenSource());
    const doc = vscode.window.activeTextEditor?.document;
    const enabled = vscode.workspace.getConfiguration('psconfig').get<boolean>('compare.statusBar', true);
    if (!enabled || !doc || doc.languageId !== LANGUAGE_ID || doc.uri.scheme !== 'file') return this.hide();
    const head = await headVersion(doc.uri);
    this.watch(head.repository);
    if (cts.token.isCancellationRequested) return;
    if (head.text === doc.getText()) return this.hide();
    const r = await this.client.compare(doc.uri, { text: head.text, source: 'HEAD' }, true, cts.token);
    if (cts.token.isCancellationRequested || r.cancelled) return;
    const view = r.diff && !r.error ? statusText(r.diff) : undefined;
    if (!view) return this.hide();
    this.item.text = view.text;
    this.item.tooltip = view.tooltip;
    this.item.backgroundColor = view.warn ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.shown = view.text;
    this.item.show();
  }

  /** HEAD moving (a commit, a checkout) changes what the working copy is compared with. */
  private watch(repository: {
    rootUri: vscode.Uri;
    state: { HEAD?: { commit?: string }; onDidChange: vscode.Event<void> };
  }): void {
    const key = repository.rootUri.toString();
    if (this.watched.has(key)) return;
    this.watched.add(key);
    // The state changes with every refresh of git's status; only a new HEAD commit matters here.
    let commit = repository.state.HEAD?.commit;
    this.disposables.push(
      repository.state.onDidChange(() => {
        if (repository.state.HEAD?.commit === commit) return;
        commit = repository.state.HEAD?.commit;
        this.schedule(0);
      }),
    );
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.cts?.cancel();
    for (const d of this.disposables) d.dispose();
  }
}
