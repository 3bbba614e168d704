// The parsed template as a compact tree: one entry per JSON node (object, array, property, string, number, boolean,
// null) in document order, held in typed arrays instead of one JS object per node. A 1.6 MB template has ~150,000
// nodes; as objects they cost megabytes of garbage-collector copying on every parse, as arrays they cost nothing to
// the collector. Passes that visit every node (the schema check) read the arrays by index; everything else reads
// JsonNode views (json-node.ts), made on demand, one per index.
//
// Layout: node i's subtree is i .. next[i]-1; its first child (if any) is i+1 and each child's next sibling is
// next[child] while that is below next[i]. A property's children are its key string and then its value, if any.
export type JsonNodeType = 'object' | 'array' | 'property' | 'string' | 'number' | 'boolean' | 'null';
export type JsonPath = (string | number)[];

// Node types and flags. Hot loops elsewhere copy them into local constants (`const { OBJECT } = NODE`): a
// transpiled module reads imported bindings through getters.
export const OBJECT = 0;
export const ARRAY = 1;
export const PROPERTY = 2;
export const STRING = 3;
export const NUMBER = 4;
export const BOOLEAN = 5;
export const NULL = 6;
const TYPE_MASK = 7;
/** A property whose key starts with `#`: a comment (pSConfig 5.2+ strips these before validation). */
export const COMMENT = 8;
/** A string with a backslash escape: its value needs decoding. */
export const ESCAPED = 16;
/** A boolean `true`. */
export const TRUE = 32;

export const NODE = { OBJECT, ARRAY, PROPERTY, STRING, NUMBER, BOOLEAN, NULL, COMMENT, ESCAPED, TRUE } as const;

export const TYPE_NAMES: readonly JsonNodeType[] = [
  'object',
  'array',
  'property',
  'string',
  'number',
  'boolean',
  'null',
];

/**
 * Storage of released trees, reused by the next parse on the same thread. A fresh multi-megabyte buffer costs a
 * page fault per 4 KB page on first write (~15 ms for a 1.6 MB template's tree on the bench machine, twice what
 * JSON.parse takes for the whole text); a reused one is already mapped. Bounded; trees are released by whoever
 * owns them last (the worker after its checks, the parse cache when a newer version has replaced one).
 */
const pool: ArrayBuffer[] = [];
const POOL_MAX_BYTES = 96 * 1024 * 1024;
const BYTES_PER_NODE = 21; // 5 × Int32 + 1 × Uint8

/** The smallest pooled buffer holding `capacity` nodes, else a fresh one with room for `spare` more. */
function takeBuffer(capacity: number, spare: number): ArrayBuffer {
  const bytes = capacity * BYTES_PER_NODE;
  let best = -1;
  for (let i = 0; i < pool.length; i++)
    if (pool[i].byteLength >= bytes && (best < 0 || pool[i].byteLength < pool[best].byteLength)) best = i;
  if (best >= 0) return pool.splice(best, 1)[0];
  return new ArrayBuffer(bytes + spare * BYTES_PER_NODE);
}

function giveBuffer(buffer: ArrayBuffer): void {
  pool.push(buffer);
  let total = pool.reduce((n, b) => n + b.byteLength, 0);
  while (total > POOL_MAX_BYTES && pool.length) total -= pool.shift()!.byteLength;
}

const NO_INTS = new Int32Array(0);
const NO_BYTES = new Uint8Array(0);

