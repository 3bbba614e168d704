// Parses template text into a JSON AST with offsets, noting `#` comment keys and duplicate keys.
//
// Node shape is the same as jsonc-parser's `Node` (type/offset/length/value/parent/children/colonOffset), so
// jsonc-parser's helpers (findNodeAtOffset, getNodePath, getNodeValue) work on it. String node offsets and
// lengths include the quotes; `value` is the decoded string.
//
// Valid JSON takes a fast strict path (a hand-written scanner, a few times the cost of JSON.parse). Text with a
// syntax error is re-parsed by parse-recovering.ts, which recovers a partial tree and lists every error.
import { parseRecovering } from './parse-recovering';

export type JsonNodeType = 'object' | 'array' | 'property' | 'string' | 'number' | 'boolean' | 'null';
export type JsonPath = (string | number)[];

export interface JsonNode {
  type: JsonNodeType;
  offset: number;
  length: number;
  /** Decoded value for string/number/boolean/null nodes. */
  value?: string | number | boolean | null;
  parent?: JsonNode;
  /** object: property nodes; array: items; property: [key, value?]. */
  children?: JsonNode[];
  colonOffset?: number;
  /** On property nodes whose key starts with `#`: a comment (pSConfig 5.2+ strips these before validation). */
  comment?: boolean;
}

export interface SyntaxProblem {
  message: string;
  start: number;
  end: number;
}

export interface DuplicateKey {
  key: string;
  /** Key node of the later occurrence (the one whose value pSConfig keeps: Python's json keeps the last). */
  node: JsonNode;
  /** Key node of the first occurrence. */
  first: JsonNode;
}

export interface ParsedTemplate {
  text: string;
  root: JsonNode | undefined;
  syntaxErrors: SyntaxProblem[];
  duplicateKeys: DuplicateKey[];
  /** Property nodes whose key starts with `#`. */
  commentKeys: JsonNode[];
}

export function parseTemplate(text: string): ParsedTemplate {
  const duplicateKeys: DuplicateKey[] = [];
  const commentKeys: JsonNode[] = [];
  try {
    const root = new StrictParser(text, duplicateKeys, commentKeys).parseDocument();
    return { text, root, syntaxErrors: [], duplicateKeys, commentKeys };
  } catch (e) {
    if (!(e instanceof StrictSyntaxError)) throw e;
  }
  duplicateKeys.length = 0;
  commentKeys.length = 0;
  const { root, errors } = parseRecovering(text);
  if (root) annotate(root, duplicateKeys, commentKeys);
  return { text, root, syntaxErrors: errors, duplicateKeys, commentKeys };
}

/** Marks comment keys and finds duplicate keys in a tree built by the recovering parser. */
function annotate(node: JsonNode, dups: DuplicateKey[], comments: JsonNode[]): void {
  if (node.type === 'object' && node.children) {
    const seen = new Map<string, JsonNode>();
    for (const prop of node.children) {
      const key = prop.children?.[0];
      if (!key || typeof key.value !== 'string') continue;
      if (key.value.startsWith('#')) {
        prop.comment = true;
        comments.push(prop);
      }
      const first = seen.get(key.value);
      if (first) dups.push({ key: key.value, node: key, first });
      else seen.set(key.value, key);
    }
  }
  if (node.children) for (const c of node.children) annotate(c, dups, comments);
}

class StrictSyntaxError extends Error {}

/** Every node gets the same fields in the same order, so V8 keeps property access on them monomorphic. */
export function makeNode(
  type: JsonNodeType,
  offset: number,
  length: number,
  value: string | number | boolean | null | undefined,
  parent: JsonNode | undefined,
  children: JsonNode[] | undefined,
): JsonNode {
  return { type, offset, length, value, parent, children, colonOffset: undefined, comment: undefined };
}

const WS = new Uint8Array(128);
WS[32] = WS[9] = WS[10] = WS[13] = 1;

/** Strict JSON (RFC 8259) recursive-descent parser; throws StrictSyntaxError on the first problem. */
class StrictParser {
  private pos = 0;
  private depth = 0;

  constructor(
    private readonly text: string,
    private readonly dups: DuplicateKey[],
    private readonly comments: JsonNode[],
  ) {}

  parseDocument(): JsonNode {
    this.ws();
    const root = this.value(undefined);
    this.ws();
    if (this.pos !== this.text.length) this.fail();
    return root;
  }

  private fail(): never {
    throw new StrictSyntaxError();
  }

