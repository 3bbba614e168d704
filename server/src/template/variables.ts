// Finds `{% ... %}` template variables in a JSON string token, with document ranges.
//
// pSConfig scans the JSON-serialised object with `{%\s+(.+?)\s+%}` (base_template.py), i.e. it sees the escaped
// text. We scan the token's raw (escaped) text too, so offsets map 1:1 onto the document and a jq expression's
// `\"` is un-escaped exactly as pSConfig does before running jq. `{%x%}` without the required whitespace is
// reported as `malformed` (pSConfig leaves it as literal text).
import type { JsonNode } from './parse';

export type VariableKind =
  | 'address'
  | 'pscheduler_address'
  | 'lead_bind_address'
  | 'scheduled_by_address'
  | 'flip'
  | 'localhost'
  | 'jq'
  | 'unknown';

/** The variable names pSConfig knows, as written (indexed ones with `[N]`). */
export const VARIABLE_NAMES = ['address', 'pscheduler_address', 'lead_bind_address', 'scheduled_by_address', 'flip', 'localhost', 'jq'] as const;
export const INDEXED_VARIABLES: readonly VariableKind[] = ['address', 'pscheduler_address', 'lead_bind_address'];

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

const VARIABLE = /\{%\s+(.+?)\s+%\}/g;
const LOOSE = /\{%(.*?)%\}/g;
const INDEXED = /^(address|pscheduler_address|lead_bind_address)\[(\d+)\]$/;
const WS = /\s/;

/** Scans raw (escaped) string-token text; `base` is the document offset of raw[0]. */
export function scanVariables(raw: string, base = 0): TemplateVariable[] {
  if (!raw.includes('{%')) return [];
  const out: TemplateVariable[] = [];
  const covered: [number, number][] = [];
  VARIABLE.lastIndex = 0;
  for (let m = VARIABLE.exec(raw); m; m = VARIABLE.exec(raw)) {
    const group = m[1];
    const lead = group.length - group.trimStart().length;
    const gStart = m.index + m[0].indexOf(group, 2) + lead;
    const text = group.trim();
    const end = m.index + m[0].length;
    covered.push([m.index, end]);
    out.push(classify(text, base + gStart, base + m.index, base + end, false, m.index === 0 && end === raw.length));
  }
  LOOSE.lastIndex = 0;
  for (let m = LOOSE.exec(raw); m; m = LOOSE.exec(raw)) {
    const s = m.index;
    const e = s + m[0].length;
    if (covered.some(([a, b]) => s < b && e > a)) continue;
    const inner = m[1];
    const lead = inner.length - inner.trimStart().length;
    const v = classify(inner.trim(), base + s + 2 + lead, base + s, base + e, true, false);
    out.push(v);
  }
  if (out.length > 1) out.sort((a, b) => a.start - b.start);
  return out;
}

/** Scans a string node of the document. */
export function scanStringNode(text: string, node: JsonNode): TemplateVariable[] {
  if (node.type !== 'string' || node.length < 2) return [];
  return scanVariables(text.slice(node.offset + 1, node.offset + node.length - 1), node.offset + 1);
}

function classify(text: string, at: number, start: number, end: number, malformed: boolean, standalone: boolean): TemplateVariable {
  const v: TemplateVariable = { kind: 'unknown', malformed, text, start, end, nameStart: at, nameEnd: at + text.length, standalone };
  const idx = INDEXED.exec(text);
  if (idx) {
    v.kind = idx[1] as VariableKind;
    v.nameEnd = at + idx[1].length;
    v.index = Number(idx[2]);
    v.indexStart = v.nameEnd + 1;
    v.indexEnd = v.indexStart + idx[2].length;
  } else if (text === 'scheduled_by_address' || text === 'flip' || text === 'localhost') {
    v.kind = text;
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
