// Completion, definition, references, rename and quick fixes through VS Code's own provider commands, so the
// results are what the editor would show (language client conversions included).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import {
  completionLabels,
  copyTemplate,
  describeDiagnostic,
  openTemplate,
  positionOf,
  rangeOf,
  waitFor,
  waitForDiagnostics,
} from './helpers';

const EDITING = 'editing.psconfig.json';

async function complete(doc: vscode.TextDocument, pos: vscode.Position): Promise<string[]> {
  const list = await vscode.commands.executeCommand<vscode.CompletionList>(
    'vscode.executeCompletionItemProvider',
    doc.uri,
    pos,
  );
  return completionLabels(list).map((l) => l.replace(/^"|"$/g, ''));
}

/** Waits until the language server answers for the document (its first diagnostics have been published). */
async function ready(doc: vscode.TextDocument): Promise<void> {
  await waitFor('the language server to answer document symbols', async () => {
    const symbols = await vscode.commands.executeCommand<vscode.DocumentSymbol[] | undefined>(
      'vscode.executeDocumentSymbolProvider',
      doc.uri,
    );
    return symbols !== undefined && symbols.length > 0;
  });
}

suite('editing', () => {
  test('completion at a task group offers the defined group names', async () => {
    const { doc } = await openTemplate(EDITING);
    await ready(doc);
    const labels = await waitFor('group names in the completion', async () => {
      const l = await complete(doc, positionOf(doc, '"group": "mesh-all"', '"group": "'.length));
      return l.includes('mesh-all') && l.includes('pair-ab') ? l : undefined;
    });
    assert.ok(!labels.includes('throughput-test'), `tests are not offered for group: ${labels.join(', ')}`);
  });

  test('completion inside a task archives array offers the defined archive names', async () => {
    const { doc } = await openTemplate(EDITING);
    await ready(doc);
    // Inside the second array item of latency-pair: "archives": ["archive-main", "|archive-backup"]
    const pos = positionOf(doc, '"archive-backup"]', 1);
    const labels = await complete(doc, pos);
    assert.ok(
      labels.includes('archive-main') && labels.includes('archive-backup'),
      `archive names offered: ${labels.join(', ')}`,
    );
    assert.ok(!labels.includes('mesh-all'), 'group names are not offered in archives');
  });

  test('go to definition jumps from a task group reference to the group key', async () => {
    const { doc } = await openTemplate(EDITING);
    await ready(doc);
    const ref = positionOf(doc, '"group": "pair-ab"', '"group": "pa'.length);
    const locs = await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[]>(
      'vscode.executeDefinitionProvider',
      doc.uri,
      ref,
    );
    assert.equal(locs.length, 1, 'one definition');
    const loc = locs[0];
    const range = 'targetRange' in loc ? (loc.targetSelectionRange ?? loc.targetRange) : loc.range;
    const key = rangeOf(doc, '"pair-ab": {');
    assert.ok(
      range.start.line === key.start.line,
      `definition on line ${range.start.line + 1}, the key is on ${key.start.line + 1}`,
    );
  });

  test('find references from a group definition lists every task that uses it', async () => {
    const { doc } = await openTemplate(EDITING);
    await ready(doc);
    const def = positionOf(doc, '"mesh-all": {', 2);
    const refs = await vscode.commands.executeCommand<vscode.Location[]>(
      'vscode.executeReferenceProvider',
      doc.uri,
      def,
    );
    const lines = refs.map((r) => r.range.start.line);
    const use = rangeOf(doc, '"group": "mesh-all"').start.line;
    assert.ok(
      lines.includes(use),
      `the task's reference (line ${use + 1}) is listed: ${lines.map((l) => l + 1).join(', ')}`,
    );
  });

  test('rename of an archive renames the key and every reference', async () => {
    const uri = copyTemplate(EDITING, 'rename-archive.psconfig.json');
    const { doc } = await openTemplate(uri);
    await ready(doc);
    const before = doc.getText().split('"archive-main"').length - 1;
    assert.equal(before, 3, 'the key and two references');
    const edit = await vscode.commands.executeCommand<vscode.WorkspaceEdit>(
      'vscode.executeDocumentRenameProvider',
      doc.uri,
      positionOf(doc, '"archive-main"', 1),
      'archive-primary',
    );
    const edits = edit.get(doc.uri);
    assert.equal(
      edits.length,
      3,
      `three edits: ${edits.map((e) => `${e.range.start.line + 1}:${e.range.start.character + 1}`).join(' ')}`,
    );
    assert.ok(await vscode.workspace.applyEdit(edit));
    const text = doc.getText();
    assert.equal(text.split('"archive-main"').length - 1, 0);
    assert.equal(text.split('"archive-primary"').length - 1, 3);
    await waitForDiagnostics(
      doc.uri,
      (d) => !d.some((x) => x.severity === vscode.DiagnosticSeverity.Error && /archive-/.test(x.message)),
    );
  });

  test("rename refuses a name outside pSConfig's name pattern", async () => {
    const { doc } = await openTemplate(EDITING);
    await ready(doc);
    await assert.rejects(
      async () =>
        vscode.commands.executeCommand(
          'vscode.executeDocumentRenameProvider',
          doc.uri,
          positionOf(doc, '"archive-main"', 1),
          'bad name!',
        ),
      'a name with a space and ! is refused',
    );
  });

  test('a quick fix creates the missing test and the error goes away', async () => {
    const uri = copyTemplate('missing-test.psconfig.json', 'quick-fix.psconfig.json');
    const { doc } = await openTemplate(uri);
    const ref = rangeOf(doc, '"trace-test"');
    const diags = await waitForDiagnostics(doc.uri, (d) =>
      d.some((x) => x.severity === vscode.DiagnosticSeverity.Error && x.range.intersection(ref)),
    );
    const diag = diags.find((x) => x.range.intersection(ref))!;
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      doc.uri,
      diag.range,
      vscode.CodeActionKind.QuickFix.value,
    );
    const create = actions.find((a) => /creat|add|define/i.test(a.title) && /trace-test/.test(a.title));
    assert.ok(
      create,
      `a "create trace-test" fix among: ${actions.map((a) => a.title).join(' | ')} for ${describeDiagnostic(diag)}`,
    );
    if (create.edit) assert.ok(await vscode.workspace.applyEdit(create.edit));
    if (create.command)
      await vscode.commands.executeCommand(create.command.command, ...((create.command.arguments ?? []) as unknown[]));
    const parsed = JSON.parse(doc.getText()) as { tests: Record<string, unknown> };
    assert.ok('trace-test' in parsed.tests, 'tests now defines trace-test');
    await waitForDiagnostics(
      doc.uri,
      (d) => !d.some((x) => x.severity === vscode.DiagnosticSeverity.Error && /trace-test/.test(x.message)),
    );
  });

  test('hover on a group reference describes the group', async () => {
    const { doc } = await openTemplate(EDITING);
    await ready(doc);
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
      'vscode.executeHoverProvider',
      doc.uri,
      positionOf(doc, '"group": "mesh-all"', '"group": "me'.length),
    );
    const text = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
    assert.match(text, /mesh/, `the hover names the group type: ${text}`);
  });

  test('completion inside a throughput spec offers its keys, a later-version key setting schema', async () => {
    const { doc } = await openTemplate(EDITING);
    await ready(doc);
    // right before the spec's first key: "spec": { |"source": ...
    const pos = positionOf(doc, '"spec": { "source"', '"spec": { '.length);
    const list = await waitFor('spec keys in the completion', async () => {
      const l = await vscode.commands.executeCommand<vscode.CompletionList>(
        'vscode.executeCompletionItemProvider',
        doc.uri,
        pos,
      );
      return completionLabels(l).includes('parallel') ? l : undefined;
    });
    const labels = completionLabels(list);
    for (const present of ['source', 'dest', 'duration']) assert.ok(!labels.includes(present), present);
    const fq = list.items.find((i) => (typeof i.label === 'string' ? i.label : i.label.label) === 'fq-rate');
    assert.ok(fq, `fq-rate offered: ${labels.join(', ')}`);
    assert.ok(fq.insertText instanceof vscode.SnippetString, 'a snippet for VS Code');
    assert.ok(
      fq.insertText.value.startsWith('"schema": 7, "fq-rate"') ||
        (fq.additionalTextEdits ?? []).some((e) => e.newText.includes('"schema": 7')),
      'choosing it sets schema 7',
    );
  });

  test('hover on a spec key and on the test type explains them', async () => {
    const { doc } = await openTemplate(EDITING);
    await ready(doc);
    const hoverText = async (needle: string, delta: number): Promise<string> => {
      const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
        'vscode.executeHoverProvider',
        doc.uri,
        positionOf(doc, needle, delta),
      );
      return hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
    };
    assert.match(await hoverText('"duration": "PT10S"', 3), /ISO 8601 duration/);
    assert.match(await hoverText('"type": "throughput"', '"type": "thr'.length), /iperf3/);
  });

  test('a code lens on each task says how many tasks it yields and for how many agents', async () => {
    const { doc } = await openTemplate('mesh.psconfig.json');
    const lenses = await waitFor('resolved task code lenses', async () => {
      const l = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri, 20);
      return l.some((x) => x.command?.title && /task/.test(x.command.title)) ? l : undefined;
    });
    const titles = lenses.map((l) => l.command?.title ?? '');
    assert.ok(titles.includes('6 tasks for 3 agents'), `lens titles: ${titles.join(' | ')}`);
    // The server's lens command (a text document, for other editors) arrives as the extension's Tasks view.
    const task = lenses.find((l) => l.command?.title === '6 tasks for 3 agents');
    assert.equal(task?.command?.command, 'psconfig.previewTasks');
    assert.equal(String(task?.command?.arguments?.[0]), doc.uri.toString());
  });
});
