import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseTemplate, propertyValue, nodePath, nodeAtOffset, toValue } from '../../../server/src/template/parse';
import { buildSymbolIndex, NAME_PATTERN } from '../../../server/src/template/symbols';
import { scanVariables, scanStringNode } from '../../../server/src/template/variables';
import { LineIndex } from '../../../server/src/template/positions';

test('strict parse gives jsonc-compatible nodes with decoded values', () => {
  const text = '{"a": [1, -2.5e3, true, null, "x\\"y"], "#c": {"z": 1}, "b": {}}';
  const p = parseTemplate(text);
  assert.equal(p.syntaxErrors.length, 0);
  assert.deepEqual(toValue(p.root), { a: [1, -2500, true, null, 'x"y'], b: {} });
  assert.equal(p.commentKeys.length, 1);
  const arr = propertyValue(p.root, 'a')!;
  assert.equal(arr.type, 'array');
  const s = arr.children![4];
  assert.equal(text.slice(s.offset, s.offset + s.length), '"x\\"y"');
  assert.deepEqual(nodePath(s), ['a', 4]);
  assert.equal(nodeAtOffset(p.root, s.offset + 1), s);
});

test('duplicate keys are listed, the last value wins', () => {
  const text = '{"a": 1, "b": 2, "a": 3}';
  const p = parseTemplate(text);
  assert.equal(p.duplicateKeys.length, 1);
  assert.equal(p.duplicateKeys[0].key, 'a');
  assert.equal(p.duplicateKeys[0].node.offset, 17);
  assert.equal(p.duplicateKeys[0].first.offset, 1);
  assert.equal(propertyValue(p.root, 'a')!.value, 3);
});

test('syntax errors fall back to the tolerant parser and keep a partial tree', () => {
  const text = '{"tasks": {"t": {"group": "g",}}, "groups": {';
  const p = parseTemplate(text);
  assert.ok(p.syntaxErrors.length >= 1);
  assert.ok(p.root);
  assert.equal(propertyValue(propertyValue(propertyValue(p.root, 'tasks'), 't'), 'group')!.value, 'g');
  for (const e of p.syntaxErrors) assert.ok(e.end > e.start && e.message.length > 0);
});

test('symbol index: definitions, references and lookups', () => {
  const text = JSON.stringify(
    {
      addresses: {
        a: {
          address: 'a.net',
          host: 'h',
          labels: { v4: { address: '1.2.3.4', contexts: ['c'] } },
          'remote-addresses': { b: { address: 'x' } },
        },
        b: { address: 'b.net' },
      },
      hosts: { h: { archives: ['ar'] } },
      archives: { ar: { archiver: 'http', data: {} } },
      contexts: { c: { context: 'x', data: {} } },
      'address-classes': {
        k: {
          'data-source': { type: 'current-config' },
          'match-filter': { type: 'not', filter: { type: 'address-class', class: 'k2' } },
        },
      },
      groups: {
        g: {
          type: 'mesh',
          addresses: [{ name: 'a', label: 'v4' }, { class: 'k' }],
          excludes: [{ 'local-address': { name: 'a' }, 'target-addresses': [{ name: 'b' }] }],
        },
      },
      tests: { t: { type: 'rtt', spec: {} } },
      tasks: { task: { group: 'g', test: 't', archives: ['ar', 'nope'], '#x': 'y' } },
    },
    null,
    2,
  );
  const p = parseTemplate(text);
  const idx = buildSymbolIndex(p.root);
  assert.equal(idx.definitionsOf('groups', 'g').length, 1);
  assert.equal(idx.definitionsOf('labels', 'v4', 'a').length, 1);
  assert.equal(idx.referencesTo('archives', 'ar').length, 2);
  assert.equal(idx.referencesTo('addresses', 'a').length, 2);
  assert.equal(idx.referencesTo('addresses', 'b').length, 2, 'remote-addresses key + excludes target');
  assert.equal(idx.referencesTo('address-classes', 'k2').length, 1);
  assert.equal(idx.referencesTo('contexts', 'c').length, 1);
  const label = idx.referencesTo('labels', 'v4')[0];
  assert.equal(label.address, 'a');
  assert.equal(text.slice(label.start, label.end), 'v4');
  const nope = idx.referencesTo('archives', 'nope')[0];
  assert.equal(idx.referenceAt(nope.start + 1), nope);
  const gdef = idx.definitionsOf('groups', 'g')[0];
  assert.equal(idx.definitionAt(gdef.start), gdef);
  assert.deepEqual(idx.nodeAt(nope.start)!.path, ['tasks', 'task', 'archives', 1]);
  assert.ok(NAME_PATTERN.test('a:b.c_d-e') && !NAME_PATTERN.test('a b'));
});

test('variables: kinds, ranges, malformed, standalone, escaped jq', () => {
  const raw = '{% address[1] %} x {%flip%} {% jq .addresses[0]._meta.\\"display-name\\" %} {% bogus %}';
  const vs = scanVariables(raw, 10);
  assert.deepEqual(
    vs.map((v) => [v.kind, v.malformed]),
    [
      ['address', false],
      ['flip', true],
      ['jq', false],
      ['unknown', false],
    ],
  );
  const [a, f, j] = vs;
  assert.equal(a.index, 1);
  assert.equal(raw.slice(a.indexStart! - 10, a.indexEnd! - 10), '1');
  assert.equal(raw.slice(a.nameStart - 10, a.nameEnd - 10), 'address');
  assert.equal(raw.slice(f.start - 10, f.end - 10), '{%flip%}');
  assert.equal(j.expression, '.addresses[0]._meta."display-name"');
  assert.equal(raw.slice(j.exprStart! - 10, j.exprEnd! - 10), '.addresses[0]._meta.\\"display-name\\"');
  const p = parseTemplate('{"x": "{% flip %}"}');
  const v = scanStringNode(p.text, propertyValue(p.root, 'x')!);
  assert.equal(v[0].standalone, true);
  assert.equal(scanVariables('plain').length, 0);
});

test('line index maps offsets both ways', () => {
  const li = new LineIndex('ab\ncd\r\nef');
  assert.deepEqual(li.positionAt(4), { line: 1, character: 1 });
  assert.deepEqual(li.positionAt(7), { line: 2, character: 0 });
  assert.equal(li.offsetAt({ line: 2, character: 1 }), 8);
});
