// A MeshConfig file through a real server process: one error saying what it is, the quick fix that creates the
// pSConfig template beside it (a WorkspaceEdit with CreateFile, then the server asks the client to show it), and
// for a client that cannot create files through an edit, the server command that writes it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';
import type { CodeAction, CreateFile, Diagnostic, TextDocumentEdit } from 'vscode-languageserver-protocol';
import { ServerCommands, type TranslateMeshConfigResult } from '../../common/protocol';
import { LspClient } from './lsp-client';
import { meshconfigDir } from '../fixtures';

const MESH = readFileSync(join(meshconfigDir, 'pwa--latentput-meshconfig.json'), 'utf8');
let dir: string;
let vscodeLike: LspClient;
let plain: LspClient;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'psconfig-meshconfig-'));
  [vscodeLike, plain] = await Promise.all([LspClient.start({ files: true, showDocument: true }), LspClient.start()]);
});
after(async () => {
  for (const c of [vscodeLike, plain]) {
    assert.deepEqual(c.loggedErrors(), []);
    await c.stop();
  }
  rmSync(dir, { recursive: true, force: true });
});

const uriOf = (name: string): string => pathToFileURL(join(dir, name)).toString();

async function meshConfigError(client: LspClient, uri: string): Promise<Diagnostic> {
  const diagnostics = await client.open(uri, MESH, 'json');
  const errors = diagnostics.filter((d) => d.severity === 1);
  assert.deepEqual(
    errors.map((d) => d.code),
    ['psconfig/meshconfig'],
  );
  assert.ok(diagnostics.every((d) => String(d.code).startsWith('psconfig/meshconfig')));
  return errors[0];
}

function codeActions(client: LspClient, uri: string, diagnostic: Diagnostic): Promise<CodeAction[]> {
  return client.request<CodeAction[]>('textDocument/codeAction', {
    textDocument: { uri },
    range: diagnostic.range,
    context: { diagnostics: [diagnostic] },
  });
}

test('the quick fix creates the template beside the MeshConfig file and asks the client to show it', async () => {
  const uri = uriOf('latentput.json');
  writeFileSync(join(dir, 'latentput.json'), MESH);
  const error = await meshConfigError(vscodeLike, uri);
  const [action, ...more] = await codeActions(vscodeLike, uri, error);
  assert.equal(more.length, 0);
  assert.equal(action.title, 'Translate MeshConfig to pSConfig (new file beside it)');
  assert.equal(action.kind, 'quickfix');
  const [create, edit] = action.edit?.documentChanges as [CreateFile, TextDocumentEdit];
  const target = uriOf('latentput.psconfig.json');
  assert.deepEqual(create, { kind: 'create', uri: target, options: { overwrite: false, ignoreIfExists: false } });
  assert.equal(edit.textDocument.uri, target);
  const text = (edit.edits[0] as { newText: string }).newText;
  const template = JSON.parse(text) as { tasks: Record<string, unknown> };
  assert.deepEqual(Object.keys(template.tasks), ['LatentSeeTestname', 'Throughputtestname']);
  assert.deepEqual(action.command, {
    title: 'Open the translation',
    command: ServerCommands.openTranslation,
    arguments: [target],
  });

  // The client applies the edit and runs the command: the server asks it to show the new file.
  writeFileSync(join(dir, 'latentput.psconfig.json'), text);
  await vscodeLike.request('workspace/executeCommand', {
    command: action.command?.command,
    arguments: action.command?.arguments,
  });
  assert.deepEqual(vscodeLike.shownDocuments.at(-1), { uri: target, takeFocus: true });
  // The translated template, opened, has no error.
  const diagnostics = await vscodeLike.open(target, text);
  assert.deepEqual(
    diagnostics.filter((d) => d.severity === 1).map((d) => d.message),
    [],
  );

  // Asked again, the action writes beside it under another name: nothing is overwritten.
  const [again] = await codeActions(vscodeLike, uri, error);
  assert.equal((again.edit?.documentChanges?.[0] as CreateFile).uri, uriOf('latentput-translated.psconfig.json'));
});

test('a client that cannot create files through an edit gets a command that writes the file', async () => {
  const uri = uriOf('plain.json');
  writeFileSync(join(dir, 'plain.json'), MESH);
  writeFileSync(join(dir, 'plain.psconfig.json'), '{}'); // taken: never overwritten
  const error = await meshConfigError(plain, uri);
  const [action] = await codeActions(plain, uri, error);
  assert.equal(action.edit, undefined);
  assert.deepEqual(action.command?.command, ServerCommands.translateMeshConfig);
  const result = await plain.request<TranslateMeshConfigResult>('workspace/executeCommand', {
    command: ServerCommands.translateMeshConfig,
    arguments: [uri],
  });
  assert.deepEqual(result, { uri: uriOf('plain-translated.psconfig.json') });
  assert.equal(readFileSync(join(dir, 'plain.psconfig.json'), 'utf8'), '{}');
  const written = JSON.parse(readFileSync(join(dir, 'plain-translated.psconfig.json'), 'utf8')) as object;
  assert.ok('tasks' in written);
  assert.equal(plain.shownDocuments.length, 0, 'no showDocument to a client that did not declare it');
  // Not a MeshConfig file: an error, nothing written.
  const bad = await plain.request<TranslateMeshConfigResult>('workspace/executeCommand', {
    command: ServerCommands.translateMeshConfig,
    arguments: [uriOf('plain-translated.psconfig.json')],
  });
  assert.match(String(bad.error), /not a MeshConfig file/);
  assert.ok(!existsSync(join(dir, 'plain-translated-translated.psconfig.json')));
});
