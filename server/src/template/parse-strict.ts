// Strict JSON (RFC 8259) parser for the fast path: a hand-written scanner writing the compact tree (tree.ts) with
// offsets, noting comment keys and duplicate keys as it goes. Allocates almost nothing per node: no node objects,
// short strings shared through the tree's string table. Throws StrictSyntaxError at the first problem; parse.ts
// then falls back to the recovering parser.
import { MAX_NESTING } from './nesting';
import { KEEP_ALIVE, NODE, Tree } from './tree';
import { ownString } from './own-string';

const { ARRAY, BOOLEAN, COMMENT, ESCAPED, NULL, NUMBER, OBJECT, PROPERTY, STRING, TRUE } = NODE;

export class StrictSyntaxError extends Error {}

/** Property indexes of duplicate keys (later, first) and of `#` comment properties, for parse.ts. */
export interface StrictFindings {
  duplicates: [later: number, first: number][];
  comments: number[];
}

/** Strict JSON (RFC 8259) recursive-descent parser; throws StrictSyntaxError on the first problem. */
export class StrictParser {
  private pos = 0;
  private depth = 0;
  readonly tree: Tree;
  readonly findings: StrictFindings = { duplicates: [], comments: [] };
  /** Keys of the open objects (with their property indexes), for duplicate detection: a stack of `nKeys` entries
   *  (written by index; resetting an array's length on every closing brace cost more than the check). */
  private readonly keys: string[] = [];
  private readonly keyProps: number[] = [];
  private nKeys = 0;
  /** Hash slot → index in tree.strings. */
  private readonly interned = new Int32Array(INTERN_SLOTS).fill(-1);

  constructor(private readonly text: string) {
    // About one node per 11 characters in pretty-printed templates.
    this.tree = new Tree(text, Math.max(64, (text.length / 8) | 0));
  }

  parseDocument(): Tree {
    this.pos = skipWs(this.text, this.pos);
    this.value(-1);
    this.pos = skipWs(this.text, this.pos);
    if (this.pos !== this.text.length) this.fail();
    return this.tree;
  }

  private fail(): never {
    throw new StrictSyntaxError();
  }

  private value(parent: number): number {
    const t = this.text;
    const c = t.charCodeAt(this.pos);
    if (c === 34) return this.string(parent);
    if (c === 123) return this.object(parent);
    if (c === 91) return this.array(parent);
    if (c === 45 || (c >= 48 && c <= 57)) return this.number(parent);
    if (t.startsWith('true', this.pos)) return this.literal(parent, BOOLEAN | TRUE, 4);
    if (t.startsWith('false', this.pos)) return this.literal(parent, BOOLEAN, 5);
    if (t.startsWith('null', this.pos)) return this.literal(parent, NULL, 4);
    return this.fail();
  }

  private literal(parent: number, kind: number, len: number): number {
    const i = this.tree.leaf(kind, this.pos, this.pos + len, parent);
    this.pos += len;
    return i;
  }

  private string(parent: number): number {
    const t = this.text;
    const start = this.pos;
    let p = start + 1;
    // Short strings (keys, names, enum values: most of them) are scanned and hashed for interning in one pass.
    const short = Math.min(start + 2 + INTERN_MAX, t.length);
    let h = 0;
    for (; p < short; p++) {
      const c = t.charCodeAt(p);
      if (c === 34) {
        this.pos = p + 1;
        const i = this.tree.leaf(STRING, start, p + 1, parent);
        this.tree.aux[i] = this.intern(start + 1, p, (Math.imul(h, 31) + p - start - 1) | 0);
        return i;
      }
      if (c === 92 || c < 32) break;
      h = (Math.imul(h, 31) + c) | 0;
    }
    // Longer or escaped: not interned (aux stays -1, values are decoded from the text when read).
    let escaped = false;
    for (;;) {
      PLAIN.lastIndex = p;
      PLAIN.test(t);
      p = PLAIN.lastIndex;
      const c = t.charCodeAt(p);
      if (c === 34) break;
      if (c === 92) {
        escaped = true;
        p += 2;
        continue;
      }
      this.fail(); // control character or end of text
    }
    this.pos = p + 1;
    const tree = this.tree;
    const i = tree.leaf(escaped ? STRING | ESCAPED : STRING, start, p + 1, parent);
    if (escaped) {
      try {
        JSON.parse(t.slice(start, p + 1));
      } catch {
        return this.fail();
      }
    }
    return i;
  }

  /** Short strings (keys, names, enum values) repeat thousands of times in a large template: one copy each.
   *  `h` is the string's hash, computed while scanning it. */
  private intern(from: number, to: number, h: number): number {
    const t = this.text;
    const slot = h & (INTERN_SLOTS - 1);
    const strings = this.tree.strings;
    const hit = this.interned[slot];
    if (hit >= 0 && sameText(t, from, to, strings[hit])) return hit;
    // The same text in an earlier parse (the previous version, as a rule): its string is reused, already in the old
    // generation, so the collector neither copies it nor a new one per version.
    const earlier = KEPT[slot];
    const str =
      earlier !== undefined && sameText(t, from, to, earlier) ? earlier : (KEPT[slot] = ownString(t.slice(from, to))); // a copy: a slice would keep this whole text alive
    const id = strings.push(str) - 1;
    this.interned[slot] = id;
    return id;
  }

