// Opening a template activates the extension, the template gets the `psconfig` language, and every
// contributed command is registered. Also checks which copy of the extension the host loaded.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import * as vscode from 'vscode';
import { copyTemplate, extension, openTemplate, waitFor, workspaceDir } from './helpers';

suite('activation', () => {
  test('opening a template activates the extension, with language psconfig', async () => {
    const { doc } = await openTemplate('example-1-simple.psconfig.json');
    assert.equal(doc.languageId, 'psconfig');
    const ext = extension();
    await waitFor('the extension to activate', () => ext.isActive);
  });

  test('the host runs the expected copy of the extension (the installed .vsix when the runner says so)', () => {
    const ext = extension();
    const expectedDir = process.env.E2E_EXPECT_EXTENSIONS_DIR;
    if (expectedDir) {
      assert.ok(
        ext.extensionPath.startsWith(expectedDir + sep),
        `extension loaded from ${ext.extensionPath}, expected under ${expectedDir}`,
      );
      // What a user installs: bundles only, no sources or transpiled tests.
      assert.ok(existsSync(join(ext.extensionPath, 'dist', 'client.js')), 'dist/client.js is in the package');
      assert.ok(existsSync(join(ext.extensionPath, 'dist', 'server.js')), 'dist/server.js is in the package');
      assert.ok(!existsSync(join(ext.extensionPath, 'out')), 'out/ must not be in the package');
      assert.ok(!existsSync(join(ext.extensionPath, 'test')), 'test/ must not be in the package');
    }
    const manifest = JSON.parse(readFileSync(join(ext.extensionPath, 'package.json'), 'utf8')) as {
      name: string;
      main: string;
    };
    assert.equal(manifest.name, 'psconfig-vscode');
    assert.ok(existsSync(join(ext.extensionPath, manifest.main)), `main ${manifest.main} exists`);
  });

  test('every contributed command is registered', async () => {
    const ext = extension();
    await waitFor('the extension to activate', () => ext.isActive);
    const manifest = ext.packageJSON as { contributes: { commands: { command: string }[] } };
    const contributed = manifest.contributes.commands.map((c) => c.command);
    assert.ok(contributed.length >= 7, 'package.json contributes the palette commands');
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = contributed.filter((c) => !registered.has(c));
    assert.deepEqual(missing, [], `commands contributed but not registered: ${missing.join(', ')}`);
  });

  test('the workspace is the one the runner prepared', () => {
    const dir = workspaceDir();
    assert.ok(existsSync(join(dir, 'editing.psconfig.json')));
  });

  test('a plain .json file whose top level has tasks and groups becomes a pSConfig template', async () => {
    const uri = copyTemplate('mesh.psconfig.json', 'plain-template.json');
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    const language = await waitFor('the language to switch to psconfig', () => {
      const now = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
      return now?.languageId === 'psconfig' ? now.languageId : undefined;
    });
    assert.equal(language, 'psconfig');
  });
});
