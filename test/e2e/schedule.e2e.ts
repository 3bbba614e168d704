// The simulated schedule inside VS Code, on busy-mesh.psconfig.json (three hosts; `busy`: throughput every minute,
// more than the hosts can run — 4 runs of 19 s a minute each; `pings`: rtt every 10 minutes, which all fit): the
// lost runs are a warning on the task, its schedule lens opens the host timeline on it, the quick fix the server
// re-simulated makes the warning go, and the Tasks view shows each agent's exclusive load.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import {
  describeDiagnostic,
  extension,
  lensOf,
  openTemplate,
  waitFor,
  waitForDiagnostics,
  workspaceUri,
} from './helpers';

const TEMPLATE = 'busy-mesh.psconfig.json';

/** client/src/schedule/panel.ts ScheduleOpened, as the suite reads it. */
interface Opened {
  template: string;
  hosts: number;
  tasks: number;
  runs: number;
  nonstart: number;
  focus?: { task?: string; host?: string };
  error?: string;
}

const codeOf = (d: vscode.Diagnostic): string | undefined =>
  typeof d.code === 'object' ? String(d.code.value) : d.code === undefined ? undefined : String(d.code);

suite('simulated schedule', () => {
  test('lost runs are a warning on the task; its schedule lens opens the host timeline on that task', async () => {
    const { doc } = await openTemplate(TEMPLATE);
    const diags = await waitForDiagnostics(
      doc.uri,
      (ds) => ds.some((d) => codeOf(d) === 'psconfig/schedule-runs-lost'),
      90_000,
    );
    const lost = diags.filter((d) => codeOf(d) === 'psconfig/schedule-runs-lost');
    assert.equal(lost.length, 1, diags.map(describeDiagnostic).join('\n'));
    assert.equal(lost[0].severity, vscode.DiagnosticSeverity.Warning);
    assert.equal(doc.getText(lost[0].range), 'busy');
    assert.match(lost[0].message, /of 17,280 runs of 'busy' would run in 2 simulated days/);
    assert.equal(diags.filter((d) => codeOf(d) === 'psconfig/host-overloaded').length, 3);

    const lens = await lensOf(doc.uri, 'psconfig.openSchedule', 'busy');
    assert.match(lens.command!.title, /^schedule: [\d,.]+ of 8,640 runs a day fit \(6 of 6 tasks lose runs\)$/);
    const opened = await vscode.commands.executeCommand<Opened>(
      lens.command!.command,
      ...((lens.command!.arguments ?? []) as unknown[]),
    );
    assert.ok(opened, 'psconfig.openSchedule returned what it shows');
    assert.equal(opened.error, undefined);
    assert.equal(opened.template, TEMPLATE);
    assert.equal(opened.hosts, 3);
    assert.equal(opened.tasks, 12, 'six busy and six pings pScheduler tasks');
    assert.ok(opened.runs > 0 && opened.nonstart > 0, `runs ${opened.runs}, non-starters ${opened.nonstart}`);
    assert.equal(opened.focus?.task, 'busy');
  });

  test('the Tasks view shows each agent’s exclusive load', async () => {
    await openTemplate(TEMPLATE);
    await vscode.commands.executeCommand('psconfig.previewTasks', workspaceUri(TEMPLATE), { treeDepth: 1 });
    const api = extension().exports as {
      tasksTree(depth: number): { contextValue: string; label: string; description?: string }[];
    };
    const agents = await waitFor('agents with their loads', () => {
      const list = api.tasksTree(1).filter((n) => n.contextValue === 'agent');
      return list.length === 3 && list.every((n) => /exclusive load \d+/.test(n.description ?? '')) && list;
    });
    // 4 runs of 19 s a minute: 127 % of each host's day.
    for (const a of agents) assert.match(a.description ?? '', /exclusive load 127\s?%/, `${a.label}: ${a.description}`);
  });

  test('the quick fix changes the schedule to one the re-simulation showed to fit, and the warning goes', async () => {
    const { doc } = await openTemplate(TEMPLATE);
    const [lost] = (
      await waitForDiagnostics(doc.uri, (ds) => ds.some((d) => codeOf(d) === 'psconfig/schedule-runs-lost'), 90_000)
    ).filter((d) => codeOf(d) === 'psconfig/schedule-runs-lost');
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      doc.uri,
      lost.range,
      vscode.CodeActionKind.QuickFix.value,
    );
    const fix = actions.find((a) => a.title.includes('in schedule "every-minute"'));
    assert.ok(fix?.edit, actions.map((a) => a.title).join('\n'));
    try {
      assert.ok(await vscode.workspace.applyEdit(fix.edit));
      const schedule = (JSON.parse(doc.getText()) as { schedules: Record<string, unknown> }).schedules['every-minute'];
      assert.notDeepEqual(schedule, { repeat: 'PT1M', slip: 'PT1M' });
      // The edited version simulated: every run of busy fits (its lens says so), and no warning of lost runs is left.
      const fits = await waitFor(
        'the schedule lens of busy on the fixed template',
        async () => {
          const busy = await lensOf(doc.uri, 'psconfig.openSchedule', 'busy');
          return /all fit$/.test(busy.command!.title) && busy;
        },
        90_000,
      );
      // A day holds up to one more run per task where pSConfig's renewal starts a new grid: "432.5 a day" over two.
      assert.match(fits.command!.title, /^schedule: [\d,.]+ runs a day, all fit$/);
      // (The diagnostics of the edited version come after its checks: wait for them.)
      await waitForDiagnostics(doc.uri, (ds) => !ds.some((d) => codeOf(d) === 'psconfig/schedule-runs-lost'), 90_000);
    } finally {
      // The workspace file stays as it was for the UI pass.
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
  });
});
