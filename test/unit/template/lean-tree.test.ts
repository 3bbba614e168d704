// The allocation-saving representation: exact-size child arrays, shared short strings, property-only fields,
// and the schema checker's reused frames must not change what is reported or where.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseTemplate, type JsonNode } from '../../../server/src/template/parse';
import { check, errors, template, withCode } from './helpers';

function walk(n: JsonNode | undefined, fn: (n: JsonNode) => void): void {
  if (!n) return;
  fn(n);
  for (const c of n.children ?? []) walk(c, fn);
}

test('strict parse: every node has its children in order, with parents, and property-only fields on properties', () => {
  const text = JSON.stringify({ a: { x: [1, 'two', { y: null }], z: true }, '#c': 'note', b: [] }, null, 1);
  const { root, commentKeys } = parseTemplate(text);
  assert.ok(root);
  walk(root, (n) => {
    for (const c of n.children ?? []) assert.equal(c.parent, n);
    const kids = n.children ?? [];
    for (let i = 1; i < kids.length; i++) assert.ok(kids[i].offset > kids[i - 1].offset);
    if (n.type === 'property') assert.equal(text[n.colonOffset!], ':');
    else assert.equal(n.colonOffset, undefined);
  });
  assert.equal(commentKeys.length, 1);
  assert.equal(commentKeys[0].comment, true);
  assert.deepEqual(
    root.children!.map((p) => p.children![0].value),
    ['a', '#c', 'b'],
  );
  assert.deepEqual(root.children![2].children![1].children, []);
});

test('strict parse: repeated short strings decode the same (shared copies), different ones stay apart', () => {
  const values = ['ipv4', 'ipv4', 'ipv6', 'a\\"b', 'é', '', 'x'.repeat(30)];
  const text = `[${values.map((v) => `"${v}"`).join(',')}]`;
  const { root } = parseTemplate(text);
  assert.deepEqual(
    root!.children!.map((c) => c.value),
    values.map((v): unknown => JSON.parse(`"${v}"`)),
  );
});

test('schema: errors in sibling values after a nested $ref name their own field and definition', () => {
  const ds = check(
    template({
      schedules: { s: { repeat: 'PT1H', slip: 'soon', sliprand: 'yes' } },
      groups: { g: { type: 'mesh', addresses: [{ name: 'a', label: 5 }, { name: 'b' }], 'excludes-self': 'maybe' } },
    }),
  );
  const e = errors(ds);
  assert.ok(e.some((d) => d.code === 'psconfig/invalid-duration' && d.text === '"soon"'));
  assert.ok(e.some((d) => d.code === 'psconfig/wrong-type' && d.text === '"yes"' && /`sliprand`/.test(d.message)));
  assert.ok(e.some((d) => d.code === 'psconfig/wrong-type' && d.text === '5' && /`label`/.test(d.message)));
  assert.ok(
    e.some((d) => d.code === 'psconfig/invalid-enum' && d.text === '"maybe"' && /`excludes-self`/.test(d.message)),
  );
  assert.equal(withCode(ds, 'psconfig/unknown-property').length, 0);
});

test('eachMember reads an object as pSConfig does (comments out, the last duplicate), small and large objects alike', () => {
  for (const filler of [0, 40]) {
    const extra = Array.from({ length: filler }, (_, i) => `"k${i}": ${i}`).join(', ');
    // `a` twice (the last wins), a comment, a key written with an escape that decodes to `b`
    const text = `{"a": 1, "#c": 2, "\\u0062": 3, ${extra ? `${extra}, ` : ''}"a": 4, "b": 5}`;
    const { tree } = parseTemplate(text);
    const seen: [string, unknown][] = [];
    tree.eachMember(0, (prop, value) => seen.push([tree.str(prop + 1), tree.toValue(value)]));
    const expected = Object.entries(JSON.parse(text) as Record<string, unknown>).filter(([k]) => !k.startsWith('#'));
    assert.deepEqual(
      seen.sort(([x], [y]) => x.localeCompare(y)),
      expected.sort(([x], [y]) => x.localeCompare(y)),
    );
  }
});

test('interned strings reused from an earlier parse decode to this text, not the earlier one', () => {
  // Same hash slots, different texts: each parse must read its own values.
  const first = parseTemplate(JSON.stringify({ names: ['alpha', 'beta', 'gamma'] }));
  const second = parseTemplate(JSON.stringify({ names: ['alpha', 'betb', 'gamma'] }));
  assert.deepEqual(first.tree.toValue(0), { names: ['alpha', 'beta', 'gamma'] });
  assert.deepEqual(second.tree.toValue(0), { names: ['alpha', 'betb', 'gamma'] });
});
