// The symbol index: every named definition and every name reference in a template, with ranges.
//
// Definitions are the keys of the top-level sections (addresses, groups, tasks, …), plus address `labels` and
// `remote-addresses` entries. References are the string values that name another object (task.group,
// selector.name, host.archives[i], …). Ranges of references exclude the quotes. Comment keys (`#…`) are ignored.
// Navigation (completion, definition, references, rename, hover) and the reference rules are built on this.
import { nodeAtOffset, nodePath, propertyValue, type JsonNode, type JsonPath, type Tree } from './parse';
import { KEEP_ALIVE, NODE, Tree as TreeClass } from './tree';

const { ARRAY, COMMENT, OBJECT, STRING } = NODE;

/** Names pSConfig validates (NameType); section keys outside it are not validated by pSConfig at all. */
export const NAME_PATTERN = /^[a-zA-Z0-9:._-]+$/;

export const SECTIONS = [
  'addresses',
  'address-classes',
  'archives',
  'contexts',
  'groups',
  'hosts',
  'schedules',
  'subtasks',
  'tasks',
  'tests',
] as const;
export type Section = (typeof SECTIONS)[number];
/** What a definition or reference names: a top-level section, an address label, or a remote-addresses entry. */
export type SymbolKind = Section | 'labels' | 'remote-addresses';

export function isSection(s: string): s is Section {
  return (SECTIONS as readonly string[]).includes(s);
}

/** A named definition: a section key, an address label or a remote-addresses entry. Built from tree indexes; the
 *  node views are made when a feature asks for them. */
export class Definition {
  /** Name range without quotes. */
  readonly start: number;
  readonly end: number;

  constructor(
    readonly kind: SymbolKind,
    readonly name: string,
    private readonly tree: Tree,
    /** Index of the key string (quotes included in its range). */
    readonly keyIndex: number,
    /** Index of the value, or -1. */
    readonly valueIndex: number,
    /** For labels / remote-addresses: the address that holds them. */
    readonly address: string | undefined,
    /** For labels inside a remote-addresses entry: that entry's key. */
    readonly remote: string | undefined,
  ) {
    this.start = tree.start[keyIndex] + 1;
    this.end = tree.end[keyIndex] - 1;
  }

  /** Key string node (quotes included in its offset/length). */
  get keyNode(): JsonNode {
    return this.tree.node(this.keyIndex);
  }

  get valueNode(): JsonNode | undefined {
    return this.valueIndex >= 0 ? this.tree.node(this.valueIndex) : undefined;
  }
}

/** A string value naming another object. */
export class Reference {
  /** Name range without quotes. */
  readonly start: number;
  readonly end: number;

  constructor(
    /** What the reference names. */
    readonly kind: SymbolKind,
    readonly name: string,
    private readonly tree: Tree,
    /** Index of the string value (quotes included in its range). */
    readonly nodeIndex: number,
    /** Field that holds it, e.g. `group`, `archives`, `name`, `label`, `class`, `host`, `contexts`, `test`. */
    readonly field: string,
    /** The definition the reference sits in (section + name), e.g. { kind: 'tasks', name: 'example-task' }. */
    readonly ownerKind: Section,
    readonly ownerName: string,
    /** For label references: the address the label must exist on (undefined for default-address-label). */
    readonly address: string | undefined,
    /** True for a remote-addresses key: it names the other address of a pair (not checked by pSConfig). */
    readonly isKey: boolean | undefined,
  ) {
    this.start = tree.start[nodeIndex] + 1;
    this.end = tree.end[nodeIndex] - 1;
  }

  /** The string value node (quotes included). */
  get node(): JsonNode {
    return this.tree.node(this.nodeIndex);
  }
}

export class SymbolIndex {
  private readonly defs: Definition[] = [];
  private readonly refs: Reference[] = [];
  // Per kind and name: the one entry, or an array when there are several or a caller asked for a list (most names
  // have one definition and few references: no array each, on a template with tens of thousands of them).
  private readonly defMap = new Map<SymbolKind, Map<string, Definition | Definition[]>>();
  private readonly refMap = new Map<SymbolKind, Map<string, Reference | Reference[]>>();
  /** Labels per address (a template can give thousands of addresses the same label names). */
  private readonly labelMap = new Map<string, AddressLabels>();
  private sortedRefs: Reference[] | undefined;
  private sortedDefs: Definition[] | undefined;

