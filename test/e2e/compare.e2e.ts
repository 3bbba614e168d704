// The task comparison as a user drives it: a template committed in a git repository (compare/ in the workspace,
// made by the runner), edited in the editor; Compare Tasks with HEAD (VS Code's git extension reads HEAD's text)
// fills the Task Changes tree with what each agent loses and changes, the same as `psconfig-tools diff` says for
// the same two versions; a task opens as a side-by-side diff of its task JSON; the status bar says what the
// working copy does to the tasks.
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { openTemplate, runCli, waitFor, workspaceDir, workspaceUri } from './helpers';

interface Node {
  label: string;
  description?: string;
  contextValue: string;
  open?: { kind: string; agent: string; task: string; addresses: string[]; id: string; template: string };
  children?: Node[];
}
interface Summary {
  template: string;
  base: string;
  error?: string;
  result?: { error?: string; diff?: { summary: Record<string, number>; agents: { agent: string }[] } };
  tree: Node[];
  statusBar?: string;
}

const FILE = 'compare/mesh.psconfig.json';

/** The edit the suite makes: host-c leaves the mesh group, the throughput test runs 20 s instead of 30. */
async function editTemplate(doc: vscode.TextDocument): Promise<void> {
  const text = doc.getText();
  const t = JSON.parse(text) as {
    groups: Record<string, { addresses: unknown[] }>;
    tests: Record<string, { spec: Record<string, unknown> }>;
  };
  t.groups['example-group-mesh'].addresses.pop();
  t.tests['example-test-throughput'].spec.duration = 'PT20S';
  const edit = new vscode.WorkspaceEdit();
  edit.replace(doc.uri, new vscode.Range(doc.positionAt(0), doc.positionAt(text.length)), JSON.stringify(t, null, 4));
  assert.ok(await vscode.workspace.applyEdit(edit));
}

suite('task comparison', () => {
  test('Compare Tasks with HEAD: the tree of agents, the same diff as the CLI, a task side by side, the status bar', async () => {
    const { doc } = await openTemplate(FILE);
    await editTemplate(doc);
    const summary = await vscode.commands.executeCommand<Summary>('psconfig.compareTasksWithHead', doc.uri, {
      treeDepth: 3,
    });
    assert.ok(summary, 'the command returned a summary');
    assert.equal(summary.error, undefined, summary.error);
    const diff = summary.result!.diff!;
    assert.deepEqual(diff.summary, { added: 0, removed: 4, changed: 2, agentsAffected: 3 });
    // The CLI on the same two versions: HEAD's and the editor's text (saved to a scratch file).
    const scratch = join(workspaceDir(), 'exports', 'compare-working-copy.psconfig.json');
    writeFileSync(scratch, doc.getText());
    const cli = await runCli(
      ['diff', `HEAD:${FILE.replace('compare/', '')}`, scratch, '--format', 'json'],
      join(workspaceDir(), 'compare'),
    );
    assert.equal(cli.code, 1, cli.stderr);
    const fromCli = JSON.parse(cli.stdout) as {
      summary: unknown;
      agents: { agent: string }[];
      hosts: { host: string }[];
    };
    assert.deepEqual(diff.summary, fromCli.summary);
    assert.deepEqual(
      diff.agents.map((a) => a.agent),
      fromCli.agents.map((a) => a.agent),
    );

    const header = summary.tree[0];
    assert.equal(header.label, 'HEAD → working copy');
    assert.equal(header.description, '−4 ~2 tasks on 3 agents');
    // The hosts whose load changes, as the CLI lists them (shorter runs, fewer tasks: every host is less busy).
    const loads = summary.tree.find((n) => n.contextValue === 'loads');
    assert.ok(fromCli.hosts.length > 0);
    assert.equal(loads?.label, `Host load changes (${fromCli.hosts.length})`);
    assert.deepEqual(
      loads.children?.map((c) => c.label),
      fromCli.hosts.map((h) => h.host),
    );
    const agents = summary.tree.filter((n) => n.contextValue === 'agent');
    assert.deepEqual(
      agents.map((a) => [a.label, a.description]),
      [
        ['host-a.perfsonar.net', '−1 ~1'],
        ['host-b.perfsonar.net', '−1 ~1'],
        ['host-c.perfsonar.net', '−2'],
      ],
    );
    const changed = agents[0].children!.find((c) => c.open?.kind === 'changed')!;
    assert.equal(changed.description, 'host-a.perfsonar.net → host-b.perfsonar.net · test.spec.duration');

    // The task opens side by side: HEAD's task JSON on the left, the working copy's on the right.
    const [left, right] = await vscode.commands.executeCommand<[string, string]>(
      'psconfig.openTaskComparison',
      changed.open,
    );
    const tab = await waitFor('the diff editor of the task', () => {
      const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      return input instanceof vscode.TabInputTextDiff ? input : undefined;
    });
    assert.equal(tab.original.toString(), left);
    assert.equal(tab.modified.toString(), right);
    const [oldDoc, newDoc] = await Promise.all([
      vscode.workspace.openTextDocument(vscode.Uri.parse(left)),
      vscode.workspace.openTextDocument(vscode.Uri.parse(right)),
    ]);
    const spec = (d: vscode.TextDocument) => {
      const task = JSON.parse(d.getText()) as { test?: { spec: Record<string, unknown> } };
      assert.ok(task.test, `${d.uri.toString()} is not a task's JSON:\n${d.getText()}`);
      return task.test.spec;
    };
    assert.equal(spec(oldDoc).duration, 'PT30S');
    assert.equal(spec(newDoc).duration, 'PT20S');
    assert.equal(spec(newDoc).dest, 'host-b.perfsonar.net');
    // A removed task: HEAD's JSON beside a note that the working copy creates none.
    const removed = agents[2].children![0];
    const [, gone] = await vscode.commands.executeCommand<[string, string]>(
      'psconfig.openTaskComparison',
      removed.open,
    );
    const goneDoc = await vscode.workspace.openTextDocument(vscode.Uri.parse(gone));
    assert.match(goneDoc.getText(), /the working copy creates no such task/);

    // The status bar, with the template active again.
    await openTemplate(FILE);
    const status = await waitFor(
      'the status bar to show the task changes',
      async () => (await vscode.commands.executeCommand<string | undefined>('psconfig.taskComparisonStatus')) ?? false,
    );
    assert.equal(status, '$(git-compare) −4 ~2 tasks on 3 agents');
    await vscode.commands.executeCommand('workbench.action.files.revert');
    await waitFor(
      'the status bar to hide once the working copy is HEAD again',
      async () =>
        (await vscode.commands.executeCommand<string | undefined>('psconfig.taskComparisonStatus')) === undefined,
    );
  });

  test('Compare Tasks with File…: another file as the old side', async () => {
    const { doc } = await openTemplate('mesh.psconfig.json');
    const summary = await vscode.commands.executeCommand<Summary>(
      'psconfig.compareTasksWithFile',
      doc.uri,
      workspaceUri('disjoint.psconfig.json'),
    );
    assert.equal(summary.error, undefined, summary.error);
    assert.equal(summary.base, 'disjoint.psconfig.json');
    assert.equal(summary.tree[0].label, 'disjoint.psconfig.json → working copy');
    assert.ok(summary.result!.diff!.summary.added > 0);
  });
});
