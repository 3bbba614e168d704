// Schema and domain diagnostics reach VS Code's diagnostics collection, at the right ranges.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { describeDiagnostic, openTemplate, rangeOf, waitForDiagnostics } from './helpers';

const errors = (d: vscode.Diagnostic[]): vscode.Diagnostic[] =>
  d.filter((x) => x.severity === vscode.DiagnosticSeverity.Error);

suite('diagnostics', () => {
  test('address[1] in a test used by a list group is an error at the variable', async () => {
    const { doc } = await openTemplate('list-address1.psconfig.json');
    const variable = rangeOf(doc, '{% address[1] %}');
    const diags = await waitForDiagnostics(doc.uri, (d) =>
      errors(d).some((x) => x.range.intersection(variable) !== undefined),
    );
    const hit = errors(diags).find((x) => x.range.intersection(variable) !== undefined)!;
    assert.ok(variable.contains(hit.range), `the error lies within the variable: ${describeDiagnostic(hit)}`);
    assert.ok(
      doc.getText(hit.range).includes('address[1]'),
      `the error covers address[1], got "${doc.getText(hit.range)}"`,
    );
    assert.match(hit.message, /list/i, 'the message names the list group kind');
    assert.match(hit.message, /every-host|ping-every-host/, 'the message names the group or the task');
    // address[0] on the line is fine.
    const first = rangeOf(doc, '{% address[0] %}');
    assert.ok(
      !errors(diags).some((x) => x.range.intersection(first) && !x.range.intersection(variable)),
      'address[0] is not flagged',
    );
  });

  test('a schema error is reported at the offending field (archive instead of archiver)', async () => {
    const { doc } = await openTemplate('inputs-invalid.psconfig.json');
    const key = rangeOf(doc, '"archive": "esmond"');
    const archiveObject = new vscode.Range(rangeOf(doc, '"example-archive-central"').start, key.end.translate(6));
    const diags = await waitForDiagnostics(doc.uri, (d) =>
      errors(d).some((x) => archiveObject.contains(x.range.start)),
    );
    const inArchive = errors(diags).filter((x) => archiveObject.contains(x.range.start));
    assert.ok(
      inArchive.some((x) => /archiver/.test(x.message)),
      `an error says archiver is required or expected:\n  ${inArchive.map(describeDiagnostic).join('\n  ')}`,
    );
    assert.ok(
      inArchive.every((x) => !/not valid under any of the given schemas/.test(x.message)),
      'no generic anyOf message',
    );
  });

  test('references to an undefined archive are errors at each reference (pwa import3)', async () => {
    const { doc } = await openTemplate('import3-missing-archive.psconfig.json');
    const refs = [0, 1, 2, 3].map((n) => rangeOf(doc, '"config-archive0"', n));
    const diags = await waitForDiagnostics(doc.uri, (d) =>
      refs.every((r) => errors(d).some((x) => x.range.intersection(r))),
    );
    for (const r of refs) {
      const hit = errors(diags).find((x) => x.range.intersection(r))!;
      assert.match(hit.message, /config-archive0/, describeDiagnostic(hit));
    }
  });

  test('a valid example template has no errors (after an error appears and is undone)', async () => {
    const { doc, editor } = await openTemplate('example-1-simple.psconfig.json');
    // An empty list proves nothing until the server has published: provoke an error, then undo it.
    await editor.edit((b) => b.replace(rangeOf(doc, '"tasks"'), '"taskz"'));
    await waitForDiagnostics(doc.uri, (d) => errors(d).length > 0);
    await vscode.commands.executeCommand('undo');
    const diags = await waitForDiagnostics(doc.uri, (d) => errors(d).length === 0);
    assert.equal(doc.isDirty, false, 'undo restored the saved text');
    assert.deepEqual(errors(diags).map(describeDiagnostic), []);
  });

  test('an edit that breaks a reference is diagnosed without saving', async () => {
    const { doc, editor } = await openTemplate('editing.psconfig.json');
    const target = rangeOf(doc, '"every-4h"', 1);
    await editor.edit((b) => b.replace(target, '"every-5h"'));
    const broken = rangeOf(doc, '"every-5h"');
    const diags = await waitForDiagnostics(doc.uri, (d) => errors(d).some((x) => x.range.intersection(broken)));
    assert.match(errors(diags).find((x) => x.range.intersection(broken))!.message, /every-5h/);
    await vscode.commands.executeCommand('undo');
    await waitForDiagnostics(doc.uri, (d) => errors(d).length === 0);
  });
});
