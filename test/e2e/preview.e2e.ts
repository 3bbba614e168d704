// The task preview as a user drives it from the palette: the Tasks tree holds the agents and combinations the
// engine computes (checked against the packaged CLI, `dist/cli.js expand`, and against the combinations the
// Perl library's own tests assert), a combination opens as its pScheduler JSON, Export writes the JSON array.
import * as assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { openTemplate, runCli, workspaceDir, workspaceUri } from './helpers';

/** The subset of client/src/preview/preview-commands.ts's PreviewTasksSummary the suite reads. */
interface TreeNode {
  label: string;
  description?: string;
  contextValue: string;
  children?: TreeNode[];
}
interface Combination {
  task: string;
  addresses: string[];
  addressValues: string[];
  agent?: string;
  pscheduler?: unknown;
  error?: string;
}
interface PreviewSummary {
  template: string;
  agentAddresses: string[];
  result?: { error?: string; combinations: Combination[]; agents: string[]; truncated: boolean };
  error?: string;
  tree: TreeNode[];
}
interface CliCombination {
  task: string;
  addresses: string[];
  agent?: string;
  pscheduler?: unknown;
  error?: string;
}

async function cliExpand(file: string, ...extra: string[]): Promise<CliCombination[]> {
  const r = await runCli(['expand', join(workspaceDir(), file), '--format', 'json', ...extra]);
  assert.ok(r.code === 0 || r.code === 1, `cli expand exited ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout) as CliCombination[];
}

async function preview(file: string, depth: number): Promise<PreviewSummary> {
  await openTemplate(file);
  const summary = await vscode.commands.executeCommand<PreviewSummary | undefined>(
    'psconfig.previewTasks',
    workspaceUri(file),
    { treeDepth: depth },
  );
  assert.ok(summary, 'psconfig.previewTasks returned a summary');
  assert.equal(summary.error, undefined, `no error: ${summary.error}`);
  assert.ok(summary.result, 'the summary carries the expansion');
  return summary;
}

const agentsOf = (tree: TreeNode[]): TreeNode[] => tree.filter((n) => n.contextValue === 'agent');
const leaves = (n: TreeNode): TreeNode[] => (n.children ? n.children.flatMap(leaves) : [n]);

suite('task preview', () => {
  suiteSetup(async () => {
    // All agents (the default); a previous run in the same profile must not narrow the scope.
    await vscode.workspace
      .getConfiguration('psconfig')
      .update('preview.agentAddresses', undefined, vscode.ConfigurationTarget.Workspace);
  });

  test('Preview Expanded Tasks fills the tree with the agents and combinations of a mesh, in pSConfig order', async () => {
    const summary = await preview('mesh.psconfig.json', 3);
    const cli = await cliExpand('mesh.psconfig.json');
    // Known answer from perl-shared's client-psconfig-mesh.t: 3 agents, 6 ordered pairs.
    const pairs = summary.result!.combinations.map((c) => c.addressValues.join(' '));
    assert.deepEqual(pairs, [
      'host-a.perfsonar.net host-b.perfsonar.net',
      'host-a.perfsonar.net host-c.perfsonar.net',
      'host-b.perfsonar.net host-a.perfsonar.net',
      'host-b.perfsonar.net host-c.perfsonar.net',
      'host-c.perfsonar.net host-a.perfsonar.net',
      'host-c.perfsonar.net host-b.perfsonar.net',
    ]);
    assert.deepEqual(
      summary.result!.combinations.map((c) => [c.task, c.addresses, c.agent]),
      cli.map((c) => [c.task, c.addresses, c.agent]),
    );
    const agents = agentsOf(summary.tree);
    assert.deepEqual(
      agents.map((a) => a.label),
      ['host-a.perfsonar.net', 'host-b.perfsonar.net', 'host-c.perfsonar.net'],
    );
    // Agent → task → combinations: every agent schedules its two outgoing tests.
    for (const a of agents) {
      const combos = leaves(a).filter((n) => n.contextValue.startsWith('combination'));
      assert.equal(combos.length, 2, `${a.label} has 2 combinations`);
      assert.ok(
        combos.every((c) => c.label.startsWith(`${a.label} → `)),
        combos.map((c) => c.label).join(', '),
      );
    }
  });

  test('a larger template: the tree has the agents and counts the CLI computes (example-2-testbed)', async () => {
    const summary = await preview('example-2-testbed.psconfig.json', 3);
    const cli = await cliExpand('example-2-testbed.psconfig.json');
    assert.ok(cli.length > 100, `the testbed expands to many tasks (${cli.length})`);
    assert.equal(summary.result!.truncated, false);
    assert.equal(summary.result!.combinations.length, cli.length);
    const cliAgents = [...new Set(cli.filter((c) => c.agent).map((c) => c.agent!))].sort();
    assert.deepEqual(
      agentsOf(summary.tree)
        .map((a) => a.label)
        .sort(),
      cliAgents,
    );
    const shown = agentsOf(summary.tree)
      .flatMap(leaves)
      .filter((n) => n.contextValue === 'combination').length;
    assert.equal(
      shown,
      cli.filter((c) => !c.error && c.agent).length,
      'every good combination appears once in the tree',
    );
  });

  test('Show Tasks for Agent narrows the tree to what one agent schedules', async () => {
    try {
      await openTemplate('mesh.psconfig.json');
      const summary = await vscode.commands.executeCommand<PreviewSummary | undefined>(
        'psconfig.showTasksForAgent',
        'host-b.perfsonar.net',
        { treeDepth: 3 },
      );
      assert.ok(summary?.result);
      assert.deepEqual(summary.agentAddresses, ['host-b.perfsonar.net']);
      const cli = await cliExpand('mesh.psconfig.json', '--agent', 'host-b.perfsonar.net');
      assert.deepEqual(
        summary.result.combinations.map((c) => c.addresses),
        cli.map((c) => c.addresses),
      );
      assert.ok(summary.result.combinations.every((c) => c.agent === 'host-b.perfsonar.net'));
    } finally {
      await vscode.commands.executeCommand('psconfig.showTasksForAgent', '');
    }
  });

  test('opening a combination shows its pScheduler task JSON', async () => {
    const summary = await preview('example-1-simple.psconfig.json', 1);
    const first = summary.result!.combinations.find((c) => c.pscheduler);
    assert.ok(first, 'a combination with task JSON');
    const uri = await vscode.commands.executeCommand<vscode.Uri | undefined>('psconfig.openTaskJson', {
      task: first.task,
      index: 0,
    });
    assert.ok(uri, 'psconfig.openTaskJson returned the document URI');
    const doc = await vscode.workspace.openTextDocument(uri);
    assert.equal(doc.languageId, 'json');
    const shown = JSON.parse(doc.getText()) as { test: { type: string; spec: Record<string, unknown> } };
    assert.deepEqual(shown, first.pscheduler);
    const cli = await cliExpand('example-1-simple.psconfig.json');
    assert.deepEqual(
      shown,
      cli.find((c) => c.task === first.task)!.pscheduler,
      'the same JSON as psconfig-tools expand',
    );
    assert.ok(
      vscode.window.visibleTextEditors.some((e) => e.document.uri.toString() === uri.toString()),
      'the document is shown in an editor',
    );
  });

  test('Export Expanded Tasks writes the bare JSON array of pScheduler tasks', async () => {
    await openTemplate('example-1-simple.psconfig.json');
    const target = vscode.Uri.file(join(workspaceDir(), 'exports', 'example-1-tasks.json'));
    const written = await vscode.commands.executeCommand<string | undefined>(
      'psconfig.exportTasks',
      target,
      workspaceUri('example-1-simple.psconfig.json'),
    );
    assert.equal(written, target.fsPath);
    assert.ok(existsSync(target.fsPath));
    const exported = JSON.parse(readFileSync(target.fsPath, 'utf8')) as unknown[];
    assert.ok(Array.isArray(exported) && exported.length > 0, 'a non-empty array');
    const cli = await runCli([
      'expand',
      join(workspaceDir(), 'example-1-simple.psconfig.json'),
      '--format',
      'pscheduler',
    ]);
    assert.deepEqual(exported, JSON.parse(cli.stdout), 'the same array as psconfig-tools expand --format pscheduler');
  });

  test('{% jq %} variables are expanded by the packaged server with the configured jq', async () => {
    const summary = await preview('taskgenerator-jq.psconfig.json', 1);
    const combos = summary.result!.combinations;
    assert.ok(
      combos.length > 0 && combos.every((c) => c.error === undefined),
      combos
        .map((c) => c.error)
        .filter(Boolean)
        .join('; '),
    );
    // The reference block names the source's display name, read from `_meta` by `{% jq .addresses[0]._meta."display-name" %}`.
    const refs = combos.map(
      (c) => (c.pscheduler as { reference?: Record<string, unknown> }).reference?.['source-display-name'],
    );
    assert.ok(refs.includes('Host A'), `a jq result reached the task JSON: ${JSON.stringify(refs)}`);
    const cli = await cliExpand('taskgenerator-jq.psconfig.json');
    assert.deepEqual(
      combos.map((c) => c.pscheduler),
      cli.map((c) => c.pscheduler),
      'the same task JSON as psconfig-tools expand',
    );
  });
});
