// Re-parsing an edit in place (template/incremental.ts) gives the tree a full parse of the new text gives, whenever
// the new text is valid JSON; on broken text it still gives a well-formed tree of the new text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reparseEdited, type EditedRegion } from '../../../server/src/template/incremental';
import { parseTemplate, type ParsedTemplate } from '../../../server/src/template/parse';
import type { Tree } from '../../../server/src/template/tree';
import { exampleFiles, exampleText } from '../../fixtures';

function edit(text: string, start: number, end: number, insert: string): { text: string; region: EditedRegion } {
  return {
    text: text.slice(0, start) + insert + text.slice(end),
    region: { lo: start, hiOld: end, hiNew: start + insert.length },
  };
}

/** Every node the same: type, flags, offsets, parent, subtree, colon and value. */
function assertSameTree(actual: Tree, expected: Tree, what: string): void {
  assert.equal(actual.count, expected.count, `${what}: node count`);
  for (let i = 0; i < expected.count; i++) {
    // (how a string is stored, interned or to decode, may differ: ESCAPED = 16)
    const same =
      (actual.kind[i] | 16) === (expected.kind[i] | 16) &&
      actual.start[i] === expected.start[i] &&
      actual.end[i] === expected.end[i] &&
      actual.parent[i] === expected.parent[i] &&
      actual.next[i] === expected.next[i] &&
      actual.node(i).colonOffset === expected.node(i).colonOffset &&
      actual.scalar(i) === expected.scalar(i);
    assert.ok(same, `${what}: node ${i} (${expected.typeName(i)} at ${expected.start[i]}) differs`);
  }
}

/** Parents contain their children, children follow each other in order, offsets stay inside the text. */
function assertWellFormed(t: Tree, what: string): void {
  for (let i = 0; i < t.count; i++) {
    assert.ok(t.start[i] >= 0 && t.end[i] <= t.text.length && t.start[i] <= t.end[i], `${what}: node ${i} range`);
    assert.ok(t.next[i] > i && t.next[i] <= t.count, `${what}: node ${i} subtree`);
    const p = t.parent[i];
    if (p >= 0) {
      assert.ok(p < i && t.next[p] >= t.next[i], `${what}: node ${i} outside its parent`);
      assert.ok(t.start[p] <= t.start[i] && t.end[i] <= t.end[p], `${what}: node ${i} range outside its parent`);
    } else assert.equal(i, 0, `${what}: a second root`);
  }
}

function check(before: ParsedTemplate, e: { text: string; region: EditedRegion }, what: string): void {
  const inc = reparseEdited(before, e.text, e.region);
  if (!inc) return; // the edit reached the top-level brackets: the caller parses in full
  assertWellFormed(inc.tree, what);
  const full = parseTemplate(e.text);
  if (full.syntaxErrors.length === 0) {
    assertSameTree(inc.tree, full.tree, what);
    assert.deepEqual(inc.tree.toValue(0), full.tree.toValue(0), `${what}: values`);
  }
  inc.tree.release();
  full.tree.release();
}

/** Edits at every object of a template: a property added first, a value retyped, a member removed, a member
 *  pasted again, stray characters typed. */
function editsOf(text: string): { what: string; e: { text: string; region: EditedRegion } }[] {
  const parsed = parseTemplate(text);
  const t = parsed.tree;
  const out: { what: string; e: { text: string; region: EditedRegion } }[] = [];
  for (let i = 0; i < t.count; i++) {
    if (t.typeName(i) === 'object') {
      const at = t.start[i] + 1;
      const empty = t.firstChild(i) < 0;
      out.push({
        what: `property added at ${at}`,
        e: edit(text, at, at, `"added": {"x": [1, "two"]}${empty ? '' : ','}`),
      });
      out.push({ what: `stray text at ${at}`, e: edit(text, at, at, '"unfinished": {') });
      const first = t.firstChild(i);
      const second = first >= 0 ? t.nextSibling(first, i) : -1;
      if (second >= 0) {
        out.push({ what: `member removed at ${at}`, e: edit(text, t.start[first], t.start[second], '') });
        const member = text.slice(t.start[first], t.end[first]);
        out.push({
          what: `member pasted at ${t.start[second]}`,
          e: edit(text, t.start[second], t.start[second], `${member},\n`),
        });
      }
    } else if (t.typeName(i) === 'string' && t.typeName(t.parent[i]) !== 'property') {
      out.push({ what: `item retyped at ${t.start[i]}`, e: edit(text, t.start[i] + 1, t.end[i] - 1, 'retyped') });
    } else if (t.typeName(i) === 'string' && t.parent[i] + 1 !== i) {
      out.push({ what: `value retyped at ${t.start[i]}`, e: edit(text, t.end[i] - 1, t.end[i] - 1, 'x') });
    }
  }
  parsed.tree.release();
  return out;
}

test('every example template: edits at every object and string re-parse to what a full parse gives', () => {
  let edits = 0;
  for (const file of exampleFiles()) {
    const text = exampleText(file);
    const before = parseTemplate(text);
    for (const { what, e } of editsOf(text)) {
      check(before, e, `${file}: ${what}`);
      edits++;
    }
    before.tree.release();
  }
  assert.ok(edits > 1000, `${edits} edits`);
});

test('a chain of edits, each re-parsed from the previous re-parse, ends where a full parse does', () => {
  let text = exampleText('psconfig--example-2-testbed.json');
  let parsed = parseTemplate(text);
  const steps: [string, string][] = [
    ['"tasks": {', '\n    "new-task": { "group": "g", "test": "t" },'],
    ['"new-task": { "group": "g"', ', "schedule": "s"'],
    ['"archives": {', '\n    "extra": { "archiver": "http", "data": { "_url": "https://a/" } },'],
  ];
  for (const [needle, insert] of steps) {
    const at = text.indexOf(needle);
    assert.ok(at >= 0, needle);
    const e = edit(text, at + needle.length, at + needle.length, insert);
    const next = reparseEdited(parsed, e.text, e.region);
    assert.ok(next, needle);
    text = e.text;
    parsed = next;
  }
  const full = parseTemplate(text);
  assertSameTree(parsed.tree, full.tree, 'after three edits');
});

test('an edit that reaches the top-level brackets is left to a full parse', () => {
  const text = '{"a": 1}';
  const before = parseTemplate(text);
  assert.equal(reparseEdited(before, '{"a": 1}  ', { lo: 8, hiOld: 8, hiNew: 10 }), undefined);
  assert.equal(reparseEdited(before, '["a"]', { lo: 0, hiOld: 8, hiNew: 5 }), undefined);
});
