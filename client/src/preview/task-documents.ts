// Read-only documents (`psconfig-task:` scheme, language json) showing one combination's pScheduler task.
// Content comes from the Tasks view's cached expansion when it covers the combination, else from a fresh
// request; open documents re-read their content whenever the view shows a new expansion of their template.
import * as vscode from 'vscode';
import type { ExpandedCombination } from '../../../common/protocol';
import type { ExpansionClient } from './expansion-client';
import {
  comparisonDocumentPathAndQuery,
  formatCombinationDocument,
  parseComparisonDocumentQuery,
  parseTaskDocumentQuery,
  type ComparisonDocumentAddress,
  TASK_DOCUMENT_SCHEME,
  taskDocumentPathAndQuery,
  type TaskDocumentAddress,
} from './task-json';
import { TaskTreeModel } from './task-tree-model';
import type { TasksView } from './tasks-view';

const GONE = 'The template no longer generates this combination (it was edited, or the agent scope changed).';

const sameList = (a: string[], b: string[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

export class TaskDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [];
  /** Serves the sides of a task comparison (set by client/src/compare when it loads). */
  private comparisonSource:
    ((a: ComparisonDocumentAddress, token: vscode.CancellationToken) => Promise<string>) | undefined;

  constructor(
    private readonly tasks: TasksView,
    private readonly expansion: ExpansionClient,
  ) {
    this.disposables.push(
      vscode.workspace.registerTextDocumentContentProvider(TASK_DOCUMENT_SCHEME, this),
      tasks.onDidChangeModel((model) => this.templateChanged(model)),
      this.changed,
    );
  }

  /** The document URI of a combination (its task and addresses, when known, make the tab title). */
  uriFor(address: TaskDocumentAddress, combination?: ExpandedCombination): vscode.Uri {
    const { path, query } = taskDocumentPathAndQuery(address, combination);
    return vscode.Uri.from({ scheme: TASK_DOCUMENT_SCHEME, path, query });
  }

  /** One side of one task of a comparison: a task document whose content the comparison provides. */
  comparisonUri(address: ComparisonDocumentAddress): vscode.Uri {
    const { path, query } = comparisonDocumentPathAndQuery(address);
    return vscode.Uri.from({ scheme: TASK_DOCUMENT_SCHEME, path, query });
  }

  setComparisonSource(
    source: (a: ComparisonDocumentAddress, token: vscode.CancellationToken) => Promise<string>,
  ): void {
    this.comparisonSource = source;
  }

  async provideTextDocumentContent(uri: vscode.Uri, token: vscode.CancellationToken): Promise<string> {
    const side = parseComparisonDocumentQuery(uri.query);
    if (side) {
      if (!this.comparisonSource)
        return formatCombinationDocument(undefined, 'This comparison is no longer kept: compare the tasks again.');
      try {
        return await this.comparisonSource(side, token);
      } catch (err) {
        return formatCombinationDocument(
          undefined,
          `The comparison failed: ${err instanceof Error ? err.message : String(err)}`,
        );
      }
    }
    const address = parseTaskDocumentQuery(uri.query);
    if (!address) return formatCombinationDocument(undefined, `Not a task document address: ${uri.toString()}`);
    const model = this.tasks.model;
    const scopeMatches =
      model.state.kind === 'result' &&
      (sameList(model.state.agentAddresses, address.agentAddresses) ||
        (model.lazyAgents && address.agentAddresses.length === 1));
    if (model.state.kind === 'result' && model.state.template === address.template && scopeMatches) {
      const c = model.combinationByKey(address.key);
      if (c || !model.state.result.truncated) return formatCombinationDocument(c, GONE);
    }
    // Not in the tree's cache (another agent scope, beyond the tree's limit, or restored after a reload).
    try {
      const result = await this.expansion.expand(
        vscode.Uri.parse(address.template),
        { agentAddresses: address.agentAddresses },
        token,
      );
      if (result.error !== undefined)
        return formatCombinationDocument(undefined, `The template cannot be expanded: ${result.error}`);
      const fresh = new TaskTreeModel({
        kind: 'result',
        template: address.template,
        result,
        agentAddresses: address.agentAddresses,
      });
      return formatCombinationDocument(fresh.combinationByKey(address.key), GONE);
    } catch (err) {
      return formatCombinationDocument(
        undefined,
        `The task expansion failed: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  }

  private templateChanged(model: TaskTreeModel): void {
    if (model.state.kind !== 'result') return;
    for (const doc of vscode.workspace.textDocuments) {
      if (doc.uri.scheme !== TASK_DOCUMENT_SCHEME) continue;
      if (parseTaskDocumentQuery(doc.uri.query)?.template === model.state.template) this.changed.fire(doc.uri);
    }
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
