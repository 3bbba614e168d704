// What pSConfig puts in place of `{% ... %}` in a test, archive or context, as far as the template says without
// running the engine: for each task using the object, the addresses its group can put at each index. Used to
// judge expanded values (a Host field filled by `{% pscheduler_address[1] %}` that is `host:443` is refused).
//
// Conservative on purpose: where the answer depends on things we do not follow here (class selectors,
// remote-addresses between members, jq), the value is "some string" and only its type is judged. The exact
// per-combination check runs on the engine's output (expand/, the preview and `psconfig-tools expand`).
//
// Cost: a large mesh repeats the same (group, string) many times, so candidate lists are built once per
// (groups and scheduled-by of the users, string) and carry that key; the checker caches its verdict by it too.
import { isIPv4, isIPv6 } from 'node:net';
import { bracketIpv6Urls } from '../expand/ipv6-url';
import type { GroupInfo, TaskInfo, TemplateModel } from '../model';
import { itemsOf, members, propertyValue, stringValue, type JsonNode } from '../parse';
import { sectionNode } from '../symbols';
import { isHostOrIp } from '../rules/address-format';
import { describeValue } from './describe';
import type { Candidate, Expansion } from './validate';
import type { NodeLike } from './nodes';
import { cacheKey } from '../own-string';

const VAR_RE = /\{%\s+(.+?)\s+%\}/g;
const INDEXED = /^(address|pscheduler_address|lead_bind_address)\[(\d+)\]$/;
const MAX_PER_TASK = 200;
const MAX_VALUES = 1000;

/** An address or label entry a group can put at a position, with what the variables read from it. */
interface Entry {
  address?: string;
  pschedulerAddress?: string;
  leadBindAddress?: string;
  noAgent: boolean;
}

interface GroupSlots {
  /** Class selectors or remote-addresses between members: positions not known here. */
  uncertain: boolean;
  byIndex: Entry[][];
  /** variable (and scheduled-by) -> the values, one per form */
  values?: Map<string, string[]>;
}

/**
 * Group positions and expansions depend only on the text of the addresses and hosts sections and of the group:
 * kept across parses (the next keystroke re-validates a template that is mostly the same), for the last
 * addresses/hosts text seen.
 */
interface SharedCache {
  /** The text of the addresses and of the hosts section this cache was built for. */
  addressesText: string;
  hostsText: string;
  /** Group text -> a short id used in keys (hashing kilobytes of group text per string would cost more). */
  groupIds: Map<string, number>;
  groups: Map<number, GroupSlots>;
  /** [values wanted?] users key -> string -> expansion */
  expansions: [Map<string, Map<string, Expansion | undefined>>, Map<string, Map<string, Expansion | undefined>>];
  /** The same for the common case of one user, without building a key: group id -> scheduled-by ->
   *  [type only, values] -> string -> expansion (shared by every task of that group and scheduled-by; the task
   *  named in messages is set on the expansion when it is handed out). */
  single: Map<number, Map<number, [Map<string, Expansion | undefined>, Map<string, Expansion | undefined>]>>;
  /** Expansions stored: the cache starts over beyond a bound (edits that keep the addresses but rename tasks). */
  count: number;
  /** Which cache this is (results computed with another one must not be reused). */
  generation: number;
}
let generations = 0;
let shared: SharedCache | undefined;

/** The cache generation a model's checks use: results from another generation are stale. */
export function expansionGeneration(model: TemplateModel): number {
  return cacheOf(model).shared.generation;
}

/** What the expansions of strings used by these tasks depend on, besides the addresses and hosts text. */
export function usersSignature(model: TemplateModel, users: readonly TaskInfo[]): string {
  return usersKey(model, users as TaskInfo[]);
}

/** Forget what earlier versions left (the benchmark measures a first check with it). */
export function clearPschedulerCaches(): void {
  shared = undefined;
}

interface ModelCache {
  shared: SharedCache;
  groupKey: Map<string, number>;
  addresses?: Map<string, JsonNode>;
  hosts?: Map<string, JsonNode>;
}
const caches = new WeakMap<TemplateModel, ModelCache>();

