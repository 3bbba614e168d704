// Completion while typing inside a string answers from the previous parse (big templates only; the threshold is
// lowered here so an example template takes that path): it must give exactly what a fresh parse gives.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LspClient, serverForSuite, exampleText, offsetToPosition } from './lsp-client';

let client: LspClient;
const text = exampleText('perl-shared--client-psconfig-mesh.json');

serverForSuite((c) => (client = c), { itemDefaults: true, env: { PSCONFIG_EDITED_TEXT_MIN_CHARS: '1' } });

interface List {
  items: { label: string }[];
  itemDefaults?: { editRange?: unknown };
}

const complete = (uri: string, offset: number, t: string): Promise<List | null> =>
  client.request<List | null>('textDocument/completion', {
    textDocument: { uri },
    position: offsetToPosition(t, offset),
  });

let n = 0;
/** Applies `edits` (offsets in the text before each) one request each, then compares completion at `at` with a fresh document. */
async function same(edits: [number, number, string][], at: (t: string) => number, batch = false): Promise<void> {
  const uri = `file:///tmp/psconfig-edited/${++n}.json`;
  await client.open(uri, text);
  await complete(uri, text.indexOf('"archives": [ "') + 16, text); // parses version 1
  let t = text;
  const changes = [];
  for (const [s, e, ins] of edits) {
    const change = { range: { start: offsetToPosition(t, s), end: offsetToPosition(t, e) }, text: ins };
    t = t.slice(0, s) + ins + t.slice(e);
    if (batch) changes.push(change);
    else
      void client.connection.sendNotification('textDocument/didChange', {
        textDocument: { uri, version: 1 + changes.push(change) },
        contentChanges: [change],
      });
  }
  if (batch)
    void client.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri, version: 2 },
      contentChanges: changes,
    });
  const got = await complete(uri, at(t), t);
  const freshUri = `${uri}.fresh.json`;
  await client.open(freshUri, t);
  const want = await complete(freshUri, at(t), t);
  assert.deepEqual(got?.items, want?.items);
  assert.deepEqual(got?.itemDefaults?.editRange, want?.itemDefaults?.editRange);
  assert.ok((want?.items.length ?? 0) > 0, 'a name slot');
  client.close(uri);
  client.close(freshUri);
}

const nameEnd = text.indexOf('"name": "host-b.perfsonar.net"') + '"name": "host-b.perfsonar.net'.length;

test('typing at the end of a group selector name', async () => {
  await same([[nameEnd, nameEnd, 'x']], (t) => t.indexOf('perfsonar.netx') + 14);
  await same(
    [
      [nameEnd, nameEnd, 'x'],
      [nameEnd + 1, nameEnd + 1, 'y'],
      [nameEnd + 1, nameEnd + 2, ''],
    ],
    (t) => t.indexOf('perfsonar.netx') + 14,
  );
  await same(
    [
      [nameEnd, nameEnd, 'x'],
      [nameEnd + 1, nameEnd + 1, 'y'],
    ],
    (t) => t.indexOf('perfsonar.netxy') + 15,
    true,
  );
});

test('deleting inside a name, then completing in a later array', async () => {
  await same([[nameEnd - 9, nameEnd, '']], (t) => t.indexOf('"archives": [ "') + 16);
});

test('edits that change the structure fall back to a fresh parse with the same answer', async () => {
  await same([[nameEnd, nameEnd, '", "x": "']], (t) => t.indexOf('"archives": [ "') + 16);
  await same([[nameEnd, nameEnd, '\n']], (t) => t.indexOf('"archives": [ "') + 16);
});
