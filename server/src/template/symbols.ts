// The symbol index: every named definition and every name reference in a template, with ranges.
//
// Definitions are the keys of the top-level sections (addresses, groups, tasks, …), plus address `labels` and
// `remote-addresses` entries. References are the string values that name another object (task.group,
// selector.name, host.archives[i], …). Ranges of references exclude the quotes. Comment keys (`#…`) are ignored.
// Navigation (completion, definition, references, rename, hover) and the reference rules are built on this.
import {
  itemsOf,
  keyName,
  keyOf,
  memberProps,
  nodeAtOffset,
  nodePath,
  propertyValue,
  type JsonNode,
  type JsonPath,
} from './parse';

/** Names pSConfig validates (NameType); section keys outside it are not validated by pSConfig at all. */
export const NAME_PATTERN = /^[a-zA-Z0-9:._\-]+$/;

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

export interface Definition {
  kind: SymbolKind;
  name: string;
  /** Key string node (quotes included in its offset/length). */
  keyNode: JsonNode;
  /** Name range without quotes. */
  start: number;
  end: number;
  valueNode: JsonNode | undefined;
  /** For labels / remote-addresses: the address that holds them. */
  address?: string;
  /** For labels inside a remote-addresses entry: that entry's key. */
  remote?: string;
}

export interface Reference {
  /** What the reference names. */
  kind: SymbolKind;
  name: string;
  /** The string value node (quotes included). */
  node: JsonNode;
  /** Name range without quotes. */
  start: number;
  end: number;
  /** Field that holds it, e.g. `group`, `archives`, `name`, `label`, `class`, `host`, `contexts`, `test`. */
  field: string;
  /** The definition the reference sits in (section + name), e.g. { kind: 'tasks', name: 'example-task' }. */
  ownerKind: Section;
  ownerName: string;
  /** For label references: the address the label must exist on (undefined for default-address-label). */
  address?: string;
  /** True for a remote-addresses key: it names the other address of a pair (not checked by pSConfig). */
  isKey?: boolean;
}

export class SymbolIndex {
  readonly definitions: Definition[] = [];
  readonly references: Reference[] = [];
  private readonly defMap = new Map<SymbolKind, Map<string, Definition[]>>();
  private readonly refMap = new Map<SymbolKind, Map<string, Reference[]>>();
  /** Labels per address (a template can give thousands of addresses the same label names). */
  private readonly labelMap = new Map<string, Map<string, Definition[]>>();
  private sortedRefs: Reference[] | undefined;
  private sortedDefs: Definition[] | undefined;

  constructor(readonly root: JsonNode | undefined) {}

  addDefinition(d: Definition): void {
    this.definitions.push(d);
    push(this.defMap, d.kind, d.name, d);
    if (d.kind === 'labels' && d.address !== undefined) {
      let m = this.labelMap.get(d.address);
      if (!m) this.labelMap.set(d.address, (m = new Map()));
      const a = m.get(d.name);
      if (a) a.push(d);
      else m.set(d.name, [d]);
    }
  }

  addReference(r: Reference): void {
    this.references.push(r);
    push(this.refMap, r.kind, r.name, r);
  }

  /** Definitions of `name` in `kind` (several if a key is duplicated; for labels, across all addresses unless `address` is given). */
  definitionsOf(kind: SymbolKind, name: string, address?: string): Definition[] {
    if (address !== undefined && kind === 'labels') return this.labelMap.get(address)?.get(name) ?? [];
    const all = this.defMap.get(kind)?.get(name) ?? [];
    return address === undefined ? all : all.filter((d) => d.address === address);
  }

  /** References to `name` in `kind` (for labels, restricted to `address` when given). */
  referencesTo(kind: SymbolKind, name: string, address?: string): Reference[] {
    const all = this.refMap.get(kind)?.get(name) ?? [];
    return address === undefined ? all : all.filter((r) => r.address === undefined || r.address === address);
  }

  /** Names defined in a section (in document order, without duplicates). */
  namesIn(kind: SymbolKind, address?: string): string[] {
    const byName = this.defMap.get(kind);
    if (!byName) return [];
    if (address === undefined) return [...byName.keys()];
    if (kind === 'labels') return [...(this.labelMap.get(address)?.keys() ?? [])];
    const out: string[] = [];
    for (const [name, defs] of byName) if (defs.some((d) => d.address === address)) out.push(name);
    return out;
  }

  /** The reference whose string token contains offset (quotes included). */
  referenceAt(offset: number): Reference | undefined {
    this.sortedRefs ??= [...this.references].sort((a, b) => a.node.offset - b.node.offset);
    return findByToken(this.sortedRefs, offset, (r) => r.node);
  }

  /** The definition whose key token contains offset (quotes included). */
  definitionAt(offset: number): Definition | undefined {
    this.sortedDefs ??= [...this.definitions].sort((a, b) => a.keyNode.offset - b.keyNode.offset);
    return findByToken(this.sortedDefs, offset, (d) => d.keyNode);
  }

  /** Innermost AST node at offset and its JSON path. */
  nodeAt(offset: number): { node: JsonNode; path: JsonPath } | undefined {
    const node = nodeAtOffset(this.root, offset, true);
    return node ? { node, path: nodePath(node) } : undefined;
  }
}

function push<T>(m: Map<SymbolKind, Map<string, T[]>>, kind: SymbolKind, name: string, v: T): void {
  let byName = m.get(kind);
  if (!byName) m.set(kind, (byName = new Map()));
  const a = byName.get(name);
  if (a) a.push(v);
  else byName.set(name, [v]);
}

