// The perfSONAR 5 fixes as code actions of the real server process: a quick fix per diagnostic, the alternatives of a
// localhost archive, "fix all in the file" built from the version's published diagnostics; applied, they give exactly
// what `psconfig-tools fix` gives, and the diagnostics they fix are gone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CodeAction, Diagnostic } from 'vscode-languageserver-protocol';
import { fixText } from '../../server/src/template/fixes/fix-text';
import { LspClient, serverForSuite, applyEdits, exampleText, exampleUri } from './lsp-client';

let client: LspClient;
serverForSuite((c) => (client = c));

async function actionsFor(uri: string, diag: Diagnostic): Promise<CodeAction[]> {
  return client.request<CodeAction[]>('textDocument/codeAction', {
    textDocument: { uri },
    range: diag.range,
    context: { diagnostics: [diag] },
  });
}

function ofCode(diags: Diagnostic[], code: string): Diagnostic[] {
  return diags.filter((d) => d.code === code);
}

test('esmond archives: the quick fix, and "convert all", equal to psconfig-tools fix; the warnings go', async () => {
  const file = 'pwa--publisher1-multi-mas.json';
  const uri = exampleUri(file);
  const text = exampleText(file);
  const diags = await client.open(uri, text);
  const esmond = ofCode(diags, 'psconfig/esmond-archiver');
  assert.equal(esmond.length, 4);
  const actions = await actionsFor(uri, esmond[0]);
  const one = actions.find((a) => a.title.startsWith("Convert to perfSONAR 5's logstash http archive"));
  assert.ok(one, actions.map((a) => a.title).join(' | '));
  assert.equal(one.kind, 'quickfix');
  assert.equal(one.isPreferred, true);
  const all = actions.find((a) => a.title === 'Convert all 4 esmond archives in this file to logstash http archives');
  assert.ok(all, actions.map((a) => a.title).join(' | '));
  const fixedAll = applyEdits(text, all.edit!.changes![uri]);
  assert.equal(fixedAll, fixText(text, { only: new Set(['psconfig/esmond-archiver']) }).text);
  const after = await client.change(uri, [{ text: fixedAll }]);
  assert.deepEqual(ofCode(after, 'psconfig/esmond-archiver'), []);
  assert.deepEqual(
    after.filter((d) => d.severity === 1),
    [],
    'the converted archives are ones pScheduler takes',
  );
  client.close(uri);
});

test('draft placeholders: one fix each and "replace all", as the CLI writes them', async () => {
  const file = 'psconfig--t-inputs-invalid.json';
  const uri = exampleUri(file);
  const text = exampleText(file);
  const placeholders = ofCode(await client.open(uri, text), 'psconfig/legacy-placeholder');
  assert.equal(placeholders.length, 7);
  const actions = await actionsFor(uri, placeholders[1]);
  assert.deepEqual(
    actions.map((a) => a.title),
    [
      'Replace $group::0 with {% address[0] %}',
      'Replace all 7 draft placeholders in this file with pSConfig variables',
    ],
  );
  const fixed = applyEdits(text, actions[1].edit!.changes![uri]);
  assert.equal(fixed, fixText(text).text);
  assert.deepEqual(ofCode(await client.change(uri, [{ text: fixed }]), 'psconfig/legacy-placeholder'), []);
  client.close(uri);
});

