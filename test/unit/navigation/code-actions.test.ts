import { test } from 'node:test';
import assert from 'node:assert/strict';
import { quickFixes } from '../../../server/src/template/navigation/code-actions';
import { validateTemplate } from '../../../server/src/template/diagnostics';
import { TEMPLATE, applyOffsetEdits, navModel } from './nav-fixture';

/** Runs the real rules on `text` and returns the quick fixes of the first diagnostic with `code`. */
function fixesFor(text: string, code: string) {
  const r = validateTemplate(text);
  const d = r.diagnostics.find((x) => x.code === code);
  assert.ok(d, `${code} in ${r.diagnostics.map((x) => x.code).join(', ')}`);
  return quickFixes(navModel(text), d);
}

test('a near-miss name is replaced with the closest defined one', () => {
  const text = TEMPLATE.replace('"schedule": "often"', '"schedule": "ofen"');
  const fixes = fixesFor(text, 'psconfig/unknown-schedule');
  assert.equal(fixes[0].title, 'Change to "often"');
  assert.equal(applyOffsetEdits(text, fixes[0].edits), TEMPLATE);
});

test('a missing object is created in its section, with a skeleton the rules accept', () => {
  const text = TEMPLATE.replace('"group": "list-g"', '"group": "new-group"');
  const create = fixesFor(text, 'psconfig/unknown-group').find((f) => f.title.startsWith('Create'));
  assert.ok(create);
  assert.equal(create.title, 'Create group "new-group" in "groups"');
  const out = applyOffsetEdits(text, create.edits);
  const parsed = JSON.parse(out) as { groups: Record<string, { type: string }> };
  assert.equal(parsed.groups['new-group'].type, 'mesh');
  assert.ok(!validateTemplate(out).diagnostics.some((d) => d.code === 'psconfig/unknown-group'));
});

test('a missing section is created', () => {
  const text = TEMPLATE.replace('"schedules": { "often": { "repeat": "PT1H" } },\n', '');
  const create = fixesFor(text, 'psconfig/unknown-schedule').find((f) => f.title.startsWith('Create'));
  assert.ok(create);
  const parsed = JSON.parse(applyOffsetEdits(text, create.edits)) as { schedules: Record<string, unknown> };
  assert.deepEqual(Object.keys(parsed.schedules), ['often']);
});

test('an empty section gets its first entry, indented', () => {
  const text =
    '{\n  "addresses": {},\n  "groups": {},\n  "tests": {},\n  "tasks": {\n    "t": { "group": "g", "test": "x" }\n  }\n}\n';
  const fixes = fixesFor(text, 'psconfig/unknown-group');
  const out = applyOffsetEdits(text, fixes.find((f) => f.title.startsWith('Create'))!.edits);
  assert.match(out, /"groups": \{\n {4}"g": \{\n {6}"type": "mesh",/);
  assert.doesNotThrow(() => JSON.parse(out));
});

test('a missing label is created on the selected address, with its address', () => {
  const text = TEMPLATE.replace('{ "name": "a2" }, { "class"', '{ "name": "a2", "label": "v4" }, { "class"');
  const fixes = fixesFor(text, 'psconfig/unknown-label');
  const create = fixes.find((f) => f.title.startsWith('Create label'));
  assert.ok(create, fixes.map((f) => f.title).join(' | '));
  const parsed = JSON.parse(applyOffsetEdits(text, create.edits)) as {
    addresses: { a2: { labels: Record<string, { address: string }> } };
  };
  assert.deepEqual(parsed.addresses.a2.labels.v4, { address: 'a2.example.net' });
});

test('a misspelt property is renamed to the one the schema expects', () => {
  const text = TEMPLATE.replace('"repeat": "PT1H"', '"repaet": "PT1H"');
  const fixes = fixesFor(text, 'psconfig/unknown-property');
  assert.equal(fixes[0]?.title, 'Change property "repaet" to "repeat"');
  assert.equal(applyOffsetEdits(text, fixes[0].edits), TEMPLATE);
});

test('a missing required property is added to the object the diagnostic names', () => {
  const text = TEMPLATE.replace('"a3": { "address": "a3.example.net" }', '"a3": { }');
  const fixes = fixesFor(text, 'psconfig/missing-property');
  assert.equal(fixes[0]?.title, 'Add the required property "address"');
  const parsed = JSON.parse(applyOffsetEdits(text, fixes[0].edits)) as { addresses: { a3: { address: string } } };
  assert.equal(parsed.addresses.a3.address, '');
  const noTasks = '{ "addresses": {}, "groups": {}, "tests": {} }';
  const top = fixesFor(noTasks, 'psconfig/missing-property');
  assert.deepEqual(JSON.parse(applyOffsetEdits(noTasks, top[0].edits)), {
    addresses: {},
    groups: {},
    tests: {},
    tasks: {},
  });
});

test('a shifted range (an older diagnostic on edited text) changes nothing it was not about', () => {
  const text = TEMPLATE.replace('"schedule": "often"', '"schedule": "ofen"');
  const d = validateTemplate(text).diagnostics.find((x) => x.code === 'psconfig/unknown-schedule');
  assert.ok(d);
  // Ten characters inserted before the reference: the old range now covers other text.
  const at = text.indexOf('"schedule": "ofen"');
  const edited = `${text.slice(0, at)}"x": 1234, ${text.slice(at)}`;
  const shifted = quickFixes(navModel(edited), d);
  assert.ok(!shifted.some((f) => f.title.startsWith('Change to')), JSON.stringify(shifted));
  // A range partly over the name is refused too; the exact range still gets its fix.
  const partial = quickFixes(navModel(text), { ...d, end: d.end - 1 });
  assert.ok(!partial.some((f) => f.title.startsWith('Change to')));
  assert.equal(quickFixes(navModel(text), d)[0].title, 'Change to "often"');
  // A diagnostic whose name has since been defined offers no "Create".
  const data = { ...(d.data as object), name: 'often' };
  const fixes = quickFixes(navModel(TEMPLATE), { ...d, data });
  assert.ok(!fixes.some((f) => f.title.startsWith('Create')), JSON.stringify(fixes));
});
