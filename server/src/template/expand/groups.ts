// Groups → address combinations, in pSConfig's iteration order (BaseGroup.next: first-index-major over the
// selector lists), with excludes, excludes-self, labels, remote-addresses and parent inheritance.
// Sources: psconfig P/psconfig/client/psconfig/groups/*.py, perl-shared .../PSConfig/Groups/*.pm.
import { ClassContext, selectClass } from './address-classes';
import {
  AddressNode,
  canonicalJson,
  effectiveAddress,
  Json,
  JsonObject,
  NameLabelAddress,
  str,
  truthy,
} from './template-view';
import { isObject, jsonText } from '../../../../common/json';

/** Hands out AddressNodes, reusing one per (address, label, remote key) so a 300-address mesh stays cheap. */
export class NodeTable {
  readonly list: AddressNode[] = [];
  private readonly base = new Map<JsonObject, AddressNode>();
  private readonly derived = new Map<string, AddressNode>();

  baseNode(name: string, data: JsonObject): AddressNode {
    let n = this.base.get(data);
    if (!n) {
      n = {
        id: this.list.length,
        kind: 'address',
        data,
        address: str(data.address),
        objectName: name,
        hostRef: str(data.host),
        disabled: truthy(data.disabled),
        noAgent: truthy(data['no-agent']),
      };
      this.list.push(n);
      this.base.set(data, n);
    }
    return n;
  }

  /** A label or remote entry with its parents merged in (merge_parents: disabled/no-agent ORed, address, host). */
  derivedNode(
    parent: AddressNode,
    kind: 'label' | 'remote',
    data: JsonObject,
    key: string,
    parents: JsonObject[],
  ): AddressNode {
    const k = `${parent.id}\u0000${kind}\u0000${key}`;
    let n = this.derived.get(k);
    if (!n) {
      n = {
        id: this.list.length,
        kind,
        data,
        address: str(data.address),
        objectName: parent.objectName,
        parentAddress: parent.address,
        hostRef: parent.hostRef,
        disabled: truthy(data.disabled) || parent.disabled || parents.some((p) => truthy(p.disabled)),
        noAgent: truthy(data['no-agent']) || parent.noAgent || parents.some((p) => truthy(p['no-agent'])),
      };
      this.list.push(n);
      this.derived.set(k, n);
    }
    return n;
  }
}

export interface GroupContext {
  classes: ClassContext;
  nodes: NodeTable;
  /** Notes are attached to the task being expanded by the caller. */
  note(message: string): void;
}

export interface GroupInfo {
  type: string;
  /** Members per combination (2 for mesh/disjoint, 1 for list). */
  size: number;
}

export function groupInfo(group: JsonObject): GroupInfo | undefined {
  if (group.type === 'mesh' || group.type === 'disjoint') return { type: group.type, size: 2 };
  if (group.type === 'list') return { type: 'list', size: 1 };
  return undefined;
}

function selectors(v: Json | undefined): JsonObject[] {
  return Array.isArray(v) ? v.map((s) => (isObject(s) ? s : {})) : [];
}

/** BaseGroup.select_address as the 5.x code does it (which §3.3 of the reference describes). */
export function selectAddress(
  ctx: GroupContext,
  group: JsonObject,
  nla: NameLabelAddress,
  remoteKey: string,
): AddressNode | undefined {
  const local = ctx.nodes.baseNode(nla.name, nla.data);
  const label = nla.label || str(group['default-address-label']);
  const remotes = nla.data['remote-addresses'];
  const remote = isObject(remotes) && isObject(remotes[remoteKey]) ? remotes[remoteKey] : undefined;
  if (remote) {
    const rLabels = remote.labels;
    const rLabel = label && isObject(rLabels) && isObject(rLabels[label]) ? rLabels[label] : undefined;
    if (rLabel) return ctx.nodes.derivedNode(local, 'label', rLabel, `r:${remoteKey}:${label}`, [remote]);
    if (!label && str(remote.address)) return ctx.nodes.derivedNode(local, 'remote', remote, `r:${remoteKey}`, []);
    if (label && !str(remote.address)) return undefined;
    ctx.note(
      `Address ${nla.name} has a remote-addresses entry for ${remoteKey} that does not apply here; pSConfig 5.x falls back to ` +
        `the address${label ? ` label ${label}` : ''} (shown), Perl 4.x skipped the pair.`,
    );
  }
  if (label) {
    const labels = nla.data.labels;
    const entry = isObject(labels) && isObject(labels[label]) ? labels[label] : undefined;
    return entry ? ctx.nodes.derivedNode(local, 'label', entry, `l:${label}`, []) : undefined;
  }
  return local;
}

