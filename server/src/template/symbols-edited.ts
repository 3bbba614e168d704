// The symbol index of an edited version, from the index of an earlier version plus the members the edits touched.
// Rebuilding the whole index after each keystroke of a large template costs tens of thousands of objects (10–25 ms
// and most of the main thread's garbage collection on the 1.6 MB bench template); an edit changes a few members of
// one section. So an edited version keeps the last fully built index (the base) as it is, re-indexes only the
// members in one range of the current tree (every member any edit since the base touched), and answers lookups by
// combining the two: base entries outside that range, moved to the current tree's indexes, and the range's own.
//
// Entries are made for the current tree when a lookup returns them, never for the whole index unless someone asks
// for every definition or reference. The answers are exactly those buildSymbolIndex gives for the current tree, in
// the same order (test/unit/template/symbols-edited.test.ts).
import type { JsonNode } from './json-node';
import { buildSymbolIndex, Definition, indexMembers, isSection, Reference, SECTIONS, SymbolIndex } from './symbols';
import type { SymbolKind } from './symbols';
import type { TreeSplice } from './incremental';
import { NODE, type Tree } from './tree';

const { OBJECT, PROPERTY } = NODE;

/** Above this many re-indexed nodes (plus a share of the tree), a full rebuild is cheaper than combining. */
const MAX_RANGE_NODES = 4096;

/**
 * The index of `tree` (the previous version's tree `prevTree`, whose index is `prev`, with `splice` applied): an
 * EditedSymbolIndex when the edits since the last full index stay within one section, else a full build.
 */
export function editedSymbolIndex(
  prev: SymbolIndex,
  prevTree: Tree,
  tree: Tree,
  root: JsonNode | undefined,
  splice: TreeSplice,
): SymbolIndex {
  const step = stepRange(prevTree, splice);
  if (step && root) {
    const base = prev instanceof EditedSymbolIndex ? prev.base : prev;
    const range = prev instanceof EditedSymbolIndex ? union(prev.range, step) : step;
    if (range && range.hiNew - range.lo <= MAX_RANGE_NODES + (tree.count >> 4))
      return new EditedSymbolIndex(root, base, tree, range, baseTextLength(prev, prevTree));
  }
  return buildSymbolIndex(root);
}

/** The nodes the edits replaced: [lo, hiBase) of the base tree became [lo, hiNew) of the current one; everything
 *  before lo is unchanged, everything from hiBase on moved by hiNew - hiBase. All whole members of the top-level
 *  object `sec` (-1: no node changed). */
export interface EditedRange {
  sec: number;
  lo: number;
  hiBase: number;
  hiNew: number;
}

/** The members of one splice (indexes of the previous tree, and of the new one for the end). */
function stepRange(t: Tree, s: TreeSplice): EditedRange | undefined {
  const { container: c, from, to, added } = s;
  if (added === 0 && from === to) return { sec: -1, lo: 0, hiBase: 0, hiNew: 0 };
  // Depths: the root 0, its properties 1, their values (sections) 2, section members 3.
  const chain: number[] = [];
  for (let a = c; a >= 0; a = t.parent[a]) chain.push(a);
  const depth = chain.length - 1;
  if (depth < 2) return undefined; // the root itself: the sections may change
  const sec = chain[depth - 2];
  if (depth === 2) return { sec, lo: from, hiBase: to, hiNew: from + added };
  const member = chain[depth - 3];
  const end = t.next[member];
  return { sec, lo: member, hiBase: end, hiNew: end + added - (to - from) };
}

/** The range since the base after one more step (step indexes: the previous tree's, which is range's new). */
function union(range: EditedRange, step: EditedRange): EditedRange | undefined {
  if (range.sec < 0) return step;
  if (step.sec < 0) return range;
  if (step.sec !== range.sec) return undefined;
  const shift = range.hiNew - range.hiBase;
  const stepShift = step.hiNew - step.hiBase;
  const lo = Math.min(range.lo, step.lo);
  // Upper bound in the previous tree, then in the base and the new tree.
  const hiPrev = Math.max(range.hiNew, step.hiBase);
  return { sec: range.sec, lo, hiBase: hiPrev - shift, hiNew: hiPrev + stepShift };
}

