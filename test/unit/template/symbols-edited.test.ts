// The symbol index of an edited version (template/symbols-edited.ts: the last full index plus the members the
// edits touched) answers every lookup exactly as a full index of the same tree does: same entries, same order,
// same names, same entry at every offset. Single edits at every object and string of every example, and chains of
// edits in one place and in several.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reparseEditedSplice, type EditedRegion } from '../../../server/src/template/incremental';
import { parseTemplate, type ParsedTemplate } from '../../../server/src/template/parse';
import {
  buildSymbolIndex,
  SECTIONS,
  type Definition,
  type Reference,
  type SymbolIndex,
  type SymbolKind,
} from '../../../server/src/template/symbols';
import { EditedSymbolIndex, editedSymbolIndex } from '../../../server/src/template/symbols-edited';
import { exampleFiles, exampleText } from '../../fixtures';

const KINDS: SymbolKind[] = [...SECTIONS, 'labels', 'remote-addresses'];

const defKey = (d: Definition): string =>
  [d.kind, d.name, d.keyIndex, d.valueIndex, d.start, d.end, d.address, d.remote].join('|');
const refKey = (r: Reference): string =>
  [r.kind, r.name, r.nodeIndex, r.field, r.ownerKind, r.ownerName, r.address, r.isKey, r.start, r.end].join('|');

/** Every lookup of `edited` equals the same lookup of `full` (both of the same tree). */
function assertSameIndex(edited: SymbolIndex, full: SymbolIndex, text: string, what: string): void {
  assert.deepEqual(edited.definitions.map(defKey), full.definitions.map(defKey), `${what}: definitions`);
  assert.deepEqual(edited.references.map(refKey), full.references.map(refKey), `${what}: references`);
  const addresses = full.namesIn('addresses');
  for (const kind of KINDS) {
    assert.deepEqual(edited.namesIn(kind), full.namesIn(kind), `${what}: names of ${kind}`);
    for (const a of addresses.slice(0, 20))
      assert.deepEqual(edited.namesIn(kind, a), full.namesIn(kind, a), `${what}: names of ${kind} on ${a}`);
  }
  const names = new Set<string>();
  for (const e of [...full.definitions, ...full.references]) names.add(`${e.kind}\u0000${e.name}`);
  names.add('groups\u0000no-such-name');
  for (const key of names) {
    const [kind, name] = key.split('\u0000') as [SymbolKind, string];
    const scopes: (string | undefined)[] = kind === 'labels' ? [undefined, ...addresses.slice(0, 10)] : [undefined];
    for (const a of scopes) {
      const w = `${what}: ${kind} ${name}${a ? ` on ${a}` : ''}`;
      assert.deepEqual(
        edited.definitionsOf(kind, name, a).map(defKey),
        full.definitionsOf(kind, name, a).map(defKey),
        w,
      );
      assert.equal(edited.isDefined(kind, name, a), full.isDefined(kind, name, a), `${w}: isDefined`);
      assert.deepEqual(edited.referencesTo(kind, name, a).map(refKey), full.referencesTo(kind, name, a).map(refKey), w);
    }
    assert.equal(
      edited.someReference(kind, name, (r) => r.field.length > 5),
      full.someReference(kind, name, (r) => r.field.length > 5),
      `${what}: someReference ${kind} ${name}`,
    );
  }
  // Around every entry's token, and a sample of offsets everywhere else.
  const offsets = new Set<number>();
  for (const e of [...full.definitions, ...full.references])
    for (const o of [e.start - 2, e.start - 1, e.start, e.end, e.end + 1, e.end + 2]) offsets.add(o);
  for (let o = 0; o <= text.length; o += 97) offsets.add(o);
  for (const o of offsets) {
    const r = edited.referenceAt(o);
    const fr = full.referenceAt(o);
    assert.equal(r && refKey(r), fr && refKey(fr), `${what}: reference at ${o}`);
    const d = edited.definitionAt(o);
    const fd = full.definitionAt(o);
    assert.equal(d && defKey(d), fd && defKey(fd), `${what}: definition at ${o}`);
  }
}

interface Version {
  parsed: ParsedTemplate;
  index: SymbolIndex;
}

/** One edit on top of `v`: the re-parse and the edited index, checked against a full index of the same tree;
 *  undefined when the edit is left to a full parse. */
function step(v: Version, start: number, end: number, insert: string, what: string): Version | undefined {
  const text = v.parsed.text.slice(0, start) + insert + v.parsed.text.slice(end);
  const region: EditedRegion = { lo: start, hiOld: end, hiNew: start + insert.length };
  const r = reparseEditedSplice(v.parsed, text, region);
  if (!r) return undefined;
  const index = editedSymbolIndex(v.index, v.parsed.tree, r.parsed.tree, r.parsed.root, r.splice);
  assertSameIndex(index, buildSymbolIndex(r.parsed.root), text, what);
  return { parsed: r.parsed, index };
}