  private ws(): void {
    const t = this.text;
    let p = this.pos;
    for (;;) {
      const c = t.charCodeAt(p);
      if (c < 128 && WS[c] === 1) p++;
      else break;
    }
    this.pos = p;
  }

  private value(parent: JsonNode | undefined): JsonNode {
    const c = this.text.charCodeAt(this.pos);
    if (c === 34) return this.string(parent);
    if (c === 123) return this.object(parent);
    if (c === 91) return this.array(parent);
    if (c === 45 || (c >= 48 && c <= 57)) return this.number(parent);
    if (this.text.startsWith('true', this.pos)) return this.literal(parent, 'boolean', true, 4);
    if (this.text.startsWith('false', this.pos)) return this.literal(parent, 'boolean', false, 5);
    if (this.text.startsWith('null', this.pos)) return this.literal(parent, 'null', null, 4);
    return this.fail();
  }

  private literal(parent: JsonNode | undefined, type: 'boolean' | 'null', value: boolean | null, len: number): JsonNode {
    const node = makeNode(type, this.pos, len, value, parent, undefined);
    this.pos += len;
    return node;
  }

  private string(parent: JsonNode | undefined): JsonNode {
    const t = this.text;
    const start = this.pos;
    let p = start + 1;
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
    let value: string;
    if (escaped) {
      try {
        value = JSON.parse(t.slice(start, p + 1)) as string;
      } catch {
        return this.fail();
      }
    } else value = t.slice(start + 1, p);
    return makeNode('string', start, p + 1 - start, value, parent, undefined);
  }

  private number(parent: JsonNode | undefined): JsonNode {
    NUMBER.lastIndex = this.pos;
    const m = NUMBER.exec(this.text);
    if (!m) return this.fail();
    const node = makeNode('number', this.pos, m[0].length, Number(m[0]), parent, undefined);
    this.pos += m[0].length;
    return node;
  }

  private object(parent: JsonNode | undefined): JsonNode {
    if (++this.depth > 2000) this.fail();
    const children: JsonNode[] = [];
    const node = makeNode('object', this.pos, 0, undefined, parent, children);
    let seen: Set<string> | undefined;
    this.pos++;
    this.ws();
    if (this.text.charCodeAt(this.pos) !== 125) {
      for (;;) {
        if (this.text.charCodeAt(this.pos) !== 34) this.fail();
        const prop = makeNode('property', this.pos, 0, undefined, node, undefined);
        const key = this.string(prop);
        const name = key.value as string;
        this.ws();
        if (this.text.charCodeAt(this.pos) !== 58) this.fail();
        prop.colonOffset = this.pos++;
        this.ws();
        const value = this.value(prop);
        prop.children = [key, value];
        prop.length = value.offset + value.length - prop.offset;
        if (name.charCodeAt(0) === 35) {
          prop.comment = true;
          this.comments.push(prop);
        }
        if (children.length >= 8 && !seen) {
          seen = new Set();
          for (const c of children) seen.add(c.children![0].value as string);
        }
        if (seen ? seen.has(name) : hasKey(children, name)) {
          for (const c of children) {
            if (c.children![0].value === name) {
              this.dups.push({ key: name, node: key, first: c.children![0] });
              break;
            }
          }
        }
        seen?.add(name);
        children.push(prop);
        this.ws();
        const c = this.text.charCodeAt(this.pos);
        if (c === 44) {
          this.pos++;
          this.ws();
          continue;
        }
        if (c === 125) break;
        this.fail();
      }
    }
    this.pos++;
    node.length = this.pos - node.offset;
    this.depth--;
    return node;
  }