export class Tree {
  /** Node type (low 3 bits) and flags (COMMENT, ESCAPED, TRUE). */
  kind: Uint8Array = NO_BYTES;
  /** Offsets of the node's first character and just after its last (a string's quotes included). */
  start: Int32Array = NO_INTS;
  end: Int32Array = NO_INTS;
  /** Parent index; -1 for the root. */
  parent: Int32Array = NO_INTS;
  /** The index after the node's subtree. */
  next: Int32Array = NO_INTS;
  /** String: index into `strings` of its (interned) value, or -1 to decode from the text. Property: the offset of
   *  its colon, or -1. */
  aux: Int32Array = NO_INTS;
  count = 0;
  /** Interned short strings (keys, names, enum values repeat thousands of times). */
  strings: string[] = [];
  /** Values that are not what the text says (strings the recovering parser repaired). */
  readonly overrides = new Map<number, string>();
  /** Views made so far, by index, in chunks of 4,096 made on first use (a large template's checks make tens of
   *  thousands of views: a Map of them cost more to grow and to collect than the views; one array as long as the
   *  tree would be a slow dictionary-mode array beyond 100,000 entries). */
  private views: (JsonNode | undefined)[][] = [];
  private buffer: ArrayBuffer | undefined;
  private capacity = 0;

  constructor(
    readonly text: string,
    capacity = 64,
    /** Extra room if fresh storage must be allocated (a pooled buffer is taken as soon as `capacity` fits). */
    spare = 0,
  ) {
    this.allocate(capacity, spare);
  }

  /** Gives the storage back for the next parse: the tree and every node of it must not be used afterwards
   *  (they then read as empty). */
  release(): void {
    if (!this.buffer) return;
    giveBuffer(this.buffer);
    this.buffer = undefined;
    this.kind = NO_BYTES;
    this.start = this.end = this.parent = this.next = this.aux = NO_INTS;
    this.count = 0;
    this.capacity = 0;
    this.views = [];
  }

  get released(): boolean {
    return this.buffer === undefined;
  }

  private allocate(capacity: number, spare = 0): void {
    const old = this.buffer;
    const buffer = takeBuffer(capacity, spare);
    // All of it: a pooled buffer may be larger than asked for.
    const n = Math.floor(buffer.byteLength / BYTES_PER_NODE);
    const ints = (k: number): Int32Array => new Int32Array(buffer, k * 4 * n, n);
    const start = ints(0);
    const end = ints(1);
    const parent = ints(2);
    const next = ints(3);
    const aux = ints(4);
    const kind = new Uint8Array(buffer, 20 * n, n);
    if (old && this.count) {
      start.set(this.start.subarray(0, this.count));
      end.set(this.end.subarray(0, this.count));
      parent.set(this.parent.subarray(0, this.count));
      next.set(this.next.subarray(0, this.count));
      aux.set(this.aux.subarray(0, this.count));
      kind.set(this.kind.subarray(0, this.count));
    }
    this.buffer = buffer;
    this.capacity = n;
    Object.assign(this, { kind, start, end, parent, next, aux });
    if (old) giveBuffer(old);
  }

  // ---- building (parsers) -----------------------------------------------------------------------------------

  /** Appends a node (its end and next are set when it closes, see close()). */
  add(kind: number, start: number, parent: number): number {
    if (this.count === this.capacity) this.allocate(this.capacity * 2);
    const i = this.count++;
    this.kind[i] = kind;
    this.start[i] = start;
    this.parent[i] = parent;
    this.aux[i] = -1;
    return i;
  }

  /** Ends node i at `end`; its subtree is everything appended since. */
  close(i: number, end: number): void {
    this.end[i] = end;
    this.next[i] = this.count;
  }

  /** A leaf in one call. */
  leaf(kind: number, start: number, end: number, parent: number): number {
    const i = this.add(kind, start, parent);
    this.end[i] = end;
    this.next[i] = i + 1;
    return i;
  }

