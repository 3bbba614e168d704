// After structural edits (a property added, a block pasted, a member removed) the server re-parses only what the
// edit touched (template/incremental.ts; big templates only, the threshold is lowered here so an example takes
// that path): definition, hover, completion and the outline must answer exactly as on a fresh document.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LspClient, serverForSuite, exampleText, offsetToPosition } from './lsp-client';

let client: LspClient;
const text = exampleText('psconfig--example-2-testbed.json');

serverForSuite((c) => (client = c), { itemDefaults: true, env: { PSCONFIG_EDITED_TEXT_MIN_CHARS: '1' } });

/** Everything the navigation requests answer at the given offsets of `t`, on document `uri`. */
async function answers(uri: string, t: string, offsets: number[]): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const offset of offsets) {
    const position = offsetToPosition(t, offset);
    const textDocument = { uri };
    out.push(await client.request('textDocument/definition', { textDocument, position }));
    out.push(await client.request('textDocument/hover', { textDocument, position }));
    out.push(await client.request('textDocument/completion', { textDocument, position }));
  }
  out.push(await client.request('textDocument/documentSymbol', { textDocument: { uri } }));
  return JSON.parse(JSON.stringify(out).replaceAll(uri, 'URI')) as unknown[];
}

let n = 0;
async function sameAsFresh(edits: [string, string][], probes: string[]): Promise<void> {
  const uri = `file:///tmp/psconfig-incremental/${++n}.json`;
  await client.open(uri, text);
  await client.request('textDocument/documentSymbol', { textDocument: { uri } }); // parses version 1
  let t = text;
  let version = 1;
  for (const [needle, insert] of edits) {
    const at = t.indexOf(needle);
    assert.ok(at >= 0, needle);
    const s = at + needle.length;
    const change = { range: { start: offsetToPosition(t, s), end: offsetToPosition(t, s) }, text: insert };
    t = t.slice(0, s) + insert + t.slice(s);
    void client.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri, version: ++version },
      contentChanges: [change],
    });
    // Each version is asked about, so each is re-parsed from the one before.
    await client.request('textDocument/documentSymbol', { textDocument: { uri } });
  }
  const offsets = probes.map((p) => {
    const i = t.indexOf(p);
    assert.ok(i >= 0, p);
    return i + p.length - 3; // inside the last name of the needle
  });
  const got = await answers(uri, t, offsets);
  const freshUri = `file:///tmp/psconfig-incremental/${n}-fresh.json`;
  await client.open(freshUri, t);
  const want = await answers(freshUri.replace(/-fresh\.json$/, '-fresh.json'), t, offsets);
  assert.deepEqual(JSON.stringify(got).replaceAll('URI', ''), JSON.stringify(want).replaceAll('URI', ''));
  client.close(uri);
  client.close(freshUri);
}

const block = (i: number): string =>
  `\n    "pasted-${i}": { "group": "testbed_latency_hosts", "test": "throughput_iperf3_tcp_test_v6", "schedule": "repeat-PT10M" },`;

test('a property added to a task, then a task pasted, then another: navigation as on a fresh document', async () => {
  const firstTask = '"tasks": {';
  await sameAsFresh(
    [
      [firstTask, block(1)],
      [firstTask, block(2) + block(3)],
    ],
    [
      '"pasted-2"',
      '"testbed_latency_hosts", "test"',
      '"throughput_iperf3_tcp_test_v6", "schedule"',
      '"repeat-PT10M" }',
      '"group": "testbed_throughput_hosts"',
      '"tasks"',
    ],
  );
});

test('a half-typed member in one task does not disturb navigation in the tasks after it', async () => {
  const uri = 'file:///tmp/psconfig-incremental/half-typed.json';
  await client.open(uri, text);
  await client.request('textDocument/documentSymbol', { textDocument: { uri } });
  const at = text.indexOf('"tasks": {') + '"tasks": {'.length;
  const insert = '\n    "draft": { "group": "testbed_latency_hosts", ';
  const t = text.slice(0, at) + insert + text.slice(at);
  void client.connection.sendNotification('textDocument/didChange', {
    textDocument: { uri, version: 2 },
    contentChanges: [{ range: { start: offsetToPosition(text, at), end: offsetToPosition(text, at) }, text: insert }],
  });
  // A later task's group reference still leads to the group's key.
  const ref = t.indexOf('"group": "testbed_throughput_hosts"', at + insert.length) + '"group": "t'.length;
  const defs = await client.request<{ range: { start: { line: number } } }[]>('textDocument/definition', {
    textDocument: { uri },
    position: offsetToPosition(t, ref),
  });
  const key = t.indexOf('"testbed_throughput_hosts": {');
  assert.deepEqual(
    defs.map((d) => d.range.start.line),
    [offsetToPosition(t, key).line],
  );
  client.close(uri);
});
