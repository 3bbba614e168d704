// Finds `{% ... %}` template variables in a JSON string token, with document ranges.
//
// pSConfig scans the JSON-serialised object with `{%\s+(.+?)\s+%}` (base_template.py), i.e. it sees the escaped
// text. We scan the token's raw (escaped) text too, so offsets map 1:1 onto the document and a jq expression's
// `\"` is un-escaped exactly as pSConfig does before running jq. `{%x%}` without the required whitespace is
// reported as `malformed` (pSConfig leaves it as literal text).
import type { JsonNode } from './parse';
import { INDEXED_VARIABLES, VARIABLES, type VariableKind } from './variable-table';

export type { VariableKind } from './variable-table';

export interface TemplateVariable {
  kind: VariableKind;
  /** No whitespace after `{%` or before `%}`: pSConfig does not expand it. */
  malformed: boolean;
  /** Inner text, trimmed, as written in the document (escaped), e.g. `address[0]`, `jq .test.type`. */
  text: string;
  /** Whole `{% ... %}` (document offsets, end exclusive). */
  start: number;
  end: number;
  /** The variable name (`address`, `jq`, `flip`; for unknown ones the whole inner text). */
  nameStart: number;
  nameEnd: number;
  /** Index of indexed variables and the range of its digits. */
  index?: number;
  indexStart?: number;
  indexEnd?: number;
  /** jq script as jq receives it (`\"` un-escaped, as pSConfig does) and its raw range. */
  expression?: string;
  exprStart?: number;
  exprEnd?: number;
  /** The variable is the whole JSON string (`"{% flip %}"`): its expansion replaces the string, quotes included. */
  standalone: boolean;
}

/** Names written as they are (no index, no script). */
const PLAIN_NAMES = new Set<string>(VARIABLES.filter((v) => !v.indexed && v.name !== 'jq').map((v) => v.name));