/** What one selector yields, or undefined when it names a missing address or class (pSConfig yields nothing). */
function select(ctx: GroupContext, groupName: string, sel: JsonObject): NameLabelAddress[] | undefined {
  if (sel.class !== undefined) {
    const cls = str(sel.class);
    const r = cls ? selectClass(ctx.classes, cls) : undefined;
    if (!r)
      ctx.note(
        `Group ${groupName} selects address class ${jsonText(sel.class)}, which does not exist; those combinations are skipped.`,
      );
    return r;
  }
  const name = str(sel.name);
  const data = name ? ctx.classes.view.addresses.get(name) : undefined;
  if (!name || !data) {
    ctx.note(
      `Group ${groupName} references an address object ${jsonText(sel.name)} that does not exist; pSConfig 4.x skips those combinations (5.x would stop with an exception).`,
    );
    return undefined;
  }
  return [{ name, label: str(sel.label), data }];
}

function excludedSelf(
  group: JsonObject,
  a: AddressNode,
  b: AddressNode,
  aHost: string | undefined,
  bHost: string | undefined,
): boolean {
  const scope = group['excludes-self'] ?? 'host';
  if (scope === 'host' && aHost && bHost && aHost.toLowerCase() === bHost.toLowerCase()) return true;
  if (scope === 'host' || scope === 'address') {
    const x = effectiveAddress(a);
    const y = effectiveAddress(b);
    if (x && y && x === y) return true;
  }
  return false;
}

function excludeMap(group: JsonObject): Map<string, Set<string>> {
  const m = new Map<string, Set<string>>();
  for (const pair of selectors(group.excludes)) {
    const local = canonicalJson(pair['local-address']);
    let targets = m.get(local);
    if (!targets) m.set(local, (targets = new Set()));
    for (const t of selectors(pair['target-addresses'])) targets.add(canonicalJson(t));
  }
  return m;
}

/**
 * Every combination of the group, in pSConfig order. Disabled members are NOT filtered here (the task generator
 * does that); excluded combinations and selector-level skips are.
 */
export function* iterateGroup(ctx: GroupContext, groupName: string, group: JsonObject): Generator<AddressNode[]> {
  if (group.type === 'list') {
    for (const sel of selectors(group.addresses)) {
      if (sel.disabled === true) continue;
      for (const nla of select(ctx, groupName, sel) ?? []) {
        const n = selectAddress(ctx, group, nla, nla.name);
        if (n) yield [n];
      }
    }
    return;
  }
  let dim: JsonObject[];
  let keep: (i: number, j: number) => boolean;
  // Selector checksums (canonical JSON), made when first needed: a mesh without `excludes` needs none, and the
  // checks iterate each group up to its first combination only.
  const sums: string[] = [];
  const sum = (i: number): string => (sums[i] ??= canonicalJson(dim[i]));
  if (group.type === 'mesh') {
    dim = selectors(group.addresses);
    keep = () => true;
  } else if (group.type === 'disjoint') {
    const a = selectors(group['a-addresses']);
    const b = selectors(group['b-addresses']);
    dim = [...a, ...b];
    // Each distinct checksum as a number: pairs are then keyed without joining two checksums (a selector holding a
    // long string made a key of hundreds of kilobytes, built and hashed for every pair).
    const ids = new Map<string, number>();
    const idOf: number[] = [];
    for (let i = 0; i < dim.length; i++) {
      const s = sum(i);
      let id = ids.get(s);
      if (id === undefined) ids.set(s, (id = ids.size));
      idOf[i] = id;
    }
    const aSet = new Set<number>();
    const bSet = new Set<number>();
    for (let i = 0; i < dim.length; i++) (i < a.length ? aSet : bSet).add(idOf[i]);
    const uni = truthy(group.unidirectional);
    const checked = new Set<number>();
    const n = ids.size;
    // Disjoint.is_excluded_selectors: A→B (and B→A unless unidirectional), each selector pair once.
    keep = (i, j) => {
      const si = idOf[i];
      const sj = idOf[j];
      if (!((aSet.has(si) && bSet.has(sj)) || (!uni && aSet.has(sj) && bSet.has(si)))) return false;
      const k = si * n + sj;
      if (checked.has(k)) return false;
      checked.add(k);
      return true;
    };
  } else {
    return;
  }
  const excludes = excludeMap(group);
  const cache = new Map<number, NameLabelAddress[] | undefined>();
  const selectCached = (i: number): NameLabelAddress[] | undefined => {
    if (!cache.has(i)) cache.set(i, select(ctx, groupName, dim[i]));
    return cache.get(i);
  };
  const n = dim.length;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      if (!keep(i, j)) continue;
      if (excludes.size > 0 && excludes.get(sum(i))?.has(sum(j))) continue;
      // The docs say a selector with `disabled: true` is skipped; neither implementation reads it (noted by the engine).
      if (dim[i].disabled === true || dim[j].disabled === true) continue;
      const aList = selectCached(i);
      const bList = selectCached(j);
      if (!aList || !bList) continue;
      for (const a of aList) {
        for (const b of bList) {
          const aNode = selectAddress(ctx, group, a, b.name);
          const bNode = selectAddress(ctx, group, b, a.name);
          if (!aNode || !bNode) continue;
          if (excludedSelf(group, aNode, bNode, str(a.data.host), str(b.data.host))) continue;
          yield [aNode, bNode];
        }
      }
    }
  }
}
