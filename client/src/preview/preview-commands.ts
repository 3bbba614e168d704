// The task-preview commands. Each returns a value so tests (test/e2e, through vscode.commands.executeCommand)
// can assert on what happened; given their optional arguments they run without any dialog.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ExpandTasksResult } from '../../../common/protocol';
import { LANGUAGE_ID } from '../language/language-id';
import { agentAddressList, parseAgentAddressInput } from '../language/server-settings';
import type { TemplateLanguageSwitch } from '../language/template-language-switch';
import { pickAgentAddresses, saveAgentAddresses } from './agent-picker';
import type { ExpansionClient } from './expansion-client';
import { formatTaskArray, pschedulerTaskArray, type TaskDocumentAddress } from './task-json';
import type { TaskDocuments } from './task-documents';
import { snapshotTree, type TaskTreeNode, type TreeSnapshotNode } from './task-tree-model';
import {
  configuredAgentAddresses,
  OPEN_TASK_JSON_COMMAND,
  SHOW_MORE_COMMAND,
  TASKS_VIEW_ID,
  type TasksView,
} from './tasks-view';

/** What Preview Expanded Tasks and Show Tasks for Agent… return. */
export interface PreviewTasksSummary {
  /** The template's URI (string form). */
  template: string;
  /** The agent scope shown ([] = all agents). */
  agentAddresses: string[];
  /** The expansion the tree shows (undefined when the request itself failed; see `error`). */
  result?: ExpandTasksResult;
  /** Why nothing could be shown: the request failed, or the template cannot be expanded (`result.error`). */
  error?: string;
  /** The tree's items, `treeDepth` levels deep (default 2: agents and their tasks). */
  tree: TreeSnapshotNode[];
}

export interface PreviewOptions {
  treeDepth?: number;
}

/** What Open pScheduler Task JSON accepts: a tree item's address, or a task name and the n-th combination shown. */
export type OpenTaskJsonArgument = TaskDocumentAddress | { task: string; index?: number };

type UriLike = vscode.Uri | string;
const toUri = (u: UriLike | undefined): vscode.Uri | undefined =>
  u === undefined ? undefined : typeof u === 'string' ? vscode.Uri.parse(u) : u;