  private number(parent: number): number {
    NUMBER_RE.lastIndex = this.pos;
    if (!NUMBER_RE.test(this.text)) return this.fail();
    const end = NUMBER_RE.lastIndex;
    const i = this.tree.leaf(NUMBER, this.pos, end, parent);
    this.pos = end;
    return i;
  }

  private object(parent: number): number {
    // Deeper than MAX_NESTING: the recovering parser skips that value with one diagnostic.
    if (++this.depth > MAX_NESTING) this.fail();
    const t = this.text;
    const tree = this.tree;
    const keys = this.keys;
    const mark = this.nKeys;
    const node = tree.add(OBJECT, this.pos, parent);
    let seen: Set<string> | undefined;
    this.pos++;
    this.pos = skipWs(this.text, this.pos);
    if (t.charCodeAt(this.pos) !== 125) {
      for (;;) {
        if (t.charCodeAt(this.pos) !== 34) this.fail();
        const prop = tree.add(PROPERTY, this.pos, node);
        const key = this.string(prop);
        const name = tree.str(key);
        this.pos = skipWs(this.text, this.pos);
        if (t.charCodeAt(this.pos) !== 58) this.fail();
        tree.aux[prop] = this.pos++;
        this.pos = skipWs(this.text, this.pos);
        const value = this.value(prop);
        tree.close(prop, tree.end[value]);
        if (name.charCodeAt(0) === 35) {
          tree.kind[prop] |= COMMENT;
          this.findings.comments.push(prop);
        }
        const n = this.nKeys;
        if (n - mark >= 8 && !seen) {
          seen = new Set();
          for (let i = mark; i < n; i++) seen.add(keys[i]);
        }
        if (seen ? seen.has(name) : keyAt(keys, name, mark, n) >= 0)
          this.findings.duplicates.push([prop, this.keyProps[keyAt(keys, name, mark, n)]]);
        seen?.add(name);
        keys[n] = name;
        this.keyProps[n] = prop;
        this.nKeys = n + 1;
        this.pos = skipWs(this.text, this.pos);
        const c = t.charCodeAt(this.pos);
        if (c === 44) {
          this.pos++;
          this.pos = skipWs(this.text, this.pos);
          continue;
        }
        if (c === 125) break;
        this.fail();
      }
    }
    this.nKeys = mark;
    this.pos++;
    tree.close(node, this.pos);
    this.depth--;
    return node;
  }

  private array(parent: number): number {
    if (++this.depth > MAX_NESTING) this.fail();
    const t = this.text;
    const node = this.tree.add(ARRAY, this.pos, parent);
    this.pos++;
    this.pos = skipWs(this.text, this.pos);
    if (t.charCodeAt(this.pos) !== 93) {
      for (;;) {
        this.value(node);
        this.pos = skipWs(this.text, this.pos);
        const c = t.charCodeAt(this.pos);
        if (c === 44) {
          this.pos++;
          this.pos = skipWs(this.text, this.pos);
          continue;
        }
        if (c === 93) break;
        this.fail();
      }
    }
    this.pos++;
    this.tree.close(node, this.pos);
    this.depth--;
    return node;
  }
}

/** The offset of the first non-whitespace character at or after p. Comparisons, commonest first, beat a table
 *  lookup (a third of a pretty-printed template is indentation); a plain function, so V8 inlines it. */
function skipWs(t: string, p: number): number {
  for (;;) {
    const c = t.charCodeAt(p);
    if (c === 32 || c === 10 || c === 13 || c === 9) p++;
    else return p;
  }
}

/** text[from, to) is `s`: compared here, inlined (a startsWith call costs more than comparing a short string). */
function sameText(text: string, from: number, to: number, s: string): boolean {
  if (s.length !== to - from) return false;
  for (let i = 0; i < s.length; i++) if (text.charCodeAt(from + i) !== s.charCodeAt(i)) return false;
  return true;
}

/** The first index of `name` in keys[from, to), or -1. */
function keyAt(keys: string[], name: string, from: number, to: number): number {
  for (let i = from; i < to; i++) if (keys[i] === name) return i;
  return -1;
}

const INTERN_MAX = 24;
const INTERN_SLOTS = 65536;
/** Interned strings of earlier parses by hash slot (bounded: one short string per slot). */
const KEPT: (string | undefined)[] = new Array<string | undefined>(INTERN_SLOTS).fill(undefined);
const NUMBER_RE = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
/** A run of string characters that need no attention (not a quote, backslash or control character). */
// eslint-disable-next-line no-control-regex -- a JSON string cannot hold U+0000–U+001F unescaped
const PLAIN = /[^"\\\u0000-\u001f]*/y;

KEEP_ALIVE.push(new StrictParser('0')); // see tree.ts
