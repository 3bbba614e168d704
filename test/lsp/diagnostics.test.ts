// Diagnostics over LSP on the real example templates: the valid ones with references ok publish no errors;
// the invalid one and the broken-reference ones publish exactly the expected errors at the expected tokens.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {} from 'node:fs';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import {
  LspClient,
  serverForSuite,
  exampleText,
  exampleUri,
  positionOf,
  positionToOffset,
  messageText,
} from './lsp-client';
import { exampleFiles } from '../fixtures';

let client: LspClient;
serverForSuite((c) => (client = c));

/** Not valid, or with missing references, according to the examples' INDEX.md (the skeleton's placeholder
 *  addresses are not host names: psconfig/invalid-address). */
const NOT_CLEAN = new Set([
  'psconfig--t-inputs-invalid.json',
  'psconfig--skeleton.json',
  'pwa--import3-i2-ap-rex-expected.json',
  'qa--psconfig-netsage-mesh.json',
  'testbed-pve--02-testbed-hosts-partial.json',
  'testbed-pve--99-archives-partial.json',
]);

/** pScheduler's refusals (rules/pscheduler.ts): examples that pSConfig accepts may still have them. */
const PSCHEDULER =
  /^psconfig\/(spec|archiver-data|context-data)-|^psconfig\/(unknown-test-type|unknown-archiver|tool-cannot-run)$/;
const errors = (d: Diagnostic[]): Diagnostic[] =>
  d.filter((x) => x.severity === 1 && !PSCHEDULER.test(String(x.code)) && x.code !== PLACEHOLDER);
/** Draft placeholders (`$group::N`): perl-shared's addressclasses has them, and it is otherwise clean. */
const PLACEHOLDER = 'psconfig/legacy-placeholder';
const pschedulerErrors = (d: Diagnostic[]): Diagnostic[] =>
  d.filter((x) => x.severity === 1 && PSCHEDULER.test(String(x.code)));
const covered = (text: string, d: Diagnostic): string =>
  text.slice(positionToOffset(text, d.range.start), positionToOffset(text, d.range.end));

const clean = exampleFiles().filter((f) => !NOT_CLEAN.has(f));

test('every example marked valid with references ok publishes no errors', async () => {
  assert.ok(clean.length >= 20, `found ${clean.length} examples`);
  for (const name of clean) {
    const diags = await client.open(exampleUri(name), exampleText(name));
    assert.deepEqual(
      errors(diags).map((d) => `${d.code}: ${messageText(d.message)}`),
      [],
      name,
    );
    client.close(exampleUri(name));
  }
});

test("pScheduler's refusals are published too: example-1's `_meta` inside the http archive's data", async () => {
  const name = 'psconfig--example-1-simple.json';
  const text = exampleText(name);
  const errs = pschedulerErrors(await client.open(exampleUri(name), text));
  assert.equal(errs.length, 1, JSON.stringify(errs));
  assert.equal(errs[0].code, 'psconfig/archiver-data-unknown-property');
  assert.equal(covered(text, errs[0]), '"_meta"');
  assert.match(messageText(errs[0].message), /removes `_meta` only next to `archiver`/);
  client.close(exampleUri(name));
});

test('a json document the client sends is checked like a psconfig one', async () => {
  const name = 'qa--psconfig-netsage-mesh.json';
  const diags = await client.open('file:///tmp/psconfig-lsp-diag/plain.json', exampleText(name), 'json');
  assert.equal(errors(diags).length, 1);
  client.close('file:///tmp/psconfig-lsp-diag/plain.json');
});