function cacheOf(model: TemplateModel): ModelCache {
  let c = caches.get(model);
  if (!c) {
    const { text, root } = model.parsed;
    const a = sectionNode(root, 'addresses');
    const h = sectionNode(root, 'hosts');
    // Slices share the document's storage and compare natively: no megabyte copy per keystroke.
    const addressesText = a ? text.slice(a.offset, a.offset + a.length) : '';
    const hostsText = h ? text.slice(h.offset, h.offset + h.length) : '';
    if (!shared || shared.count > 50_000 || shared.addressesText !== addressesText || shared.hostsText !== hostsText)
      shared = {
        addressesText,
        hostsText,
        groupIds: new Map(),
        groups: new Map(),
        expansions: [
          new Map<string, Map<string, Expansion | undefined>>(),
          new Map<string, Map<string, Expansion | undefined>>(),
        ],
        single: new Map(),
        count: 0,
        generation: ++generations,
      };
    c = { shared, groupKey: new Map() };
    caches.set(model, c);
  }
  return c;
}

/** The group's id by its text: with the addresses/hosts text, the text fixes what the group puts where. */
function groupKey(model: TemplateModel, g: GroupInfo): number {
  const c = cacheOf(model);
  let k = c.groupKey.get(g.name);
  if (k === undefined) {
    const { tree } = model.parsed;
    const text = model.parsed.text.slice(tree.start[g.index], tree.end[g.index]);
    k = c.shared.groupIds.get(text);
    if (k === undefined) c.shared.groupIds.set(text, (k = c.shared.groupIds.size));
    c.groupKey.set(g.name, k);
  }
  return k;
}

type Section = 'tests' | 'archives' | 'contexts' | 'tasks';
type Expander = (node: NodeLike, wantValues: boolean) => Expansion | undefined;

interface Owner {
  users: TaskInfo[];
  usersKey?: string;
  /** [type only, values]: text -> expansion, shared across parses through usersKey */
  byText: [Map<string, Expansion | undefined> | undefined, Map<string, Expansion | undefined> | undefined];
}

const expanders = new WeakMap<TemplateModel, Expander>();

/**
 * One callback for the whole template: a string's owner (the test, archive, context or task it sits in) is found
 * from its ancestors, so the checks need no closure per object.
 */
export function templateExpansion(model: TemplateModel): Expander {
  let e = expanders.get(model);
  if (e) return e;
  const owners = new Map<NodeLike, Owner>();
  e = (node, wantValues) => {
    // the owner: the value two properties below the root (tests.<name>, archives.<name>, ...)
    let section: string | undefined;
    let name: string | undefined;
    let owner: NodeLike | undefined;
    let inner: NodeLike | undefined;
    for (let n: NodeLike = node; n.parent; n = n.parent) {
      const p = n.parent;
      if (p.type === 'property' && p.children![1] === n) {
        name = section;
        owner = inner;
        section = p.children![0].value as string;
        inner = n;
      }
    }
    if (section === undefined || name === undefined || owner === undefined) return undefined;
    if (section !== 'tests' && section !== 'archives' && section !== 'contexts' && section !== 'tasks')
      return undefined;
    const text = node.value as string;
    if (!wantValues) {
      // only the kind is asked (a plain string field): no candidates, no users, unless it is `{% flip %}`
      const kind = kindOf(text);
      if (kind !== FLIP) return kind;
    }
    const w = wantValues ? 1 : 0;
    let o = owners.get(owner);
    if (o === undefined) owners.set(owner, (o = ownerOf(model, section, name)));
    let cache = o.byText[w];
    if (!cache) {
      if (o.users.length === 1) cache = singleCache(model, o.users[0], w);
      else {
        const all = cacheOf(model).shared.expansions[w];
        o.usersKey ??= usersKey(model, o.users);
        cache = all.get(o.usersKey);
        if (!cache) all.set(o.usersKey, (cache = new Map<string, Expansion | undefined>()));
      }
      o.byText[w] = cache;
    }
    const users = o.users;
    let x = cache.get(text);
    if (x === undefined && !cache.has(text)) {
      x = expand(model, text, users, wantValues);
      cache.set(text, x);
      cacheOf(model).shared.count++;
    }
    if (x?.kind === 'string' && users.length === 1) x.task = users[0].name;
    return x;
  };
  expanders.set(model, e);
  return e;
}

