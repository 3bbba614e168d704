// Every command the server puts in a code lens, executed by the server itself as Neovim, Emacs (lsp-mode) and
// Sublime LSP run them (workspace/executeCommand): the task lens opens the preview as a text document on the task,
// the Dashboard lens the task's configured directions and archives, the archive lens the archive's search for the
// pair in the browser; a client without window/showDocument is told where the file or URL is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { CodeLens } from 'vscode-languageserver-protocol';
import { ServerCommands, type LensCommandResult } from '../../common/protocol';
import { exampleText, exampleUri, LspClient, serverForSuite } from './lsp-client';

const MESH = 'perl-shared--client-psconfig-mesh.json';
const meshUri = exampleUri(MESH);
const meshText = exampleText(MESH);
const [a, b, c] = ['host-a.perfsonar.net', 'host-b.perfsonar.net', 'host-c.perfsonar.net'];

let client: LspClient;
serverForSuite((x) => (client = x), { showDocument: true }, [[meshUri, meshText]]);

/** The lenses of a document, each resolved as a client does before showing it. */
async function resolvedLenses(lsp: LspClient, uri: string): Promise<CodeLens[]> {
  const lenses = await lsp.request<CodeLens[]>('textDocument/codeLens', { textDocument: { uri } });
  return Promise.all(
    lenses.map((l) => (l.command ? Promise.resolve(l) : lsp.request<CodeLens>('codeLens/resolve', l))),
  );
}

/** Runs a lens as Neovim's vim.lsp.codelens.run() does: its command, through workspace/executeCommand. */
function run(lsp: LspClient, lens: CodeLens): Promise<LensCommandResult> {
  assert.ok(lens.command);
  return lsp.request<LensCommandResult>('workspace/executeCommand', {
    command: lens.command.command,
    arguments: lens.command.arguments,
  });
}

const lensOf = (lenses: CodeLens[], command: string): CodeLens => {
  const l = lenses.find((x) => x.command?.command === command);
  assert.ok(l, `a lens running ${command}: ${JSON.stringify(lenses.map((x) => x.command))}`);
  return l;
};

test('every lens carries a command the server advertises in executeCommandProvider', async () => {
  const advertised = client.initializeResult?.capabilities.executeCommandProvider?.commands ?? [];
  for (const cmd of [
    ServerCommands.showTasks,
    ServerCommands.showDashboard,
    ServerCommands.openArchive,
    ServerCommands.showSchedule,
    ServerCommands.showGrafana,
  ])
    assert.ok(advertised.includes(cmd), `${cmd} in ${advertised.join(', ')}`);
  const lenses = await resolvedLenses(client, meshUri);
  assert.equal(lenses.length, 5);
  for (const l of lenses) assert.ok(advertised.includes(l.command!.command), JSON.stringify(l.command));
});

test('the task lens opens the preview as a text document, on the task', async () => {
  const lens = lensOf(await resolvedLenses(client, meshUri), ServerCommands.showTasks);
  assert.equal(lens.command?.title, '6 tasks for 3 agents');
  const before = client.shownDocuments.length;
  const r = await run(client, lens);
  assert.equal(r.shown, 'document');
  assert.equal(r.message, 'example-task-throughput: 6 tasks for 3 agents');
  const shown = client.shownDocuments.slice(before);
  assert.equal(shown.length, 1);
  assert.equal(shown[0].uri, r.target);
  assert.equal(shown[0].takeFocus, true);
  assert.match(shown[0].uri, /^file:\/\/.*perl-shared--client-psconfig-mesh\.json-[0-9a-f]{8}\.tasks\.txt$/);
  const text = readFileSync(fileURLToPath(shown[0].uri), 'utf8');
  const lines = text.split('\n');
  assert.match(
    lines[0],
    /^# Tasks each agent would create from .*perl-shared--client-psconfig-mesh\.json \(version 1;/,
  );
  assert.deepEqual(lines.slice(1, 5), [
    `${a}  2 tasks`,
    '  example-task-throughput  throughput · group example-group-mesh',
    `    ${a} → ${b}`,
    `    ${a} → ${c}`,
  ]);
  // The cursor goes to the task's first line.
  assert.equal(shown[0].selection?.start.line, 2);
  assert.equal(lines.filter((l) => l.includes(' → ')).length, 6);
});

test('the Dashboard lens opens the task’s configured directions and the command that reads their results', async () => {
  const lens = lensOf(await resolvedLenses(client, meshUri), ServerCommands.showDashboard);
  const before = client.shownDocuments.length;
  const r = await run(client, lens);
  assert.equal(r.shown, 'document');
  assert.equal(r.message, 'example-task-throughput: 6 configured directions');
  const [shown] = client.shownDocuments.slice(before);
  assert.match(shown.uri, /\.example-task-throughput\.dashboard\.txt$/);
  const text = readFileSync(fileURLToPath(shown.uri), 'utf8');
  const path = fileURLToPath(meshUri);
  assert.match(text, /^Dashboard of task example-task-throughput in /);
  assert.ok(text.includes('throughput, mesh group: 3 rows × 3 columns, 6 configured directions'), text);
  assert.ok(text.includes('  [1] https://archive.perfsonar.net/esmond/perfsonar/archive/'), text);
  assert.ok(text.includes(`  psconfig-tools dashboard ${path} --task example-task-throughput`), text);
  for (const [from, to] of [
    [a, b],
    [a, c],
    [b, a],
    [b, c],
    [c, a],
    [c, b],
  ])
    assert.ok(text.includes(`  ${from} → ${to}  [1]\n`), `${from} → ${to} in\n${text}`);
});

