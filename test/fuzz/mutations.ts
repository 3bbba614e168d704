// Mutations of real templates, aimed at the input the issue names: byte flips, truncation, swapped JSON types,
// very long strings, deep nesting, unicode, `{% %}` junk, hostile jq and hostile includes. Each returns new text.
import type { Random } from './random';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** jq that must stay contained: memory, time, output, escapes of wrappers, modules, the environment, stdin. */
export const HOSTILE_JQ = [
  '[range(1e9)] | length',
  'last(range(1e13))',
  '[repeat(.)] | length',
  'range(1e9)',
  '0)] else (last(range(1e13))) end, if false then [(0',
  '0)] catch ([range(1e9)]), ([(0',
  'import "x" as $x {search: "/etc"}; $x',
  'include "m" {search: "/tmp"}; f',
  '"x" | modulemeta',
  '$ENV | tostring',
  'env | keys | tostring',
  'input',
  '[inputs]',
  '"EVALUATED" | halt_error',
  'halt',
  '. as $x | $x | $x | tostring * 1000000',
  '("a" * 100000) * 1000',
  '$__loc__ | tostring',
  'def f: f; f',
  'def f: [f]; f',
  '.addresses[0]._meta."display-name" # \\',
  '"\\(1 + "\\(2 + "\\(3)")")"',
  '@base64d',
  'splits("(a+)+$")',
  'test("(a|aa)*c")',
];

/** Include entries that must be refused or fail cleanly, never hang or read what they must not. */
export const HOSTILE_INCLUDES = [
  '/proc/self/environ',
  '/dev/zero',
  '/dev/urandom',
  '/etc',
  '/nonexistent/x.json',
  'file:///etc/passwd',
  'http://127.0.0.1:1/x.json',
  'https://127.0.0.1:1/x.json',
  'ftp://example.net/x.json',
  '../../../../../../etc/hostname',
  'x'.repeat(5000),
  '',
  '\u0000',
];

const UNICODE = [
  '\u0000',
  '\u202e',
  '\u200b',
  '\ud800',
  '\udfff',
  '\uffff',
  '\ufeff',
  'é',
  '𝄞',
  '\u0301',
  '\r',
  '\u2028',
];
const JUNK = [
  '{%',
  '%}',
  '{% %}',
  '{%%}',
  '{% address[99999999999] %}',
  '{% address[-1] %}',
  '{% jq %}',
  '{% flip',
  '%}{%',
  '{% {% x %} %}',
  '{% localhost %}',
  '{% scheduled_by_address %}',
];

function walk(
  v: Json,
  visit: (holder: Json[] | { [k: string]: Json }, key: string | number, value: Json) => void,
): void {
  // Iterative: mutated inputs may already be deep.
  const stack: Json[] = [v];
  let budget = 20_000;
  while (stack.length && budget-- > 0) {
    const cur = stack.pop() as Json;
    if (Array.isArray(cur)) cur.forEach((x, i) => (visit(cur, i, x), stack.push(x)));
    else if (cur && typeof cur === 'object')
      for (const [k, x] of Object.entries(cur)) {
        visit(cur, k, x);
        stack.push(x);
      }
  }
}

function slots(v: Json): { holder: Json[] | { [k: string]: Json }; key: string | number; value: Json }[] {
  const out: { holder: Json[] | { [k: string]: Json }; key: string | number; value: Json }[] = [];
  walk(v, (holder, key, value) => out.push({ holder, key, value }));
  return out;
}

function set(holder: Json[] | { [k: string]: Json }, key: string | number, value: Json): void {
  (holder as Record<string | number, Json>)[key] = value;
}

function structural(r: Random, text: string, change: (v: Json, r: Random) => void): string {
  let v: Json;
  try {
    v = JSON.parse(text) as Json;
  } catch {
    return text; // already broken: structural mutations need JSON
  }
  change(v, r);
  try {
    return JSON.stringify(v, null, r.chance(0.5) ? 2 : undefined);
  } catch {
    return text; // nested past V8's own stack (an earlier deep-nesting mutation): left as it was
  }
}

function nested(depth: number, r: Random): string {
  const o = r.chance(0.5);
  return `${(o ? '{"a":' : '[').repeat(depth)}1${(o ? '}' : ']').repeat(depth)}`;
}

export type Mutation = (text: string, r: Random) => string;