const FLIP: Expansion = { kind: 'boolean' };
const UNKNOWN: Expansion = { kind: 'unknown' };
const SOME_STRING: Expansion = { kind: 'string' };
const kinds = new Map<string, Expansion | undefined>();

/** What a string becomes, as far as its type goes (FLIP: ask for its values). */
function kindOf(text: string): Expansion | undefined {
  if (kinds.has(text)) return kinds.get(text);
  const matches = [...text.matchAll(VAR_RE)];
  let k: Expansion | undefined;
  if (!matches.length) k = undefined;
  else if (matches.length === 1 && matches[0][0] === text)
    k =
      matches[0][1] === 'flip'
        ? FLIP
        : INDEXED.test(matches[0][1]) || matches[0][1] === 'scheduled_by_address'
          ? SOME_STRING
          : UNKNOWN;
  else k = SOME_STRING;
  if (kinds.size > 10_000) kinds.clear();
  const key = cacheKey(text); // a copy, and no 60 KB strings: the memo outlives the template
  if (key !== undefined) kinds.set(key, k);
  return k;
}

/** The expansion cache of strings used by exactly one task (no key string built: a mesh asks this 4,000 times). */
function singleCache(model: TemplateModel, t: TaskInfo, w: 0 | 1): Map<string, Expansion | undefined> {
  const shared = cacheOf(model).shared;
  const g = t.group !== undefined ? model.groups.get(t.group) : undefined;
  const gid = g ? groupKey(model, g) : -1;
  const sched = scheduledBy(model, t);
  let bySched = shared.single.get(gid);
  if (!bySched)
    shared.single.set(
      gid,
      (bySched = new Map<number, [Map<string, Expansion | undefined>, Map<string, Expansion | undefined>]>()),
    );
  let pair = bySched.get(sched);
  if (!pair)
    bySched.set(sched, (pair = [new Map<string, Expansion | undefined>(), new Map<string, Expansion | undefined>()]));
  return pair[w];
}

function ownerOf(model: TemplateModel, section: Section, name: string): Owner {
  const users = section === 'tasks' ? model.tasks.filter((t) => t.name === name) : model.usersOf(section, name);
  return { users, byText: [undefined, undefined] };
}

function usersKey(model: TemplateModel, users: TaskInfo[]): string {
  let key = '';
  for (const t of users) {
    const g = t.group !== undefined ? model.groups.get(t.group) : undefined;
    key += `${t.name}\u0001${scheduledBy(model, t)}\u0001${g ? groupKey(model, g) : -1}\u0002`;
  }
  return key;
}

/** The expansion callback for strings inside one object (kept for callers that hold the owner's name). */
export function expansionFor(model: TemplateModel, _section: Section, _name: string): Expander {
  return templateExpansion(model);
}

function expand(model: TemplateModel, text: string, users: TaskInfo[], wantValues: boolean): Expansion | undefined {
  const matches = [...text.matchAll(VAR_RE)];
  if (!matches.length) return undefined; // `{%x%}` without spaces: pSConfig sends it literally
  const standalone = matches.length === 1 && matches[0][0] === text;
  if (standalone && matches[0][1] === 'flip') return { kind: 'boolean', values: flipValues(model, users) };
  // The same variable takes the same value wherever it appears in the string.
  const vars = [...new Map(matches.map((m) => [m[0], m[1]])).entries()];
  const known = vars.every(([, n]) => INDEXED.test(n) || n === 'scheduled_by_address');
  if (standalone && !known) return { kind: 'unknown' }; // jq (any JSON type), localhost, unknown names
  if (!known || !wantValues || !users.length) return { kind: 'string' };
  const values = new Map<string, { task: string; bindings: [string, string][] }>();
  for (const task of users) {
    const g = task.group !== undefined ? model.groups.get(task.group) : undefined;
    if (!g) continue;
    const slots = groupSlots(model, g);
    if (slots.uncertain) return { kind: 'string' };
    if (standalone) {
      // the common case, without building strings: the variable's values are the candidates
      const name = vars[0][1];
      for (const v of varValues(slots, name, scheduledBy(model, task))) {
        if (!values.has(v)) values.set(v, { task: task.name, bindings: [[name, v]] });
        if (values.size > MAX_VALUES) return { kind: 'string' };
      }
      continue;
    }
    let combos: { text: string; bindings: [string, string][] }[] = [{ text, bindings: [] }];
    for (const [written, name] of vars) {
      const next: { text: string; bindings: [string, string][] }[] = [];
      for (const c of combos)
        for (const v of varValues(slots, name, scheduledBy(model, task))) {
          next.push({ text: c.text.replaceAll(written, () => v), bindings: [...c.bindings, [name, v]] });
          if (next.length > MAX_PER_TASK) return { kind: 'string' };
        }
      combos = next;
    }
    for (const c of combos) {
      const value = c.text.includes('://') ? bracketIpv6Urls(c.text) : c.text;
      if (!values.has(value)) values.set(value, { task: task.name, bindings: c.bindings });
      if (values.size > MAX_VALUES) return { kind: 'string' };
    }
  }
  const many = users.length > 1;
  const list: Candidate[] = [...values].map(([value, { task, bindings }]) => ({
    value,
    ...(many ? { task } : {}),
    why: (t) => {
      const b = bindings.map(([n, v]) => `\`{% ${n} %}\` is ${describeValue(v)}`);
      return standalone
        ? `${b[0]} for task \`${t}\``
        : `for task \`${t}\` it becomes ${describeValue(value)} (${b.join(', ')})`;
    },
  }));
  return { kind: 'string', values: list };
}

