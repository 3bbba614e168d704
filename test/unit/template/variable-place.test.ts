// placeInTree (read from a node's ancestors, for the variable rules) and placeOf (read from a JSON path, for
// completion and hover) must say the same for every string: they decide whether a `{% %}` is expanded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseTemplate } from '../../../server/src/template/parse';
import { NODE } from '../../../server/src/template/tree';
import { placeInTree, placeOf } from '../../../server/src/template/variable-table';
import { exampleFiles, exampleText } from '../../fixtures';

/** Every string value node of the text (keys excluded): tree-based place vs path-based place, and the member. */
function compareAll(text: string, label: string): number {
  const { tree: t } = parseTemplate(text);
  let n = 0;
  for (let i = 0; i < t.count; i++) {
    if (t.type(i) !== NODE.STRING) continue;
    const parent = t.parent[i];
    if (parent >= 0 && t.type(parent) === NODE.PROPERTY && parent + 1 === i) continue;
    const path = t.path(i);
    const { place, member } = placeInTree(t, i);
    assert.equal(place, placeOf(path), `${label}: ${JSON.stringify(path)}`);
    if (member >= 0) assert.equal(t.str(member + 1), path[1], `${label}: owner of ${JSON.stringify(path)}`);
    n++;
  }
  return n;
}

test('placeInTree agrees with placeOf on every string of every example template', () => {
  let strings = 0;
  for (const f of exampleFiles()) strings += compareAll(exampleText(f), f);
  assert.ok(strings > 1000, `compared ${strings} strings`);
});

test('placeInTree agrees with placeOf on the shapes that decide a place', () => {
  const shapes = {
    tests: {
      t: { type: 'x', spec: { a: '{% address[0] %}', list: ['{% flip %}', { deep: 's' }] }, _meta: { m: 's' } },
    },
    tasks: { k: { reference: { r: 's', _meta: 'm' }, group: 'g', archives: ['a'] }, plain: 'string member' },
    addresses: {
      _meta: { x: 's' },
      a: { address: 's', _meta: { 'display-name': 's' }, labels: { l: { address: 's' } } },
    },
    archives: ['an array section', { data: 's' }],
    contexts: { c: ['item', { data: { x: 's' } }] },
    subtasks: { s: { test: 's' } },
    _meta: { tests: { t: { spec: 's' } } },
    schedules: { s: { repeat: 'PT1H' } },
  };
  compareAll(JSON.stringify(shapes, null, 1), 'shapes');
  compareAll('["root", "array"]', 'array root');
  compareAll('"just a string"', 'string root');
});
