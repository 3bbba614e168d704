// The task comparison in the editor, loaded on first use (its own bundle, dist/compare.js): Compare Tasks with HEAD,
// Compare Tasks with File…, the Task Changes view, each task's JSON side by side (vscode.diff of two task JSON
// documents, served by the preview's TaskDocuments), and the status-bar item of the active template.
//
// Command return values (for tests driving the extension through vscode.commands.executeCommand):
// - psconfig.compareTasksWithHead(uri?, options?: { treeDepth?: number }) → ComparisonSummary | undefined
// - psconfig.compareTasksWithFile(uri?, file?: Uri | string, options?) → ComparisonSummary | undefined (a file
//   dialog when `file` is absent; undefined when cancelled)
// - psconfig.openTaskComparison(ref: ComparisonEntryRef) → [left, right] task document URIs (strings) it opened
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import type { CompareTasksResult } from '../../../common/protocol';
import type { TaskDocuments } from '../preview/task-documents';
import { formatCombinationDocument, type ComparisonDocumentAddress } from '../preview/task-json';
import { ComparisonClient } from './comparison-client';
import type { ComparisonEntryRef, ComparisonSnapshotNode } from './comparison-tree';
import { ComparisonView, type ComparisonBase } from './comparison-view';
import { headVersion } from './git-head';
import { ComparisonStatusBar } from './status-bar';

export interface ComparisonSummary {
  template: string;
  base: string;
  result?: CompareTasksResult;
  error?: string;
  tree: ComparisonSnapshotNode[];
  /** What the status-bar item shows now (undefined: hidden). */
  statusBar?: string;
}

export interface TaskComparison {
  compareWithHead(arg?: unknown, options?: { treeDepth?: number }): Promise<ComparisonSummary | undefined>;
  compareWithFile(
    arg?: unknown,
    file?: unknown,
    options?: { treeDepth?: number },
  ): Promise<ComparisonSummary | undefined>;
  openTask(ref: ComparisonEntryRef): Promise<[string, string]>;
  /** The status bar after its pending update (tests). */
  statusBar(): Promise<string | undefined>;
  disposables: vscode.Disposable[];
}

export interface ComparisonDeps {
  startClient: () => Promise<LanguageClient>;
  documents: TaskDocuments;
  /** The template a command works on by default (the active pSConfig editor, else the Tasks view's). */
  defaultTemplate: () => vscode.Uri | undefined;
}

const toUri = (u: unknown): vscode.Uri | undefined =>
  u instanceof vscode.Uri ? u : typeof u === 'string' && u ? vscode.Uri.parse(u) : undefined;

export function createTaskComparison(deps: ComparisonDeps): TaskComparison {
  const client = new ComparisonClient(deps.startClient);
  const view = new ComparisonView(client);
  const status = new ComparisonStatusBar(client);
  const base = new Map<string, string>(); // template → label of the base of its latest comparison

  deps.documents.setComparisonSource(async (a: ComparisonDocumentAddress, token) => {
    const r = await client.taskJson(
      {
        template: vscode.Uri.parse(a.template),
        id: a.id,
        side: a.side,
        agent: a.agent,
        task: a.task,
        addresses: a.addresses,
      },
      token,
    );
    if (r.error) return formatCombinationDocument(undefined, r.error);
    const who = a.side === 'old' ? (base.get(a.template) ?? 'the other version') : 'the working copy';
    return formatCombinationDocument(r.combination, `${who} creates no such task`);
  });

  const summary = async (template: vscode.Uri, label: string, depth: number): Promise<ComparisonSummary> => {
    const state = view.model.state;
    return {
      template: template.toString(),
      base: label,
      result: state.kind === 'result' ? state.result : undefined,
      error: state.kind === 'failed' ? state.message : state.kind === 'result' ? state.result.error : undefined,
      tree: view.snapshot(depth),
      statusBar: await statusBar(),
    };
  };
  const statusBar = async (): Promise<string | undefined> => {
    await status.idle();
    return status.shown;
  };

  const run = async (template: vscode.Uri, b: ComparisonBase, depth: number): Promise<ComparisonSummary> => {
    base.set(template.toString(), b.label);
    await view.compare(template, b);
    return summary(template, b.label, depth);
  };

  const templateOf = (arg: unknown): vscode.Uri | undefined => toUri(arg) ?? deps.defaultTemplate();

  return {
    async compareWithHead(arg, options) {
      const template = templateOf(arg);
      if (!template) {
        void vscode.window.showInformationMessage('Open a pSConfig template to compare its tasks with HEAD.');
        return undefined;
      }
      const head: ComparisonBase = { label: 'HEAD', read: async () => (await headVersion(template)).text };
      return run(template, head, options?.treeDepth ?? 3);
    },
    async compareWithFile(arg, file, options) {
      const template = templateOf(arg);
      if (!template) {
        void vscode.window.showInformationMessage('Open a pSConfig template to compare its tasks with another file.');
        return undefined;
      }
      let other = toUri(file);
      if (!other) {
        const picked = await vscode.window.showOpenDialog({
          canSelectMany: false,
          defaultUri: vscode.Uri.joinPath(template, '..'),
          filters: { 'pSConfig templates': ['json'] },
          openLabel: 'Compare Tasks',
        });
        other = picked?.[0];
      }
      if (!other) return undefined;
      const target = other;
      const label = vscode.workspace.asRelativePath(target) || path.basename(target.fsPath);
      const read = async () => new TextDecoder().decode(await vscode.workspace.fs.readFile(target));
      return run(template, { label, read }, options?.treeDepth ?? 3);
    },
    async openTask(ref) {
      const label = base.get(ref.template) ?? 'other version';
      const address = (side: 'old' | 'new'): ComparisonDocumentAddress => ({
        ...ref,
        side,
        label: side === 'old' ? label : 'working copy',
      });
      const left = deps.documents.comparisonUri(address('old'));
      const right = deps.documents.comparisonUri(address('new'));
      const title = `${ref.task} ${ref.addresses.join(' → ')} (${label} ↔ working copy)`;
      await vscode.commands.executeCommand('vscode.diff', left, right, title, { preview: true });
      return [left.toString(), right.toString()];
    },
    statusBar,
    disposables: [view, status],
  };
}