test('_meta inside an archive data: moved up next to "archiver" (the official skeleton)', async () => {
  const file = 'psconfig--skeleton.json';
  const uri = exampleUri(file);
  const text = exampleText(file);
  const diags = await client.open(uri, text);
  const meta = ofCode(diags, 'psconfig/archiver-data-unknown-property');
  assert.equal(meta.length, 1);
  const move = (await actionsFor(uri, meta[0])).find((a) => a.title === 'Move "_meta" up next to "archiver"');
  assert.ok(move);
  const fixed = applyEdits(text, move.edit!.changes![uri]);
  assert.equal(fixed, fixText(text).text);
  const parsed = JSON.parse(fixed) as { archives: Record<string, { _meta?: unknown; data: { _meta?: unknown } }> };
  assert.deepEqual(parsed.archives.example_http_archive._meta, {
    esmond_url: 'http://FILL_IN_ARCHIVE_HOSTNAME_OR_IP/esmond/perfsonar/archive/',
  });
  assert.equal(parsed.archives.example_http_archive.data._meta, undefined);
  assert.deepEqual(ofCode(await client.change(uri, [{ text: fixed }]), 'psconfig/archiver-data-unknown-property'), []);
  client.close(uri);
});

test('localhost archives in a CRLF mesh: {% scheduled_by_address %} or the template archive host, each for all', async () => {
  const uri = 'file:///tmp/psconfig-migration/localhost.psconfig.json';
  const text = [
    '{',
    '  "archives": {',
    '    "local": { "archiver": "http", "data": { "schema": 2, "_url": "http://localhost/logstash", "op": "put" } },',
    '    "local2": { "archiver": "http", "data": { "schema": 2, "_url": "https://127.0.0.1/logstash" } },',
    '    "central": { "archiver": "http", "data": { "schema": 2, "_url": "https://ma.example.net/logstash" } }',
    '  },',
    '  "addresses": { "x": { "address": "x.example.net" }, "y": { "address": "y.example.net" } },',
    '  "groups": { "g": { "type": "mesh", "addresses": [ { "name": "x" }, { "name": "y" } ] } },',
    // scheduled by address[0], run from address[1]: the lead participant (rtt's source), which archives each run,
    // is the other host (perfsonar/pscheduler archiving.sql: task archives only on participant 0)
    '  "tests": { "t": { "type": "rtt", "spec": { "source": "{% address[1] %}", "dest": "{% address[0] %}" } } },',
    '  "tasks": { "task": { "group": "g", "test": "t", "archives": [ "local", "local2", "central" ] } }',
    '}',
    '',
  ].join('\r\n');
  const local = ofCode(await client.open(uri, text), 'psconfig/archive-localhost');
  assert.equal(local.length, 2);
  const actions = await actionsFor(uri, local[0]);
  assert.deepEqual(
    actions.map((a) => [a.title, a.isPreferred ?? false]),
    [
      [
        'Archive to {% scheduled_by_address %} (the host that scheduled each task): https://{% scheduled_by_address %}/logstash',
        true,
      ],
      ['Archive to {% scheduled_by_address %} in all 2 localhost archives', false],
      ['Archive to ma.example.net: https://ma.example.net/logstash', false],
      ['Archive to ma.example.net in all 2 localhost archives', false],
    ],
  );
  const central = applyEdits(text, actions[3].edit!.changes![uri]);
  assert.equal(
    central,
    text
      .replace('http://localhost/logstash', 'https://ma.example.net/logstash')
      .replace('https://127.0.0.1/logstash', 'https://ma.example.net/logstash'),
  );
  assert.equal(central, fixText(text, { localhost: { kind: 'host', host: 'ma.example.net' } }).text);
  const own = applyEdits(text, actions[1].edit!.changes![uri]);
  assert.equal(own, fixText(text).text);
  assert.deepEqual(ofCode(await client.change(uri, [{ text: own }]), 'psconfig/archive-localhost'), []);
  client.close(uri);
});

test('a diagnostic from another version (shifted range) gets no fix that would edit the wrong text', async () => {
  const file = 'pwa--publisher1-multi-mas.json';
  const uri = exampleUri(file);
  const text = exampleText(file);
  const [esmond] = ofCode(await client.open(uri, text), 'psconfig/esmond-archiver');
  await client.change(uri, [{ text: `\n\n${text}` }]);
  const actions = await actionsFor(uri, esmond);
  assert.deepEqual(
    actions.filter((a) => a.title.includes('logstash')),
    [],
  );
  client.close(uri);
});