  constructor(readonly root: JsonNode | undefined) {}

  /** Every definition, in the order the index was built (sections in SECTIONS order, then document order). */
  get definitions(): readonly Definition[] {
    return this.defs;
  }

  /** Every reference, in the order the index was built. */
  get references(): readonly Reference[] {
    return this.refs;
  }

  addDefinition(d: Definition): void {
    this.defs.push(d);
    add(byKind(this.defMap, d.kind), d.name, d);
    if (d.kind === 'labels' && d.address !== undefined) {
      const l = this.labelMap.get(d.address);
      if (l) l.add(d);
      else this.labelMap.set(d.address, new AddressLabels(d));
    }
  }

  addReference(r: Reference): void {
    this.refs.push(r);
    add(byKind(this.refMap, r.kind), r.name, r);
  }

  /** Definitions of `name` in `kind` (several if a key is duplicated; for labels, across all addresses unless `address` is given). */
  definitionsOf(kind: SymbolKind, name: string, address?: string): Definition[] {
    if (address !== undefined && kind === 'labels') return this.labelMap.get(address)?.named(name) ?? [];
    const all = list(this.defMap.get(kind), name);
    return address === undefined ? all : all.filter((d) => d.address === address);
  }

  /** Whether `name` is defined in `kind` (for labels: on `address` when given), without making a list. */
  isDefined(kind: SymbolKind, name: string, address?: string): boolean {
    if (address !== undefined && kind === 'labels') return this.labelMap.get(address)?.has(name) === true;
    if (address === undefined) return this.defMap.get(kind)?.has(name) === true;
    return this.definitionsOf(kind, name, address).length > 0;
  }

  /** References to `name` in `kind` (for labels, restricted to `address` when given). */
  referencesTo(kind: SymbolKind, name: string, address?: string): Reference[] {
    const all = list(this.refMap.get(kind), name);
    return address === undefined ? all : all.filter((r) => r.address === undefined || r.address === address);
  }

  /** Whether some reference to `name` in `kind` satisfies `test`, without making a list. */
  someReference(kind: SymbolKind, name: string, test: (r: Reference) => boolean): boolean {
    const v = this.refMap.get(kind)?.get(name);
    if (v === undefined) return false;
    return Array.isArray(v) ? v.some(test) : test(v);
  }

  /** Whether a reference to `name` in `kind` other than a key, and outside the definition `kind`/`name` itself,
   *  exists (what "used" means for the unused-definition check): no closure per definition asked about. */
  usedElsewhere(kind: SymbolKind, name: string): boolean {
    const v = this.refMap.get(kind)?.get(name);
    if (v === undefined) return false;
    if (!Array.isArray(v)) return !v.isKey && !(v.ownerKind === kind && v.ownerName === name);
    for (const r of v) if (!r.isKey && !(r.ownerKind === kind && r.ownerName === name)) return true;
    return false;
  }

  /** Names defined in a section (in document order, without duplicates). */
  namesIn(kind: SymbolKind, address?: string): string[] {
    const byName = this.defMap.get(kind);
    if (!byName) return [];
    if (address === undefined) return [...byName.keys()];
    if (kind === 'labels') return this.labelMap.get(address)?.names() ?? [];
    const out: string[] = [];
    for (const [name, defs] of byName)
      if ((Array.isArray(defs) ? defs : [defs]).some((d) => d.address === address)) out.push(name);
    return out;
  }

  /** The reference whose string token contains offset (quotes included). */
  referenceAt(offset: number): Reference | undefined {
    this.sortedRefs ??= [...this.refs].sort((a, b) => a.start - b.start);
    return findByToken(this.sortedRefs, offset);
  }

  /** The definition whose key token contains offset (quotes included). */
  definitionAt(offset: number): Definition | undefined {
    this.sortedDefs ??= [...this.defs].sort((a, b) => a.start - b.start);
    return findByToken(this.sortedDefs, offset);
  }

