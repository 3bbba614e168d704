// Issue 30, the worst problems first on any size: on a large template the diagnostics pass publishes its early phase
// (syntax errors, references to nothing: right after the parse) before its full answer. Over real servers, ordered
// by the notifications of each version (never by time): the first publication of the inventory carries its unknown
// group and nothing the full pass alone finds; every early diagnostic is in the full answer; the full answer equals
// what a server without the early phase publishes for the same text; an edit that adds no new problem publishes no
// early phase (the warnings and hints would vanish for nothing new), one that adds a reference to nothing does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { LspClient, serverForSuite } from './lsp-client';
import { unusedInventory } from '../generated-templates';

let client: LspClient;
serverForSuite((c) => (client = c));
/** The same server with the early phase off (one publication per pass, as before it). */
let single: LspClient;
serverForSuite((c) => (single = c), { env: { PSCONFIG_EARLY_DIAGNOSTICS_MIN_CHARS: '1e12' } });

// 3 MB (about 20,000 addresses): above the server's 2 MiB threshold for the early phase. 20 addresses in the mesh
// keep its expansion small.
const inv = unusedInventory(3_000_000, 20);
const uri = 'file:///tmp/psconfig-lsp-early/inventory.psconfig.json';

/** The publications of `uri`'s `version` a server sent, in order. */
const of = (c: LspClient, version: number): Diagnostic[][] =>
  c.publications.filter((p) => p.uri === uri && p.version === version).map((p) => p.diagnostics);
const codes = (ds: Diagnostic[]): string[] => [...new Set(ds.map((d) => String(d.code)))].sort();

test(
  'the early publication carries the unknown group; the full one equals a single pass',
  { timeout: 300_000 },
  async () => {
    void client.open(uri, inv.text, 'psconfig', 240_000);
    void single.open(uri, inv.text, 'psconfig', 240_000);
    await client.until(() => of(client, 1).length >= 2, 'the early and the full publication');
    await single.until(() => of(single, 1).length >= 1, 'the single pass');
    const [early, full] = of(client, 1);
    // By hand: the template has one error (the broken task's group) and otherwise only unused addresses (hints).
    assert.deepEqual(codes(early), ['psconfig/unknown-group']);
    assert.equal(early.length, 1);
    assert.equal(early[0].severity, 1);
    const message = early[0].message;
    assert.ok(typeof message === 'string', 'a plain-text message');
    assert.match(message, new RegExp(inv.missingGroup));
    // Over the cap: the error, 4,999 of the hints and the note counting the others.
    assert.deepEqual(codes(full), [
      'psconfig/too-many-problems',
      'psconfig/unknown-group',
      'psconfig/unused-definition',
    ]);
    assert.equal(full.length, 5001);
    for (const d of early)
      assert.ok(
        full.some((f) => JSON.stringify(f) === JSON.stringify(d)),
        'kept by the full pass',
      );
    assert.deepEqual(full, of(single, 1)[0], 'the full publication is what one pass publishes');
  },
);

test(
  'an edit adding no new problem publishes no early phase; a new reference to nothing does',
  { timeout: 300_000 },
  async () => {
    // One more character in an unused address's description: the known error stays, nothing new.
    const edited = inv.text.replace('feed B" } }', 'feed BB" } }');
    assert.notEqual(edited, inv.text);
    void client.change(uri, [{ text: edited }]);
    await client.until(() => of(client, 2).length >= 1, 'version 2 published');
    assert.deepEqual(codes(of(client, 2)[0]), [
      'psconfig/too-many-problems',
      'psconfig/unknown-group',
      'psconfig/unused-definition',
    ]);
    // The good task now names a test that does not exist: a new error, published before the hints.
    const broken = edited.replace('"test": "rtt", "reference"', '"test": "no-such-test", "reference"');
    assert.notEqual(broken, edited);
    void client.change(uri, [{ text: broken }]);
    await client.until(() => of(client, 3).length >= 2, 'version 3: early and full');
    const [early, full] = of(client, 3);
    assert.deepEqual(codes(early), ['psconfig/unknown-group', 'psconfig/unknown-test']);
    assert.ok(codes(full).includes('psconfig/unused-definition'));
    for (const d of early)
      assert.ok(
        full.some((f) => JSON.stringify(f) === JSON.stringify(d)),
        'kept by the full pass',
      );
    client.close(uri);
    single.close(uri);
  },
);
