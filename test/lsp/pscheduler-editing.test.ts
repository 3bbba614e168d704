// Completion and hover inside test specs, archiver data and context data over LSP, against the bundled server:
// our items first, the official schema's after them without duplicates, snippets only for clients that take
// them, the edit setting `schema` for a key of a later version, hovers in markdown.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { CompletionItem, CompletionList, Hover, TextEdit } from 'vscode-languageserver-protocol';
import { LspClient, applyEdits, positionOf } from './lsp-client';

const TEXT = `{
  "addresses": {
    "a": { "address": "a.example.net" },
    "b": { "address": "b.example.net" }
  },
  "groups": { "g": { "type": "mesh", "addresses": [ { "name": "a" }, { "name": "b" } ] } },
  "tests": {
    "thr": {
      "type": "throughput",
      "spec": {
        "source": "{% address[0] %}",
        "dest": "{% address[1] %}",
        "udp": true,
        "congestion": "cubic"
      }
    },
    "lat": { "type": "latency", "spec": { "dest": "{% address[1] %}", "flip": false } }
  },
  "archives": { "web": { "archiver": "http", "data": { "_url": "https://archive.example.net/", "op": "put" } } },
  "contexts": { "ns": { "context": "linuxnns", "data": { "namespace": "blue" } } },
  "schedules": { "s": { "repeat": "PT1H" } },
  "tasks": { "t": { "group": "g", "test": "thr", "schedule": "s", "archives": ["web"] } }
}
`;

let plainClient: LspClient;
let snippetClient: LspClient;
const URI = 'file:///tmp/psconfig-lsp-pscheduler/editing.json';

before(async () => {
  [plainClient, snippetClient] = await Promise.all([LspClient.start(), LspClient.start({ snippets: true })]);
  await Promise.all([plainClient.open(URI, TEXT), snippetClient.open(URI, TEXT)]);
});
after(async () => {
  for (const c of [plainClient, snippetClient]) {
    assert.deepEqual(c.loggedErrors(), [], 'the server logged no handler errors');
    await c.stop();
  }
});

async function completion(
  client: LspClient,
  text: string,
  needle: string,
  delta: number,
  triggerCharacter?: string,
): Promise<CompletionItem[]> {
  await client.change(URI, [{ text }]);
  const list = await client.request<CompletionList | null>('textDocument/completion', {
    textDocument: { uri: URI },
    position: positionOf(text, needle, delta),
    ...(triggerCharacter ? { context: { triggerKind: 2, triggerCharacter } } : {}),
  });
  return list?.items ?? [];
}

const labels = (items: CompletionItem[]): string[] => items.map((i) => i.label);
/** The order a client shows (sortText, then label). */
const shown = (items: CompletionItem[]): CompletionItem[] =>
  [...items].sort((a, b) => (a.sortText ?? a.label).localeCompare(b.sortText ?? b.label));
const bare = (label: string): string => label.replace(/^"(.*)"$/, '$1');

function assertNoDuplicates(items: CompletionItem[]): void {
  const seen = labels(items).map(bare);
  assert.equal(new Set(seen).size, seen.length, `no duplicates in ${seen.join(', ')}`);
}

function applyItem(text: string, item: CompletionItem): string {
  const main = item.textEdit as TextEdit;
  return applyEdits(text, [main, ...(item.additionalTextEdits ?? [])]);
}