  /** Innermost AST node at offset and its JSON path. */
  nodeAt(offset: number): { node: JsonNode; path: JsonPath } | undefined {
    const node = nodeAtOffset(this.root, offset, true);
    return node ? { node, path: nodePath(node) } : undefined;
  }
}

/**
 * The label definitions of one address: a list while it is short (most addresses have a label or two, and a Map
 * each cost a large mesh's index hundreds of kilobytes that the collector copies on every check), indexed by name
 * once it grows, so a hostile address with thousands of labels is not searched linearly.
 */
class AddressLabels {
  // the first definition, then the others (no spare room for the common one or two labels)
  private readonly first: Definition;
  private rest: Definition[] | undefined;
  private byName: Map<string, Definition | Definition[]> | undefined;

  constructor(first: Definition) {
    this.first = first;
  }

  add(d: Definition): void {
    if (this.byName) return add(this.byName, d.name, d);
    if (!this.rest) this.rest = [d];
    else this.rest.push(d);
    if (this.rest.length >= SHORT_LIST) {
      this.byName = new Map();
      for (const e of this.all()) add(this.byName, e.name, e);
    }
  }

  has(name: string): boolean {
    if (this.byName) return this.byName.has(name);
    if (this.first.name === name) return true;
    const rest = this.rest;
    if (rest) for (let i = 0; i < rest.length; i++) if (rest[i].name === name) return true;
    return false;
  }

  named(name: string): Definition[] {
    if (this.byName) return list(this.byName, name);
    return this.all().filter((d) => d.name === name);
  }

  /** Names in document order, without duplicates. */
  names(): string[] {
    if (this.byName) return [...this.byName.keys()];
    return [...new Set(this.all().map((d) => d.name))];
  }

  private all(): Definition[] {
    return this.rest ? [this.first, ...this.rest] : [this.first];
  }
}
const SHORT_LIST = 8;

function byKind<T>(m: Map<SymbolKind, Map<string, T | T[]>>, kind: SymbolKind): Map<string, T | T[]> {
  let byName = m.get(kind);
  if (!byName) m.set(kind, (byName = new Map<string, T | T[]>()));
  return byName;
}

function add<T extends object>(byName: Map<string, T | T[]>, name: string, v: T): void {
  const a = byName.get(name);
  if (a === undefined) byName.set(name, v);
  else if (Array.isArray(a)) a.push(v);
  else byName.set(name, [a, v]);
}

/** The entries of `name` as a list (kept, so later additions and calls share it). */
function list<T extends object>(byName: Map<string, T | T[]> | undefined, name: string): T[] {
  const a = byName?.get(name);
  if (a === undefined) return [];
  if (Array.isArray(a)) return a;
  const l = [a];
  byName!.set(name, l);
  return l;
}

/** The entry whose string token (its name range plus the quotes) contains offset. */
function findByToken<T extends { start: number; end: number }>(sorted: T[], offset: number): T | undefined {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const n = sorted[mid];
    if (offset < n.start - 1) hi = mid - 1;
    else if (offset > n.end + 1) lo = mid + 1;
    else return sorted[mid];
  }
  return undefined;
}

/** Top-level section object node, if present. */
export function sectionNode(root: JsonNode | undefined, section: Section): JsonNode | undefined {
  const v = propertyValue(root, section);
  return v?.type === 'object' ? v : undefined;
}

/** Builds the index in one walk over the sections, on tree indexes (no node objects). */
export function buildSymbolIndex(root: JsonNode | undefined): SymbolIndex {
  const idx = new SymbolIndex(root);
  if (!root || root.type !== 'object') return idx;
  const t = root.tree;
  for (const section of SECTIONS) {
    const sec = t.propertyValue(root.index, section);
    if (sec >= 0 && t.type(sec) === OBJECT) indexMembers(idx, t, section, sec, 0, t.count);
  }
  return idx;
}

/**
 * Adds the definitions and references of the members of section object `sec` whose property nodes lie in
 * [from, to) (the whole section: 0, tree.count). symbols-edited.ts re-indexes the members an edit touched with it.
 */