function scheduledBy(model: TemplateModel, task: TaskInfo): number {
  // on the tree index: no node view per task (a mesh asks this for every task on every check)
  const { tree } = model.parsed;
  const i = tree.propertyValue(task.index, 'scheduled-by');
  const v = i >= 0 ? tree.scalar(i) : undefined;
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : 0;
}

/** `{% flip %}` is true when the scheduling member has no agent and another member has one. */
function flipValues(model: TemplateModel, users: TaskInfo[]): boolean[] {
  for (const task of users) {
    const g = task.group !== undefined ? model.groups.get(task.group) : undefined;
    if (!g) continue;
    const slots = groupSlots(model, g);
    const at = slots.byIndex[scheduledBy(model, task)] ?? [];
    if (at.some((e) => e.noAgent) && slots.byIndex.some((es) => es.some((e) => !e.noAgent))) return [false, true];
  }
  return [false];
}

/**
 * The values a variable takes in a group, one per form (host name, IPv4, IPv6, host:port, bracketed IPv6…): the
 * addresses are host names or IP literals (the others are reported where they are defined and left out), and
 * pScheduler's types accept or refuse every value of one form alike, so a 2,000-address mesh is judged on a handful.
 * Values of no known form are all kept.
 */
function varValues(slots: GroupSlots, name: string, schedIndex: number): string[] {
  const key = name === 'scheduled_by_address' ? `${name}\u0000${schedIndex}` : name;
  const hit = slots.values?.get(key);
  if (hit) return hit;
  const m = INDEXED.exec(name);
  const all: string[] = [];
  if (m) {
    for (const e of slots.byIndex[Number(m[2])] ?? []) {
      const v =
        m[1] === 'address' ? e.address : m[1] === 'pscheduler_address' ? e.pschedulerAddress : e.leadBindAddress;
      if (v !== undefined) all.push(v);
    }
  } else {
    // scheduled_by_address: the scheduled-by member, or any member with an agent when that one has none
    const at = slots.byIndex[schedIndex] ?? [];
    for (const e of at) if (!e.noAgent && e.address) all.push(e.address);
    if (at.some((e) => e.noAgent))
      for (const es of slots.byIndex) for (const e of es) if (!e.noAgent && e.address) all.push(e.address);
  }
  const byForm = new Map<string, string>();
  for (const v of all) {
    const f = formOf(v);
    if (!byForm.has(f)) byForm.set(f, v);
  }
  const out = [...byForm.values()];
  (slots.values ??= new Map()).set(key, out);
  return out;
}