test('the invalid upstream fixture: `archive` instead of `archiver` gives exactly two errors at the right keys', async () => {
  const name = 'psconfig--t-inputs-invalid.json';
  const text = exampleText(name);
  const all = await client.open(exampleUri(name), text);
  const errs = errors(all);
  assert.equal(errs.length, 2, JSON.stringify(errs));
  // and its draft placeholders (`$requesting-agent`, then `$group::0`/`$group::1` in three tests) have their own
  // error each, which replaces pScheduler's "not a host" refusal of the same strings
  const placeholders = all.filter((d) => d.code === PLACEHOLDER);
  assert.deepEqual(
    placeholders.map((d) => covered(text, d)),
    ['$requesting-agent', '$group::0', '$group::1', '$group::0', '$group::1', '$group::0', '$group::1'],
  );
  assert.equal(pschedulerErrors(all).length, 0);
  const unknown = errs.find((d) => d.code === 'psconfig/unknown-property');
  assert.ok(unknown);
  assert.equal(covered(text, unknown), '"archive"');
  assert.deepEqual(unknown.range.start, positionOf(text, '"archive": "esmond"'));
  assert.match(messageText(unknown.message), /archiver/);
  const missing = errs.find((d) => d.code === 'psconfig/missing-property');
  assert.ok(missing);
  assert.equal(covered(text, missing), '"example-archive-central"');
  assert.match(messageText(missing.message), /archiver/);
  client.close(exampleUri(name));
});

test('PWA output with an undefined archive: one error at each of the four references', async () => {
  const name = 'pwa--import3-i2-ap-rex-expected.json';
  const text = exampleText(name);
  const errs = errors(await client.open(exampleUri(name), text));
  assert.equal(errs.length, 4, JSON.stringify(errs));
  for (let i = 0; i < 4; i++) {
    assert.equal(errs[i].code, 'psconfig/unknown-archive');
    assert.deepEqual(errs[i].range.start, positionOf(text, '"config-archive0"', 1, i));
    assert.equal(covered(text, errs[i]), 'config-archive0');
  }
  client.close(exampleUri(name));
});

test('netsage mesh: one error at the selector naming the undefined address', async () => {
  const name = 'qa--psconfig-netsage-mesh.json';
  const text = exampleText(name);
  const errs = errors(await client.open(exampleUri(name), text));
  assert.equal(errs.length, 1, JSON.stringify(errs));
  assert.equal(errs[0].code, 'psconfig/unknown-address');
  assert.equal(covered(text, errs[0]), '62.40.106.8');
  assert.deepEqual(errs[0].range.start, positionOf(text, '{"name":"62.40.106.8"}', 9));
  assert.match(messageText(errs[0].message), /group_2/);
  client.close(exampleUri(name));
});

test('the partial testbed fragment: six tasks name the group a build step supplies', async () => {
  const name = 'testbed-pve--02-testbed-hosts-partial.json';
  const text = exampleText(name);
  const errs = errors(await client.open(exampleUri(name), text));
  const refs = errs.filter((d) => d.code === 'psconfig/unknown-group');
  assert.equal(refs.length, 6);
  for (const d of refs) assert.equal(covered(text, d), 'perfsonar');
  client.close(exampleUri(name));
});

test('edits re-publish: breaking and repairing a reference, and templateChanged follows the edit', async () => {
  const name = 'psconfig--example-1-simple.json';
  const text = exampleText(name);
  const uri = 'file:///tmp/psconfig-lsp-diag/edit.json';
  assert.deepEqual(errors(await client.open(uri, text)), []);
  const at = positionOf(text, '"test": "example-test-trace"', 27);
  // Incremental change: insert one character inside the name.
  const broken = await client.change(uri, [{ range: { start: at, end: at }, text: 'x' }]);
  assert.equal(errors(broken).length, 1);
  assert.equal(errors(broken)[0].code, 'psconfig/unknown-test');
  const repaired = await client.change(uri, [
    { range: { start: at, end: { line: at.line, character: at.character + 1 } }, text: '' },
  ]);
  assert.deepEqual(errors(repaired), []);
  const deadline = Date.now() + 5000;
  while (!client.templateChanged.some((n) => n.uri === uri && n.version === 3) && Date.now() < deadline)
    await new Promise((r) => setImmediate(r));
  assert.ok(
    client.templateChanged.some((n) => n.uri === uri && n.version === 3),
    JSON.stringify(client.templateChanged),
  );
  client.close(uri);
});