export function indexMembers(idx: SymbolIndex, t: Tree, section: Section, sec: number, from: number, to: number): void {
  const b = new Builder(idx, t);
  for (let prop = t.firstChild(sec); prop >= 0 && prop < to; prop = t.nextSibling(prop, sec)) {
    if (prop < from) continue;
    const value = t.propValue(prop);
    if (value < 0 || t.kind[prop] & COMMENT) continue;
    const name = t.str(prop + 1);
    idx.addDefinition(new Definition(section, name, t, prop + 1, value, undefined, undefined));
    if (t.type(value) !== OBJECT) continue;
    b.ownerKind = section;
    b.ownerName = name;
    switch (section) {
      case 'tasks':
        b.ref('groups', 'group', t.propertyValue(value, 'group'));
        b.ref('tests', 'test', t.propertyValue(value, 'test'));
        b.ref('schedules', 'schedule', t.propertyValue(value, 'schedule'));
        b.refs('archives', 'archives', t.propertyValue(value, 'archives'));
        b.refs('subtasks', 'subtasks', t.propertyValue(value, 'subtasks'));
        break;
      case 'subtasks':
        b.ref('tests', 'test', t.propertyValue(value, 'test'));
        b.refs('archives', 'archives', t.propertyValue(value, 'archives'));
        break;
      case 'hosts':
        b.refs('archives', 'archives', t.propertyValue(value, 'archives'));
        break;
      case 'addresses':
        b.address(name, value);
        break;
      case 'groups':
        b.group(value);
        break;
      case 'address-classes':
        b.filter(t.propertyValue(value, 'match-filter'));
        b.filter(t.propertyValue(value, 'exclude-filter'));
        break;
      default:
        break;
    }
  }
}

type SelectorField =
  'addresses' | 'a-addresses' | 'b-addresses' | 'excludes.local-address' | 'excludes.target-addresses';
const GROUP_SELECTOR_FIELDS = ['addresses', 'a-addresses', 'b-addresses'] as const;
/** Reference `field` strings per selector place, built once (not a template literal per selector). */
const SELECTOR_FIELDS = Object.fromEntries(
  (['addresses', 'a-addresses', 'b-addresses', 'excludes.local-address', 'excludes.target-addresses'] as const).map(
    (f) => [f, { name: `${f}.name`, class: `${f}.class`, label: `${f}.label` }],
  ),
) as Record<SelectorField, { name: string; class: string; label: string }>;

/** Adds the references found inside one definition (no closures per definition: templates can be large). */
class Builder {
  ownerKind: Section = 'tasks';
  ownerName = '';

  constructor(
    private readonly idx: SymbolIndex,
    private readonly t: Tree,
  ) {}

  ref(kind: SymbolKind, field: string, node: number, address?: string, isKey?: boolean): void {
    const t = this.t;
    if (node < 0 || t.type(node) !== STRING) return;
    this.idx.addReference(
      new Reference(kind, t.str(node), t, node, field, this.ownerKind, this.ownerName, address, isKey),
    );
  }

  refs(kind: SymbolKind, field: string, arr: number): void {
    const t = this.t;
    if (arr < 0 || t.type(arr) !== ARRAY) return;
    for (let item = t.firstChild(arr); item >= 0; item = t.nextSibling(item, arr)) this.ref(kind, field, item);
  }

  address(address: string, value: number): void {
    const t = this.t;
    this.ref('hosts', 'host', t.propertyValue(value, 'host'));
    this.refs('contexts', 'contexts', t.propertyValue(value, 'contexts'));
    this.labels(address, value, undefined);
    const remotes = t.propertyValue(value, 'remote-addresses');
    if (remotes < 0 || t.type(remotes) !== OBJECT) return;
    for (let rprop = t.firstChild(remotes); rprop >= 0; rprop = t.nextSibling(rprop, remotes)) {
      const rv = t.propValue(rprop);
      if (rv < 0 || t.kind[rprop] & COMMENT) continue;
      const remote = t.str(rprop + 1);
      this.idx.addDefinition(new Definition('remote-addresses', remote, t, rprop + 1, rv, address, undefined));
      this.ref('addresses', 'remote-addresses', rprop + 1, undefined, true);
      this.refs('contexts', 'contexts', t.propertyValue(rv, 'contexts'));
      this.labels(address, rv, remote);
    }
  }

