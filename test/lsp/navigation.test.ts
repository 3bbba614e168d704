// Completion, definition, references, rename, hover, document symbols and code actions over LSP, against the
// bundled server, on real example templates.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type {
  CompletionItem,
  CompletionList,
  DocumentSymbol,
  Hover,
  Location,
  WorkspaceEdit,
  CodeAction,
  Diagnostic,
} from 'vscode-languageserver-protocol';
import {
  LspClient,
  serverForSuite,
  applyEdits,
  exampleText,
  exampleUri,
  positionOf,
  positionToOffset,
  messageText,
} from './lsp-client';

let client: LspClient;
const SIMPLE = 'psconfig--example-1-simple.json';
const simpleText = exampleText(SIMPLE);
const simpleUri = exampleUri(SIMPLE);

serverForSuite((c) => (client = c), {}, [[simpleUri, simpleText]]);

const doc = (uri: string) => ({ uri });
const labels = (l: CompletionList | null): string[] => (l?.items ?? []).map((i) => i.label);

test('completion in a task group reference lists the groups, replacing the whole name', async () => {
  const position = positionOf(simpleText, '"group": "example-group-mesh"', 12);
  const list = await client.request<CompletionList>('textDocument/completion', {
    textDocument: doc(simpleUri),
    position,
  });
  assert.deepEqual(labels(list), ['example-group-mesh']);
  const edit = list.items[0].textEdit as {
    range: { start: { character: number }; end: { character: number } };
    newText: string;
  };
  assert.equal(edit.newText, 'example-group-mesh');
  assert.equal(edit.range.end.character - edit.range.start.character, 'example-group-mesh'.length);
});

test('completion in a bare array item of task archives (empty string and no string yet)', async () => {
  const uri = 'file:///tmp/psconfig-lsp-nav/archives-array.json';
  const text = simpleText.replace(
    '"archives": [ "example-archive-central" ]\n        },\n        "example-task-latencybg"',
    '"archives": [ "" ]\n        },\n        "example-task-latencybg"',
  );
  assert.notEqual(text, simpleText);
  await client.open(uri, text);
  const inEmpty = await client.request<CompletionList>('textDocument/completion', {
    textDocument: doc(uri),
    position: positionOf(text, '"archives": [ "" ]', 15),
  });
  assert.deepEqual(labels(inEmpty), ['example-archive-central']);
  const bare = text.replace('"archives": [ "" ]', '"archives": [  ]');
  await client.change(uri, [{ text: bare }]);
  const noQuote = await client.request<CompletionList>('textDocument/completion', {
    textDocument: doc(uri),
    position: positionOf(bare, '"archives": [  ]', 14),
  });
  assert.deepEqual(labels(noQuote), ['example-archive-central']);
  assert.equal((noQuote.items[0].textEdit as { newText: string }).newText, '"example-archive-central"');
  client.close(uri);
});

test('completion inside {% %} offers the variables with the indexes a mesh allows', async () => {
  const uri = 'file:///tmp/psconfig-lsp-nav/variables.json';
  const text = simpleText.replace('"duration": "PT30S"', '"duration": "PT30S", "x": "{% "');
  await client.open(uri, text);
  const list = await client.request<CompletionList>('textDocument/completion', {
    textDocument: doc(uri),
    position: positionOf(text, '"x": "{% ', 9),
  });
  const got = labels(list);
  for (const v of [
    'address[0]',
    'address[1]',
    'pscheduler_address[1]',
    'lead_bind_address[0]',
    'scheduled_by_address',
    'flip',
    'localhost',
    'jq',
  ])
    assert.ok(got.includes(v), v);
  assert.ok(!got.includes('address[2]'));
  const addr = list.items.find((i) => i.label === 'address[1]');
  assert.equal((addr?.textEdit as { newText: string }).newText, 'address[1] %}');
  client.close(uri);
});

