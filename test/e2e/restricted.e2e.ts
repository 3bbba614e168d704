// Only in the runner's `restricted` pass (E2E_RESTRICTED=1): code-server with workspace trust on and this workspace
// untrusted. The extension runs (limited support), checks the template, but runs no jq and ignores the workspace's
// psconfig.jq.path (the pass sets it to /bin/false in .vscode/settings.json).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openTemplate, waitForDiagnostics, workspaceDir } from './helpers';

if (process.env.E2E_RESTRICTED === '1')
  suite('restricted workspace', () => {
    test('the workspace is restricted, the extension is active, jq.path from the workspace is not used', async () => {
      assert.equal(vscode.workspace.isTrusted, false);
      const written = JSON.parse(readFileSync(join(workspaceDir(), '.vscode', 'settings.json'), 'utf8')) as Record<
        string,
        unknown
      >;
      assert.equal(written['psconfig.jq.path'], '/bin/false', 'the pass wrote a workspace jq.path');
      // Machine-scoped and restricted: VS Code does not apply the workspace's value.
      assert.notEqual(vscode.workspace.getConfiguration('psconfig').get('jq.path'), '/bin/false');
      const { doc } = await openTemplate('taskgenerator-jq.psconfig.json');
      const diags = await waitForDiagnostics(doc.uri, (d) => d.some((x) => x.code === 'psconfig/jq-unavailable'));
      const note = diags.find((x) => x.code === 'psconfig/jq-unavailable')!;
      assert.match(note.message, /jq does not run in a restricted workspace/);
      assert.match(doc.getText(note.range), /\.addresses\[\d\]\._meta/, 'the note sits on a jq expression');
      assert.ok(!diags.some((x) => x.code === 'psconfig/jq-compile'));
    });

    test('the preview shows which values need jq, nothing else is lost', async () => {
      const { doc } = await openTemplate('taskgenerator-jq.psconfig.json');
      const summary = await vscode.commands.executeCommand<{
        result?: { combinations: { error?: string; pscheduler?: unknown }[] };
      }>('psconfig.previewTasks', doc.uri);
      const combos = summary.result?.combinations ?? [];
      assert.ok(combos.length > 0, 'the template still expands');
      assert.ok(
        combos.every((c) => /restricted workspace/.test(c.error ?? '')),
        JSON.stringify(combos[0]),
      );
    });

    test('the Hosts view reads no host: the template names them and its settings their URLs', async () => {
      const { doc } = await openTemplate('hosts-mesh.psconfig.json');
      const s = await vscode.commands.executeCommand<{ error?: string; result?: unknown }>(
        'psconfig.readHosts',
        doc.uri,
      );
      assert.match(s.error ?? '', /only in a trusted workspace/);
      assert.equal(s.result, undefined);
    });
  });
