import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findDefinitions, findReferences, prepareRename, rename } from '../../../server/src/template/navigation/names';
import { TEMPLATE, applyOffsetEdits, navModel } from './nav-fixture';

const model = navModel(TEMPLATE);
const at = (needle: string, delta = 1, occurrence = 0): number => {
  let i = -1;
  for (let k = 0; k <= occurrence; k++) i = TEMPLATE.indexOf(needle, i + 1);
  assert.ok(i >= 0, needle);
  return i + delta;
};
const slice = (r: { start: number; end: number }): string => TEMPLATE.slice(r.start, r.end);

test('definition of references of every kind', () => {
  const def = (needle: string, delta?: number) =>
    findDefinitions(model, at(needle, delta)).map((d) => `${d.kind}:${d.name}@${d.start}`);
  assert.deepEqual(def('"mesh-g", "test"', 2), [`groups:mesh-g@${at('"mesh-g": {')}`]);
  assert.deepEqual(def('"arch"]', 2), [`archives:arch@${at('"arch": {')}`]);
  assert.deepEqual(def('"class": "tagged" }', 11), [`address-classes:tagged@${at('"tagged": {')}`]);
  // A label selector goes to the label on the selected address, not the same-named label elsewhere.
  assert.deepEqual(def('"label": "v6"', 11), [`labels:v6@${at('"v6": { "address": "2001:db8::1"')}`]);
  // A remote-addresses key names another address.
  assert.deepEqual(def('"remote-addresses": { "a2"', 23), [`addresses:a2@${at('"a2": { "address"')}`]);
  assert.deepEqual(findDefinitions(model, at('"throughput"')), []);
});

test('references from a definition key and from a reference', () => {
  const fromKey = findReferences(model, at('"a2": { "address"'), true);
  // definition, remote-addresses key of a1, selector in mesh-g, excludes target.
  assert.equal(fromKey.length, 4);
  assert.ok(fromKey.every((r) => slice(r) === 'a2'));
  const fromRef = findReferences(model, at('"test": "ping" }', 10), false);
  assert.deepEqual(fromRef.map(slice), ['ping', 'ping']);
});

test('rename a group: key and every reference', () => {
  const r = rename(model, at('"group": "list-g"', 11), 'list-2');
  assert.ok('edits' in r);
  const out = applyOffsetEdits(TEMPLATE, r.edits);
  assert.ok(!out.includes('"list-g"'));
  assert.equal((out.match(/"list-2"/g) ?? []).length, 2);
  assert.doesNotThrow(() => JSON.parse(out));
});

test('rename an address renames remote-addresses keys and selectors too', () => {
  const r = rename(model, at('"a2": { "address"'), 'a2.new');
  assert.ok('edits' in r);
  const out = JSON.parse(applyOffsetEdits(TEMPLATE, r.edits)) as {
    addresses: Record<string, { 'remote-addresses'?: Record<string, unknown> }>;
  };
  assert.ok('a2.new' in out.addresses);
  assert.ok('a2.new' in (out.addresses.a1['remote-addresses'] ?? {}));
});

test('rename a label on one address: its selectors follow; default-address-label only if no other address has it', () => {
  const r = rename(model, at('"label": "v6"', 11), 'ipv6');
  assert.ok('edits' in r);
  const out = applyOffsetEdits(TEMPLATE, r.edits);
  assert.ok(out.includes('"label": "ipv6"'));
  assert.ok(out.includes('"ipv6": { "address": "2001:db8::1" }'));
  // a2 still has a `v6` label, so default-address-label "v6" stays.
  assert.ok(out.includes('"v6": { "address": "2001:db8::2" }'));
  assert.ok(out.includes('"default-address-label": "v6"'));
});

test('rename refuses invalid names and clashes, with a reason', () => {
  const bad = rename(model, at('"often": {'), 'every hour');
  assert.ok('error' in bad && /not a valid pSConfig name/.test(bad.error));
  const clash = rename(model, at('"thr": {'), 'ping');
  assert.ok('error' in clash && /already exists/.test(clash.error));
  const nothing = prepareRename(model, at('"throughput"'));
  assert.ok('error' in nothing);
  const ok = prepareRename(model, at('"often": {'));
  assert.deepEqual(ok, { start: at('"often": {'), end: at('"often": {') + 5, placeholder: 'often' });
});
