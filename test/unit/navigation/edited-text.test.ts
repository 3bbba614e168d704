// The edited region since the parsed version, and completion answered from the previous parse while typing in
// a string or elsewhere than the cursor and its names: must equal completion on a fresh parse of the current text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { completeAt } from '../../../server/src/template/navigation/completion';
import {
  completeInEditedText,
  completeOutsideEdit,
  extendRegion,
  toCurrent,
  toParsed,
  type EditedRegion,
} from '../../../server/src/template/navigation/edited-text';
import { navModel } from './nav-fixture';

function applyAll(text: string, edits: [number, number, string][]): { text: string; region: EditedRegion | undefined } {
  let region: EditedRegion | undefined;
  for (const [s, e, ins] of edits) {
    region = extendRegion(region, s, e, ins.length);
    text = text.slice(0, s) + ins + text.slice(e);
  }
  return { text, region };
}

test('the region keeps the text before lo and after hiOld identical, whatever the sequence of edits', () => {
  let seed = 7;
  const rnd = (n: number): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
  for (let round = 0; round < 500; round++) {
    const parsed = 'abcdefghijklmnopqrstuvwxyz0123456789';
    let text = parsed;
    const edits: [number, number, string][] = [];
    for (let k = 0; k < 1 + rnd(4); k++) {
      const s = rnd(text.length + 1);
      const e = s + rnd(Math.min(4, text.length - s) + 1);
      const ins = 'XYZ'.slice(0, rnd(4));
      edits.push([s, e, ins]);
      text = text.slice(0, s) + ins + text.slice(e);
    }
    const r = applyAll(parsed, edits).region!;
    assert.equal(text.slice(0, r.lo), parsed.slice(0, r.lo));
    assert.equal(text.slice(r.hiNew), parsed.slice(r.hiOld));
    assert.equal(text.length - parsed.length, r.hiNew - r.hiOld);
    for (let o = 0; o <= parsed.length; o++) {
      const c = toCurrent(r, o);
      if (c !== undefined) assert.ok(o <= r.lo || c >= r.hiNew);
    }
    if (text.length > r.hiNew) assert.equal(toParsed(r, text.length), parsed.length);
  }
});

const TEMPLATE = JSON.stringify(
  {
    addresses: {
      'host-a': { address: 'a.example' },
      'host-b': { address: 'b.example' },
      'host-c': { address: 'c.example' },
    },
    groups: { g: { type: 'mesh', addresses: [{ name: 'host-a' }, { name: 'host-b' }] } },
    tests: { t: { type: 'throughput', spec: { source: '{% address[0] %}', dest: '{% address[1] %}' } } },
    tasks: { task: { group: 'g', test: 't', archives: ['host-'] } },
  },
  null,
  2,
);

function check(edits: [number, number, string][], at: (text: string) => number, expectAnswer: boolean): void {
  const parsed = navModel(TEMPLATE);
  const { text, region } = applyAll(TEMPLATE, edits);
  const offset = at(text);
  const fresh = completeAt(navModel(text), offset);
  const early = completeInEditedText(parsed, region!, text.slice(region!.lo, region!.hiNew), offset);
  if (!expectAnswer) {
    assert.equal(early, undefined);
    return;
  }
  assert.ok(early, 'answered from the previous parse');
  const strip = (r: typeof fresh) => ({ context: r.context, items: r.items });
  assert.deepEqual(strip(early), strip(fresh));
}

const selector = TEMPLATE.indexOf('"name": "host-b"') + '"name": "host-b'.length; // before the closing quote of host-b

test('typing at the end of a reference string: same items and ranges as a fresh parse', () => {
  check([[selector, selector, 'x']], (t) => t.indexOf('host-bx') + 'host-bx'.length, true);
  check(
    [
      [selector, selector, 'x'],
      [selector + 1, selector + 1, 'y'],
      [selector + 1, selector + 2, ''],
    ],
    (t) => t.indexOf('host-bx') + 7,
    true,
  );
  check([[selector - 3, selector, '']], (t) => t.indexOf('"hos"') + 4, true);
});

