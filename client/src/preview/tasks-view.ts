// The Tasks tree view: follows the active pSConfig template, asks the server for its expansion, and maps the
// pure TaskTreeModel onto TreeItems. Refreshes are debounced and happen only while the view is visible (a
// hidden view just remembers it is stale); a newer refresh cancels an older request.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { emptyExpansionResult, type ExpandTasksResult } from '../../../common/protocol';
import { LANGUAGE_ID } from '../language/language-id';
import { agentAddressList } from '../language/server-settings';
import type { ExpansionClient } from './expansion-client';
import type { TaskDocumentAddress } from './task-json';
import {
  TaskTreeModel,
  type PreviewState,
  type TaskTreeNode,
  type TreeItemView,
  type TreeSnapshotNode,
} from './task-tree-model';

export const TASKS_VIEW_ID = 'psconfig.tasks';
export const OPEN_TASK_JSON_COMMAND = 'psconfig.openTaskJson';
export const SHOW_MORE_COMMAND = 'psconfig.tasks.showMore';
/**
 * The tree asks the server for at most this many combinations (about 4 MB of JSON). Beyond it the tree lists the
 * agents and expands each one on demand (TaskTreeModel.lazyAgents): a 200-address mesh (39,800 tasks, 17 MB
 * as one result) then costs a small summary request plus one request per agent opened.
 */
export const TREE_COMBINATION_LIMIT = 10_000;
/**
 * One agent's tasks, asked for when the agent is opened in a large template: bounded like every preview answer (the
 * server also stops at 4 MB of task JSON), so a template with one agent and millions of combinations, or huge
 * strings in every task, cannot send the editor an unbounded answer.
 */
export const AGENT_COMBINATION_LIMIT = 100_000;
const REFRESH_DEBOUNCE_MS = 400;

export function configuredAgentAddresses(): string[] {
  return agentAddressList(vscode.workspace.getConfiguration('psconfig').get('preview.agentAddresses'));
}

function templateOf(state: PreviewState): string | undefined {
  return state.kind === 'no-template' ? undefined : state.template;
}

export class TasksView implements vscode.TreeDataProvider<TaskTreeNode>, vscode.Disposable {
  private current = new TaskTreeModel({ kind: 'no-template' });
  private templateUri: vscode.Uri | undefined;
  private readonly treeChanged = new vscode.EventEmitter<TaskTreeNode | undefined | void>();
  readonly onDidChangeTreeData = this.treeChanged.event;
  private readonly modelChanged = new vscode.EventEmitter<TaskTreeModel>();
  /** A new model is shown (task documents of that template re-read their content). */
  readonly onDidChangeModel = this.modelChanged.event;
  readonly view: vscode.TreeView<TaskTreeNode>;
  private readonly disposables: vscode.Disposable[] = [];
  private stale = true;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private cts: vscode.CancellationTokenSource | undefined;
  private latest: Promise<ExpandTasksResult | undefined> = Promise.resolve(undefined);
  /** What the request in flight asks for (template, agents, document version, settings): an identical refresh joins it. */
  private latestKey = '';
  /** The same for the result shown: an automatic refresh that would ask for it again is skipped. */
  private shownKey = '';
  /** Bumped when settings that change expansions change (their effect is not in the document version). */
  private settingsEpoch = 0;
  private generation = 0;
  /** Per-agent expansions being fetched for the current model (lazy-agents mode). */
  private agentLoads = new Map<string, Promise<void>>();

