// Malformed input never kills the server or stalls it: random bytes, a truncated template, 10 and 17 MB documents,
// and a handler given nonsense positions. After each, later requests still answer; while a large document is being
// checked, other requests are answered first (an order, not a time: no timing thresholds in tests).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { CompletionList, Diagnostic, DocumentSymbol, Hover } from 'vscode-languageserver-protocol';
import { LspClient, exampleText, exampleUri, positionOf } from './lsp-client';

let client: LspClient;
const SIMPLE = 'psconfig--example-1-simple.json';
const simpleText = exampleText(SIMPLE);
const simpleUri = exampleUri(SIMPLE);

before(async () => {
  client = await LspClient.start();
  await client.open(simpleUri, simpleText);
});
after(async () => {
  assert.ok(client.alive, 'the server is still running');
  await client.stop();
});

/** Time for a cheap request on the healthy document to come back: how long the server was busy. */
async function responsiveness(): Promise<number> {
  const started = process.hrtime.bigint();
  const h = await client.request<Hover>('textDocument/hover', {
    textDocument: { uri: simpleUri },
    position: positionOf(simpleText, '"group": "example-group-mesh"', 12),
  });
  assert.ok(h, 'the healthy document still gets hovers');
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/** Generated template text of roughly `bytes` characters: a big mesh of addresses. */
function bigTemplate(bytes: number): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const entry = `    "host-${i}.example.net": { "address": "host-${i}.example.net", "_meta": { "display-name": "Host ${i}" } }`;
    parts.push(entry);
    size += entry.length + 2;
  }
  return `{\n  "addresses": {\n${parts.join(',\n')}\n  },\n  "groups": {}, "tests": {}, "tasks": {}\n}\n`;
}

/**
 * The same payload in a notification the server ignores: what moving and decoding the bytes costs by itself,
 * so the figures below separate transport from the server's own work.
 */
async function transportBaseline(text: string): Promise<number> {
  void client.connection.sendNotification('psconfig/ignoredByServer', { text });
  return responsiveness();
}

interface Survived {
  diagnostics: Diagnostic[];
  /** How long the request asked right after opening took (printed, not asserted). */
  busyMs: number;
  /** Whether that request was answered before the document's diagnostics arrived. */
  answeredBeforeChecks: boolean;
}

async function survives(uri: string, text: string): Promise<Survived> {
  let checked = false;
  const diagnostics = client.open(uri, text).then((d) => {
    checked = true;
    return d;
  });
  // Ask while the server digests the document.
  const busyMs = await responsiveness();
  const answeredBeforeChecks = !checked;
  const d = await diagnostics;
  // Every feature on the bad document answers (possibly with nothing) instead of failing.
  const position = { line: 0, character: 1 };
  await client.request<CompletionList | null>('textDocument/completion', { textDocument: { uri }, position });
  await client.request<Hover | null>('textDocument/hover', { textDocument: { uri }, position });
  await client.request<DocumentSymbol[]>('textDocument/documentSymbol', { textDocument: { uri } });
  await client.request('textDocument/definition', { textDocument: { uri }, position });
  await client.request('textDocument/codeLens', { textDocument: { uri } });
  assert.ok(client.alive);
  client.close(uri);
  return { diagnostics: d, busyMs, answeredBeforeChecks };
}

test('random bytes: syntax errors, no crash', async () => {
  const text = randomBytes(64 * 1024).toString('latin1');
  const r = await survives('file:///tmp/psconfig-robust/random.json', text);
  assert.ok(r.diagnostics.some((d) => d.severity === 1));
  console.log(`random 64 KB: next answer after ${r.busyMs.toFixed(0)} ms`);
});