  /**
   * A new tree for `text`, which is this tree's text with one region edited: this tree's nodes with the old
   * indexes [from, to) (whole children of container `container`) replaced by the members of `fragment` (a tree
   * whose root is a container holding them, parsed from text[sliceAt - 1 …], i.e. its offset 1 is sliceAt), and
   * every offset at or after the edit moved by `delta`. Costs one pass over the arrays (no parse, no objects).
   */
  spliced(
    text: string,
    container: number,
    from: number,
    to: number,
    fragment: Tree,
    sliceAt: number,
    delta: number,
  ): Tree {
    const added = fragment.count - 1;
    const shift = added - (to - from);
    // Any pooled buffer that fits is taken (a fresh one costs a page fault per 4 KB: ~7 ms for this copy on the
    // bench machine); a fresh one gets room to spare, so the versions after it, growing as the user types, fit the
    // storage their predecessors give back. (With the spare always asked for, a growing document never fit the
    // buffer released two versions earlier, and every other splice faulted its pages in.)
    const n = new Tree(text, this.count + shift, Math.max(1024, this.count >> 3));
    n.count = this.count + shift;
    // The string table is shared and only grows: this tree's ids stay valid, the fragment's are appended.
    const firstFragmentString = this.strings.length;
    n.strings = this.strings;
    for (const str of fragment.strings) n.strings.push(str);
    // The nodes before the replaced ones are copied as they are (bulk copies), then the container and its
    // ancestors grow.
    n.kind.set(this.kind.subarray(0, from));
    n.start.set(this.start.subarray(0, from));
    n.end.set(this.end.subarray(0, from));
    n.parent.set(this.parent.subarray(0, from));
    n.next.set(this.next.subarray(0, from));
    n.aux.set(this.aux.subarray(0, from));
    for (let a = container; a >= 0; a = this.parent[a]) {
      n.end[a] += delta;
      n.next[a] += shift;
    }
    const at = sliceAt - 1; // fragment offset 1 is sliceAt
    for (let j = 1; j < fragment.count; j++) {
      const i = from + j - 1;
      const k = fragment.kind[j];
      n.kind[i] = k;
      n.start[i] = fragment.start[j] + at;
      n.end[i] = fragment.end[j] + at;
      const fp = fragment.parent[j];
      n.parent[i] = fp === 0 ? container : from + fp - 1;
      n.next[i] = from + fragment.next[j] - 1;
      const aux = fragment.aux[j];
      const type = k & TYPE_MASK;
      n.aux[i] = aux < 0 ? -1 : type === PROPERTY ? aux + at : type === STRING ? aux + firstFragmentString : aux;
    }
    // The nodes after: copied, then moved by the edit.
    const d0 = to + shift;
    n.kind.set(this.kind.subarray(to, this.count), d0);
    n.start.set(this.start.subarray(to, this.count), d0);
    n.end.set(this.end.subarray(to, this.count), d0);
    n.parent.set(this.parent.subarray(to, this.count), d0);
    n.next.set(this.next.subarray(to, this.count), d0);
    n.aux.set(this.aux.subarray(to, this.count), d0);
    if (delta !== 0 || shift !== 0) {
      const { kind, start, end, parent, next, aux } = n;
      for (let d = d0; d < n.count; d++) {
        start[d] += delta;
        end[d] += delta;
        next[d] += shift;
        if (parent[d] >= to) parent[d] += shift;
        if ((kind[d] & TYPE_MASK) === PROPERTY && aux[d] >= 0) aux[d] += delta;
      }
    }
    for (const [i, v] of this.overrides) {
      if (i < from) n.overrides.set(i, v);
      else if (i >= to) n.overrides.set(i + shift, v);
    }
    for (const [j, v] of fragment.overrides) if (j > 0) n.overrides.set(from + j - 1, v);
    return n;
  }

  // ---- reading by index -------------------------------------------------------------------------------------

  type(i: number): number {
    return this.kind[i] & TYPE_MASK;
  }

  typeName(i: number): JsonNodeType {
    return TYPE_NAMES[this.kind[i] & TYPE_MASK];
  }

  /** First child, or -1. */
  firstChild(i: number): number {
    return i + 1 < this.next[i] ? i + 1 : -1;
  }

  /** Next sibling of child c of parent p, or -1. */
  nextSibling(c: number, p: number): number {
    const n = this.next[c];
    return n < this.next[p] ? n : -1;
  }

  /** Value index of property p, or -1 (a property being typed may have none). */
  propValue(p: number): number {
    const v = this.next[p + 1];
    return v < this.next[p] ? v : -1;
  }

