// The cap over LSP, on a real server: the worst problems are published, never hidden behind hints. The issue-21
// case (a 16 MB inventory, ~71,000 unused addresses, one task naming a missing group) publishes the error; jq's
// later error is merged into the capped list; severity overrides apply before the cut.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { LspClient, serverForSuite, messageText } from './lsp-client';
import { unusedInventory } from '../generated-templates';

let client: LspClient;
serverForSuite((c) => (client = c));

const n = (x: number): string => x.toLocaleString('en-US');
const codes = (ds: Diagnostic[], severity: number): string[] =>
  ds.filter((d) => d.severity === severity).map((d) => String(d.code));
const note = (ds: Diagnostic[]): Diagnostic | undefined => ds.find((d) => d.code === 'psconfig/too-many-problems');

test(
  '16 MB inventory: the unknown group is published among the 5,000, the note counts the hints left out',
  { timeout: 360_000 },
  async () => {
    const inv = unusedInventory(16_000_000);
    const uri = 'file:///tmp/psconfig-lsp-cap/inventory.psconfig.json';
    // 16 MB through stdio, parsed and checked in the worker: seconds alone, minutes on a loaded 2-core machine.
    // The first publication is the early phase's (the error alone, right after the parse); the full pass's follows.
    const early = await client.open(uri, inv.text, 'psconfig', 300_000);
    assert.deepEqual(codes(early, 1), ['psconfig/unknown-group']);
    await client.until(() => (client.lastDiagnostics(uri)?.length ?? 0) > 1, 'the full pass published');
    const ds = client.lastDiagnostics(uri) ?? [];
    assert.equal(ds.length, 5001);
    assert.deepEqual(codes(ds, 1), ['psconfig/unknown-group']);
    assert.match(messageText(ds.find((d) => d.severity === 1)!.message), /no-such-group/);
    assert.equal(codes(ds, 4).length, 4999);
    const hidden = inv.unused - 4999;
    assert.equal(
      note(ds)?.message,
      `${n(hidden)} more problems are not shown (${n(hidden)} hints); the 5,000 shown are the most severe, errors first.`,
    );
    assert.deepEqual(note(ds)?.range.start, { line: 0, character: 0 });
    client.close(uri);
  },
);

test("jq's later error joins a capped list; overrides apply before the cut", async () => {
  const inv = unusedInventory(1_200_000, 20);
  const text = inv.text.replace('"dest": "{% address[1] %}"', '"dest": "{% jq .addresses[ %}"');
  assert.notEqual(text, inv.text);
  const uri = 'file:///tmp/psconfig-lsp-cap/jq.psconfig.json';
  void client.open(uri, text);
  const ds = await client.diagnosticsWhere(uri, (x) => x.some((d) => d.code === 'psconfig/jq-compile'), 'jq error');
  assert.equal(ds.length, 5001);
  assert.deepEqual(codes(ds, 1).sort(), ['psconfig/jq-compile', 'psconfig/unknown-group']);
  const hidden = inv.unused - 4998;
  assert.match(
    messageText(note(ds)?.message ?? ''),
    new RegExp(`^${n(hidden)} more problems are not shown \\(${n(hidden)} hints\\)`),
  );
  client.setPsconfigSettings({ diagnostics: { severity: { 'unused-definition': 'off' } } });
  const off = await client.diagnosticsWhere(uri, (x) => x.length < 10, 'the hints off');
  assert.equal(note(off), undefined, 'nothing left out');
  client.setPsconfigSettings({ diagnostics: { severity: { 'too-many-problems': 'off' } } });
  const noNote = await client.diagnosticsWhere(uri, (x) => x.length === 5000, 'the note off');
  assert.equal(note(noNote), undefined);
  client.setPsconfigSettings({ diagnostics: { severity: {} } });
  client.close(uri);
});
