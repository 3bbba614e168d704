// Hostile templates through the real language server: 10,000 levels of nesting and 80 KB names give diagnostics,
// every request on them answers, and nothing overflows the stack or stalls the main thread.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { CompletionList, DocumentSymbol, Hover } from 'vscode-languageserver-protocol';
import type { ExpandTasksResult } from '../../common/protocol';
import { LspClient, positionOf, messageText } from './lsp-client';

let client: LspClient;
before(async () => {
  client = await LspClient.start();
});
after(async () => {
  assert.ok(client.alive, 'the server is still running');
  assert.deepEqual(
    client.loggedErrors().filter((e) => /Maximum call stack|RangeError/.test(e)),
    [],
  );
  await client.stop();
});

function deepTemplate(depth: number): string {
  return `{"addresses": {"a": {"address": "h1"}, "b": {"address": "h2"}},
  "groups": {"g": {"type": "mesh", "addresses": [{"name": "a"}, {"name": "b"}]}},
  "tests": {"t": {"type": "latencybg", "spec": {"source": "{% address[0] %}", "x": ${'['.repeat(depth)}1${']'.repeat(depth)}}}},
  "tasks": {"task": {"group": "g", "test": "t"}}}`;
}

test('nesting of 10,000 levels: one diagnostic from the server, and every request still answers', async () => {
  const uri = 'file:///tmp/deep.psconfig.json';
  const text = deepTemplate(10_000);
  const diagnostics = await client.open(uri, text);
  const deep = diagnostics.filter((d) => d.code === 'psconfig/too-deep');
  assert.equal(deep.length, 1, JSON.stringify(diagnostics));
  assert.match(messageText(deep[0].message), /Nested 10,00\d levels deep/);
  const symbols = await client.request<DocumentSymbol[]>('textDocument/documentSymbol', { textDocument: { uri } });
  assert.ok(symbols.length > 0);
  const inside = positionOf(text, '[[[[', 5_000);
  await client.request<Hover | null>('textDocument/hover', { textDocument: { uri }, position: inside });
  await client.request<CompletionList | null>('textDocument/completion', { textDocument: { uri }, position: inside });
  const expansion = await client.request<ExpandTasksResult>('psconfig/expandTasks', { uri });
  assert.match(expansion.error ?? '', /nests more than 500 levels deep/);
  client.close(uri);
});

test('an 80 KB name: diagnostics come back and the server keeps answering quickly', async () => {
  const uri = 'file:///tmp/long-name.psconfig.json';
  const name = 'n'.repeat(80 * 1024);
  const text = JSON.stringify({
    addresses: { [name]: { address: 'h1' }, b: { address: 'h2' } },
    groups: { g: { type: 'mesh', addresses: [{ name: `${name.slice(0, -1)}m` }, { name: 'b' }] } },
    tests: { t: { type: 'latencybg', spec: { source: '{% address[0] %}' } } },
    tasks: { task: { group: 'g', test: 't' } },
  });
  const diagnostics = await client.open(uri, text);
  assert.ok(diagnostics.some((d) => d.code === 'psconfig/unknown-address'));
  const started = performance.now();
  const list = await client.request<CompletionList>('textDocument/completion', {
    textDocument: { uri },
    position: positionOf(text, '"group":"g"', 9),
  });
  assert.ok(list.items.some((i) => i.label === 'g'));
  assert.ok(performance.now() - started < 5000);
  client.close(uri);
});
