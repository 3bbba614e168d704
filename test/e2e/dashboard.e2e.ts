// The mesh dashboard inside VS Code, against the local archive's generated mesh (the runner seeds it; the
// workspace's mesh-dashboard.psconfig.json points at that archive): the Dashboard code lens of a task opens a panel
// whose first refresh finds each kind of pair (ok, red, failed, no data), the palette command opens every task of
// the template, and the Tasks view's context menu command opens the task it is given.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { lensOf, openTemplate, workspaceUri } from './helpers';

const TEMPLATE = 'mesh-dashboard.psconfig.json';

/** client/src/dashboard/panel.ts DashboardOpened, as the suite reads it. */
interface Opened {
  template: string;
  grids: { task: string; metric?: string; directions: number; states: Record<string, number> }[];
  requests?: number;
  error?: string;
}

suite('mesh dashboard', () => {
  test('the Dashboard lens of a task opens its grid; the first refresh finds ok, red, failed and empty pairs', async () => {
    const { doc } = await openTemplate(TEMPLATE);
    const lens = await lensOf(doc.uri, 'psconfig.openDashboard', 'mesh-throughput');
    assert.equal(lens.command?.title, 'Dashboard');
    const opened = await vscode.commands.executeCommand<Opened>(
      lens.command.command,
      ...((lens.command.arguments ?? []) as unknown[]),
    );
    assert.ok(opened, 'psconfig.openDashboard returned what it shows');
    assert.equal(opened.error, undefined);
    assert.deepEqual(
      opened.grids.map((g) => [g.task, g.metric, g.directions]),
      [['mesh-throughput', 'throughput', 378]],
    );
    const states = opened.grids[0].states;
    for (const s of ['ok', 'critical', 'warning', 'failed', 'no-data'])
      assert.ok((states[s] ?? 0) > 0, `some pair is ${s}: ${JSON.stringify(states)}`);
    assert.ok(opened.requests && opened.requests > 1, `requests: ${opened.requests}`);
  });

  test('the palette command opens every task of the active template, one grid each', async () => {
    await openTemplate(TEMPLATE);
    const opened = await vscode.commands.executeCommand<Opened>('psconfig.openDashboard');
    assert.deepEqual(
      opened.grids.map((g) => [g.task, g.metric]),
      [
        ['mesh-throughput', 'throughput'],
        ['mesh-latencybg', 'loss'],
        ['mesh-trace', 'paths'],
      ],
    );
  });

  test('the Tasks view context menu opens the task it is given', async () => {
    await openTemplate(TEMPLATE);
    await vscode.commands.executeCommand('psconfig.previewTasks', workspaceUri(TEMPLATE), { treeDepth: 1 });
    // The tree passes its task node ({ kind: 'task', task, … }) to the command.
    const opened = await vscode.commands.executeCommand<Opened>('psconfig.openDashboard', {
      kind: 'task',
      id: 'x',
      agent: 'mesh-01.example.net',
      task: 'mesh-trace',
    });
    assert.deepEqual(
      opened.grids.map((g) => g.task),
      ['mesh-trace'],
    );
    assert.ok((opened.grids[0].states.critical ?? 0) > 0);
  });
});