/** The base's text length: offsets after the edited range moved by the difference. */
function baseTextLength(prev: SymbolIndex, prevTree: Tree): number {
  return prev instanceof EditedSymbolIndex ? prev.baseTextLength : prevTree.text.length;
}

const ADDRESS_ORDER = SECTIONS.indexOf('addresses');

/** Which section an entry was indexed in, as its position in SECTIONS (the index is built in that order). */
function sectionOrder(e: Definition | Reference): number {
  if (e instanceof Reference) return SECTIONS.indexOf(e.ownerKind);
  return e.kind === 'labels' || e.kind === 'remote-addresses' ? ADDRESS_ORDER : SECTIONS.indexOf(e.kind);
}

export class EditedSymbolIndex extends SymbolIndex {
  /** The range's own entries, indexed on the current tree. */
  private readonly own: SymbolIndex;
  /** The section whose members the range holds, as its position in SECTIONS (-1: none indexed). */
  private readonly order: number;
  private readonly shift: number;
  private readonly textShift: number;
  private readonly lists = new Map<string, (Definition | Reference)[]>();
  private readonly moved = new Map<Definition | Reference, Definition | Reference>();
  private allDefs: Definition[] | undefined;
  private allRefs: Reference[] | undefined;

  constructor(
    root: JsonNode,
    readonly base: SymbolIndex,
    private readonly tree: Tree,
    readonly range: EditedRange,
    readonly baseTextLength: number,
  ) {
    super(root);
    this.shift = range.hiNew - range.hiBase;
    this.textShift = tree.text.length - baseTextLength;
    this.own = new SymbolIndex(root);
    this.order = -1;
    const { sec } = range;
    if (sec >= 0 && tree.type(sec) === OBJECT) {
      const prop = tree.parent[sec];
      const name = prop > 0 && tree.type(prop) === PROPERTY ? tree.str(prop + 1) : '';
      // Only the section object pSConfig reads (the last of duplicate keys) is indexed.
      if (isSection(name) && tree.propertyValue(0, name) === sec) {
        this.order = SECTIONS.indexOf(name);
        indexMembers(this.own, tree, name, sec, range.lo, range.hiNew);
      }
    }
  }

  // ---- where base entries go ----

  /** A base entry's node was replaced by the edits (its member is re-indexed in `own`). */
  private replaced(i: number): boolean {
    return i >= this.range.lo && i < this.range.hiBase && this.range.sec >= 0;
  }

  private indexOf(e: Definition | Reference): number {
    return e instanceof Reference ? e.nodeIndex : e.keyIndex;
  }

  /** Built before the range's entries (the base lists are in build order). */
  private before(e: Definition | Reference): boolean {
    const o = sectionOrder(e);
    return o < this.order || (o === this.order && this.indexOf(e) < this.range.lo);
  }

  private at(i: number): number {
    return i < 0 || i < this.range.lo ? i : i + this.shift;
  }

  /** The base entry on the current tree (made once per version). */
  private move<T extends Definition | Reference>(e: T): T {
    let m = this.moved.get(e);
    if (!m) {
      const t = this.tree;
      m =
        e instanceof Reference
          ? new Reference(
              e.kind,
              e.name,
              t,
              this.at(e.nodeIndex),
              e.field,
              e.ownerKind,
              e.ownerName,
              e.address,
              e.isKey,
            )
          : new Definition(e.kind, e.name, t, this.at(e.keyIndex), this.at(e.valueIndex), e.address, e.remote);
      this.moved.set(e, m);
    }
    return m as T;
  }

  /** A base list and the range's list of the same entries, combined in build order. */
  private combine<T extends Definition | Reference>(base: readonly T[], own: readonly T[]): T[] {
    const out: T[] = [];
    let i = 0;
    for (; i < base.length && this.before(base[i]); i++) out.push(this.move(base[i]));
    for (const e of own) out.push(e);
    for (; i < base.length; i++) if (!this.replaced(this.indexOf(base[i]))) out.push(this.move(base[i]));
    return out;
  }

  private cached<T extends Definition | Reference>(key: string, make: () => T[]): T[] {
    let l = this.lists.get(key);
    if (!l) this.lists.set(key, (l = make()));
    return l as T[];
  }

  // ---- the SymbolIndex interface ----

  override get definitions(): readonly Definition[] {
    return (this.allDefs ??= this.combine(this.base.definitions, this.own.definitions));
  }