test('completing elsewhere after typing in a string: the later offsets are shifted', () => {
  const archive = (t: string): number => t.indexOf('"host-"') + 6;
  check([[selector, selector, 'xyz']], archive, true);
});

test('edits that may change the structure or touch a key or a type are refused', () => {
  check([[selector, selector, '"']], (t) => t.indexOf('host-b') + 3, false);
  check([[selector, selector, '{%']], (t) => t.indexOf('host-b') + 3, false);
  const key = TEMPLATE.indexOf('"host-c"') + 3;
  check([[key, key, 'q']], (t) => t.indexOf('"host-"') + 6, false);
  const type = TEMPLATE.indexOf('"mesh"') + 3;
  check([[type, type, 'q']], (t) => t.indexOf('"host-"') + 6, false);
});

/** A template with a few names of each kind a slot offers, and room to edit in every section. */
const WIDE = JSON.stringify(
  {
    addresses: { 'host-a': { address: 'a.example', labels: { v6: { address: '::1' } } }, 'host-b': { address: 'b' } },
    groups: {
      g1: {
        type: 'mesh',
        'default-address-label': 'v6',
        addresses: [{ name: 'host-a', label: 'v6' }, { name: 'host-b' }],
      },
      g2: { type: 'disjoint', 'a-addresses': [{ name: 'host-a' }], 'b-addresses': [{ name: 'host-b' }] },
    },
    tests: { t1: { type: 'rtt', spec: { source: '{% address[0] %}', dest: '{% address[1] %}' } }, t2: { type: 'rtt' } },
    schedules: { s1: { repeat: 'PT1H' } },
    archives: { a1: { archiver: 'esmond', data: {} } },
    tasks: {
      task1: { group: 'g1', test: 't1', schedule: 's1', archives: ['a1'] },
      task2: { group: 'g2', test: 't2', archives: ['a1', 'a1'] },
    },
  },
  null,
  2,
);

/** Edits of WIDE: [start, end, inserted]. */
function wideEdits(): { name: string; edit: [number, number, string] }[] {
  const after = (s: string): number => WIDE.indexOf(s) + s.length;
  const before = (s: string): number => WIDE.indexOf(s);
  const task2 = after('"task2": {');
  const tasks = after('"tasks": {');
  const t2 = before('"t2": {');
  const g2 = before('"g2": {');
  const g1End = WIDE.indexOf('}', WIDE.indexOf('"g1": {')) + 1;
  return [
    { name: 'a property added to a task', edit: [task2, task2, '\n      "x-added": 1,'] },
    {
      name: 'tasks pasted',
      edit: [tasks, tasks, '\n    "p1": { "group": "g1", "test": "t1" },\n    "p2": { "group": "g2" },'],
    },
    { name: 'a test added', edit: [t2, t2, '"t0": { "type": "latency" },\n    '] },
    { name: 'a test removed', edit: [t2 - 2, WIDE.indexOf('}', t2) + 1, ''] },
    { name: 'a group renamed', edit: [g2 + 2, g2 + 3, '9'] },
    { name: 'a group added', edit: [g2, g2, '"g0": { "type": "mesh" },\n    '] },
    { name: 'a group member changed', edit: [g1End - 3, g1End - 3, ', { "name": "host-a" }'] },
    {
      name: 'a label added',
      edit: [after('"v6": { "address": "::1" }'), after('"v6": { "address": "::1" }'), ', "v4": {}'],
    },
    { name: 'a task key renamed', edit: [before('"group": "g2"') + 1, before('"group": "g2"') + 6, 'test'] },
    { name: 'a brace typed in a task', edit: [task2, task2, ' {'] },
    { name: 'a comment typed', edit: [task2, task2, ' // x'] },
    { name: 'a section closed early', edit: [task2, task2, '}, "groups": { "gx": {} }, "more": {'] },
    {
      name: 'an archive deleted from a list',
      edit: [after('"archives": [\n        "a1",') - 1, after('"archives": [\n        "a1",'), ''],
    },
  ];
}

