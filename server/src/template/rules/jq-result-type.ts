// What a jq script certainly returns, read from its text alone (no jq run): only the last top-level pipe stage is
// looked at, and anything not obvious is `undefined`. Used to warn about pSConfig 5.x's `{% jq %}` expansion,
// which wraps the result in quotes and fails on numbers, booleans, objects and arrays (psconfig.md §2.2).

export type JqResultType = 'string' | 'number' | 'boolean' | 'object' | 'array' | 'null';

const NUMBER_FNS = new Set([
  'length',
  'utf8bytelength',
  'tonumber',
  'floor',
  'ceil',
  'round',
  'sqrt',
  'fabs',
  'now',
  'mktime',
]);
const BOOLEAN_FNS = new Set([
  'not',
  'test',
  'startswith',
  'endswith',
  'contains',
  'inside',
  'has',
  'in',
  'any',
  'all',
  'isnan',
  'isinfinite',
  'isnormal',
]);
const ARRAY_FNS = new Set([
  'keys',
  'keys_unsorted',
  'to_entries',
  'map',
  'sort',
  'sort_by',
  'group_by',
  'unique',
  'unique_by',
  'split',
  'flatten',
  'splits_array',
  'indices',
]);
const OBJECT_FNS = new Set(['from_entries', 'with_entries', 'map_values']);
const STRING_FNS = new Set([
  'tostring',
  'tojson',
  'ascii_downcase',
  'ascii_upcase',
  'ltrimstr',
  'rtrimstr',
  'join',
  'type',
  'implode',
  'sub',
  'gsub',
  'todate',
  'strftime',
  'trim',
  'ltrim',
  'rtrim',
]);
/** Control keywords whose result depends on branches or reductions: not classified. */
const OPAQUE =
  /(^|[^\w$.])(if|reduce|foreach|def|try|label|limit|first|last|until|while|recurse|input|inputs|empty|error)([^\w]|$)/;

export function jqResultType(script: string): JqResultType | undefined {
  const last = lastStage(script);
  if (last === undefined) return undefined;
  const s = last.trim();
  if (!s || OPAQUE.test(s)) return undefined;
  if (/^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(s)) return 'number';
  if (s === 'true' || s === 'false') return 'boolean';
  if (s === 'null') return 'null';
  if (s.startsWith('@')) return 'string'; // @base64, @csv, @json, …
  if (wraps(s, '"', '"')) return 'string';
  if (wraps(s, '{', '}')) return 'object';
  if (wraps(s, '[', ']')) return 'array';
  // a comparison or boolean operator at top level gives a boolean
  if (topLevel(s, COMPARISON) || topLevel(s, AND_OR)) return 'boolean';
  const call = /^([a-z_][a-z0-9_]*)\s*(\(.*\))?$/.exec(s);
  if (call) {
    const fn = call[1];
    if (NUMBER_FNS.has(fn)) return 'number';
    if (BOOLEAN_FNS.has(fn)) return 'boolean';
    if (ARRAY_FNS.has(fn)) return 'array';
    if (OBJECT_FNS.has(fn)) return 'object';
    if (STRING_FNS.has(fn)) return 'string';
  }
  return undefined;
}

/** The text after the last `|` outside brackets and string literals; undefined for `,` streams or `|=` updates. */
function lastStage(script: string): string | undefined {
  let depth = 0;
  let start = 0;
  for (let i = 0; i < script.length; i++) {
    const c = script[i];
    if (c === '"') {
      i = endOfString(script, i);
      if (i < 0) return undefined;
    } else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (depth === 0 && c === ',') return undefined;
    else if (depth === 0 && c === '|') {
      if (script[i + 1] === '=') return undefined;
      start = i + 1;
    }
  }
  return depth === 0 ? script.slice(start) : undefined;
}

/** Index of the closing quote of the string literal opening at `open` (-1 if unterminated). */
function endOfString(s: string, open: number): number {
  for (let i = open + 1; i < s.length; i++) {
    if (s[i] === '\\') i++;
    else if (s[i] === '"') return i;
  }
  return -1;
}

/** `s` is one bracketed (or quoted) term from its first to its last character. */
function wraps(s: string, open: string, close: string): boolean {
  if (s[0] !== open || s[s.length - 1] !== close) return false;
  if (open === '"') return endOfString(s, 0) === s.length - 1;
  let depth = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '"') i = endOfString(s, i);
    else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      depth--;
      if (depth === 0 && i < s.length - 1) return false;
    }
    if (i < 0) return false;
  }
  return true;
}

const COMPARISON = /==|!=|<=|>=|<|>/y;
const AND_OR = /\s(and|or)\s/y;

/** An operator matching the sticky regexp `op` starts outside brackets and string literals. */
function topLevel(s: string, op: RegExp): boolean {
  let depth = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '"') {
      i = endOfString(s, i);
      if (i < 0) return false;
    } else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (depth === 0) {
      op.lastIndex = i;
      if (op.test(s)) return true;
    }
  }
  return false;
}