export function registerPreviewCommands(
  context: vscode.ExtensionContext,
  tasks: TasksView,
  documents: TaskDocuments,
  expansion: ExpansionClient,
  languageSwitch: TemplateLanguageSwitch,
): void {
  /** The template a command works on: its argument (opened and made a template if needed), the active editor, or the tree's. */
  const resolveTemplate = async (arg: UriLike | undefined): Promise<vscode.Uri | undefined> => {
    const uri = toUri(arg);
    if (uri) {
      const doc = await vscode.workspace.openTextDocument(uri);
      return (await languageSwitch.asTemplate(doc)).uri;
    }
    const active = vscode.window.activeTextEditor?.document;
    if (active?.languageId === LANGUAGE_ID) return active.uri;
    return tasks.template;
  };

  const summary = (template: vscode.Uri, result: ExpandTasksResult | undefined, depth: number): PreviewTasksSummary => {
    const state = tasks.model.state;
    return {
      template: template.toString(),
      agentAddresses: state.kind === 'result' ? state.agentAddresses : configuredAgentAddresses(),
      result,
      error: result?.error ?? (state.kind === 'request-failed' ? state.message : undefined),
      tree: snapshotTree(tasks.model, depth),
    };
  };

  const preview = async (template: vscode.Uri, options: PreviewOptions | undefined): Promise<PreviewTasksSummary> => {
    tasks.setTemplate(template);
    await vscode.commands.executeCommand(`${TASKS_VIEW_ID}.focus`);
    const result = await tasks.refresh(true);
    return summary(template, result, options?.treeDepth ?? 2);
  };

  const register = (id: string, fn: (...args: never[]) => unknown): void => {
    context.subscriptions.push(vscode.commands.registerCommand(id, fn));
  };

  register(
    'psconfig.previewTasks',
    async (arg?: UriLike, options?: PreviewOptions): Promise<PreviewTasksSummary | undefined> => {
      const template = await resolveTemplate(arg);
      if (!template) {
        void vscode.window.showInformationMessage('Open a pSConfig template to preview the tasks it generates.');
        return undefined;
      }
      return preview(template, options);
    },
  );

  register(
    'psconfig.showTasksForAgent',
    async (arg?: string | string[], options?: PreviewOptions): Promise<PreviewTasksSummary | undefined> => {
      let addresses: string[] | undefined;
      if (arg !== undefined) addresses = typeof arg === 'string' ? parseAgentAddressInput(arg) : agentAddressList(arg);
      else {
        const template = await resolveTemplate(undefined);
        if (template) tasks.setTemplate(template);
        const agents = template ? await tasks.allAgents().catch(() => []) : [];
        addresses = await pickAgentAddresses(agents, configuredAgentAddresses());
      }
      if (addresses === undefined) return undefined;
      await saveAgentAddresses(addresses);
      const template = await resolveTemplate(undefined);
      if (!template) return { template: '', agentAddresses: addresses, tree: [] };
      return preview(template, options);
    },
  );

  register('psconfig.exportTasks', async (target?: UriLike, templateArg?: UriLike): Promise<string | undefined> => {
    const interactive = target === undefined;
    const fail = (message: string): undefined => {
      if (interactive) {
        void vscode.window.showErrorMessage(message);
        return undefined;
      }
      throw new Error(message);
    };
    const template = await resolveTemplate(templateArg);
    if (!template) return fail('Open a pSConfig template to export the tasks it generates.');
    const agentAddresses = configuredAgentAddresses();
    const result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: 'Expanding pSConfig tasks' },
      () => expansion.expand(template, { agentAddresses }),
    );
    if (result.error !== undefined) return fail(`The template cannot be expanded: ${result.error}`);
    let uri = toUri(target);
    if (!uri) {
      const base = path.basename(template.path).replace(/(\.psconfig)?\.json$/i, '');
      uri = await vscode.window.showSaveDialog({
        title: 'Export Expanded Tasks as JSON',
        defaultUri: vscode.Uri.joinPath(template, '..', `${base}.pscheduler-tasks.json`),
        filters: { JSON: ['json'] },
      });
      if (!uri) return undefined;
    }
    const taskJson = pschedulerTaskArray(result);
    await vscode.workspace.fs.writeFile(uri, Buffer.from(formatTaskArray(taskJson), 'utf8'));
    const identical = result.combinations.filter((c) => c.identicalTo !== undefined).length;
    const failed = result.combinations.length - taskJson.length - identical;
    const refused = result.combinations.filter((c) => c.refused !== undefined).length;
    if (interactive) {
      const scope = agentAddresses.length ? ` for agent ${agentAddresses.join(', ')}` : '';
      const skipped =
        (failed - refused ? ` ${failed - refused} failed combination(s) left out, as the agent would skip them.` : '') +
        (refused ? ` ${refused} task(s) pScheduler would refuse left out.` : '') +
        (identical
          ? ` ${identical} task(s) identical to another of their agent left out: pSConfig creates each once.`
          : '');
      void vscode.window.showInformationMessage(
        `Exported ${taskJson.length} pScheduler task(s)${scope} to ${path.basename(uri.path)}.${skipped}`,
      );
    }
    return uri.scheme === 'file' ? uri.fsPath : uri.toString();
  });

  register(OPEN_TASK_JSON_COMMAND, async (arg?: OpenTaskJsonArgument): Promise<vscode.Uri | undefined> => {
    const address = arg && 'key' in arg ? arg : arg ? addressOfNth(tasks, arg.task, arg.index ?? 0) : undefined;
    if (!address) return undefined;
    const model = tasks.model;
    const combination =
      model.state.kind === 'result' && model.state.template === address.template
        ? model.combinationByKey(address.key)
        : undefined;
    const uri = documents.uriFor(address, combination);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc, { preview: true, preserveFocus: arg !== undefined && 'key' in arg });
    return uri;
  });

  register(SHOW_MORE_COMMAND, (node?: TaskTreeNode) => {
    if (node) tasks.showMore(node);
  });
}

/** The address of the `index`-th combination (pSConfig order, failures included) of `task` in the tree's expansion. */
function addressOfNth(tasks: TasksView, task: string, index: number): TaskDocumentAddress | undefined {
  const state = tasks.model.state;
  if (state.kind !== 'result') return undefined;
  let seen = 0;
  for (let n = 0; n < state.result.combinations.length; n++) {
    if (state.result.combinations[n].task !== task) continue;
    if (seen++ === index) {
      const key = tasks.model.keyOf(n);
      return key === undefined ? undefined : { template: state.template, agentAddresses: state.agentAddresses, key };
    }
  }
  return undefined;
}