test('completion of schema keys inside a group object (JSON language service on the official schema)', async () => {
  const uri = 'file:///tmp/psconfig-lsp-nav/schema-keys.json';
  const text = simpleText.replace('"type": "mesh",', '"type": "mesh", "",');
  await client.open(uri, text);
  const list = await client.request<CompletionList>('textDocument/completion', {
    textDocument: doc(uri),
    position: positionOf(text, '"type": "mesh", "', 17),
  });
  const got = labels(list);
  assert.ok(got.includes('excludes-self'), got.join(','));
  assert.ok(got.includes('default-address-label'));
  client.close(uri);
});

test('label selector completion offers the labels of the selected address', async () => {
  const name = 'psconfig--example-2-testbed.json';
  const text = exampleText(name);
  const uri = exampleUri(name);
  await client.open(uri, text);
  const list = await client.request<CompletionList>('textDocument/completion', {
    textDocument: doc(uri),
    position: positionOf(text, '"label": "ipv6"', 10),
  });
  assert.deepEqual(labels(list), ['ipv6']);
  client.close(uri);
});

test('definition of a group reference is the group key', async () => {
  const locs = await client.request<Location[]>('textDocument/definition', {
    textDocument: doc(simpleUri),
    position: positionOf(simpleText, '"group": "example-group-mesh"', 14),
  });
  assert.equal(locs.length, 1);
  assert.deepEqual(locs[0].range.start, positionOf(simpleText, '"example-group-mesh": {', 1));
});

test('references from the definition key and from a reference agree', async () => {
  const fromKey = await client.request<Location[]>('textDocument/references', {
    textDocument: doc(simpleUri),
    position: positionOf(simpleText, '"example-group-mesh": {', 3),
    context: { includeDeclaration: true },
  });
  assert.equal(fromKey.length, 4);
  const fromRef = await client.request<Location[]>('textDocument/references', {
    textDocument: doc(simpleUri),
    position: positionOf(simpleText, '"group": "example-group-mesh"', 12, 2),
    context: { includeDeclaration: false },
  });
  assert.equal(fromRef.length, 3);
  for (const l of fromRef)
    assert.equal(
      simpleText.slice(positionToOffset(simpleText, l.range.start), positionToOffset(simpleText, l.range.end)),
      'example-group-mesh',
    );
});

test('rename renames the key and every reference; invalid names are refused with a reason', async () => {
  const position = positionOf(simpleText, '"archives": [ "example-archive-central" ]', 17);
  const prep = await client.request<{ range: unknown; placeholder: string }>('textDocument/prepareRename', {
    textDocument: doc(simpleUri),
    position,
  });
  assert.equal(prep.placeholder, 'example-archive-central');
  const edit = await client.request<WorkspaceEdit>('textDocument/rename', {
    textDocument: doc(simpleUri),
    position,
    newName: 'central',
  });
  const edits = edit.changes?.[simpleUri] ?? [];
  assert.equal(edits.length, 4);
  const renamed = applyEdits(simpleText, edits);
  assert.ok(!renamed.includes('example-archive-central'));
  assert.equal((renamed.match(/"central"/g) ?? []).length, 4);
  await assert.rejects(
    client.request('textDocument/rename', { textDocument: doc(simpleUri), position, newName: 'has space' }),
    /not a valid pSConfig name/,
  );
});

