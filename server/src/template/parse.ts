// Parses template text into a JSON AST with offsets, noting `#` comment keys and duplicate keys.
//
// Node shape is the same as jsonc-parser's `Node` (type/offset/length/value/parent/children/colonOffset), so
// jsonc-parser's helpers (findNodeAtOffset, getNodePath, getNodeValue) work on it. String node offsets and
// lengths include the quotes; `value` is the decoded string.
//
// Valid JSON takes a fast strict path (a hand-written scanner, a few times the cost of JSON.parse). Text with a
// syntax error is re-parsed by parse-recovering.ts, which recovers a partial tree and lists every error.
import type { DuplicateKey, JsonNode, JsonPath, SyntaxProblem } from './json-node';
import { parseRecovering } from './parse-recovering';
import { StrictParser, StrictSyntaxError } from './parse-strict';

export type { DuplicateKey, JsonNode, JsonNodeType, JsonPath, SyntaxProblem } from './json-node';
export { makeNode } from './json-node';

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
    if (kids[i].comment || !kids[i].children?.[1])
      return kids.filter((p) => !p.comment && p.children?.[1] !== undefined);
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
export function nodeAtOffset(
  root: JsonNode | undefined,
  offset: number,
  includeRightBound = false,
): JsonNode | undefined {
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
  return (
    offset >= node.offset &&
    (offset < node.offset + node.length || (includeRightBound && offset === node.offset + node.length))
  );
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
