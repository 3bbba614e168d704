// The edited region since the parsed version, and completion answered from the previous parse while typing in
// a string: must equal completion on a fresh parse of the current text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { completeAt } from '../../../server/src/template/navigation/completion';
import {
  completeInEditedText,
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
