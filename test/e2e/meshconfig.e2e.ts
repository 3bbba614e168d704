// A MeshConfig file in VS Code: recognised by its content, one error saying what it is, and the language server's
// quick fix that writes the pSConfig template beside it and opens it there; the Grafana lens on a template's tasks.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { copyTemplate, describeDiagnostic, openTemplate, waitFor, waitForDiagnostics, workspaceUri } from './helpers';

const codeOf = (d: vscode.Diagnostic): string | number | undefined =>
  typeof d.code === 'object' ? d.code.value : d.code;

suite('MeshConfig and Grafana', () => {
  test('a MeshConfig file gets one error; its quick fix opens the translated template beside it', async () => {
    const uri = copyTemplate('latentput-meshconfig.json', 'translate-me.json');
    await openTemplate(uri);
    // A plain .json file: the extension gives it the pSConfig language by its content (organizations + tests).
    await waitFor('the MeshConfig file to become a pSConfig document', () =>
      vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri.toString() && d.languageId === 'psconfig'),
    );
    const diagnostics = await waitForDiagnostics(uri, (d) => d.some((x) => codeOf(x) === 'psconfig/meshconfig'));
    const errors = diagnostics.filter((d) => d.severity === vscode.DiagnosticSeverity.Error);
    assert.deepEqual(errors.map(codeOf), ['psconfig/meshconfig'], diagnostics.map(describeDiagnostic).join('\n'));
    assert.match(errors[0].message, /MeshConfig file/);

    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      uri,
      errors[0].range,
      vscode.CodeActionKind.QuickFix.value,
    );
    const translate = actions.find((a) => a.title.startsWith('Translate MeshConfig to pSConfig'));
    assert.ok(translate?.edit && translate.command, `actions: ${actions.map((a) => a.title).join(', ')}`);
    assert.ok(await vscode.workspace.applyEdit(translate.edit));
    await vscode.commands.executeCommand(
      translate.command.command,
      ...((translate.command.arguments ?? []) as unknown[]),
    );

    const target = workspaceUri('translate-me.psconfig.json');
    const editor = await waitFor('the translation to open beside the MeshConfig file', () => {
      const e = vscode.window.activeTextEditor;
      return e?.document.uri.toString() === target.toString() ? e : undefined;
    });
    assert.equal(editor.viewColumn, vscode.ViewColumn.Two, 'opened in the column beside');
    const template = JSON.parse(editor.document.getText()) as { tasks: Record<string, unknown> };
    assert.deepEqual(Object.keys(template.tasks), ['LatentSeeTestname', 'Throughputtestname']);
    // The translation is a template the checks pass: no error once its diagnostics arrive.
    const checked = await waitForDiagnostics(target, (d) => d.some((x) => String(codeOf(x)).startsWith('psconfig/')));
    assert.deepEqual(checked.filter((d) => d.severity === vscode.DiagnosticSeverity.Error).map(describeDiagnostic), []);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test("each task has a lens saying what perfSONAR 5's Grafana agent draws", async () => {
    const { doc } = await openTemplate('example-1-simple.psconfig.json');
    const titles = await waitFor('the Grafana lenses', async () => {
      const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>(
        'vscode.executeCodeLensProvider',
        doc.uri,
        100,
      );
      const t = lenses.map((l) => l.command?.title ?? '').filter((x) => x.startsWith('Grafana:'));
      return t.length > 0 ? t : undefined;
    });
    // example-1's tasks archive to https://archive.perfsonar.net/logstash but set no display-task-name
    assert.ok(
      titles.every((t) => t === 'Grafana: empty grid (no reference.display-task-name)'),
      titles.join(' | '),
    );
  });
});
