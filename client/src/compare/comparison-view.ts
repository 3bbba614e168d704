// The Task Changes view: the latest comparison of a template with another version of it (HEAD, or a file), as the
// pure ComparisonTreeModel lays it out. It shows once a comparison was asked for, and compares again (debounced)
// while the template is edited and the view is visible.
import * as vscode from 'vscode';
import type { CompareTasksResult } from '../../../common/protocol';
import type { ComparisonClient } from './comparison-client';
import {
  ComparisonTreeModel,
  snapshotComparison,
  type ComparisonItemView,
  type ComparisonNode,
  type ComparisonSnapshotNode,
  type ComparisonState,
} from './comparison-tree';

export const COMPARISON_VIEW_ID = 'psconfig.taskComparison';
export const OPEN_TASK_COMPARISON_COMMAND = 'psconfig.openTaskComparison';
/** The context key that shows the view (package.json `views` … `when`). */
const SHOWN_KEY = 'psconfig.taskComparison.shown';
const REFRESH_DEBOUNCE_MS = 1000;

/** The other version: HEAD's text (read again on each comparison), or a file's. */
export interface ComparisonBase {
  /** How the base is named: `HEAD`, or the file's workspace-relative path. */
  label: string;
  read(): Promise<string>;
}

const COLORS: Partial<Record<ComparisonItemView['icon'], string>> = {
  'diff-removed': 'gitDecoration.deletedResourceForeground',
  'diff-added': 'gitDecoration.addedResourceForeground',
  'diff-modified': 'gitDecoration.modifiedResourceForeground',
  error: 'problemsErrorIcon.foreground',
  warning: 'problemsWarningIcon.foreground',
};

export class ComparisonView implements vscode.TreeDataProvider<ComparisonNode>, vscode.Disposable {
  private current = new ComparisonTreeModel({ kind: 'none' });
  private readonly changed = new vscode.EventEmitter<ComparisonNode | undefined | void>();
  readonly onDidChangeTreeData = this.changed.event;
  readonly view: vscode.TreeView<ComparisonNode>;
  private readonly disposables: vscode.Disposable[] = [];
  private compared: { template: vscode.Uri; base: ComparisonBase } | undefined;
  private cts: vscode.CancellationTokenSource | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private generation = 0;

  constructor(private readonly client: ComparisonClient) {
    this.view = vscode.window.createTreeView(COMPARISON_VIEW_ID, { treeDataProvider: this, showCollapseAll: true });
    this.disposables.push(
      this.view,
      this.changed,
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length && this.compared?.template.toString() === e.document.uri.toString())
          this.schedule();
      }),
      this.view.onDidChangeVisibility((e) => {
        if (e.visible && this.timer === undefined && this.stale) void this.refresh();
      }),
    );
  }

  private stale = false;

  get model(): ComparisonTreeModel {
    return this.current;
  }

  /** Compares `template` with `base` and shows the result (focusing the view). */
  async compare(template: vscode.Uri, base: ComparisonBase): Promise<ComparisonTreeModel> {
    this.compared = { template, base };
    await vscode.commands.executeCommand('setContext', SHOWN_KEY, true);
    await vscode.commands.executeCommand(`${COMPARISON_VIEW_ID}.focus`);
    return this.refresh();
  }

  /** Compares again (the template's current text, the base read again). */
  async refresh(): Promise<ComparisonTreeModel> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const c = this.compared;
    if (!c) return this.current;
    this.stale = false;
    this.cts?.cancel();
    const cts = (this.cts = new vscode.CancellationTokenSource());
    const generation = ++this.generation;
    const template = c.template.toString();
    const show = (state: ComparisonState): ComparisonTreeModel => {
      if (generation === this.generation) {
        this.current = new ComparisonTreeModel(state);
        this.view.message = undefined;
        this.view.description = this.current.headline;
        this.changed.fire();
      }
      return this.current;
    };
    if (this.current.state.kind !== 'result' || this.current.state.template !== template)
      show({ kind: 'loading', template, base: c.base.label });
    try {
      const text = await c.base.read();
      let result: CompareTasksResult = await this.client.compare(
        c.template,
        { text, source: c.base.label },
        false,
        cts.token,
      );
      // Superseded by an edit while the worker compared: once more on the newer text.
      if (result.cancelled && !cts.token.isCancellationRequested)
        result = await this.client.compare(c.template, { text, source: c.base.label }, false, cts.token);
      return show({ kind: 'result', template, base: c.base.label, result });
    } catch (err) {
      return show({
        kind: 'failed',
        template,
        base: c.base.label,
        message: err instanceof Error ? err.message : String(err),
      });
    }
  }

  /** The items `depth` levels deep (for tests driving the extension). */
  snapshot(depth: number): ComparisonSnapshotNode[] {
    return snapshotComparison(this.current, depth);
  }

  getTreeItem(node: ComparisonNode): vscode.TreeItem {
    const v = this.current.item(node);
    const item = new vscode.TreeItem(
      v.label,
      v.collapsible === 'collapsed'
        ? vscode.TreeItemCollapsibleState.Collapsed
        : v.collapsible === 'expanded'
          ? vscode.TreeItemCollapsibleState.Expanded
          : vscode.TreeItemCollapsibleState.None,
    );
    item.id = v.id;
    item.description = v.description;
    item.tooltip = v.tooltip;
    item.contextValue = v.contextValue;
    const color = COLORS[v.icon];
    item.iconPath = new vscode.ThemeIcon(v.icon, color ? new vscode.ThemeColor(color) : undefined);
    if (v.open)
      item.command = { command: OPEN_TASK_COMPARISON_COMMAND, title: 'Compare Task JSON', arguments: [v.open] };
    return item;
  }

  getChildren(node?: ComparisonNode): ComparisonNode[] {
    return node ? this.current.children(node) : this.current.roots();
  }

  private schedule(): void {
    if (!this.view.visible) {
      this.stale = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.refresh(), REFRESH_DEBOUNCE_MS);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.cts?.cancel();
    for (const d of this.disposables) d.dispose();
  }
}
