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

const INDEXED = new RegExp(`^(${INDEXED_VARIABLES.join('|')})\\[(\\d+)\\]$`);
const WS = /\s/;
/** Names written as they are (no index, no script). */
const PLAIN_NAMES = new Set<string>(VARIABLES.filter((v) => !v.indexed && v.name !== 'jq').map((v) => v.name));

/**
 * Scans raw (escaped) string-token text; `base` is the document offset of raw[0].
 *
 * Same matches as pSConfig's `re.findall('{%\s+(.+?)\s+%}')`, found without a backtracking regex so that hostile
 * text (a megabyte of `{% {% {%`) stays linear: a match from `{%` + whitespace ends at the first `%}` that has
 * whitespace before it and at least one character in between.
 */
export function scanVariables(raw: string, base = 0): TemplateVariable[] {
  let i = raw.indexOf('{%');
  if (i < 0) return [];
  const closers: number[] = []; // positions of `%}` preceded by whitespace
  for (let k = raw.indexOf('%}'); k >= 0; k = raw.indexOf('%}', k + 1))
    if (k > 0 && WS.test(raw[k - 1])) closers.push(k);
  const out: TemplateVariable[] = [];
  const covered: number[] = []; // start/end pairs of well-formed matches, ascending
  let ci = 0;
  while (i >= 0 && ci < closers.length) {
    if (WS.test(raw[i + 2] ?? '')) {
      while (ci < closers.length && closers[ci] < i + 5) ci++;
      if (ci >= closers.length) break;
      const k = closers[ci];
      const inner = raw.slice(i + 2, k);
      const text = inner.trim();
      if (text && !/[\n\r\u2028\u2029]/.test(inner)) {
        const end = k + 2;
        const gStart = i + 2 + (inner.length - inner.trimStart().length);
        out.push(classify(text, base + gStart, base + i, base + end, false, i === 0 && end === raw.length));
        covered.push(i, end);
        i = raw.indexOf('{%', end);
        continue;
      }
    }
    i = raw.indexOf('{%', i + 1);
  }
  // `{%…%}` that is not a variable for pSConfig (no whitespace inside): report it as malformed
  let c = 0;
  for (let s = raw.indexOf('{%'); s >= 0;) {
    const k = raw.indexOf('%}', s + 2);
    if (k < 0) break;
    const e = k + 2;
    while (c < covered.length && covered[c + 1] <= s) c += 2;
    if (c < covered.length && covered[c] < e) {
      s = raw.indexOf('{%', covered[c + 1]);
      continue;
    }
    const inner = raw.slice(s + 2, k);
    const lead = inner.length - inner.trimStart().length;
    out.push(classify(inner.trim(), base + s + 2 + lead, base + s, base + e, true, false));
    s = raw.indexOf('{%', e);
  }
  if (out.length > 1) out.sort((a, b) => a.start - b.start);
  return out;
}

/** Scans a string node of the document. */
export function scanStringNode(text: string, node: JsonNode): TemplateVariable[] {
  if (node.type !== 'string' || node.length < 2) return [];
  return scanVariables(text.slice(node.offset + 1, node.offset + node.length - 1), node.offset + 1);
}

function classify(
  text: string,
  at: number,
  start: number,
  end: number,
  malformed: boolean,
  standalone: boolean,
): TemplateVariable {
  const v: TemplateVariable = {
    kind: 'unknown',
    malformed,
    text,
    start,
    end,
    nameStart: at,
    nameEnd: at + text.length,
    standalone,
  };
  const idx = INDEXED.exec(text);
  if (idx) {
    v.kind = idx[1] as VariableKind;
    v.nameEnd = at + idx[1].length;
    v.index = Number(idx[2]);
    v.indexStart = v.nameEnd + 1;
    v.indexEnd = v.indexStart + idx[2].length;
  } else if (PLAIN_NAMES.has(text)) {
    v.kind = text as VariableKind;
  } else if (text.startsWith('jq') && text.length > 3 && text[2] === ' ') {
    // pSConfig: re.match(r'^jq (.+)$') on the stripped name
    v.kind = 'jq';
    v.nameEnd = at + 2;
    const rawExpr = text.slice(3);
    v.exprStart = at + 3;
    v.exprEnd = at + text.length;
    v.expression = rawExpr.replace(/\\"/g, '"');
  } else if (text.startsWith('jq') && text.length > 2 && WS.test(text[2])) {
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
