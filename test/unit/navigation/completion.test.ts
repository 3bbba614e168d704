import { test } from 'node:test';
import assert from 'node:assert/strict';
import { completeAt } from '../../../server/src/template/navigation/completion';
import { TEMPLATE, atCursor } from './nav-fixture';

/** Completion labels with the cursor placed by replacing `needle` in the fixture with `marked` (containing `|`). */
function labelsAt(needle: string, marked: string, text = TEMPLATE): string[] {
  assert.ok(text.includes(needle), needle);
  const { model, offset } = atCursor(text.replace(needle, marked));
  return completeAt(model, offset).items.map((i) => i.label);
}

test('each reference field completes from the section it names', () => {
  assert.deepEqual(labelsAt('"group": "mesh-g"', '"group": "me|sh-g"'), ['mesh-g', 'list-g']);
  assert.deepEqual(labelsAt('"test": "thr"', '"test": "|thr"'), ['thr', 'ping']);
  assert.deepEqual(labelsAt('"schedule": "often"', '"schedule": "|often"'), ['often']);
  assert.deepEqual(labelsAt('"subtasks": ["sub"]', '"subtasks": ["|sub"]'), ['sub']);
  assert.deepEqual(labelsAt('"host": "h1"', '"host": "|h1"'), ['h1']);
  assert.deepEqual(labelsAt('"contexts": ["ctx"]', '"contexts": ["|ctx"]'), ['ctx']);
  assert.deepEqual(labelsAt('"h1": { "archives": ["arch"] }', '"h1": { "archives": ["|arch"] }'), ['arch']);
  assert.deepEqual(labelsAt('{ "test": "ping" }', '{ "test": "|ping" }'), ['thr', 'ping']);
});

test('selectors: name, class, label of the selected address, excludes, address-class filters', () => {
  assert.deepEqual(labelsAt('{ "name": "a2" }, { "class"', '{ "name": "|a2" }, { "class"'), ['a1', 'a2', 'a3']);
  assert.deepEqual(labelsAt('{ "class": "tagged" }', '{ "class": "|tagged" }'), ['tagged', 'nested']);
  // a1 has its own label v6 and a label `circuit` in its remote-addresses entry.
  assert.deepEqual(labelsAt('"label": "v6"', '"label": "|v6"'), ['v6', 'circuit']);
  assert.deepEqual(labelsAt('"local-address": { "name": "a1" }', '"local-address": { "name": "|a1" }'), [
    'a1',
    'a2',
    'a3',
  ]);
  assert.deepEqual(labelsAt('"target-addresses": [ { "name": "a2" } ]', '"target-addresses": [ { "name": "|a2" } ]'), [
    'a1',
    'a2',
    'a3',
  ]);
  assert.deepEqual(
    labelsAt('"type": "address-class", "class": "tagged"', '"type": "address-class", "class": "|tagged"'),
    ['tagged', 'nested'],
  );
  assert.deepEqual(labelsAt('"default-address-label": "v6"', '"default-address-label": "|v6"'), ['v6', 'circuit']);
});

test('bare array items and values not typed yet are completed with quotes', () => {
  const { model, offset } = atCursor(
    TEMPLATE.replace('"archives": ["arch"], "subtasks"', '"archives": [|], "subtasks"'),
  );
  const r = completeAt(model, offset);
  assert.equal(r.context, 'reference');
  assert.deepEqual(
    r.items.map((i) => [i.label, i.insertText, i.replaceStart, i.replaceEnd]),
    [['arch', '"arch"', offset, offset]],
  );
  const second = atCursor(TEMPLATE.replace('"archives": ["arch"], "subtasks"', '"archives": ["arch", |], "subtasks"'));
  assert.deepEqual(
    completeAt(second.model, second.offset).items.map((i) => i.label),
    ['arch'],
  );
  const empty = atCursor(
    TEMPLATE.replace('"archives": ["arch"], "subtasks"', '"archives": [""], "subtasks"').replace('[""]', '["|"]'),
  );
  const e = completeAt(empty.model, empty.offset);
  assert.deepEqual(
    e.items.map((i) => [i.insertText, i.replaceStart, i.replaceEnd]),
    [['arch', empty.offset, empty.offset]],
  );
});

test('a half-typed name in a broken document still completes (tolerant parse)', () => {
  const { model, offset } = atCursor(TEMPLATE.replace('"group": "list-g", "test": "ping"', '"group": "li|'));
  assert.ok(model.parsed.syntaxErrors.length > 0);
  assert.ok(completeAt(model, offset).items.some((i) => i.label === 'list-g'));
});

test('remote-addresses keys complete address names', () => {
  assert.deepEqual(labelsAt('"remote-addresses": { "a2"', '"remote-addresses": { "|a2"'), ['a1', 'a2', 'a3']);
});

test('variables: indexes valid for the groups that use the object', () => {
  const mesh = atCursor(TEMPLATE.replace('"dest": "{% address[1] %}"', '"dest": "{% |"'));
  const m = completeAt(mesh.model, mesh.offset);
  assert.equal(m.context, 'variable');
  const labels = m.items.map((i) => i.label);
  assert.ok(labels.includes('address[1]') && labels.includes('jq') && labels.includes('flip'));
  assert.equal(m.items.find((i) => i.label === 'address[0]')?.insertText, 'address[0] %}');
  // `ping` is used by a list group task only: index 1 is not offered.
  const list = atCursor(TEMPLATE.replace('"dest": "{% address[0] %}"', '"dest": "{%|"'));
  const l = completeAt(list.model, list.offset);
  assert.ok(!l.items.some((i) => i.label === 'address[1]'));
  assert.equal(l.items.find((i) => i.label === 'address[0]')?.insertText, ' address[0] %}');
  // Inside an existing variable the name is replaced and the closing `%}` kept.
  const inside = atCursor(TEMPLATE.replace('"note": "{% address[0] %}"', '"note": "{% addr|ess[0] %}"'));
  const i = completeAt(inside.model, inside.offset).items.find((x) => x.label === 'address[0]');
  assert.equal(i?.insertText, 'address[0]');
  assert.equal(inside.model.text.slice(i.replaceStart, i.replaceEnd), 'address[0]');
});

test('positions that name nothing are left to schema completion', () => {
  // (a test's `type` names a pScheduler plug-in: test/unit/navigation/pscheduler-completion.test.ts)
  const { model, offset } = atCursor(TEMPLATE.replace('"type": "mesh"', '"type": "me|sh"'));
  assert.equal(completeAt(model, offset).context, 'none');
  const key = atCursor(TEMPLATE.replace('"repeat": "PT1H"', '"rep|eat": "PT1H"'));
  assert.equal(completeAt(key.model, key.offset).context, 'none');
});