function fresh(text: string): Version {
  const parsed = parseTemplate(text);
  return { parsed, index: buildSymbolIndex(parsed.root) };
}

/** Edits at every object (a property added, a member removed, a member pasted again) and string (retyped). */
function editsOf(text: string): { what: string; start: number; end: number; insert: string }[] {
  const t = parseTemplate(text).tree;
  const out: { what: string; start: number; end: number; insert: string }[] = [];
  for (let i = 0; i < t.count; i++) {
    if (t.typeName(i) === 'object') {
      const at = t.start[i] + 1;
      const first = t.firstChild(i);
      const added = `"added": {"group": "g", "archives": ["a"], "labels": {"l": {}}}${first < 0 ? '' : ','}`;
      out.push({ what: `property added at ${at}`, start: at, end: at, insert: added });
      const second = first >= 0 ? t.nextSibling(first, i) : -1;
      if (second >= 0) {
        out.push({ what: `member removed at ${at}`, start: t.start[first], end: t.start[second], insert: '' });
        const member = text.slice(t.start[first], t.end[first]);
        out.push({
          what: `member pasted at ${t.start[second]}`,
          start: t.start[second],
          end: t.start[second],
          insert: `${member},\n`,
        });
      }
    } else if (t.typeName(i) === 'string') {
      out.push({
        what: `string retyped at ${t.start[i]}`,
        start: t.start[i] + 1,
        end: t.end[i] - 1,
        insert: 'retyped',
      });
    }
  }
  t.release();
  return out;
}

test('one edit at every object and string of every example: the edited index equals a full one', () => {
  let edited = 0;
  for (const file of exampleFiles()) {
    const text = exampleText(file);
    const before = fresh(text);
    // Every third edit (each kind of edit at every place of some example; the whole set takes half a minute).
    for (const e of editsOf(text).filter((_, i) => i % 3 === 0)) {
      const v = step(before, e.start, e.end, e.insert, `${file}: ${e.what}`);
      if (v?.index instanceof EditedSymbolIndex) edited++;
    }
  }
  assert.ok(edited > 300, `${edited} edited indexes`);
});

test('chains of edits, each on the previous version: in one member, across a section, and in several sections', () => {
  // A small deterministic generator, so a failure names a reproducible step.
  let seed = 12;
  const rnd = (n: number): number => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  let chained = 0;
  for (const file of exampleFiles()) {
    let v = fresh(exampleText(file));
    for (let k = 0; k < 25; k++) {
      const edits = editsOf(v.parsed.text);
      // Mostly near the previous edit (a user typing), sometimes anywhere.
      const e = edits[k % 5 === 4 ? rnd(edits.length) : Math.min(edits.length - 1, 3 + rnd(4))];
      const next = step(v, e.start, e.end, e.insert, `${file}, step ${k}: ${e.what}`);
      if (next && next.index instanceof EditedSymbolIndex && v.index instanceof EditedSymbolIndex) chained++;
      v = next ?? fresh(v.parsed.text.slice(0, e.start) + e.insert + v.parsed.text.slice(e.end));
    }
  }
  assert.ok(chained > 20, `${chained} edited indexes built on edited indexes`);
});

test('typing a task character by character: each version from the previous one (whole after a broken one)', () => {
  let v = fresh(exampleText('psconfig--example-2-testbed.json'));
  const at = v.parsed.text.indexOf('"tasks": {') + '"tasks": {'.length;
  const typed = '\n    "typed": { "group": "g", "test": "t", "archives": ["x"] },';
  let edited = 0;
  for (let i = 0; i < typed.length; i++) {
    const o = at + i;
    const what = `typed ${JSON.stringify(typed.slice(0, i + 1))}`;
    // As the parse cache does (lsp/main/analysis.ts): a broken re-parse is not built on.
    const next = v.parsed.approximate ? undefined : step(v, o, o, typed[i], what);
    if (next?.index instanceof EditedSymbolIndex) edited++;
    v = next ?? fresh(v.parsed.text.slice(0, o) + typed[i] + v.parsed.text.slice(o));
  }
  const full = parseTemplate(v.parsed.text);
  assert.deepEqual(v.parsed.tree.toValue(0), full.tree.toValue(0));
  assertSameIndex(v.index, buildSymbolIndex(full.root), v.parsed.text, 'typed');
  assert.ok(v.index.isDefined('tasks', 'typed'));
  assert.equal(v.index.referencesTo('archives', 'x').length, 1);
  assert.ok(edited > 10, `${edited} edited indexes`);
});