test('keys of a throughput spec: ours first, present keys left out, no duplicates with the schema service', async () => {
  const text = TEXT.replace('"congestion": "cubic"\n', '"congestion": "cubic",\n        \n');
  const items = await completion(plainClient, text, '"congestion": "cubic",\n        ', 29);
  assertNoDuplicates(items);
  const ours = items.filter((i) => i.sortText?.startsWith('0'));
  assert.ok(ours.length > 10, `our keys (${labels(items).join(', ')})`);
  assert.deepEqual(shown(items).slice(0, ours.length), shown(ours), 'ours come first');
  for (const present of ['source', 'dest', 'udp', 'congestion']) assert.ok(!labels(ours).includes(present), present);
  const duration = items.find((i) => i.label === 'duration')!;
  assert.equal(duration.insertTextFormat, undefined, 'plain text for a client without snippets');
  assert.equal((duration.textEdit as TextEdit).newText, '"duration": ""');
  assert.match(
    (duration.documentation as { kind: string; value: string }).value,
    /ISO 8601 duration/,
    'documentation in markdown',
  );
  // a key of schema 7 sets schema in the same completion
  const fq = items.find((i) => i.label === 'fq-rate')!;
  assert.match(fq.detail ?? '', /needs schema 7/);
  const after = applyItem(text, fq);
  assert.match(after, /"spec": \{\n {8}"schema": 7,\n {8}"source"/);
});

test('a client with snippets gets placeholders and choices', async () => {
  const text = TEXT.replace('"congestion": "cubic"\n', '"congestion": "cubic",\n        \n');
  const items = await completion(snippetClient, text, '"congestion": "cubic",\n        ', 29);
  const ipv = items.find((i) => i.label === 'ip-version')!;
  assert.equal(ipv.insertTextFormat, 2);
  assert.equal((ipv.textEdit as TextEdit).newText, '"ip-version": ${1|4,6|}');
});

test('boolean and enum values: each once, ours first', async () => {
  const text = TEXT.replace('"udp": true', '"udp": ');
  const items = await completion(plainClient, text, '"udp": ', 7);
  assertNoDuplicates(items);
  assert.deepEqual(labels(shown(items)).slice(0, 2), ['true', 'false']);
  const op = await completion(plainClient, TEXT, '"op": "put"', 8);
  assertNoDuplicates(op);
  assert.deepEqual(labels(shown(op)).slice(0, 2), ['put', 'post']);
  // `:` typed after a key opens the values
  const colon = TEXT.replace('"flip": false', '"flip":');
  const afterColon = await completion(plainClient, colon, '"flip":', 7, ':');
  assert.deepEqual(labels(shown(afterColon)).slice(0, 2), ['true', 'false']);
});

test('the type of a test, the archiver of an archive and the context of a context', async () => {
  const types = await completion(plainClient, TEXT, '"type": "throughput"', 9);
  assertNoDuplicates(types);
  for (const t of ['throughput', 'latency', 'rtt', 'trace']) assert.ok(labels(types).includes(t), t);
  assert.equal((types.find((i) => i.label === 'rtt')!.textEdit as TextEdit).newText, 'rtt');
  const archivers = await completion(plainClient, TEXT, '"archiver": "http"', 13);
  assert.ok(labels(archivers).includes('rabbitmq'));
  const contexts = await completion(plainClient, TEXT, '"context": "linuxnns"', 12);
  assert.deepEqual(labels(contexts).sort(), ['changefail', 'changenothing', 'linuxnns', 'linuxvrf']);
});

test('a context data key and an archive data key', async () => {
  const ctx = TEXT.replace('"data": { "namespace": "blue" }', '"data": {  }');
  const keys = await completion(plainClient, ctx, '"data": {  }', 10);
  assert.deepEqual(labels(keys.filter((i) => i.sortText?.startsWith('0'))).sort(), ['namespace', 'schema']);
  const http = TEXT.replace('"op": "put" }', '"op": "put",  }');
  const data = await completion(plainClient, http, '"op": "put",  }', 13);
  assertNoDuplicates(data);
  assert.ok(labels(data).includes('retry-policy'));
  assert.ok(!labels(data).includes('_meta'));
});

test('hover on a spec key, on a value and on the test type', async () => {
  await plainClient.change(URI, [{ text: TEXT }]);
  const key = await plainClient.request<Hover | null>('textDocument/hover', {
    textDocument: { uri: URI },
    position: positionOf(TEXT, '"congestion"', 3),
  });
  const value = (key?.contents as { kind: string; value: string }).value;
  assert.equal((key?.contents as { kind: string }).kind, 'markdown');
  assert.match(value, /one of `reno`, `cubic`/);
  assert.match(value, /Allowed in this throughput spec/);
  const type = await plainClient.request<Hover | null>('textDocument/hover', {
    textDocument: { uri: URI },
    position: positionOf(TEXT, '"throughput"', 3),
  });
  const typeText = (type?.contents as { value: string }).value;
  assert.match(typeText, /pScheduler test type/);
  assert.match(typeText, /`iperf3`/);
  const flip = await plainClient.request<Hover | null>('textDocument/hover', {
    textDocument: { uri: URI },
    position: positionOf(TEXT, '"flip"', 2),
  });
  assert.match((flip?.contents as { value: string }).value, /true or false/);
});