/** The form of an address value, for judging one value of each form. */
function formOf(v: string): string {
  if (isIPv4(v)) return 'ipv4';
  if (isIPv6(v)) return v.includes('%') ? `ipv6%` : v.includes('.') ? 'ipv6-ipv4' : 'ipv6';
  const bracket = /^\[([^\]]*)\](:\d*)?$/.exec(v);
  if (bracket && isIPv6(bracket[1]))
    return bracket[2] === undefined ? '[ipv6]' : bracket[2] === ':' ? '[ipv6]:' : '[ipv6]:port';
  const port = /^([^:]*):(\d*)$/.exec(v);
  if (port && isHostOrIp(port[1])) return `${isIPv4(port[1]) ? 'ipv4' : 'host'}:${port[2] ? 'port' : ''}`;
  if (isHostOrIp(v)) return /\.$/.test(v) ? 'host.' : 'host';
  return `other\u0000${v}`;
}

function groupSlots(model: TemplateModel, g: GroupInfo): GroupSlots {
  const cache = cacheOf(model);
  const key = groupKey(model, g);
  let s = cache.shared.groups.get(key);
  if (s) return s;
  const addresses = (cache.addresses ??= valuesOf(sectionNode(model.parsed.root, 'addresses')));
  const defaultLabel = stringValue(propertyValue(g.node, 'default-address-label'));
  let uncertain = g.hasClassSelectors;
  const entriesOf = (field: string): Entry[] => {
    const out: Entry[] = [];
    for (const sel of itemsOf(propertyValue(g.node, field))) {
      const name = stringValue(propertyValue(sel, 'name'));
      const addr = name !== undefined ? addresses.get(name) : undefined;
      if (addr?.type !== 'object') continue;
      for (const other of members(propertyValue(addr, 'remote-addresses')).keys())
        if (g.addressNames.has(other)) uncertain = true;
      const label = stringValue(propertyValue(sel, 'label')) ?? defaultLabel;
      const data = label !== undefined ? propertyValue(propertyValue(addr, 'labels'), label) : addr;
      if (data?.type !== 'object') continue;
      out.push(entry(model, addr, data));
    }
    return out;
  };
  let byIndex: Entry[][];
  if (g.type === 'list') byIndex = [entriesOf('addresses')];
  else if (g.type === 'mesh') {
    const all = entriesOf('addresses');
    byIndex = [all, all];
  } else if (g.type === 'disjoint') {
    const a = entriesOf('a-addresses');
    const b = entriesOf('b-addresses');
    byIndex =
      propertyValue(g.node, 'unidirectional')?.value === true
        ? [a, b]
        : [
            [...a, ...b],
            [...a, ...b],
          ];
  } else {
    byIndex = [];
    uncertain = true;
  }
  s = { uncertain, byIndex };
  cache.shared.groups.set(key, s);
  return s;
}

/** name -> value node of a section (members() is keyed by name already; this drops the property wrapper). */
function valuesOf(section: JsonNode | undefined): Map<string, JsonNode> {
  const out = new Map<string, JsonNode>();
  for (const [k, p] of members(section)) out.set(k, p.children![1]);
  return out;
}

function entry(model: TemplateModel, addr: JsonNode, data: JsonNode): Entry {
  // An address that is no host name or IP literal is reported where it is defined (psconfig/invalid-address):
  // it is not judged again at every use.
  const written = stringValue(propertyValue(data, 'address'));
  const address = written !== undefined && isHostOrIp(written) ? written : undefined;
  const psa = stringValue(propertyValue(data, 'pscheduler-address')) || address;
  const host = stringValue(propertyValue(addr, 'host'));
  const cache = cacheOf(model);
  const hosts = (cache.hosts ??= valuesOf(sectionNode(model.parsed.root, 'hosts')));
  const noAgent =
    truthy(propertyValue(addr, 'no-agent')) ||
    truthy(propertyValue(data, 'no-agent')) ||
    (host !== undefined && truthy(propertyValue(hosts.get(host), 'no-agent')));
  return {
    address,
    pschedulerAddress: psa && isIPv6(psa) ? `[${psa}]` : psa,
    leadBindAddress: leadBind(stringValue(propertyValue(data, 'lead-bind-address')), address),
    noAgent,
  };
}

function leadBind(written: string | undefined, address: string | undefined): string | undefined {
  if (!written) return address;
  return isHostOrIp(written) ? written : undefined;
}

function truthy(n: JsonNode | undefined): boolean {
  const v = n?.value;
  return n !== undefined && v !== undefined && v !== null && v !== false && v !== 0 && v !== '' && v !== '0';
}