test('completion outside the edited region: wherever it answers, it equals a fresh parse', () => {
  const parsed = navModel(WIDE);
  let answered = 0;
  for (const { name, edit } of wideEdits()) {
    const { text, region } = applyAll(WIDE, [edit]);
    const fresh = navModel(text);
    const read = (a: number, b: number): string => text.slice(a, b);
    for (let offset = 0; offset <= text.length; offset++) {
      const early = completeOutsideEdit(parsed, region!, read, offset);
      if (!early) continue;
      answered++;
      const want = completeAt(fresh, offset);
      assert.deepEqual(
        { context: early.context, items: early.items },
        { context: want.context, items: want.items },
        `${name}, offset ${offset}`,
      );
    }
  }
  assert.ok(answered > 50, `answered ${answered} times`);
});

test('completion outside the edited region: answers where the names are untouched, refuses otherwise', () => {
  const parsed = navModel(WIDE);
  const edits = new Map(wideEdits().map((e) => [e.name, e.edit]));
  const answers = (name: string, at: (t: string) => number): boolean => {
    const { text, region } = applyAll(WIDE, [edits.get(name)!]);
    return completeOutsideEdit(parsed, region!, (a, b) => text.slice(a, b), at(text)) !== undefined;
  };
  const groupOf = (task: string) => (t: string) =>
    t.indexOf('"', t.indexOf('"group": "', t.indexOf(`"${task}": {`)) + 10);
  const testOf = (task: string) => (t: string) => t.indexOf('"', t.indexOf('"test": "', t.indexOf(`"${task}": {`)) + 9);
  // A property added before the cursor in its own task, a test added: the group slot after / before them.
  assert.ok(answers('a property added to a task', groupOf('task2')));
  assert.ok(answers('a property added to a task', groupOf('task1')));
  assert.ok(answers('a test added', groupOf('task1')));
  assert.ok(answers('tasks pasted', groupOf('task1')));
  // Names of the edited section, a broken or re-shaped structure: refused.
  assert.ok(!answers('a test added', testOf('task1')));
  assert.ok(!answers('a group renamed', groupOf('task1')));
  assert.ok(!answers('a group added', groupOf('task2')));
  // In a pasted task: the stretch alone is parsed for the slot, the names are the previous version's.
  assert.ok(answers('tasks pasted', groupOf('p2')));
  assert.ok(answers('tasks pasted', testOf('p1')));
  assert.ok(!answers('a brace typed in a task', groupOf('task2')));
  assert.ok(!answers('a comment typed', groupOf('task2')));
  assert.ok(!answers('a section closed early', groupOf('task1')));
});

test('completion outside the edited region: random edits, wherever it answers it equals a fresh parse', () => {
  const parsed = navModel(WIDE);
  const snippets = [
    '',
    ' ',
    '\n',
    '{',
    '}',
    '[',
    ']',
    '"',
    ',',
    ':',
    '"k": 1,',
    ', "k": 1',
    '{ "group": "g1" }',
    '"g3": {},',
    '// c',
    '"px": { "group": "g", "test": "t1", "archives": ["a"] },',
    '1',
    'x',
  ];
  let seed = 11;
  const rnd = (n: number): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
  let answered = 0;
  for (let round = 0; round < 400; round++) {
    const s = rnd(WIDE.length + 1);
    const e = Math.min(WIDE.length, s + (rnd(3) === 0 ? rnd(40) : 0));
    const ins = snippets[rnd(snippets.length)] + (rnd(4) === 0 ? snippets[rnd(snippets.length)] : '');
    const { text, region } = applyAll(WIDE, [[s, e, ins]]);
    const fresh = navModel(text);
    for (let offset = rnd(5); offset <= text.length; offset += 5) {
      const early = completeOutsideEdit(parsed, region!, (a, b) => text.slice(a, b), offset);
      if (!early) continue;
      answered++;
      const want = completeAt(fresh, offset);
      assert.deepEqual(
        { context: early.context, items: early.items },
        { context: want.context, items: want.items },
        `[${s}, ${e}) → ${JSON.stringify(ins)}, offset ${offset}`,
      );
    }
  }
  assert.ok(answered > 100, `answered ${answered} times`);
});