  private array(parent: JsonNode | undefined): JsonNode {
    if (++this.depth > 2000) this.fail();
    const children: JsonNode[] = [];
    const node = makeNode('array', this.pos, 0, undefined, parent, children);
    this.pos++;
    this.ws();
    if (this.text.charCodeAt(this.pos) !== 93) {
      for (;;) {
        children.push(this.value(node));
        this.ws();
        const c = this.text.charCodeAt(this.pos);
        if (c === 44) {
          this.pos++;
          this.ws();
          continue;
        }
        if (c === 93) break;
        this.fail();
      }
    }
    this.pos++;
    node.length = this.pos - node.offset;
    this.depth--;
    return node;
  }
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
/** A run of string characters that need no attention (not a quote, backslash or control character). */
const PLAIN = /[^"\\\u0000-\u001f]*/y;

function hasKey(children: JsonNode[], name: string): boolean {
  for (const c of children) if (c.children![0].value === name) return true;
  return false;
}

// ---- helpers every consumer uses -------------------------------------------------------------------------------

const memberCache = new WeakMap<JsonNode, Map<string, JsonNode>>();

/** Property nodes of an object by key, comments excluded; for duplicate keys the last one wins (as in pSConfig). */
export function members(obj: JsonNode | undefined): Map<string, JsonNode> {
  if (!obj || obj.type !== 'object') return EMPTY;
  let m = memberCache.get(obj);
  if (!m) {
    m = new Map();
    for (const prop of obj.children ?? []) {
      const key = prop.children?.[0];
      if (prop.comment || !key || typeof key.value !== 'string' || !prop.children?.[1]) continue;
      m.set(key.value, prop);
    }
    memberCache.set(obj, m);
  }
  return m;
}
const EMPTY: Map<string, JsonNode> = new Map();

/** Value node of `obj[key]` (comments excluded, last duplicate wins). */
export function propertyValue(obj: JsonNode | undefined, key: string): JsonNode | undefined {
  if (!obj || obj.type !== 'object' || !obj.children) return undefined;
  const kids = obj.children;
  for (let i = kids.length - 1; i >= 0; i--) {
    const p = kids[i].children;
    if (p && p[0].value === key && p[1]) return p[1];
  }
  return undefined;
}

/** Property nodes of an object that have a value and are not comments, in document order (duplicates kept).
 *  Allocation-free when the object has no comments or incomplete properties (the hot path). */
export function memberProps(obj: JsonNode | undefined): JsonNode[] {
  if (!obj || obj.type !== 'object' || !obj.children) return NO_NODES;
  const kids = obj.children;
  for (let i = 0; i < kids.length; i++) {
    if (kids[i].comment || !kids[i].children?.[1]) return kids.filter((p) => !p.comment && p.children?.[1] !== undefined);
  }
  return kids;
}
const NO_NODES: JsonNode[] = [];

/** Key string of a property node. */
export function keyName(prop: JsonNode): string {
  return (prop.children as JsonNode[])[0].value as string;
}

/** Key node of a property node. */
export function keyOf(prop: JsonNode): JsonNode {
  return (prop.children as JsonNode[])[0];
}

export function stringValue(node: JsonNode | undefined): string | undefined {
  return node?.type === 'string' ? (node.value as string) : undefined;
}

/** Items of an array node (empty for anything else). */
export function itemsOf(node: JsonNode | undefined): JsonNode[] {
  return node?.type === 'array' ? (node.children ?? []) : [];
}

/** JSON path of a node (object keys and array indexes), like jsonc-parser's getNodePath. */
export function nodePath(node: JsonNode): JsonPath {
  const path: JsonPath = [];
  let n: JsonNode | undefined = node;
  while (n?.parent) {
    const p: JsonNode = n.parent;
    if (p.type === 'property') {
      if (p.children?.[1] === n || p.children?.[0] === n) path.unshift(p.children![0].value as string);
      n = p.parent;
    } else if (p.type === 'array') {
      path.unshift(p.children!.indexOf(n));
      n = p;
    } else n = p;
  }
  return path;
}

/** The innermost node containing offset (a string token's quotes count as inside). */
export function nodeAtOffset(root: JsonNode | undefined, offset: number, includeRightBound = false): JsonNode | undefined {
  let node = root;
  if (!node || !contains(node, offset, includeRightBound)) return undefined;
  for (;;) {
    const kids = node.children;
    if (!kids || kids.length === 0) return node;
    // binary search: children are sorted by offset
    let lo = 0;
    let hi = kids.length - 1;
    let found: JsonNode | undefined;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const k = kids[mid];
      if (offset < k.offset) hi = mid - 1;
      else if (offset > k.offset + k.length || (offset === k.offset + k.length && !includeRightBound)) lo = mid + 1;
      else {
        found = k;
        break;
      }
    }
    if (!found) return node;
    node = found;
  }
}

function contains(node: JsonNode, offset: number, includeRightBound: boolean): boolean {
  return offset >= node.offset && (offset < node.offset + node.length || (includeRightBound && offset === node.offset + node.length));
}

/** Plain JS value of a node (comments stripped, last duplicate wins), like pSConfig sees it. */
export function toValue(node: JsonNode | undefined): unknown {
  if (!node) return undefined;
  switch (node.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [k, prop] of members(node)) out[k] = toValue(prop.children?.[1]);
      return out;
    }
    case 'array':
      return (node.children ?? []).map(toValue);
    case 'property':
      return toValue(node.children?.[1]);
    default:
      return node.value;
  }
}