test('a truncated real template: syntax error at the end, navigation still works on what parsed', async () => {
  const text = exampleText('psconfig--example-2-testbed.json');
  const cut = text.slice(0, Math.floor(text.length * 0.6));
  const uri = 'file:///tmp/psconfig-robust/truncated.json';
  const r = await survives(uri, cut);
  assert.ok(
    r.diagnostics.some((d) => d.severity === 1 && d.range.start.line >= cut.split('\n').length - 2),
    JSON.stringify(r.diagnostics.slice(-3)),
  );
  await client.open(uri, cut);
  const symbols = await client.request<DocumentSymbol[]>('textDocument/documentSymbol', { textDocument: { uri } });
  assert.ok(symbols.some((s) => s.name === 'addresses'));
  client.close(uri);
});

test('10 MB of template text: checked like any template (in the worker), the server stays responsive', async () => {
  const text = bigTemplate(10 * 1024 * 1024);
  const baseline = await transportBaseline(text);
  const r = await survives('file:///tmp/psconfig-robust/ten-mb.json', text);
  assert.ok(
    r.diagnostics.every((d) => d.code !== 'psconfig/too-large'),
    JSON.stringify(r.diagnostics.slice(0, 3)),
  );
  // Every address is unused (no group selects any): the checks really ran.
  assert.ok(r.diagnostics.some((d) => d.code === 'psconfig/unused-definition'));
  console.log(
    `10 MB: next answer after ${r.busyMs.toFixed(0)} ms; moving the same bytes alone: ${baseline.toFixed(0)} ms`,
  );
  // The checks run in the worker: the main thread answers the healthy document without waiting for them.
  assert.ok(r.answeredBeforeChecks, 'the request waited until the 10 MB document had been checked');
});

test('17 MB of text: one clear warning (over the 16 MB bound), the server stays responsive', async () => {
  const text = bigTemplate(17 * 1024 * 1024);
  const baseline = await transportBaseline(text);
  const r = await survives('file:///tmp/psconfig-robust/seventeen-mb.json', text);
  assert.equal(r.diagnostics.length, 1);
  assert.equal(r.diagnostics[0].code, 'psconfig/too-large');
  console.log(
    `17 MB: next answer after ${r.busyMs.toFixed(0)} ms; moving the same bytes alone: ${baseline.toFixed(0)} ms`,
  );
});

test('17 MB of random bytes, then edits to it, then the healthy document still works', async () => {
  const uri = 'file:///tmp/psconfig-robust/seventeen-mb-random.json';
  const text = randomBytes(17 * 1024 * 1024).toString('latin1');
  const r = await survives(uri, text);
  assert.equal(r.diagnostics[0].code, 'psconfig/too-large');
  await client.open(uri, text);
  // An incremental edit on the huge document, then the whole text replaced by something small.
  const edited = await client.change(uri, [
    { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: '{' },
  ]);
  assert.equal(edited[0].code, 'psconfig/too-large');
  const shrunk = await client.change(uri, [{ text: '{' }]);
  assert.ok(shrunk.length > 0 && shrunk.every((d) => d.code !== 'psconfig/too-large'), JSON.stringify(shrunk));
  client.close(uri);
  const list = await client.request<CompletionList>('textDocument/completion', {
    textDocument: { uri: simpleUri },
    position: positionOf(simpleText, '"group": "example-group-mesh"', 12),
  });
  assert.deepEqual(
    list.items.map((i) => i.label),
    ['example-group-mesh'],
  );
});

test('nonsense requests get empty answers, not a dead server', async () => {
  const far = { line: 100000, character: 5000 };
  assert.equal(await client.request('textDocument/hover', { textDocument: { uri: simpleUri }, position: far }), null);
  assert.equal(
    await client.request('textDocument/hover', { textDocument: { uri: 'file:///not/open.json' }, position: far }),
    null,
  );
  await assert.rejects(client.request('psconfig/expandTasks', null));
  await client.request('codeLens/resolve', {
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } },
    data: { uri: 'file:///nope', version: 1, kind: 'task', task: 'x' },
  });
  assert.ok(client.alive);
  assert.ok((await responsiveness()) >= 0);
});