  constructor(
    private readonly expansion: ExpansionClient,
    private readonly output: vscode.OutputChannel,
  ) {
    this.view = vscode.window.createTreeView(TASKS_VIEW_ID, { treeDataProvider: this, showCollapseAll: true });
    this.disposables.push(
      this.view,
      this.view.onDidChangeVisibility((e) => {
        if (e.visible && this.stale) void this.refresh();
      }),
      vscode.window.onDidChangeActiveTextEditor((editor) => this.follow(editor?.document)),
      // A JSON file switched to pSConfig while it is the active editor.
      vscode.workspace.onDidOpenTextDocument((doc) => {
        if (vscode.window.activeTextEditor?.document.uri.toString() === doc.uri.toString()) this.follow(doc);
      }),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length > 0 && this.isTemplate(e.document.uri)) this.schedule();
      }),
      vscode.workspace.onDidCloseTextDocument((doc) => {
        if (this.isTemplate(doc.uri)) setTimeout(() => this.forgetIfClosed(doc.uri), 0);
      }),
      expansion.onTemplateChanged((p) => {
        if (!this.isTemplate(vscode.Uri.parse(p.uri))) return;
        // An included file changed: the template's version did not, so the request key must.
        if (p.reason === 'include') this.settingsEpoch++;
        this.schedule();
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('psconfig.preview.agentAddresses')) void this.refresh();
        else if (e.affectsConfiguration('psconfig.jq.path') || e.affectsConfiguration('psconfig.includes')) {
          this.settingsEpoch++;
          this.schedule();
        }
      }),
      this.treeChanged,
      this.modelChanged,
    );
    this.follow(vscode.window.activeTextEditor?.document);
  }

  get model(): TaskTreeModel {
    return this.current;
  }

  get template(): vscode.Uri | undefined {
    return this.templateUri;
  }

  /** Shows `uri`'s tasks from now on (the caller refreshes). */
  setTemplate(uri: vscode.Uri): void {
    if (this.templateUri?.toString() === uri.toString()) return;
    this.templateUri = uri;
    this.stale = true;
  }

  getTreeItem(node: TaskTreeNode): vscode.TreeItem {
    return this.toTreeItem(this.current.item(node), node);
  }

  async getChildren(node?: TaskTreeNode): Promise<TaskTreeNode[]> {
    const model = this.current;
    if (node && model.needsAgentResult(node) && this.templateUri) {
      const template = this.templateUri;
      let load = this.agentLoads.get(node.agent);
      if (!load) {
        load = this.expansion.expand(template, { agentAddresses: [node.agent], limit: AGENT_COMBINATION_LIMIT }).then(
          (r) => model.setAgentResult(node.agent, r),
          (err: unknown) =>
            model.setAgentResult(
              node.agent,
              emptyExpansionResult(template.toString(), null, err instanceof Error ? err.message : String(err)),
            ),
        );
        this.agentLoads.set(node.agent, load);
      }
      await load;
      // A refresh while loading: the new model loads the agent itself.
      if (model !== this.current) return this.getChildren(node);
    }
    return node ? model.children(node) : model.roots();
  }

  /**
   * The items `depth` levels deep, obtained the way the tree view gets them (getChildren), so agents of a large
   * template are expanded on the way, as when a user opens them.
   */
  async walk(depth: number, node?: TaskTreeNode, level = 1): Promise<TreeSnapshotNode[]> {
    const out: TreeSnapshotNode[] = [];
    for (const child of await this.getChildren(node)) {
      const view: TreeSnapshotNode = { ...this.current.item(child) };
      if (view.collapsible === 'collapsed' && level < depth) view.children = await this.walk(depth, child, level + 1);
      out.push(view);
    }
    return out;
  }

  showMore(node: TaskTreeNode): void {
    if (node.kind !== 'more') return;
    this.current.showMore(node);
    this.treeChanged.fire();
  }

  /**
   * Expands the current template now (`force`: even while the view is hidden) and shows the result.
   * Resolves to the result shown, or undefined when there is no template or the request failed. When a newer
   * refresh supersedes this one, it resolves to the newer one's outcome.
   */
  refresh(force = false): Promise<ExpandTasksResult | undefined> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const template = this.templateUri;
    if (!template) {
      this.show({ kind: 'no-template' });
      return Promise.resolve(undefined);
    }
    if (!force && !this.view.visible) {
      this.stale = true;
      return this.latest;
    }
    this.stale = false;
    const key = template.toString();
    const agentAddresses = configuredAgentAddresses();
    const version = vscode.workspace.textDocuments.find((d) => d.uri.toString() === key)?.version;
    const requestKey = JSON.stringify([key, agentAddresses, version, this.settingsEpoch]);
    if (requestKey === this.latestKey || (!force && requestKey === this.shownKey)) return this.latest;
    this.latestKey = requestKey;
    this.cts?.cancel();
    this.cts?.dispose();
    const cts = (this.cts = new vscode.CancellationTokenSource());
    const gen = ++this.generation;
    // Keep showing the previous result of the same template while the new one is computed (no flicker).
    if (templateOf(this.current.state) !== key) this.show({ kind: 'loading', template: key });
    const run = (async (): Promise<ExpandTasksResult | undefined> => {
      let state: PreviewState;
      const started = Date.now();
      try {
        const result = await this.expansion.expand(
          template,
          { agentAddresses, limit: TREE_COMBINATION_LIMIT },
          cts.token,
        );
        state = { kind: 'result', template: key, result, agentAddresses };
        this.output.appendLine(
          `Tasks: ${path.basename(template.path)}: ${result.combinations.length} combinations, ${result.agents.length} agents ` +
            `(server ${Math.round(result.elapsedMs)} ms, round trip ${Date.now() - started} ms)${result.truncated ? ', truncated' : ''}`,
        );
      } catch (err) {
        if (gen !== this.generation) return this.latest;
        state = { kind: 'request-failed', template: key, message: err instanceof Error ? err.message : String(err) };
        this.output.appendLine(`Tasks: expansion of ${key} failed: ${state.message}`);
      }
      if (gen !== this.generation) return this.latest;
      this.latestKey = '';
      this.shownKey = state.kind === 'result' ? requestKey : '';
      this.show(state);
      if (state.kind === 'result' && !state.result.error) this.loadAgentLoads(template, cts.token);
      return state.kind === 'result' ? state.result : undefined;
    })();
    this.latest = run;
    return run;
  }

  /**
   * Each agent's exclusive load, from the template's simulated schedule (psconfig/schedule without tasks or runs:
   * a few numbers per agent, whatever the template's size), shown beside the agents once it arrives.
   */
  private loadAgentLoads(template: vscode.Uri, token: vscode.CancellationToken): void {
    const model = this.current;
    this.expansion.schedule(template, { noTasks: true }, token).then(
      (r) => {
        if (token.isCancellationRequested || model !== this.current || r.error) return;
        model.setLoads(r.agents);
        this.treeChanged.fire();
      },
      (err: unknown) => {
        if (!token.isCancellationRequested)
          this.output.appendLine(
            `Tasks: loads of ${template.toString()}: ${err instanceof Error ? err.message : String(err)}`,
          );
      },
    );
  }

  /** The agents the user can pick: schedulers of the whole template (asks the server when the tree is filtered or cut). */
  async allAgents(): Promise<string[]> {
    const r = this.current.result;
    // The engine lists every scheduling agent even when it cuts the combinations at the limit.
    if (
      r &&
      r.error === undefined &&
      this.current.state.kind === 'result' &&
      this.current.state.agentAddresses.length === 0
    )
      return r.agents;
    if (!this.templateUri) return [];
    const all = await this.expansion.expand(this.templateUri, { agentAddresses: [], limit: TREE_COMBINATION_LIMIT });
    return all.agents;
  }

  private show(state: PreviewState): void {
    const sameTemplate = templateOf(state) !== undefined && templateOf(state) === templateOf(this.current.state);
    this.current = new TaskTreeModel(state, { pages: sameTemplate ? this.current.pages : undefined });
    this.agentLoads = new Map();
    const file = this.templateUri ? path.basename(this.templateUri.path) : '';
    const scope = this.current.scopeDescription();
    this.view.description = [file, scope].filter((s) => s !== '').join(' · ') || undefined;
    this.treeChanged.fire();
    this.modelChanged.fire(this.current);
  }

  private follow(doc: vscode.TextDocument | undefined): void {
    if (!doc || doc.languageId !== LANGUAGE_ID || this.isTemplate(doc.uri)) return;
    this.setTemplate(doc.uri);
    void this.refresh();
  }

  private forgetIfClosed(uri: vscode.Uri): void {
    const key = uri.toString();
    if (
      !this.isTemplate(uri) ||
      vscode.workspace.textDocuments.some((d) => d.uri.toString() === key && d.languageId === LANGUAGE_ID)
    )
      return;
    this.templateUri = undefined;
    this.cts?.cancel();
    this.generation++;
    this.latest = Promise.resolve(undefined);
    this.latestKey = '';
    this.shownKey = '';
    this.show({ kind: 'no-template' });
    this.follow(vscode.window.activeTextEditor?.document);
  }

  private isTemplate(uri: vscode.Uri): boolean {
    return this.templateUri !== undefined && this.templateUri.toString() === uri.toString();
  }

  private schedule(): void {
    if (!this.view.visible) {
      this.stale = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.refresh(), REFRESH_DEBOUNCE_MS);
  }

  private toTreeItem(v: TreeItemView, node: TaskTreeNode): vscode.TreeItem {
    const item = new vscode.TreeItem(
      v.label,
      v.collapsible === 'collapsed' ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
    );
    item.id = v.id;
    item.description = v.description;
    item.tooltip = v.tooltip;
    item.contextValue = v.contextValue;
    const color =
      v.icon === 'error'
        ? new vscode.ThemeColor('problemsErrorIcon.foreground')
        : v.icon === 'warning'
          ? new vscode.ThemeColor('problemsWarningIcon.foreground')
          : v.icon === 'copy' // a duplicate the agent does not create: greyed
            ? new vscode.ThemeColor('disabledForeground')
            : undefined;
    item.iconPath = new vscode.ThemeIcon(v.icon, color);
    if (v.openKey && this.current.state.kind === 'result') {
      // In lazy-agents mode the combination comes from its agent's own expansion: name that scope.
      const scope =
        this.current.lazyAgents && node.kind === 'combination' ? [node.agent] : this.current.state.agentAddresses;
      const address: TaskDocumentAddress = {
        template: this.current.state.template,
        agentAddresses: scope,
        key: v.openKey,
      };
      item.command = { command: OPEN_TASK_JSON_COMMAND, title: 'Open pScheduler Task JSON', arguments: [address] };
    } else if (node.kind === 'more') {
      item.command = { command: SHOW_MORE_COMMAND, title: 'Show more', arguments: [node] };
    }
    return item;
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.cts?.cancel();
    this.cts?.dispose();
    for (const d of this.disposables) d.dispose();
  }
}