function findByToken<T>(sorted: T[], offset: number, tok: (t: T) => JsonNode): T | undefined {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const n = tok(sorted[mid]);
    if (offset < n.offset) hi = mid - 1;
    else if (offset > n.offset + n.length) lo = mid + 1;
    else return sorted[mid];
  }
  return undefined;
}

/** Top-level section object node, if present. */
export function sectionNode(root: JsonNode | undefined, section: Section): JsonNode | undefined {
  const v = propertyValue(root, section);
  return v?.type === 'object' ? v : undefined;
}

/** Builds the index in one walk over the sections. */
export function buildSymbolIndex(root: JsonNode | undefined): SymbolIndex {
  const idx = new SymbolIndex(root);
  if (!root || root.type !== 'object') return idx;
  const b = new Builder(idx);
  for (const section of SECTIONS) {
    for (const prop of memberProps(sectionNode(root, section))) {
      const name = keyName(prop);
      const value = prop.children?.[1];
      idx.addDefinition(def(section, name, prop, undefined, undefined));
      if (value?.type !== 'object') continue;
      b.ownerKind = section;
      b.ownerName = name;
      switch (section) {
        case 'tasks':
          b.ref('groups', 'group', propertyValue(value, 'group'));
          b.ref('tests', 'test', propertyValue(value, 'test'));
          b.ref('schedules', 'schedule', propertyValue(value, 'schedule'));
          b.refs('archives', 'archives', propertyValue(value, 'archives'));
          b.refs('subtasks', 'subtasks', propertyValue(value, 'subtasks'));
          break;
        case 'subtasks':
          b.ref('tests', 'test', propertyValue(value, 'test'));
          b.refs('archives', 'archives', propertyValue(value, 'archives'));
          break;
        case 'hosts':
          b.refs('archives', 'archives', propertyValue(value, 'archives'));
          break;
        case 'addresses':
          b.address(name, value);
          break;
        case 'groups':
          b.group(value);
          break;
        case 'address-classes':
          b.filter(propertyValue(value, 'match-filter'));
          b.filter(propertyValue(value, 'exclude-filter'));
          break;
        default:
          break;
      }
    }
  }
  return idx;
}

function def(
  kind: SymbolKind,
  name: string,
  prop: JsonNode,
  address: string | undefined,
  remote: string | undefined,
): Definition {
  const keyNode = keyOf(prop);
  return {
    kind,
    name,
    keyNode,
    start: keyNode.offset + 1,
    end: keyNode.offset + keyNode.length - 1,
    valueNode: prop.children?.[1],
    address,
    remote,
  };
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

  constructor(private readonly idx: SymbolIndex) {}

  ref(kind: SymbolKind, field: string, node: JsonNode | undefined, address?: string, isKey?: boolean): void {
    if (node?.type !== 'string') return;
    this.idx.addReference({
      kind,
      name: node.value as string,
      node,
      start: node.offset + 1,
      end: node.offset + node.length - 1,
      field,
      ownerKind: this.ownerKind,
      ownerName: this.ownerName,
      address,
      isKey,
    });
  }

  refs(kind: SymbolKind, field: string, arr: JsonNode | undefined): void {
    if (arr?.type !== 'array') return;
    for (const item of arr.children ?? []) this.ref(kind, field, item);
  }

  address(address: string, value: JsonNode): void {
    this.ref('hosts', 'host', propertyValue(value, 'host'));
    this.refs('contexts', 'contexts', propertyValue(value, 'contexts'));
    this.labels(address, value, undefined);
    for (const rprop of memberProps(propertyValue(value, 'remote-addresses'))) {
      const remote = keyName(rprop);
      this.idx.addDefinition(def('remote-addresses', remote, rprop, address, undefined));
      this.ref('addresses', 'remote-addresses', keyOf(rprop), undefined, true);
      const rv = rprop.children?.[1];
      this.refs('contexts', 'contexts', propertyValue(rv, 'contexts'));
      this.labels(address, rv, remote);
    }
  }

  private labels(address: string, holder: JsonNode | undefined, remote: string | undefined): void {
    for (const lprop of memberProps(propertyValue(holder, 'labels'))) {
      this.idx.addDefinition(def('labels', keyName(lprop), lprop, address, remote));
      this.refs('contexts', 'contexts', propertyValue(lprop.children?.[1], 'contexts'));
    }
  }

  private selector(sel: JsonNode | undefined, field: SelectorField): void {
    if (sel?.type !== 'object') return;
    const name = propertyValue(sel, 'name');
    const f = SELECTOR_FIELDS[field];
    this.ref('addresses', f.name, name);
    this.ref('address-classes', f.class, propertyValue(sel, 'class'));
    this.ref(
      'labels',
      f.label,
      propertyValue(sel, 'label'),
      name?.type === 'string' ? (name.value as string) : undefined,
    );
  }

  group(value: JsonNode): void {
    for (const field of GROUP_SELECTOR_FIELDS) {
      for (const sel of itemsOf(propertyValue(value, field))) this.selector(sel, field);
    }
    for (const ex of itemsOf(propertyValue(value, 'excludes'))) {
      this.selector(propertyValue(ex, 'local-address'), 'excludes.local-address');
      for (const sel of itemsOf(propertyValue(ex, 'target-addresses'))) this.selector(sel, 'excludes.target-addresses');
    }
    this.ref('labels', 'default-address-label', propertyValue(value, 'default-address-label'));
  }

  filter(filter: JsonNode | undefined): void {
    if (filter?.type !== 'object') return;
    if (propertyValue(filter, 'type')?.value === 'address-class')
      this.ref('address-classes', 'class', propertyValue(filter, 'class'));
    for (const f of itemsOf(propertyValue(filter, 'filters'))) this.filter(f);
    this.filter(propertyValue(filter, 'filter'));
  }
}