  override get references(): readonly Reference[] {
    return (this.allRefs ??= this.combine(this.base.references, this.own.references));
  }

  override addDefinition(): void {
    throw new Error('an edited index is read-only');
  }

  override addReference(): void {
    throw new Error('an edited index is read-only');
  }

  override definitionsOf(kind: SymbolKind, name: string, address?: string): Definition[] {
    return this.cached(`d\u0000${kind}\u0000${name}\u0000${address ?? '\u0001'}`, () =>
      this.combine(this.base.definitionsOf(kind, name, address), this.own.definitionsOf(kind, name, address)),
    );
  }

  override isDefined(kind: SymbolKind, name: string, address?: string): boolean {
    if (this.own.isDefined(kind, name, address)) return true;
    if (!this.base.isDefined(kind, name, address)) return false;
    return this.base.definitionsOf(kind, name, address).some((d) => !this.replaced(d.keyIndex));
  }

  override referencesTo(kind: SymbolKind, name: string, address?: string): Reference[] {
    return this.cached(`r\u0000${kind}\u0000${name}\u0000${address ?? '\u0001'}`, () =>
      this.combine(this.base.referencesTo(kind, name, address), this.own.referencesTo(kind, name, address)),
    );
  }

  override someReference(kind: SymbolKind, name: string, test: (r: Reference) => boolean): boolean {
    return this.referencesTo(kind, name).some(test);
  }

  override namesIn(kind: SymbolKind, address?: string): string[] {
    // In the order of each name's first definition (SymbolIndex.namesIn). The base's list splits into the names
    // first defined before the range (a prefix) and the rest; the range's own names go between. A name whose
    // first definition the edits removed but that is defined again after the range would have to move: that
    // rare case, and the address filter of other kinds than labels, count from every definition instead.
    if (address !== undefined && kind !== 'labels') return this.namesFromScratch(kind, address);
    const own = this.own.namesIn(kind, address);
    const names = this.base.namesIn(kind, address);
    const first = (name: string): Definition | undefined => this.base.definitionsOf(kind, name, address)[0];
    let lo = 0;
    let hi = names.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const d = first(names[mid]);
      if (d && this.before(d)) lo = mid + 1;
      else hi = mid;
    }
    const out = names.slice(0, lo);
    for (const name of own) {
      const d = first(name);
      if (!(d && this.before(d))) out.push(name);
    }
    const ownSet = new Set(own);
    for (let i = lo; i < names.length; i++) {
      const name = names[i];
      if (ownSet.has(name)) continue;
      if (this.replaced(first(name)!.keyIndex)) {
        if (this.definitionsOf(kind, name, address).length > 0) return this.namesFromScratch(kind, address);
        continue;
      }
      out.push(name);
    }
    return out;
  }

  /** namesIn from every definition, as SymbolIndex counts them. */
  private namesFromScratch(kind: SymbolKind, address: string | undefined): string[] {
    const byLabelAddress = kind === 'labels' && address !== undefined;
    const names = new Map<string, boolean>();
    for (const d of this.definitions) {
      if (d.kind !== kind || (byLabelAddress && d.address !== address)) continue;
      names.set(d.name, names.get(d.name) === true || address === undefined || d.address === address);
    }
    return [...names].filter(([, has]) => has).map(([n]) => n);
  }

  override referenceAt(offset: number): Reference | undefined {
    return this.own.referenceAt(offset) ?? this.fromBase(offset, (o) => this.base.referenceAt(o));
  }

  override definitionAt(offset: number): Definition | undefined {
    return this.own.definitionAt(offset) ?? this.fromBase(offset, (o) => this.base.definitionAt(o));
  }

  /** The base entry whose token holds `offset` once moved: base entries before the range have the offsets they
   *  had, those after it moved by the text's change in length. */
  private fromBase<T extends Definition | Reference>(
    offset: number,
    find: (o: number) => T | undefined,
  ): T | undefined {
    for (const o of this.textShift === 0 ? [offset] : [offset, offset - this.textShift]) {
      const e = find(o);
      if (!e || this.replaced(this.indexOf(e))) continue;
      const m = this.move(e);
      if (offset >= m.start - 1 && offset <= m.end + 1) return m;
    }
    return undefined;
  }
}
