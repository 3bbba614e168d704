// The Hosts view (VS Code glue): what each agent's pScheduler really runs beside what the template makes for it.
// Read on demand only (the view's button, the palette, a task's hosts lens): nothing polls. In a restricted
// workspace nothing is read (the template names the hosts, and its settings their URLs). The reads run in the
// extension host (client/src/hosts/read-hosts.ts, its own bundle); the comparison in the language server's worker
// (psconfig/compareHosts), which keeps it for the task lenses and hovers. The last read of each template is kept here
// for the host timeline (its real runs).
//
// Command return values (tests drive them through vscode.commands.executeCommand):
// - psconfig.readHosts(uri?: Uri | string, options?: { treeDepth?: number }) → HostsViewSummary | undefined.
// - psconfig.showHosts(args?: ShowTasksArgs) → HostsViewSummary | undefined: reveals the task's entries (reading first
//   if this template was never read).
import { readFileSync, statSync } from 'node:fs';
import * as vscode from 'vscode';
import type { HostRead, HostsResult, ShowTasksArgs } from '../../../common/protocol';
import { LANGUAGE_ID } from '../language/language-id';
import type { ExpansionClient } from '../preview/expansion-client';
import { hostsSettingsOf } from './hosts-settings';
import { HostsTreeModel, snapshotHosts, type HostsNode, type HostsSnapshotNode, type HostsState } from './hosts-tree';

export const HOSTS_VIEW_ID = 'psconfig.hosts';
const MAX_CA_BYTES = 1024 * 1024;

export interface HostsViewSummary {
  template: string;
  hosts: string[];
  result?: HostsResult;
  error?: string;
  problems: string[];
  tree: HostsSnapshotNode[];
}

export interface HostsViewDeps {
  expansion: ExpansionClient;
  output: vscode.LogOutputChannel;
  /** The template the Tasks view follows (when no pSConfig editor is active). */
  tasksTemplate: () => vscode.Uri | undefined;
}