  /** The decoded value of a string node. */
  str(i: number): string {
    const a = this.aux[i];
    if (a >= 0) return this.strings[a];
    const o = this.overrides.get(i);
    if (o !== undefined) return o;
    if (this.kind[i] & ESCAPED) return JSON.parse(this.text.slice(this.start[i], this.end[i])) as string;
    return this.text.slice(this.start[i] + 1, this.end[i] - 1);
  }

  /** Whether string node i decodes to `s`, without decoding it when it is plain. */
  strIs(i: number, s: string): boolean {
    const a = this.aux[i];
    if (a >= 0) return this.strings[a] === s;
    if (this.kind[i] & ESCAPED || this.overrides.size) return this.str(i) === s;
    const from = this.start[i] + 1;
    return this.end[i] - 1 - from === s.length && this.text.startsWith(s, from);
  }

  /** Value of a scalar node (undefined for containers and properties). */
  scalar(i: number): string | number | boolean | null | undefined {
    switch (this.kind[i] & TYPE_MASK) {
      case STRING:
        return this.str(i);
      case NUMBER:
        return Number(this.text.slice(this.start[i], this.end[i]));
      case BOOLEAN:
        return (this.kind[i] & TRUE) !== 0;
      case NULL:
        return null;
      default:
        return undefined;
    }
  }

  /**
   * Calls fn(property, value) for each member of object `obj` as pSConfig reads it (see memberList). Objects of up
   * to 16 members, nearly all of them (an address's labels, a test's spec), are walked without allocating.
   */
  eachMember(obj: number, fn: (prop: number, value: number) => void): void {
    const n = this.memberCount(obj);
    if (n === 0) return;
    if (n > 16) {
      const props = this.memberList(obj);
      for (let k = 0; k < props.length; k++) fn(props[k], this.propValue(props[k]));
      return;
    }
    for (let p = this.firstChild(obj); p >= 0; p = this.nextSibling(p, obj))
      if (this.readMember(p, obj)) fn(p, this.propValue(p));
  }

  /**
   * The property indexes of object `obj`'s members as pSConfig reads them: comments and properties without a value
   * skipped, and of duplicate keys only the last. No views, no Map per object (the checks visit every address,
   * label and task of a large template on each version), and no callback: a check that loops over this needs no
   * closure per run, whose optimized code V8 would throw away with it.
   */
  memberList(obj: number): number[] {
    const out: number[] = [];
    const n = this.memberCount(obj);
    if (n === 0) return out;
    if (n > 16) {
      // many members: keys seen from the end, so each property knows whether a later one replaces it
      const keep: number[] = [];
      const later = new Set<string>();
      for (let p = this.firstChild(obj); p >= 0; p = this.nextSibling(p, obj)) keep.push(p);
      const drop = new Uint8Array(keep.length);
      for (let k = keep.length - 1; k >= 0; k--) {
        const p = keep[k];
        if (this.kind[p] & COMMENT || this.propValue(p) < 0) continue;
        const key = this.str(p + 1);
        if (later.has(key)) drop[k] = 1;
        else later.add(key);
      }
      for (let k = 0; k < keep.length; k++)
        if (!drop[k] && !(this.kind[keep[k]] & COMMENT) && this.propValue(keep[k]) >= 0) out.push(keep[k]);
      return out;
    }
    for (let p = this.firstChild(obj); p >= 0; p = this.nextSibling(p, obj)) if (this.readMember(p, obj)) out.push(p);
    return out;
  }

  /** How many properties object `obj` has (0 for anything else). */
  private memberCount(obj: number): number {
    if (obj < 0 || (this.kind[obj] & TYPE_MASK) !== OBJECT) return 0;
    let n = 0;
    for (let p = this.firstChild(obj); p >= 0; p = this.nextSibling(p, obj)) n++;
    return n;
  }

  /** Whether property p of a small object is read by pSConfig: not a comment, has a value, not replaced by a later
   *  property of the same key (a scan of the later siblings: objects of many members take memberList's set). */
  private readMember(p: number, obj: number): boolean {
    if (this.kind[p] & COMMENT || this.propValue(p) < 0) return false;
    for (let q = this.nextSibling(p, obj); q >= 0; q = this.nextSibling(q, obj))
      if (!(this.kind[q] & COMMENT) && this.propValue(q) >= 0 && this.sameString(p + 1, q + 1)) return false;
    return true;
  }

