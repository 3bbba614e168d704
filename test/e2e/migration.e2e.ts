// The perfSONAR 5 fixes in VS Code: the quick fixes the language server offers on a perfSONAR 4 mesh, through VS
// Code's own code action provider command (the language client's conversions included), applied as the editor
// applies them; the result is what `psconfig-tools fix --write` writes, and the warnings and errors they fix are gone.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { copyTemplate, describeDiagnostic, openTemplate, runCli, waitForDiagnostics } from './helpers';

const MESH = 'esmond-mesh.psconfig.json';

function codeOf(d: vscode.Diagnostic): string | undefined {
  return typeof d.code === 'object' ? String(d.code.value) : d.code === undefined ? undefined : String(d.code);
}

async function quickFixes(doc: vscode.TextDocument, diag: vscode.Diagnostic): Promise<vscode.CodeAction[]> {
  return vscode.commands.executeCommand<vscode.CodeAction[]>(
    'vscode.executeCodeActionProvider',
    doc.uri,
    diag.range,
    vscode.CodeActionKind.QuickFix.value,
  );
}

suite('perfSONAR 5 fixes', () => {
  test('"convert all" esmond archives, then the draft placeholder: the same text as psconfig-tools fix', async () => {
    const uri = copyTemplate(MESH, 'migration.psconfig.json');
    const { doc } = await openTemplate(uri);
    const diags = await waitForDiagnostics(
      doc.uri,
      (d) =>
        d.filter((x) => codeOf(x) === 'psconfig/esmond-archiver').length === 2 &&
        d.some((x) => codeOf(x) === 'psconfig/legacy-placeholder'),
    );
    const esmond = diags.find((x) => codeOf(x) === 'psconfig/esmond-archiver')!;
    const actions = await quickFixes(doc, esmond);
    const titles = actions.map((a) => a.title);
    assert.ok(
      titles.some((t) => t === "Convert to perfSONAR 5's logstash http archive (https://ma.example.net/logstash)"),
      titles.join(' | '),
    );
    const all = actions.find((a) => a.title === 'Convert all 2 esmond archives in this file to logstash http archives');
    assert.ok(all?.edit, `a "convert all" action among: ${titles.join(' | ')} for ${describeDiagnostic(esmond)}`);
    assert.ok(await vscode.workspace.applyEdit(all.edit));

    const after = await waitForDiagnostics(doc.uri, (d) => !d.some((x) => codeOf(x) === 'psconfig/esmond-archiver'));
    // `$requesting-agent` became the x-ps-observer header with the archive; `$group::0` is left
    const placeholder = after.filter((x) => codeOf(x) === 'psconfig/legacy-placeholder');
    assert.equal(placeholder.length, 1, after.map(describeDiagnostic).join('\n'));
    const replace = (await quickFixes(doc, placeholder[0])).find(
      (a) => a.title === 'Replace $group::0 with {% address[0] %}',
    );
    assert.ok(replace?.edit);
    assert.ok(await vscode.workspace.applyEdit(replace.edit));
    await waitForDiagnostics(
      doc.uri,
      (d) =>
        !d.some((x) => codeOf(x) === 'psconfig/legacy-placeholder' || x.severity === vscode.DiagnosticSeverity.Error),
    );

    // the command line gives the same file
    const cliCopy = copyTemplate(MESH, 'migration-cli.psconfig.json');
    const r = await runCli(['fix', cliCopy.fsPath, '--write']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(doc.getText(), readFileSync(cliCopy.fsPath, 'utf8'));
    const fixed = JSON.parse(doc.getText()) as {
      archives: Record<string, { archiver: string; data: Record<string, unknown>; _meta: { esmond_url: string } }>;
    };
    assert.equal(fixed.archives.central.archiver, 'http');
    assert.equal(fixed.archives.central.data._url, 'https://ma.example.net/logstash');
    assert.equal(fixed.archives.central.data['#note'], 'the central measurement archive', 'the comment is kept');
    assert.equal(fixed.archives.central._meta.esmond_url, 'https://ma.example.net/esmond/perfsonar/archive/');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });
});
