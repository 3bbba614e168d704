// Parses template text into a JSON AST with offsets, noting `#` comment keys and duplicate keys.
//
// The tree is compact (tree.ts: typed arrays, one entry per node); JsonNode views of it have the shape of
// jsonc-parser's `Node` (type/offset/length/value/parent/children/colonOffset). String node offsets and lengths
// include the quotes; `value` is the decoded string.
//
// Valid JSON takes a fast strict path (a hand-written scanner, a few times the cost of JSON.parse). Text with a
// syntax error is re-parsed by parse-recovering.ts, which recovers a partial tree and lists every error.
import type { DuplicateKey, JsonNode, JsonPath, SyntaxProblem } from './json-node';
import { parseRecovering } from './parse-recovering';
import { StrictParser, StrictSyntaxError } from './parse-strict';
import { NODE, type Tree } from './tree';

const { COMMENT, OBJECT } = NODE;

export type { DuplicateKey, JsonNode, JsonNodeType, JsonPath, SyntaxProblem } from './json-node';
export { Tree } from './tree';

export interface ParsedTemplate {
  text: string;
  /** The compact tree (tree.ts); `root` is its first node. */
  tree: Tree;
  root: JsonNode | undefined;
  syntaxErrors: SyntaxProblem[];
  duplicateKeys: DuplicateKey[];
  /** Property nodes whose key starts with `#`. */
  commentKeys: JsonNode[];
  /** Re-parsed in place around a broken edit (incremental.ts): not what a full parse of the text gives. */
  approximate?: true;
}

export function parseTemplate(text: string): ParsedTemplate {
  let parser: StrictParser | undefined = new StrictParser(text);
  try {
    const tree = parser.parseDocument();
    const { duplicates, comments } = parser.findings;
    parser = undefined;
    return {
      text,
      tree,
      root: tree.root,
      syntaxErrors: [],
      duplicateKeys: duplicates.map(([later, first]) => duplicate(tree, later, first)),
      commentKeys: comments.map((p) => tree.node(p)),
    };
  } catch (e) {
    if (!(e instanceof StrictSyntaxError)) throw e;
  }
  const { tree, errors } = parseRecovering(text);
  const duplicateKeys: DuplicateKey[] = [];
  const commentKeys: JsonNode[] = [];
  annotate(tree, duplicateKeys, commentKeys);
  return { text, tree, root: tree.root, syntaxErrors: errors, duplicateKeys, commentKeys };
}

function duplicate(tree: Tree, later: number, first: number): DuplicateKey {
  return { key: tree.str(later + 1), node: tree.node(later + 1), first: tree.node(first + 1) };
}

/** Marks comment keys and finds duplicate keys in a tree built by the recovering parser. */
function annotate(tree: Tree, dups: DuplicateKey[], comments: JsonNode[]): void {
  for (let i = 0; i < tree.count; i++) {
    if (tree.type(i) !== OBJECT) continue;
    const seen = new Map<string, number>();
    for (let p = tree.firstChild(i); p >= 0; p = tree.nextSibling(p, i)) {
      const key = tree.str(p + 1);
      if (key.startsWith('#')) {
        tree.kind[p] |= COMMENT;
        comments.push(tree.node(p));
      }
      const first = seen.get(key);
      if (first !== undefined) dups.push(duplicate(tree, p, first));
      else seen.set(key, p);
    }
  }
}

// ---- helpers every consumer uses -------------------------------------------------------------------------------

const memberCache = new WeakMap<JsonNode, Map<string, JsonNode>>();

/** Property nodes of an object by key, comments excluded; for duplicate keys the last one wins (as in pSConfig). */
export function members(obj: JsonNode | undefined): Map<string, JsonNode> {
  if (!obj || obj.type !== 'object') return EMPTY;
  let m = memberCache.get(obj);
  if (!m) {
    m = new Map();
    const t = obj.tree;
    const o = obj.index;
    for (let p = t.firstChild(o); p >= 0; p = t.nextSibling(p, o)) {
      if (t.kind[p] & COMMENT || t.propValue(p) < 0) continue;
      m.set(t.str(p + 1), t.node(p));
    }
    memberCache.set(obj, m);
  }
  return m;
}
const EMPTY: Map<string, JsonNode> = new Map();

/** Value node of `obj[key]` (comments excluded, last duplicate wins). */
export function propertyValue(obj: JsonNode | undefined, key: string): JsonNode | undefined {
  if (!obj) return undefined;
  const v = obj.tree.propertyValue(obj.index, key);
  return v >= 0 ? obj.tree.node(v) : undefined;
}

/** The first property node of `obj` named `key` that has a value and is not a comment (no node for the others). */
export function firstMember(obj: JsonNode | undefined, key: string): JsonNode | undefined {
  if (!obj || obj.type !== 'object') return undefined;
  const t = obj.tree;
  for (let p = t.firstChild(obj.index); p >= 0; p = t.nextSibling(p, obj.index))
    if (!(t.kind[p] & COMMENT) && t.propValue(p) >= 0 && t.strIs(p + 1, key)) return t.node(p);
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
  return prop.tree.str(prop.index + 1);
}

/** Key node of a property node. */
export function keyOf(prop: JsonNode): JsonNode {
  return prop.tree.node(prop.index + 1);
}

export function stringValue(node: JsonNode | undefined): string | undefined {
  return node?.type === 'string' ? (node.value as string) : undefined;
}

/** Items of an array node (empty for anything else). */
export function itemsOf(node: JsonNode | undefined): JsonNode[] {
  return node?.type === 'array' ? (node.children ?? []) : [];
}

/** JSON path of a node (object keys and array indexes), like jsonc-parser's getNodePath. */
export function nodePath(node: JsonNode, positions?: Map<number, number>): JsonPath {
  return node.tree.path(node.index, positions);
}

/** The innermost node containing offset (a string token's quotes count as inside). */
export function nodeAtOffset(
  root: JsonNode | undefined,
  offset: number,
  includeRightBound = false,
): JsonNode | undefined {
  if (!root) return undefined;
  const t = root.tree;
  const i = t.at(offset, includeRightBound);
  // Only nodes inside `root`'s subtree count.
  return i >= root.index && i < t.next[root.index] ? t.node(i) : undefined;
}

/** Plain JS value of a node (comments stripped, last duplicate wins), like pSConfig sees it. */
export function toValue(node: JsonNode | undefined): unknown {
  return node ? node.tree.toValue(node.index) : undefined;
}
