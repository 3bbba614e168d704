// psconfig.diagnostics.severity over LSP: the server republishes open documents with the severities the setting
// gives per code (the same overrides as psconfig-tools validate --ignore / --error).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { LspClient } from './lsp-client';

let client: LspClient;
before(async () => {
  client = await LspClient.start();
});
after(async () => {
  await client.stop();
});

const text = `{
  "addresses": { "a": { "address": "a.example.net" }, "b": { "address": "b.example.net" } },
  "groups": { "g": { "type": "mesh", "addresses": [ { "name": "a" }, { "name": "b" } ] } },
  "tests": { "t": { "type": "rtt", "spec": {} } },
  "schedules": { "unused": { "repeat": "PT1H" } },
  "tasks": { "task": { "group": "g", "test": "t", "test": "t" } }
}`;

const severityOf = (ds: Diagnostic[], code: string): number | undefined => ds.find((d) => d.code === code)?.severity;

test('psconfig.diagnostics.severity changes and drops diagnostics per code', async () => {
  const uri = 'file:///tmp/psconfig-lsp-severity/t.psconfig.json';
  const first = await client.open(uri, text);
  assert.equal(severityOf(first, 'psconfig/duplicate-key'), 2, 'a warning by default');
  assert.equal(severityOf(first, 'psconfig/unused-definition'), 4, 'a hint by default');
  client.setPsconfigSettings({
    diagnostics: { severity: { 'duplicate-key': 'error', 'psconfig/unused-definition': 'off' } },
  });
  const changed = await client.diagnosticsWhere(
    uri,
    (ds) => severityOf(ds, 'psconfig/duplicate-key') === 1,
    'the duplicate key as an error',
  );
  assert.equal(severityOf(changed, 'psconfig/unused-definition'), undefined, 'unused definitions are off');
  client.setPsconfigSettings({ diagnostics: { severity: {} } });
  await client.diagnosticsWhere(uri, (ds) => severityOf(ds, 'psconfig/duplicate-key') === 2, 'back to a warning');
  client.close(uri);
});
