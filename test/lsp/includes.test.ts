// Includes in the editor, over LSP with a real server process: names from an included file resolve; editing the
// included file (open in the editor, or changed on disk) refreshes the diagnostics and previews of the templates
// including it; the server watches included files; remote includes need consent and a trusted workspace.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import type { ExpandTasksResult } from '../../common/protocol';
import { LspClient } from './lsp-client';

const dir = mkdtempSync(join(tmpdir(), 'psconfig-lsp-includes-'));
let client: LspClient;

before(async () => {
  client = await LspClient.start({ watchFiles: true });
});
after(async () => {
  await client.stop();
  rmSync(dir, { recursive: true, force: true });
});

const defs = (testName: string): string =>
  JSON.stringify(
    {
      addresses: { c: { address: 'c.example.net' } },
      tests: { [testName]: { type: 'rtt', spec: { dest: '{% address[1] %}' } } },
    },
    null,
    2,
  );

const templateText = (includes: string[]): string =>
  JSON.stringify(
    {
      addresses: { a: { address: 'a.example.net' } },
      groups: { g: { type: 'mesh', addresses: [{ name: 'a' }, { name: 'c' }] } },
      tests: {},
      tasks: { task: { group: 'g', test: 'inc-test' } },
      includes,
    },
    null,
    2,
  );

const messageOf = (d: Diagnostic | undefined): string =>
  d === undefined ? '' : typeof d.message === 'string' ? d.message : d.message.value;
const codes = (ds: Diagnostic[]): string[] => ds.filter((d) => d.severity !== 4).map((d) => String(d.code));
const hasUnknownTest = (ds: Diagnostic[]): boolean => ds.some((d) => d.code === 'psconfig/unknown-test');

test('editing an included file, open or on disk, refreshes the template including it', async () => {
  const incPath = join(dir, 'defs.json');
  writeFileSync(incPath, defs('inc-test'));
  const mainPath = join(dir, 'main.psconfig.json');
  const text = templateText([incPath]);
  writeFileSync(mainPath, text);
  const main = pathToFileURL(mainPath).toString();
  const inc = pathToFileURL(incPath).toString();

  assert.deepEqual(codes(await client.open(main, text)), [], 'names from the include resolve');
  const expanded = await client.request<ExpandTasksResult>('psconfig/expandTasks', { uri: main });
  assert.deepEqual(
    expanded.combinations.map((c) => c.addressValues.join(' → ')),
    ['a.example.net → c.example.net', 'c.example.net → a.example.net'],
  );

  // The server watches the included file.
  const watched = JSON.stringify(client.registrations.filter((r) => r.method === 'workspace/didChangeWatchedFiles'));
  assert.ok(watched.includes('defs.json'), watched);

  // Open the include and rename its test, unsaved: the template's own version does not change, yet it is re-checked.
  const before = client.templateChanged.length;
  await client.open(inc, defs('inc-test'), 'json');
  await client.change(inc, [{ text: defs('inc-tests') }]);
  const broken = await client.diagnosticsWhere(main, hasUnknownTest, 'unknown-test error');
  const d = broken.find((x) => x.code === 'psconfig/unknown-test');
  assert.equal(d?.severity, 1);
  assert.match(messageOf(d), /did you mean `inc-tests`/);
  // …and previews are told (with the reason, since the version is the same) and expand the editor's text.
  await client.until(
    () => client.templateChanged.slice(before).some((p) => p.uri === main && p.reason === 'include'),
    'templateChanged for the including template',
  );
  const stale = await client.request<ExpandTasksResult>('psconfig/expandTasks', { uri: main });
  assert.ok(
    stale.combinations.every((c) => c.error !== undefined),
    'the task now names a test that does not exist',
  );

  // Close it (the disk still has the old name): back to no error.
  client.close(inc);
  await client.diagnosticsWhere(main, (ds) => !hasUnknownTest(ds), 'clean diagnostics after closing the include');

  // Change it on disk and report the change as a file watcher would.
  writeFileSync(incPath, defs('disk-renamed'));
  client.fileChanged(inc);
  const fromDisk = await client.diagnosticsWhere(main, hasUnknownTest, 'unknown-test error after a disk change');
  assert.match(
    messageOf(fromDisk.find((x) => x.code === 'psconfig/unknown-test')),
    /None of the included files defines it either/,
  );
  client.close(main);
});

test('relative includes read from the template folder when it is in no workspace folder, with the pSConfig warning', async () => {
  writeFileSync(join(dir, 'rel.json'), defs('inc-test'));
  const mainPath = join(dir, 'relative.psconfig.json');
  const text = templateText(['rel.json']);
  writeFileSync(mainPath, text);
  const uri = pathToFileURL(mainPath).toString();
  const ds = await client.open(uri, text);
  assert.deepEqual(codes(ds), ['psconfig/include-relative']);
  assert.match(messageOf(ds[0]), /working directory of the program reading the template/);
  client.close(uri);
});

test('files outside the workspace folders and the template folder are not read unless listed in settings', async () => {
  const outside = mkdtempSync(join(tmpdir(), 'psconfig-lsp-outside-'));
  try {
    const incPath = join(outside, 'defs.json');
    writeFileSync(incPath, defs('inc-test'));
    const text = templateText([incPath]);
    const uri = pathToFileURL(join(dir, 'bounded.psconfig.json')).toString();
    writeFileSync(join(dir, 'bounded.psconfig.json'), text);
    const ds = await client.open(uri, text);
    const skipped = ds.find((d) => d.code === 'psconfig/include-skipped');
    assert.match(messageOf(skipped), /outside the workspace folders .*psconfig\.includes\.directories/);
    client.setPsconfigSettings({ includes: { directories: [outside] } });
    await client.diagnosticsWhere(uri, (x) => codes(x).length === 0, 'the include read once its folder is listed');
    client.setPsconfigSettings({ includes: { directories: [] } });
    client.close(uri);
  } finally {
    rmSync(outside, { recursive: true, force: true });
  }
});

test('remote includes: not fetched without consent, nor with consent in an untrusted workspace; fetched when both', async () => {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    hits.push(req.url ?? '');
    res.end(defs('inc-test'));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/defs.json`;
    const text = templateText([url]);
    const uri = pathToFileURL(join(dir, 'remote.psconfig.json')).toString();
    const skippedBecause = (re: RegExp) => (x: Diagnostic[]) =>
      re.test(messageOf(x.find((d) => d.code === 'psconfig/include-skipped')));
    // Without consent: not fetched.
    const first = await client.open(uri, text);
    assert.ok(skippedBecause(/only with consent/)(first), JSON.stringify(first));
    // With consent in a restricted workspace: not fetched either.
    client.setPsconfigSettings({ includes: { allowRemote: true }, workspaceTrusted: false });
    await client.diagnosticsWhere(uri, skippedBecause(/restricted \(untrusted\) workspace/), 'the untrusted note');
    assert.deepEqual(hits, [], 'nothing fetched without both consent and trust');
    // With consent in a trusted workspace (editors without a trust model send nothing: trusted).
    client.setPsconfigSettings({ includes: { allowRemote: true }, workspaceTrusted: true });
    await client.diagnosticsWhere(uri, (x) => codes(x).length === 0, 'the remote include merged');
    assert.ok(hits.length >= 1);
    client.setPsconfigSettings({ includes: { allowRemote: false } });
    client.close(uri);
  } finally {
    server.close();
  }
});