  /** Whether string nodes a and b decode to the same value (compared in the text when both are plain). */
  sameString(a: number, b: number): boolean {
    const sa = this.aux[a];
    const sb = this.aux[b];
    if (sa >= 0 && sb >= 0) return this.strings[sa] === this.strings[sb];
    if (!(this.kind[a] & ESCAPED) && !(this.kind[b] & ESCAPED) && !this.overrides.size) {
      const la = this.end[a] - this.start[a];
      if (la !== this.end[b] - this.start[b]) return false;
      const { text } = this;
      for (let k = 0, x = this.start[a], y = this.start[b]; k < la; k++)
        if (text.charCodeAt(x + k) !== text.charCodeAt(y + k)) return false;
      return true;
    }
    return this.str(a) === this.str(b);
  }

  /** The value of `obj[key]` (comments excluded, the last duplicate wins), or -1. */
  propertyValue(obj: number, key: string): number {
    if (obj < 0 || (this.kind[obj] & TYPE_MASK) !== OBJECT) return -1;
    let found = -1;
    for (let p = this.firstChild(obj); p >= 0; p = this.nextSibling(p, obj)) {
      if (this.kind[p] & COMMENT) continue;
      const v = this.propValue(p);
      if (v >= 0 && this.strIs(p + 1, key)) found = v;
    }
    return found;
  }

  /** The innermost node containing offset (a string's quotes count as inside), or -1. Starts are in document
   *  order, so: the last node starting at or before offset, then up to the first ancestor that contains it. */
  at(offset: number, includeRightBound = false): number {
    if (this.count === 0) return -1;
    let lo = 0;
    let hi = this.count - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.start[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    for (let i = this.start[lo] <= offset ? lo : -1; i >= 0; i = this.parent[i])
      if (this.contains(i, offset, includeRightBound)) return i;
    return -1;
  }

  private contains(i: number, offset: number, includeRightBound: boolean): boolean {
    return offset >= this.start[i] && (offset < this.end[i] || (includeRightBound && offset === this.end[i]));
  }

  /**
   * JSON path of node i (object keys and array indexes), like jsonc-parser's getNodePath. `positions` (node → its
   * index in its array), when given, is filled for every item of an array the first time one of them is asked about,
   * so the paths of many items of one long array cost one walk of it, not one each.
   */
  path(i: number, positions?: Map<number, number>): JsonPath {
    let depth = 0;
    for (let n = i; n > 0;) {
      const p = this.parent[n];
      if (p < 0) break;
      const t = this.kind[p] & TYPE_MASK;
      if (t === PROPERTY) {
        depth++;
        n = this.parent[p];
      } else {
        if (t === ARRAY) depth++;
        n = p;
      }
    }
    // Exact size (an array grown by push keeps spare room, and paths are kept by the variable rules).
    const out: JsonPath = new Array<string | number>(depth);
    let k = depth;
    let n = i;
    while (n > 0) {
      const p = this.parent[n];
      if (p < 0) break;
      const t = this.kind[p] & TYPE_MASK;
      if (t === PROPERTY) {
        out[--k] = this.str(p + 1);
        n = this.parent[p];
      } else {
        if (t === ARRAY) {
          let c = positions?.get(n);
          if (c === undefined) {
            c = 0;
            if (positions) {
              for (let s = this.firstChild(p), at = 0; s >= 0; s = this.nextSibling(s, p)) positions.set(s, at++);
              c = positions.get(n) ?? 0;
            } else for (let s = this.firstChild(p); s >= 0 && s !== n; s = this.nextSibling(s, p)) c++;
          }
          out[--k] = c;
        }
        n = p;
      }
    }
    return out;
  }

  /** Plain JS value of node i (comments stripped, last duplicate wins), like pSConfig sees it. */
  toValue(i: number): unknown {
    switch (this.kind[i] & TYPE_MASK) {
      case OBJECT: {
        const out: Record<string, unknown> = {};
        for (let p = this.firstChild(i); p >= 0; p = this.nextSibling(p, i)) {
          const v = this.propValue(p);
          if (v >= 0 && !(this.kind[p] & COMMENT)) out[this.str(p + 1)] = this.toValue(v);
        }
        return out;
      }
      case ARRAY: {
        const out: unknown[] = [];
        for (let c = this.firstChild(i); c >= 0; c = this.nextSibling(c, i)) out.push(this.toValue(c));
        return out;
      }
      case PROPERTY: {
        const v = this.propValue(i);
        return v >= 0 ? this.toValue(v) : undefined;
      }
      default:
        return this.scalar(i);
    }
  }

  // ---- views ------------------------------------------------------------------------------------------------

  /** The JsonNode of index i (one per index, made on first use). */
  node(i: number): JsonNode {
    const chunk = this.views[i >> 12] ?? (this.views[i >> 12] = new Array<JsonNode | undefined>(4096));
    return chunk[i & 4095] ?? (chunk[i & 4095] = new JsonNode(this, i));
  }

  /** The root node, if the text has one. */
  get root(): JsonNode | undefined {
    return this.count > 0 ? this.node(0) : undefined;
  }
}

/** A view of one entry of a tree, made on demand and kept (one per index, so nodes compare with ===). Same shape as
 *  jsonc-parser's Node (type/offset/length/value/parent/children/colonOffset), read-only. */
export class JsonNode {
  private kids: JsonNode[] | undefined;