export const MUTATIONS: Record<string, Mutation> = {
  'byte flips': (text, r) => {
    const chars = [...text];
    for (let i = 0, n = 1 + r.int(8); i < n && chars.length; i++) {
      const at = r.int(chars.length);
      chars[at] = String.fromCharCode((chars[at].charCodeAt(0) ^ (1 << r.int(7))) & 0xffff);
    }
    return chars.join('');
  },
  truncation: (text, r) => text.slice(0, r.int(text.length + 1)),
  'swapped types': (text, r) =>
    structural(r, text, (v) => {
      const all = slots(v);
      for (let i = 0, n = 1 + r.int(4); i < n && all.length; i++) {
        const s = r.pick(all);
        set(s.holder, s.key, r.pick<Json>([null, true, 0, -1, 1.5, 1e308, '', 'x', [], {}, [s.value], { x: s.value }]));
      }
    }),
  'very long strings': (text, r) =>
    structural(r, text, (v) => {
      const all = slots(v).filter((s) => typeof s.value === 'string' || !Array.isArray(s.holder));
      if (!all.length) return;
      const s = r.pick(all);
      const long = r.pick(['a', 'ab`', '{% address[0] %}', '\\', '"']).repeat(1000 + r.int(60_000));
      if (r.chance(0.5) || Array.isArray(s.holder)) set(s.holder, s.key, long);
      else {
        // A long key: a long name to resolve and suggest for.
        (s.holder as Record<string, Json>)[long] = s.value;
      }
    }),
  'deep nesting': (text, r) => {
    const depth = r.pick([200, 499, 501, 999, 1001, 3000, 10_000, 12_000]);
    const at = text.lastIndexOf('}');
    if (at < 0) return nested(depth, r);
    return `${text.slice(0, at)}${text.slice(0, at).trimEnd().endsWith('{') ? '' : ','} "deep": ${nested(depth, r)}}`;
  },
  unicode: (text, r) => {
    const chars = [...text];
    for (let i = 0, n = 1 + r.int(6); i < n; i++) chars.splice(r.int(chars.length + 1), 0, r.pick(UNICODE));
    return chars.join('');
  },
  '{% %} junk': (text, r) =>
    structural(r, text, (v) => {
      const strings = slots(v).filter((s) => typeof s.value === 'string');
      if (!strings.length) return;
      const s = r.pick(strings);
      set(s.holder, s.key, `${s.value as string}${r.pick(JUNK)}${r.chance(0.3) ? r.pick(JUNK) : ''}`);
    }),
  'hostile jq': (text, r) =>
    structural(r, text, (v) => {
      const strings = slots(v).filter((s) => typeof s.value === 'string');
      const jq = r.pick(HOSTILE_JQ);
      if (strings.length && r.chance(0.7)) {
        const s = r.pick(strings);
        set(s.holder, s.key, `{% jq ${jq} %}`);
      }
      // Also as an address-class filter or an archive transform, when the template has those sections.
      if (v && typeof v === 'object' && !Array.isArray(v)) {
        const classes = (v['address-classes'] ??= {}) as Record<string, Json>;
        if (r.chance(0.3) && typeof classes === 'object')
          classes[`fuzz-${r.int(100)}`] = {
            'data-source': { type: 'current-config' },
            'match-filter': { type: 'jq', jq: { script: jq } },
          };
      }
    }),
  'hostile includes': (text, r) =>
    structural(r, text, (v) => {
      if (!v || typeof v !== 'object' || Array.isArray(v)) return;
      v.includes = Array.from({ length: 1 + r.int(3) }, () => r.pick(HOSTILE_INCLUDES));
    }),
};

export const MUTATION_NAMES = Object.keys(MUTATIONS);

/**
 * Mutations that make a template big in one dimension (the memory bench, bench/memory.bench.ts, adds them to
 * MUTATIONS; the fuzzer does not, so its seeds keep giving the inputs its recorded runs saw).
 */
export const SIZE_MUTATIONS: Record<string, Mutation> = {
  'many keys': (text, r) =>
    structural(r, text, (v) => {
      const objects = slots(v).filter((s) => s.value && typeof s.value === 'object' && !Array.isArray(s.value));
      const o = (objects.length ? r.pick(objects).value : v) as Record<string, Json>;
      if (!o || typeof o !== 'object' || Array.isArray(o)) return;
      const tag = r.int(1e6).toString(36);
      for (let i = 0, n = 500 + r.int(5000); i < n; i++)
        o[`k${tag}-${i}.example.net`] = { address: `10.${i >> 8}.${i & 255}.1` };
    }),
  'big arrays': (text, r) =>
    structural(r, text, (v) => {
      const arrays = slots(v).filter((s) => Array.isArray(s.value) && s.value.length > 0);
      if (!arrays.length) return;
      const s = r.pick(arrays);
      const items = s.value as Json[];
      // The items repeat by reference: at most ~300 KB of their text, or arrays grown inside grown arrays multiply.
      let itemChars: number;
      try {
        itemChars = (JSON.stringify(items)?.length ?? 2) / items.length;
      } catch {
        return; // nested past V8's own stack (an earlier deep-nesting mutation): left as it was
      }
      const length = Math.min(500 + r.int(5000), Math.ceil(300_000 / itemChars));
      set(
        s.holder,
        s.key,
        Array.from({ length }, (_, i) => items[i % items.length]),
      );
    }),
};

/** One fuzz input: 1–3 mutations of a corpus template, picked from `mutations` (default: the fuzzer's). */
export function mutate(
  corpus: readonly string[],
  r: Random,
  mutations: Record<string, Mutation> = MUTATIONS,
): { text: string; applied: string[] } {
  const names = mutations === MUTATIONS ? MUTATION_NAMES : Object.keys(mutations);
  let text = r.pick(corpus);
  const applied: string[] = [];
  for (let i = 0, n = 1 + r.int(3); i < n; i++) {
    const name = r.pick(names);
    applied.push(name);
    text = mutations[name](text, r);
  }
  // Keep an input well inside what the server analyses (2 MB): bigger is its own, documented path.
  if (text.length > 1_500_000) text = text.slice(0, 1_500_000);
  return { text, applied };
}
