// The symbol index: every named definition and every name reference in a template, with ranges.
//
// Definitions are the keys of the top-level sections (addresses, groups, tasks, …), plus address `labels` and
// `remote-addresses` entries. References are the string values that name another object (task.group,
// selector.name, host.archives[i], …). Ranges of references exclude the quotes. Comment keys (`#…`) are ignored.
// Navigation (completion, definition, references, rename, hover) and the reference rules are built on this.
import { itemsOf, keyOf, members, nodeAtOffset, nodePath, propertyValue, type JsonNode, type JsonPath } from './parse';

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
  private readonly defMap = new Map<string, Definition[]>();
  private readonly refMap = new Map<string, Reference[]>();
  private sortedRefs: Reference[] | undefined;
  private sortedDefs: Definition[] | undefined;

  constructor(readonly root: JsonNode | undefined) {}

  addDefinition(d: Definition): void {
    this.definitions.push(d);
    push(this.defMap, mapKey(d.kind, d.name), d);
  }

  addReference(r: Reference): void {
    this.references.push(r);
    push(this.refMap, mapKey(r.kind, r.name), r);
  }

  /** Definitions of `name` in `kind` (several if a key is duplicated; for labels, across all addresses unless `address` is given). */
  definitionsOf(kind: SymbolKind, name: string, address?: string): Definition[] {
    const all = this.defMap.get(mapKey(kind, name)) ?? [];
    return address === undefined ? all : all.filter((d) => d.address === address);
  }

  /** References to `name` in `kind` (for labels, restricted to `address` when given). */
  referencesTo(kind: SymbolKind, name: string, address?: string): Reference[] {
    const all = this.refMap.get(mapKey(kind, name)) ?? [];
    return address === undefined ? all : all.filter((r) => r.address === undefined || r.address === address);
  }

  /** Names defined in a section (in document order, without duplicates). */
  namesIn(kind: SymbolKind, address?: string): string[] {
    const out = new Set<string>();
    for (const d of this.definitions) if (d.kind === kind && (address === undefined || d.address === address)) out.add(d.name);
    return [...out];
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

function mapKey(kind: SymbolKind, name: string): string {
  return `${kind}\u0000${name}`;
}

function push<T>(m: Map<string, T[]>, k: string, v: T): void {
  const a = m.get(k);
  if (a) a.push(v);
  else m.set(k, [v]);
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
  for (const section of SECTIONS) {
    for (const [name, prop] of members(sectionNode(root, section))) {
      const value = prop.children?.[1];
      idx.addDefinition(def(section, name, prop));
      if (value?.type !== 'object') continue;
      const owner = { ownerKind: section, ownerName: name };
      const ref = (kind: SymbolKind, field: string, node: JsonNode | undefined, extra?: Partial<Reference>): void => {
        if (node?.type !== 'string') return;
        idx.addReference({ kind, name: node.value as string, node, start: node.offset + 1, end: node.offset + node.length - 1, field, ...owner, ...extra });
      };
      const refs = (kind: SymbolKind, field: string, arr: JsonNode | undefined): void => {
        for (const item of itemsOf(arr)) ref(kind, field, item);
      };
      switch (section) {
        case 'tasks':
          ref('groups', 'group', propertyValue(value, 'group'));
          ref('tests', 'test', propertyValue(value, 'test'));
          ref('schedules', 'schedule', propertyValue(value, 'schedule'));
          refs('archives', 'archives', propertyValue(value, 'archives'));
          refs('subtasks', 'subtasks', propertyValue(value, 'subtasks'));
          break;
        case 'subtasks':
          ref('tests', 'test', propertyValue(value, 'test'));
          refs('archives', 'archives', propertyValue(value, 'archives'));
          break;
        case 'hosts':
          refs('archives', 'archives', propertyValue(value, 'archives'));
          break;
        case 'addresses':
          indexAddress(idx, name, value, ref, refs);
          break;
        case 'groups':
          indexGroup(value, ref);
          break;
        case 'address-classes':
          for (const f of ['match-filter', 'exclude-filter']) indexFilter(propertyValue(value, f), ref);
          break;
        default:
          break;
      }
    }
  }
  return idx;
}

type RefFn = (kind: SymbolKind, field: string, node: JsonNode | undefined, extra?: Partial<Reference>) => void;
type RefsFn = (kind: SymbolKind, field: string, arr: JsonNode | undefined) => void;

function def(kind: SymbolKind, name: string, prop: JsonNode, extra?: Partial<Definition>): Definition {
  const keyNode = keyOf(prop);
  return { kind, name, keyNode, start: keyNode.offset + 1, end: keyNode.offset + keyNode.length - 1, valueNode: prop.children?.[1], ...extra };
}

function indexAddress(idx: SymbolIndex, address: string, value: JsonNode, ref: RefFn, refs: RefsFn): void {
  ref('hosts', 'host', propertyValue(value, 'host'));
  refs('contexts', 'contexts', propertyValue(value, 'contexts'));
  const labels = (holder: JsonNode | undefined, remote?: string): void => {
    for (const [label, lprop] of members(propertyValue(holder, 'labels'))) {
      idx.addDefinition(def('labels', label, lprop, { address, remote }));
      refs('contexts', 'contexts', propertyValue(lprop.children?.[1], 'contexts'));
    }
  };
  labels(value);
  for (const [remote, rprop] of members(propertyValue(value, 'remote-addresses'))) {
    idx.addDefinition(def('remote-addresses', remote, rprop, { address }));
    const key = keyOf(rprop);
    ref('addresses', 'remote-addresses', key, { isKey: true });
    const rv = rprop.children?.[1];
    refs('contexts', 'contexts', propertyValue(rv, 'contexts'));
    labels(rv, remote);
  }
}

function indexSelector(sel: JsonNode | undefined, field: string, ref: RefFn): void {
  if (sel?.type !== 'object') return;
  const name = propertyValue(sel, 'name');
  ref('addresses', `${field}.name`, name);
  ref('address-classes', `${field}.class`, propertyValue(sel, 'class'));
  const address = name?.type === 'string' ? (name.value as string) : undefined;
  ref('labels', `${field}.label`, propertyValue(sel, 'label'), { address });
}

function indexGroup(value: JsonNode, ref: RefFn): void {
  for (const field of ['addresses', 'a-addresses', 'b-addresses']) {
    for (const sel of itemsOf(propertyValue(value, field))) indexSelector(sel, field, ref);
  }
  for (const ex of itemsOf(propertyValue(value, 'excludes'))) {
    indexSelector(propertyValue(ex, 'local-address'), 'excludes.local-address', ref);
    for (const sel of itemsOf(propertyValue(ex, 'target-addresses'))) indexSelector(sel, 'excludes.target-addresses', ref);
  }
  ref('labels', 'default-address-label', propertyValue(value, 'default-address-label'));
}

function indexFilter(filter: JsonNode | undefined, ref: RefFn): void {
  if (filter?.type !== 'object') return;
  const type = propertyValue(filter, 'type')?.value;
  if (type === 'address-class') ref('address-classes', 'class', propertyValue(filter, 'class'));
  for (const f of itemsOf(propertyValue(filter, 'filters'))) indexFilter(f, ref);
  indexFilter(propertyValue(filter, 'filter'), ref);
}