  constructor(
    /** The tree this node belongs to and its index there. */
    readonly tree: Tree,
    readonly index: number,
  ) {}

  get type(): JsonNodeType {
    return this.tree.typeName(this.index);
  }

  get offset(): number {
    return this.tree.start[this.index];
  }

  get length(): number {
    return this.tree.end[this.index] - this.tree.start[this.index];
  }

  /** Decoded value for string/number/boolean/null nodes. */
  get value(): string | number | boolean | null | undefined {
    return this.tree.scalar(this.index);
  }

  get parent(): JsonNode | undefined {
    const p = this.tree.parent[this.index];
    return p < 0 ? undefined : this.tree.node(p);
  }

  /** object: property nodes; array: items; property: [key, value?]; undefined for scalars. */
  get children(): JsonNode[] | undefined {
    if (this.kids) return this.kids;
    const t = this.tree;
    const i = this.index;
    const type = t.type(i);
    if (type > PROPERTY) return undefined;
    let n = 0;
    for (let c = t.firstChild(i); c >= 0; c = t.nextSibling(c, i)) n++;
    const out = new Array<JsonNode>(n); // exact size: kept as long as the node
    n = 0;
    for (let c = t.firstChild(i); c >= 0; c = t.nextSibling(c, i)) out[n++] = t.node(c);
    return (this.kids = out);
  }

  /** On property nodes: the offset of the colon, if written. */
  get colonOffset(): number | undefined {
    const t = this.tree;
    return t.type(this.index) === PROPERTY && t.aux[this.index] >= 0 ? t.aux[this.index] : undefined;
  }

  /** On property nodes whose key starts with `#`: a comment (pSConfig 5.2+ strips these before validation). */
  get comment(): boolean | undefined {
    return this.tree.kind[this.index] & COMMENT ? true : undefined;
  }
}

/**
 * Hidden-class keepers. When the last instance of a class dies in a full collection, V8 may drop the class's final
 * hidden class, and every optimized function compiled against it is thrown away ("weak objects" deopts) and runs
 * unoptimized, allocating, until it is compiled again. A parse, a schema check or an index build makes instances
 * that all die afterwards, so each such module keeps one small instance alive for good.
 */
export const KEEP_ALIVE: unknown[] = [];
KEEP_ALIVE.push(new Tree('', 1), new JsonNode(new Tree('', 1), 0));