/** The characters of JavaScript's `\s` (String.prototype.trim trims the same set). */
function isSpace(c: number): boolean {
  return (
    c === 32 ||
    (c >= 9 && c <= 13) ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

function isLineBreak(c: number): boolean {
  return c === 10 || c === 13 || c === 0x2028 || c === 0x2029;
}

// Scratch lists of one scan (scans are synchronous and never nested): most strings hold one or two variables, and
// a large template has thousands of such strings.
const closers: number[] = [];
const covered: number[] = [];

/**
 * Scans raw (escaped) string-token text; `base` is the document offset of raw[0].
 *
 * Same matches as pSConfig's `re.findall('{%\s+(.+?)\s+%}')`, found without a backtracking regex so that hostile
 * text (a megabyte of `{% {% {%`) stays linear: a match from `{%` + whitespace ends at the first `%}` that has
 * whitespace before it and at least one character in between.
 */
export function scanVariables(raw: string, base = 0): TemplateVariable[] {
  return scanRange(raw, 0, raw.length, base);
}

/** Scans a string node of the document (in place: no copy of the string). */
export function scanStringNode(text: string, node: JsonNode): TemplateVariable[] {
  if (node.type !== 'string') return [];
  return scanString(text, node.offset, node.offset + node.length);
}

/** Scans the string token text[start, end) (quotes included). */
export function scanString(text: string, start: number, end: number): TemplateVariable[] {
  return end - start < 2 ? [] : scanRange(text, start + 1, end - 1, 0);
}

/** The first `{%` or `%}` (`what`) at or after `at` ending by `to`, else -1. A loop bounded by `to`: indexOf would
 *  search on past the string, up to the document's next match (the whole rest of a large template). */
function findIn(src: string, what: string, at: number, to: number): number {
  const a = what.charCodeAt(0);
  const b = what.charCodeAt(1);
  for (let k = at; k + 1 < to; k++) if (src.charCodeAt(k) === a && src.charCodeAt(k + 1) === b) return k;
  return -1;
}

/** scanVariables on src[from, to); offsets in the result are src offsets plus `shift`. No closures: a function
 *  that makes one allocates its context on every call, and this runs on every string holding `{%`. */
function scanRange(src: string, from: number, to: number, shift: number): TemplateVariable[] {
  let i = findIn(src, '{%', from, to);
  if (i < 0) return [];
  // The scratch lists are filled from 0 with counts of their own (setting `length = 0` costs more than a scan).
  let nClosers = 0; // positions of `%}` preceded by whitespace
  for (let k = findIn(src, '%}', from, to); k >= 0; k = findIn(src, '%}', k + 1, to))
    if (k > from && isSpace(src.charCodeAt(k - 1))) closers[nClosers++] = k;
  let nCovered = 0; // start/end pairs of well-formed matches, ascending
  let out: TemplateVariable[] | undefined; // made on the first variable: most strings hold one (no spare room)
  let ci = 0;
  while (i >= 0 && ci < nClosers) {
    if (i + 2 < to && isSpace(src.charCodeAt(i + 2))) {
      while (ci < nClosers && closers[ci] < i + 5) ci++;
      if (ci >= nClosers) break;
      const k = closers[ci];
      let a = i + 2;
      let b = k;
      let lineBreak = false;
      for (let q = a; q < b; q++) if (isLineBreak(src.charCodeAt(q))) lineBreak = true;
      while (a < b && isSpace(src.charCodeAt(a))) a++;
      while (b > a && isSpace(src.charCodeAt(b - 1))) b--;
      if (a < b && !lineBreak) {
        const end = k + 2;
        const v = classify(src.slice(a, b), a + shift, i + shift, end + shift, false, i === from && end === to);
        if (out) out.push(v);
        else out = [v];
        covered[nCovered++] = i;
        covered[nCovered++] = end;
        i = findIn(src, '{%', end, to);
        continue;
      }
    }
    i = findIn(src, '{%', i + 1, to);
  }
  // `{%…%}` that is not a variable for pSConfig (no whitespace inside): report it as malformed
  let c = 0;
  for (let st = findIn(src, '{%', from, to); st >= 0;) {
    const k = findIn(src, '%}', st + 2, to);
    if (k < 0) break;
    const e = k + 2;
    while (c < nCovered && covered[c + 1] <= st) c += 2;
    if (c < nCovered && covered[c] < e) {
      st = findIn(src, '{%', covered[c + 1], to);
      continue;
    }
    let a = st + 2;
    let b = k;
    while (a < b && isSpace(src.charCodeAt(a))) a++;
    while (b > a && isSpace(src.charCodeAt(b - 1))) b--;
    const v = classify(src.slice(a, b), a + shift, st + shift, e + shift, true, false);
    if (out) out.push(v);
    else out = [v];
    st = findIn(src, '{%', e, to);
  }
  if (!out) return [];
  if (out.length > 1) out.sort((x, y) => x.start - y.start);
  return out;
}

/** The indexed names, read once (a transpiled module reads an imported binding through a getter on each use). */
const INDEXED: readonly VariableKind[] = INDEXED_VARIABLES;

/** `name[digits]` for an indexed variable name: that name, or undefined. */
function indexedName(text: string): VariableKind | undefined {
  if (text.charCodeAt(text.length - 1) !== 93) return undefined; // ]
  for (const name of INDEXED) {
    const n = name.length;
    if (text.length < n + 3 || text.charCodeAt(n) !== 91 || !text.startsWith(name)) continue; // [
    for (let q = n + 1; q < text.length - 1; q++) {
      const d = text.charCodeAt(q);
      if (d < 48 || d > 57) return undefined;
    }
    return name;
  }
  return undefined;
}

function classify(
  text: string,
  at: number,
  start: number,
  end: number,
  malformed: boolean,
  standalone: boolean,
): TemplateVariable {
  // Every field written, in one order: thousands of these per template share one shape.
  const v: TemplateVariable = {
    kind: 'unknown',
    malformed,
    text,
    start,
    end,
    nameStart: at,
    nameEnd: at + text.length,
    index: undefined,
    indexStart: undefined,
    indexEnd: undefined,
    expression: undefined,
    exprStart: undefined,
    exprEnd: undefined,
    standalone,
  };
  const name = indexedName(text);
  if (name !== undefined) {
    const n = name.length;
    v.kind = name;
    v.nameEnd = at + n;
    let index = 0;
    for (let q = n + 1; q < text.length - 1; q++) index = index * 10 + text.charCodeAt(q) - 48;
    v.index = index;
    v.indexStart = at + n + 1;
    v.indexEnd = at + text.length - 1;
  } else if (PLAIN_NAMES.has(text)) {
    v.kind = text as VariableKind;
  } else if (text.startsWith('jq') && text.length > 3 && text[2] === ' ') {
    // pSConfig: re.match(r'^jq (.+)$') on the stripped name
    v.kind = 'jq';
    v.nameEnd = at + 2;
    const rawExpr = text.slice(3);
    v.exprStart = at + 3;
    v.exprEnd = at + text.length;
    v.expression = rawExpr.includes('\\"') ? rawExpr.replaceAll('\\"', '"') : rawExpr;
  } else if (text.startsWith('jq') && text.length > 2 && isSpace(text.charCodeAt(2))) {
    // `jq\t.x`: pSConfig wants exactly one space after jq
    v.kind = 'unknown';
  }
  return v;
}

/** How a standalone variable's expansion is typed in pSConfig 5.x (for hovers and checks). */
export function standaloneType(kind: VariableKind): 'string' | 'boolean' | 'invalid' {
  if (kind === 'flip') return 'boolean';
  if (kind === 'localhost') return 'invalid';
  return 'string';
}
