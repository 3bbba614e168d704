// Re-parsing only what an edit touched. The main thread keeps one analysis per document version for navigation;
// on a large template a full parse after every keystroke would stall completion and hovers (tens to hundreds of
// milliseconds for a few megabytes), while an edit usually changes a few members of one object or array. So: find
// the innermost container whose brackets the edit left alone, re-parse (tolerantly) only the stretch of its
// members the edit touched, and splice the result into the previous tree, moving every later offset
// (Tree.spliced: one pass over typed arrays, no objects).
//
// The result is what navigation needs, not a diagnostics-grade parse: a broken fragment is recovered on its own
// (an unclosed `{` typed in one member does not swallow the members after it, as it would in a full parse), and
// syntax errors / duplicate keys are only those seen in the fragment plus the previous ones outside it. Diagnostics
// always come from a full parse in the worker.
import type { SyntaxProblem } from './json-node';
import type { ParsedTemplate } from './parse';
import { parseRecovering } from './parse-recovering';
import { NODE } from './tree';

const { ARRAY, COMMENT, OBJECT, PROPERTY } = NODE;

/**
 * What changed since the parsed version: its text [lo, hiOld) became the current text [lo, hiNew).
 * Everything before lo is identical; everything from hiOld on is identical, shifted by hiNew - hiOld.
 */
export interface EditedRegion {
  lo: number;
  hiOld: number;
  hiNew: number;
}

/** Where a re-parse changed the tree (Tree.spliced's arguments): the old nodes [from, to), whole children of
 *  `container`, became `added` new ones at `from`; later nodes moved by added - (to - from). */
export interface TreeSplice {
  container: number;
  from: number;
  to: number;
  added: number;
}

/** The parse of `text` (the previous parse's text with `region` edited), or undefined when the edit reaches the
 *  top-level brackets (the caller parses the whole text). */
export function reparseEdited(old: ParsedTemplate, text: string, region: EditedRegion): ParsedTemplate | undefined {
  return reparseEditedSplice(old, text, region)?.parsed;
}

/**
 * reparseEdited, and where the tree changed (symbols-edited.ts re-indexes only that). When the re-parsed stretch
 * is broken, the result is marked `approximate`: its recovery differs from a full parse's (an unclosed `{` here
 * swallows nothing after the stretch), and a later edit closing it would only ever be read with the members it
 * touches, so the tree would never become the text's again. The caller parses the next version whole instead.
 */
export function reparseEditedSplice(
  old: ParsedTemplate,
  text: string,
  region: EditedRegion,
): { parsed: ParsedTemplate; splice: TreeSplice } | undefined {
  const t = old.tree;
  const { lo, hiOld, hiNew } = region;
  const delta = hiNew - hiOld;
  if (t.count === 0 || text.length !== old.text.length + delta) return undefined;
  // The innermost object or array whose opening bracket is before the edit and whose closing one after it.
  let c = t.at(lo, false);
  while (c >= 0 && !encloses(c)) c = t.parent[c];
  if (c < 0) return undefined;

  // Its members before the edit, touched by it, and after it (old indexes).
  let prev = -1;
  let first = -1;
  let last = -1;
  let next = -1;
  for (let ch = t.firstChild(c); ch >= 0; ch = t.nextSibling(ch, c)) {
    if (t.end[ch] < lo) prev = ch;
    else if (t.start[ch] > hiOld) {
      next = ch;
      break;
    } else {
      if (first < 0) first = ch;
      last = ch;
    }
  }
  const type = t.type(c);
  // The stretch between the untouched members, in the new text (separators included).
  const sliceFrom = prev >= 0 ? t.end[prev] : t.start[c] + 1;
  const sliceTo = next >= 0 ? t.start[next] + delta : t.end[c] - 1 + delta;
  const from = first >= 0 ? first : next >= 0 ? next : t.next[c];
  const to = last >= 0 ? t.next[last] : from;
  const [open, close] = type === OBJECT ? ['{', '}'] : ['[', ']'];
  const fragment = parseRecovering(open + text.slice(sliceFrom, sliceTo) + close);
  const f = fragment.tree;
  if (f.count === 0 || f.type(0) !== type) {
    f.release();
    return undefined;
  }
  // Comment keys (the full parse marks them in parse.ts).
  for (let i = 1; i < f.count; i++)
    if (f.type(i) === PROPERTY && f.str(i + 1).charCodeAt(0) === 35) f.kind[i] |= COMMENT;
  const tree = t.spliced(text, c, from, to, f, sliceFrom, delta);
  const added = f.count - 1;
  f.release();

  // Errors: the previous ones outside the re-parsed stretch, and the fragment's (minus the separator complaints a
  // stretch starting or ending at a comma always raises).
  const oldFrom = sliceFrom;
  const oldTo = sliceTo - delta;
  const syntaxErrors: SyntaxProblem[] = [];
  for (const e of old.syntaxErrors) {
    if (e.end <= oldFrom) syntaxErrors.push(e);
    else if (e.start >= oldTo) syntaxErrors.push({ ...e, start: e.start + delta, end: e.end + delta });
  }
  let approximate = false;
  for (const e of fragment.errors) {
    if (/^(Unexpected comma|Trailing comma)/.test(e.message)) continue;
    syntaxErrors.push({ ...e, start: e.start - 1 + sliceFrom, end: e.end - 1 + sliceFrom });
    approximate = true;
  }
  const parsed: ParsedTemplate = { text, tree, root: tree.root, syntaxErrors, duplicateKeys: [], commentKeys: [] };
  if (approximate) parsed.approximate = true;
  return { parsed, splice: { container: c, from, to, added } };

  function encloses(i: number): boolean {
    const k = t.type(i);
    if (k !== OBJECT && k !== ARRAY) return false;
    const closeAt = t.end[i] - 1;
    const closer = t.text.charCodeAt(closeAt);
    return t.start[i] < lo && hiOld <= closeAt && closer === (k === OBJECT ? 125 : 93);
  }
}

/** Adds one change (offsets in the current text before the change) to the region since the parsed version. */
export function extendRegion(
  region: EditedRegion | undefined,
  start: number,
  end: number,
  insertedLength: number,
): EditedRegion {
  if (!region) return { lo: start, hiOld: end, hiNew: start + insertedLength };
  const lo = Math.min(region.lo, start);
  // The part of [start, end) beyond the region is old text, identical to the parsed version (shifted).
  const hiOld = end > region.hiNew ? region.hiOld + (end - region.hiNew) : region.hiOld;
  const hiNew = Math.max(region.hiNew, end) + insertedLength - (end - start);
  return { lo, hiOld, hiNew };
}