export class HostsView implements vscode.TreeDataProvider<HostsNode>, vscode.Disposable {
  private model = new HostsTreeModel({ kind: 'none' });
  private readonly changed = new vscode.EventEmitter<HostsNode | undefined | void>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly readDone = new vscode.EventEmitter<{
    template: vscode.Uri;
    observed: { reads: HostRead[]; result: HostsResult };
  }>();
  /** A template's hosts were read (an open host timeline of it draws the new real runs). */
  readonly onDidRead = this.readDone.event;
  readonly view: vscode.TreeView<HostsNode>;
  private readonly kept = new Map<string, { reads: HostRead[]; result: HostsResult }>();
  private generation = 0;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly d: HostsViewDeps) {
    this.view = vscode.window.createTreeView(HOSTS_VIEW_ID, { treeDataProvider: this, showCollapseAll: true });
    this.disposables.push(
      this.view,
      this.changed,
      this.readDone,
      vscode.commands.registerCommand('psconfig.readHosts', (arg?: unknown, options?: { treeDepth?: number }) =>
        this.read(uriOf(arg) ?? this.defaultTemplate(), options?.treeDepth ?? 3),
      ),
      vscode.commands.registerCommand('psconfig.showHosts', (arg?: ShowTasksArgs) => this.show(arg)),
    );
  }

  /** The last read of a template (for the host timeline's real runs). */
  observed(template: vscode.Uri): { reads: HostRead[]; result: HostsResult } | undefined {
    return this.kept.get(template.toString());
  }

  getTreeItem(node: HostsNode): vscode.TreeItem {
    const v = this.model.item(node);
    const item = new vscode.TreeItem(
      v.label,
      v.collapsible === 'none'
        ? vscode.TreeItemCollapsibleState.None
        : v.collapsible === 'expanded'
          ? vscode.TreeItemCollapsibleState.Expanded
          : vscode.TreeItemCollapsibleState.Collapsed,
    );
    item.description = v.description;
    item.tooltip = v.tooltip;
    const colour =
      v.tone === 'error'
        ? new vscode.ThemeColor('list.errorForeground')
        : v.tone === 'warning'
          ? new vscode.ThemeColor('list.warningForeground')
          : v.tone === 'ok'
            ? new vscode.ThemeColor('testing.iconPassed')
            : undefined;
    item.iconPath = new vscode.ThemeIcon(v.icon, colour);
    item.contextValue = v.contextValue;
    if (node.kind === 'entry') item.id = `${node.host}#${node.index}`;
    else if (node.kind === 'host') item.id = node.report.host;
    return item;
  }

  getChildren(node?: HostsNode): HostsNode[] {
    return node ? this.model.children(node) : this.model.roots();
  }

  getParent(node: HostsNode): HostsNode | undefined {
    if (node.kind !== 'entry') return undefined;
    return this.model.roots().find((n) => n.kind === 'host' && n.report.host === node.host);
  }

  private defaultTemplate(): vscode.Uri | undefined {
    const doc = vscode.window.activeTextEditor?.document;
    return doc?.languageId === LANGUAGE_ID ? doc.uri : this.d.tasksTemplate();
  }

  private setState(state: HostsState): void {
    this.model = new HostsTreeModel(state);
    this.changed.fire();
  }

  private summary(template: string, hosts: string[], problems: string[], depth: number): HostsViewSummary {
    const s = this.model.state;
    const out: HostsViewSummary = { template, hosts, problems, tree: snapshotHosts(this.model, depth) };
    if (s.kind === 'read') out.result = s.result;
    if (s.kind === 'error') out.error = s.error;
    return out;
  }

  /** Reads every host of the template (or psconfig.hosts.addresses) and shows the comparison. */
  async read(template: vscode.Uri | undefined, depth = 3): Promise<HostsViewSummary | undefined> {
    if (!template) {
      void vscode.window.showInformationMessage('Open a pSConfig template to read what its hosts run.');
      return undefined;
    }
    const key = template.toString();
    const mine = ++this.generation;
    const fail = (error: string, hosts: string[] = [], problems: string[] = []): HostsViewSummary => {
      this.setState({ kind: 'error', template: key, error });
      return this.summary(key, hosts, problems, depth);
    };
    if (!vscode.workspace.isTrusted)
      return fail(
        'Hosts are read only in a trusted workspace: the template names the hosts, and its settings their URLs.',
      );
    const config = vscode.workspace.getConfiguration('psconfig.hosts');
    const { settings, problems } = hostsSettingsOf((k) => config.get(k));
    let hosts = settings.addresses;
    if (!hosts.length) {
      const plan = await this.d.expansion.hosts(template).catch((e: unknown) => ({
        agents: [] as string[],
        error: e instanceof Error ? e.message : String(e),
      }));
      hosts = plan.agents;
      if (!hosts.length)
        return fail(
          plan.error
            ? `No task would be created (${plan.error}), so there is no agent to read; set psconfig.hosts.addresses to read hosts anyway.`
            : 'The template has no agent (no task would be created); set psconfig.hosts.addresses to read hosts anyway.',
          hosts,
          problems,
        );
    }
    this.setState({ kind: 'reading', template: key, hosts });
    void this.view.reveal?.(this.model.roots()[0], { focus: false, select: false }).then(undefined, () => undefined);
    return vscode.window.withProgress({ location: { viewId: HOSTS_VIEW_ID } }, async () => {
      const { planReads, readPlanned } = await import('./read-hosts');
      const plan = planReads(hosts, settings, readCaFile);
      problems.push(...plan.problems);
      for (const p of problems) this.d.output.warn(p);
      const started = Date.now();
      const reads = await readPlanned(plan);
      this.d.output.info(
        `Hosts read in ${Date.now() - started} ms: ${reads.map((r) => `${r.host} ${r.error ? 'failed' : `${r.tasks.length} tasks`}`).join(', ')}`,
      );
      const answer = await this.d.expansion.hosts(template, reads).catch((e: unknown) => ({
        error: e instanceof Error ? e.message : String(e),
        result: undefined,
      }));
      if (mine !== this.generation) return this.summary(key, hosts, problems, depth);
      if (!answer.result) return fail(answer.error ?? 'The hosts could not be compared.', hosts, problems);
      this.kept.set(key, { reads, result: answer.result });
      this.readDone.fire({ template, observed: { reads, result: answer.result } });
      this.setState({ kind: 'read', template: key, result: answer.result, reads, at: new Date().toISOString() });
      return this.summary(key, hosts, problems, depth);
    });
  }

  /** A task's hosts lens: the view, on the task's entries (read first when this template never was). */
  async show(args?: ShowTasksArgs): Promise<HostsViewSummary | undefined> {
    const template = typeof args?.uri === 'string' ? vscode.Uri.parse(args.uri) : this.defaultTemplate();
    if (!template) return undefined;
    const s = this.model.state;
    const summary =
      s.kind === 'read' && s.template === template.toString()
        ? this.summary(
            s.template,
            s.result.hosts.map((h) => h.host),
            [],
            3,
          )
        : await this.read(template);
    await vscode.commands.executeCommand(`${HOSTS_VIEW_ID}.focus`);
    if (args?.task !== undefined)
      for (const n of this.model.entriesOf(args.task))
        await this.view.reveal(n, { select: true, focus: false, expand: true }).then(undefined, () => undefined);
    return summary;
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}

function uriOf(arg: unknown): vscode.Uri | undefined {
  if (arg instanceof vscode.Uri) return arg;
  if (typeof arg === 'string' && arg)
    return /^[a-z][a-z0-9+.-]*:\/\//i.test(arg) || arg.startsWith('untitled:')
      ? vscode.Uri.parse(arg)
      : vscode.Uri.file(arg);
  return undefined;
}

/** A CA file named in the settings: a file of at most 1 MB. */
function readCaFile(file: string): string {
  if (statSync(file).size > MAX_CA_BYTES) throw new Error(`${file} is larger than 1 MB`);
  return readFileSync(file, 'utf8');
}