test('the schedule lens opens the simulated schedule as text: runs a day per task, hosts’ loads, the CLI line', async () => {
  const lens = lensOf(await resolvedLenses(client, meshUri), ServerCommands.showSchedule);
  const before = client.shownDocuments.length;
  const r = await run(client, lens);
  assert.equal(r.shown, 'document');
  assert.match(r.message, /^example-task-throughput: [\d,.]+ runs a day/);
  const [shown] = client.shownDocuments.slice(before);
  assert.match(shown.uri, /perl-shared--client-psconfig-mesh\.json-[0-9a-f]{8}\.schedule\.txt$/);
  const text = readFileSync(fileURLToPath(shown.uri), 'utf8');
  const path = fileURLToPath(meshUri);
  assert.match(text, /^Simulated schedule of .*perl-shared--client-psconfig-mesh\.json\nSpan: \d{4}-/);
  assert.match(text, /\n {2}example-task-throughput {2}[\d,.]+ runs a day/);
  // Every host of the mesh, with its loads (3 hosts, each in 4 of the 6 throughput tasks).
  for (const host of [a, b, c])
    assert.match(text, new RegExp(`\n  ${host.replace(/\./g, '\\.')} +\\d\\.\\d{3} +\\d\\.\\d{3}  4\n`));
  assert.ok(text.includes(`  psconfig-tools schedule ${path} --runs --format json`), text);
});

test('the archive lens opens the archive’s search for the pair in the browser', async () => {
  const lens = lensOf(await resolvedLenses(client, meshUri), ServerCommands.openArchive);
  const before = client.shownDocuments.length;
  const r = await run(client, lens);
  assert.equal(r.shown, 'document');
  const [shown] = client.shownDocuments.slice(before);
  assert.equal(shown.external, true);
  const url = new URL(shown.uri);
  assert.equal(`${url.origin}${url.pathname}`, 'https://archive.perfsonar.net/esmond/perfsonar/archive/');
  assert.deepEqual(Object.fromEntries(url.searchParams), {
    'input-source': a,
    'input-destination': b,
    'event-type': 'throughput',
  });
  assert.equal(r.message, `archive search for example-task-throughput ${a} → ${b}`);
});

test('without window/showDocument each lens names its file or URL in a message; files go when the server exits', async () => {
  const plain = await LspClient.start();
  try {
    await plain.open(meshUri, meshText);
    const lenses = await resolvedLenses(plain, meshUri);
    const files: string[] = [];
    for (const command of [ServerCommands.showTasks, ServerCommands.showDashboard, ServerCommands.openArchive]) {
      const r = await run(plain, lensOf(lenses, command));
      assert.equal(r.shown, 'message');
      const m = plain.messages.at(-1);
      assert.equal(m?.type, 3, 'an information message');
      assert.equal(m?.message, r.message);
      if (command === ServerCommands.openArchive) {
        assert.ok(r.message.endsWith(`open ${r.target}`), r.message);
        continue;
      }
      const file = fileURLToPath(r.target!);
      assert.ok(r.message.endsWith(`see ${file}`), r.message);
      assert.ok(existsSync(file));
      files.push(file);
    }
    assert.deepEqual(plain.shownDocuments, []);
    // The client goes away without `shutdown` (an editor quitting): the server exits and removes its files.
    const exited = new Promise((resolve) => plain.child.once('exit', resolve));
    plain.child.stdin.end();
    await exited;
    assert.deepEqual(
      files.filter((f) => existsSync(f)),
      [],
      'the lens files are removed when the server exits',
    );
  } finally {
    if (plain.alive) await plain.stop();
  }
});

test('a lens command without its argument (Helix) shows the template last opened; a broken one says why', async () => {
  const uri = 'file:///tmp/psconfig-lens-broken.psconfig.json';
  await client.open(uri, '{ "tasks": ');
  const implicit = await client.request<LensCommandResult>('workspace/executeCommand', {
    command: ServerCommands.showTasks,
  });
  assert.match(implicit.message, /^cannot expand: /);
  assert.match(readFileSync(fileURLToPath(implicit.target!), 'utf8'), /cannot expand: /);
  assert.match(implicit.target!, /psconfig-lens-broken\.psconfig\.json-[0-9a-f]{8}\.tasks\.txt$/);
  const noUrl = await client
    .request('workspace/executeCommand', { command: ServerCommands.openArchive, arguments: [{ url: 'ftp://x' }] })
    .then(
      () => undefined,
      (e: Error) => e.message,
    );
  assert.match(noUrl ?? '', /needs an http\(s\) archive url/);
  client.close(uri);
});

test("the Grafana lens says what perfSONAR 5's Grafana agent draws for the task, and why, in a message", async () => {
  const lens = lensOf(await resolvedLenses(client, meshUri), ServerCommands.showGrafana);
  assert.equal(lens.command?.title, 'Grafana: empty grid (no reference.display-task-name)');
  const before = client.messages.length;
  const r = await run(client, lens);
  assert.equal(r.shown, 'message');
  assert.match(r.message, /^example-task-throughput: Grafana: empty grid .* finds results by that name/);
  assert.equal(client.messages.slice(before).at(-1)?.message, r.message);
});
