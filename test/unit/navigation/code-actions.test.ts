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

test('a shifted range: "Change to" finds the name at its place in the tree, and edits only it', () => {
  const text = TEMPLATE.replace('"schedule": "often"', '"schedule": "ofen"');
  const d = validateTemplate(text).diagnostics.find((x) => x.code === 'psconfig/unknown-schedule');
  assert.ok(d);
  assert.deepEqual(d.data, {
    kind: 'missing-ref',
    section: 'schedules',
    name: 'ofen',
    closest: 'often',
    path: ['tasks', 't-mesh', 'schedule'],
  });
  // Ten characters inserted before the reference: the old range now covers other text; the data finds the name.
  const at = text.indexOf('"schedule": "ofen"');
  const edited = `${text.slice(0, at)}"x": 1234, ${text.slice(at)}`;
  const shifted = quickFixes(navModel(edited), d).find((f) => f.title === 'Change to "often"');
  assert.ok(shifted);
  assert.equal(applyOffsetEdits(edited, shifted.edits), edited.replace('"ofen"', '"often"'));
  // A range partly over the name, or off by a few columns: the same one edit.
  for (const range of [
    { start: d.start, end: d.end - 1 },
    { start: d.start + 3, end: d.end + 3 },
  ]) {
    const fixes = quickFixes(navModel(text), { ...d, ...range });
    const fix = fixes.find((f) => f.title.startsWith('Change to'));
    assert.deepEqual(fix?.edits, [{ start: d.start, end: d.end, newText: 'often' }]);
  }
  // The name at that place changed since (edited by hand): nothing to change.
  const retyped = text.replace('"schedule": "ofen"', '"schedule": "ofte"');
  assert.ok(!quickFixes(navModel(retyped), d).some((f) => f.title.startsWith('Change to')));
  // The same name elsewhere in the tree is another reference: not this diagnostic's to change.
  const moved = text
    .replace('"schedule": "ofen"', '"schedule": "often"')
    .replace('"test": "ping", "reference"', '"test": "ping", "schedule": "ofen", "reference"');
  assert.ok(!quickFixes(navModel(moved), d).some((f) => f.title.startsWith('Change to')));
  // Without a path (a client that dropped part of the data), only the exact range is trusted.
  const bare = { ...d, start: d.start + 3, end: d.end + 3, data: { ...(d.data as object), path: undefined } };
  assert.ok(!quickFixes(navModel(text), bare).some((f) => f.title.startsWith('Change to')));
  assert.equal(quickFixes(navModel(text), d)[0].title, 'Change to "often"');
  // A diagnostic whose name has since been defined offers no "Create".
  const data = { ...(d.data as object), name: 'often' };
  const fixes = quickFixes(navModel(TEMPLATE), { ...d, data });
  assert.ok(!fixes.some((f) => f.title.startsWith('Create')), JSON.stringify(fixes));
});

test('paths of many unknown names in one long array are counted in one walk of it', () => {
  const names = Array.from({ length: 3000 }, (_, i) => `host-${i}`);
  const text = JSON.stringify({
    addresses: { a: { address: 'a.example.net' } },
    groups: { g: { type: 'mesh', addresses: names.map((name) => ({ name })) } },
    tests: { t: { type: 'rtt', spec: { dest: '{% address[0] %}' } } },
    tasks: { task: { group: 'g', test: 't' } },
  });
  const unknown = validateTemplate(text).diagnostics.filter((x) => x.code === 'psconfig/unknown-address');
  assert.equal(unknown.length, 3000);
  assert.deepEqual((unknown[2999].data as { path: unknown }).path, ['groups', 'g', 'addresses', 2999, 'name']);
});