  private labels(address: string, holder: number, remote: string | undefined): void {
    const t = this.t;
    const labels = t.propertyValue(holder, 'labels');
    if (labels < 0 || t.type(labels) !== OBJECT) return;
    for (let lprop = t.firstChild(labels); lprop >= 0; lprop = t.nextSibling(lprop, labels)) {
      const lv = t.propValue(lprop);
      if (lv < 0 || t.kind[lprop] & COMMENT) continue;
      this.idx.addDefinition(new Definition('labels', t.str(lprop + 1), t, lprop + 1, lv, address, remote));
      this.refs('contexts', 'contexts', t.propertyValue(lv, 'contexts'));
    }
  }

  private selector(sel: number, field: SelectorField): void {
    const t = this.t;
    if (sel < 0 || t.type(sel) !== OBJECT) return;
    const name = t.propertyValue(sel, 'name');
    const f = SELECTOR_FIELDS[field];
    this.ref('addresses', f.name, name);
    this.ref('address-classes', f.class, t.propertyValue(sel, 'class'));
    this.ref(
      'labels',
      f.label,
      t.propertyValue(sel, 'label'),
      name >= 0 && t.type(name) === STRING ? t.str(name) : undefined,
    );
  }

  /** Calls fn on each item of the array at `arr` (nothing for anything else). */
  private each(arr: number, fn: (item: number) => void): void {
    const t = this.t;
    if (arr < 0 || t.type(arr) !== ARRAY) return;
    for (let i = t.firstChild(arr); i >= 0; i = t.nextSibling(i, arr)) fn(i);
  }

  group(value: number): void {
    const t = this.t;
    for (const field of GROUP_SELECTOR_FIELDS)
      this.each(t.propertyValue(value, field), (sel) => this.selector(sel, field));
    this.each(t.propertyValue(value, 'excludes'), (ex) => {
      this.selector(t.propertyValue(ex, 'local-address'), 'excludes.local-address');
      this.each(t.propertyValue(ex, 'target-addresses'), (sel) => this.selector(sel, 'excludes.target-addresses'));
    });
    this.ref('labels', 'default-address-label', t.propertyValue(value, 'default-address-label'));
  }

  filter(filter: number): void {
    const t = this.t;
    if (filter < 0 || t.type(filter) !== OBJECT) return;
    const type = t.propertyValue(filter, 'type');
    if (type >= 0 && t.type(type) === STRING && t.str(type) === 'address-class')
      this.ref('address-classes', 'class', t.propertyValue(filter, 'class'));
    this.each(t.propertyValue(filter, 'filters'), (f) => this.filter(f));
    this.filter(t.propertyValue(filter, 'filter'));
  }
}

{
  // see tree.ts: one of each per-run class stays alive
  const t = new TreeClass('""', 1);
  t.leaf(NODE.STRING, 0, 2, -1);
  const idx = new SymbolIndex(undefined);
  KEEP_ALIVE.push(
    idx,
    new Builder(idx, t),
    new Definition('tests', '', t, 0, -1, undefined, undefined),
    new Reference('tests', '', t, 0, 'test', 'tasks', '', undefined, undefined),
  );
  // address labels in every state: one, a few, indexed by name
  const labels = new AddressLabels(new Definition('labels', '', t, 0, -1, '', undefined));
  for (let i = 0; i < SHORT_LIST; i++) labels.add(new Definition('labels', `${i}`, t, 0, -1, '', undefined));
  KEEP_ALIVE.push(new AddressLabels(new Definition('labels', '', t, 0, -1, '', undefined)), labels);
  const two = new AddressLabels(new Definition('labels', '', t, 0, -1, '', undefined));
  two.add(new Definition('labels', 'x', t, 0, -1, '', undefined));
  KEEP_ALIVE.push(two);
}