test('hover on a reference shows the object it names', async () => {
  const h = await client.request<Hover>('textDocument/hover', {
    textDocument: doc(simpleUri),
    position: positionOf(simpleText, '"test": "example-test-trace"', 12),
  });
  const value = (h.contents as { value: string }).value;
  assert.match(value, /test/);
  assert.match(value, /```json/);
  assert.match(value, /"type": "trace"/);
});

test('hover on a group shows its type', async () => {
  const h = await client.request<Hover>('textDocument/hover', {
    textDocument: doc(simpleUri),
    position: positionOf(simpleText, '"example-group-mesh": {', 3),
  });
  assert.match((h.contents as { value: string }).value, /Type: `mesh`/);
});

test('document symbols list the sections and their objects', async () => {
  const symbols = await client.request<DocumentSymbol[]>('textDocument/documentSymbol', {
    textDocument: doc(simpleUri),
  });
  assert.deepEqual(
    symbols.map((s) => s.name),
    ['archives', 'addresses', 'groups', 'tests', 'schedules', 'tasks'],
  );
  const tasks = symbols.find((s) => s.name === 'tasks');
  assert.deepEqual(
    tasks?.children?.map((c) => c.name),
    ['example-task-throughput', 'example-task-latencybg', 'example-task-trace'],
  );
});

test('quick fixes for a misspelt reference: replace with the closest name, or create the object', async () => {
  const uri = 'file:///tmp/psconfig-lsp-nav/quickfix.json';
  const text = simpleText.replace('"test": "example-test-trace"', '"test": "example-test-trac"');
  const diags = await client.open(uri, text);
  const at = positionOf(text, '"example-test-trac"', 1);
  const diag = diags.find((d: Diagnostic) => d.range.start.line === at.line && d.severity === 1);
  assert.ok(diag, `a diagnostic at the misspelt test: ${JSON.stringify(diags)}`);
  const actions = await client.request<CodeAction[]>('textDocument/codeAction', {
    textDocument: doc(uri),
    range: diag.range,
    context: { diagnostics: [diag] },
  });
  const titles = actions.map((a) => a.title);
  assert.ok(titles.includes('Change to "example-test-trace"'), titles.join(' | '));
  const fixed = applyEdits(text, actions.find((a) => a.title.startsWith('Change to'))!.edit!.changes![uri]);
  assert.equal(fixed, simpleText);
  const create = actions.find((a) => a.title.startsWith('Create test'));
  assert.ok(create);
  const created = applyEdits(text, create.edit!.changes![uri]);
  const parsed = JSON.parse(created) as { tests: Record<string, unknown> };
  assert.ok('example-test-trac' in parsed.tests);
  const after = await client.change(uri, [{ text: created }]);
  assert.ok(
    !after.some(
      (d) => d.range.start.line === at.line && d.severity === 1 && messageText(d.message).includes('example-test-trac'),
    ),
  );
  client.close(uri);
});

test('with a client that takes itemDefaults, the shared edit range is sent once', async () => {
  const other = await LspClient.start({ itemDefaults: true });
  try {
    await other.open(simpleUri, simpleText);
    const position = positionOf(simpleText, '"group": "example-group-mesh"', 12);
    const list = await other.request<CompletionList>('textDocument/completion', {
      textDocument: doc(simpleUri),
      position,
    });
    const range = list.itemDefaults?.editRange as
      { start: { character: number }; end: { character: number } } | undefined;
    assert.ok(range);
    assert.equal(range.end.character - range.start.character, 'example-group-mesh'.length);
    assert.equal(list.items[0].textEdit, undefined);
    assert.equal(list.items[0].label, 'example-group-mesh');
    // A long list leaves details to completionItem/resolve.
    const addresses: Record<string, { address: string }> = {};
    for (let i = 0; i < 400; i++) addresses[`h${i}.example.net`] = { address: `h${i}.example.net` };
    const big = JSON.stringify(
      { addresses, groups: { g: { type: 'mesh', addresses: [{ name: 'h1.example.net' }] } }, tests: {}, tasks: {} },
      null,
      2,
    );
    const uri = 'file:///tmp/psconfig-lsp-nav/big.json';
    await other.open(uri, big);
    const many = await other.request<CompletionList>('textDocument/completion', {
      textDocument: doc(uri),
      position: positionOf(big, '"name": "h1.example.net"', 10),
    });
    assert.equal(many.items.length, 400);
    assert.equal(many.items[0].detail, undefined);
    const data: unknown = many.itemDefaults?.data;
    assert.ok(data);
    const resolved = await other.request<CompletionItem>('completionItem/resolve', { ...many.items[5], data });
    assert.equal(resolved.detail, 'address · address: h5.example.net');
  } finally {
    await other.stop();
  }
});
