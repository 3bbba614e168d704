// A faster way to the same result as the string substitution in template-vars.ts: the template is compiled
// into a tree whose variable-free parts are shared (read-only) and whose variable parts are filled directly,
// without serialising and re-parsing JSON per combination. It is only used when it provably gives what the
// string path gives; anything unusual (a variable in a key, a `"` or `\` in a value, a match spanning two
// strings, a URL inside a jq object) makes fill return undefined and the caller takes the string path.
import { bracketIpv6Urls } from './ipv6-url';
import { Json } from './template-view';
import { isObject } from '../../../../common/json';

export type TreeNode =
  | { k: 0; v: Json } // constant, shared between combinations
  | { k: 1; v: number } // a whole string that is one variable: the value with its JSON type
  | { k: 2; parts: (string | number)[] } // decoded literal text and variable indices
  | { k: 3; items: TreeNode[] }
  | { k: 4; keys: string[]; vals: TreeNode[] };

const LEAF_VAR_RE = /\{%\s+(.+?)\s+%\}/g;
// eslint-disable-next-line no-control-regex -- JSON strings must escape U+0000–U+001F
const UNSAFE_CHAR = /["\\\u0000-\u001f]/;

/**
 * `index` maps variable names (as the string path names them) to their index; `wholeMatches` is how many
 * matches the string path found in the whole serialised template. Returns undefined when the tree cannot be exact.
 */
export function compileTree(value: Json, index: Map<string, number>, wholeMatches: number): TreeNode | undefined {
  let count = 0;
  let exact = true;
  const build = (v: Json): TreeNode => {
    if (typeof v === 'string') {
      const ser = JSON.stringify(v);
      const inner = ser.slice(1, -1);
      const parts: (string | number)[] = [];
      let last = 0;
      for (const m of inner.matchAll(LEAF_VAR_RE)) {
        const i = index.get(m[1]);
        if (i === undefined) exact = false;
        count++;
        const start = m.index ?? 0;
        parts.push(decode(inner.slice(last, start)), i ?? -1);
        last = start + m[0].length;
      }
      if (!parts.length) return { k: 0, v: v.includes('://') ? bracketIpv6Urls(v) : v };
      parts.push(decode(inner.slice(last)));
      if (parts.length === 3 && parts[0] === '' && parts[2] === '') return { k: 1, v: parts[1] as number };
      return { k: 2, parts };
    }
    if (Array.isArray(v)) {
      const items = v.map(build);
      return items.every((n) => n.k === 0) ? { k: 0, v: items.map((n) => n.v) } : { k: 3, items };
    }
    if (isObject(v)) {
      const keys = Object.keys(v);
      if (keys.some((k) => k.includes('{%') || k.includes('://'))) exact = false;
      const vals = keys.map((k) => build(v[k]));
      return vals.every((n) => n.k === 0) ? { k: 0, v: constantCopy(v, keys, vals) } : { k: 4, keys, vals };
    }
    return { k: 0, v };
  };
  const root = build(value);
  return exact && count === wholeMatches ? root : undefined;
}

function decode(escaped: string): string {
  return escaped.includes('\\') ? (JSON.parse(`"${escaped}"`) as string) : escaped;
}

/** The constant object with its (bracketed) leaves, so shared constants match the string path's output. */
function constantCopy(v: { [k: string]: Json }, keys: string[], vals: TreeNode[]): Json {
  const out: { [k: string]: Json } = {};
  keys.forEach((k, i) => (out[k] = (vals[i] as { k: 0; v: Json }).v));
  return out;
}

const UNSAFE = Symbol('unsafe');

// Module-level state instead of closures: fill runs for every template of every combination.
let fillUnsafe = false;
/** Per variable of the current fill: its embedded text, computed once (a long string may use it 60,000 times). */
const embedded: (string | typeof UNSAFE | undefined)[] = [];

/** Fill the tree with the raw variable values; undefined when the string path must decide. */
export function fillTree(root: TreeNode, raws: string[]): Json | undefined {
  fillUnsafe = false;
  for (let v = 0; v < raws.length; v++) embedded[v] = undefined;
  const result = fillNode(root, raws);
  return fillUnsafe ? undefined : result;
}

function fillNode(n: TreeNode, raws: string[]): Json {
  switch (n.k) {
    case 0:
      return n.v;
    case 1: {
      const v = standaloneValue(raws[n.v]);
      if (v === UNSAFE) {
        fillUnsafe = true;
        return null;
      }
      return v;
    }
    case 2: {
      let out = '';
      for (const p of n.parts) {
        if (typeof p === 'string') {
          out += p;
          continue;
        }
        const t = (embedded[p] ??= embeddedText(raws[p]));
        if (t === UNSAFE) {
          fillUnsafe = true;
          return null;
        }
        out += t;
      }
      return out.includes('://') ? bracketIpv6Urls(out) : out;
    }
    case 3: {
      const out: Json[] = new Array<Json>(n.items.length);
      for (let i = 0; i < n.items.length; i++) out[i] = fillNode(n.items[i], raws);
      return out;
    }
    case 4: {
      const out: { [k: string]: Json } = {};
      for (let i = 0; i < n.keys.length; i++) out[n.keys[i]] = fillNode(n.vals[i], raws);
      return out;
    }
  }
}

/** The text an embedded use splices in (one leading and one trailing quote removed), if it needs no escaping. */
function embeddedText(raw: string): string | typeof UNSAFE {
  const s = raw.charCodeAt(0) === 34 ? 1 : 0;
  const e = raw.length > s && raw.charCodeAt(raw.length - 1) === 34 ? raw.length - 1 : raw.length;
  const text = s === 0 && e === raw.length ? raw : raw.slice(s, e);
  return UNSAFE_CHAR.test(text) ? UNSAFE : text;
}

function standaloneValue(raw: string): Json | typeof UNSAFE {
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  if (raw.length >= 2 && raw.charCodeAt(0) === 34 && raw.charCodeAt(raw.length - 1) === 34) {
    const inner = raw.slice(1, -1);
    if (!UNSAFE_CHAR.test(inner)) return inner.includes('://') ? bracketIpv6Urls(inner) : inner;
  }
  // jq results and anything else: what JSON.parse makes of the raw text, unless it could hold a URL to bracket.
  if (raw.includes('://')) return UNSAFE;
  try {
    return JSON.parse(raw) as Json;
  } catch {
    return UNSAFE;
  }
}
