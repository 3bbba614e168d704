// Where a name reference may be written, by JSON path, and what it names. The symbol index only knows the
// references that already exist as strings; completion also needs the empty slots (`"archives": [|]`,
// `"group": |` while typing), so the slot is found from the path of the cursor instead.
import { propertyValue, stringValue, type JsonNode, type JsonPath } from '../parse';
import type { SymbolKind } from '../symbols';

export interface ReferenceSlot {
  kind: SymbolKind;
  field: string;
  /** For label slots: the address whose labels apply (undefined: labels of any address). */
  address?: string;
}

type Seg = string | number;
const ANY = '*';
const INDEX = '#';
type Pattern = readonly string[];

/** Value slots: path of the string value → what it names. `*` = any key, `#` = any array index. */
const VALUE_SLOTS: readonly [Pattern, SymbolKind, string][] = [
  [['tasks', ANY, 'group'], 'groups', 'group'],
  [['tasks', ANY, 'test'], 'tests', 'test'],
  [['tasks', ANY, 'schedule'], 'schedules', 'schedule'],
  [['tasks', ANY, 'archives', INDEX], 'archives', 'archives'],
  [['tasks', ANY, 'subtasks', INDEX], 'subtasks', 'subtasks'],
  [['subtasks', ANY, 'test'], 'tests', 'test'],
  [['subtasks', ANY, 'archives', INDEX], 'archives', 'archives'],
  [['hosts', ANY, 'archives', INDEX], 'archives', 'archives'],
  [['addresses', ANY, 'host'], 'hosts', 'host'],
  [['addresses', ANY, 'contexts', INDEX], 'contexts', 'contexts'],
  [['addresses', ANY, 'labels', ANY, 'contexts', INDEX], 'contexts', 'contexts'],
  [['addresses', ANY, 'remote-addresses', ANY, 'contexts', INDEX], 'contexts', 'contexts'],
  [['addresses', ANY, 'remote-addresses', ANY, 'labels', ANY, 'contexts', INDEX], 'contexts', 'contexts'],
  [['groups', ANY, 'default-address-label'], 'labels', 'default-address-label'],
];

const SELECTOR_LISTS = new Set(['addresses', 'a-addresses', 'b-addresses']);

function matches(path: JsonPath, pattern: Pattern): boolean {
  if (path.length !== pattern.length) return false;
  for (let i = 0; i < path.length; i++) {
    const p = pattern[i];
    const s = path[i];
    if (p === ANY) {
      if (typeof s !== 'string') return false;
    } else if (p === INDEX) {
      if (typeof s !== 'number') return false;
    } else if (p !== s) return false;
  }
  return true;
}

/**
 * The slot for a string value at `path` (the path of the value itself). `selector` is the object holding the
 * value when the path ends inside an address selector, so a `label` slot can find its `name`.
 */
export function valueSlotAt(path: JsonPath, holder: JsonNode | undefined): ReferenceSlot | undefined {
  for (const [pattern, kind, field] of VALUE_SLOTS) if (matches(path, pattern)) return { kind, field };
  if (path[0] === 'groups' && path.length >= 4) return selectorSlot(path.slice(2), holder);
  if (path[0] === 'address-classes' && path.length >= 4) return filterSlot(path.slice(2), holder);
  return undefined;
}

/** groups.G.<rest>: selectors in address lists and excludes. */
function selectorSlot(rest: Seg[], holder: JsonNode | undefined): ReferenceSlot | undefined {
  const last = rest[rest.length - 1];
  let selectorPath: Seg[] | undefined;
  if (rest.length === 3 && typeof rest[0] === 'string' && SELECTOR_LISTS.has(rest[0]) && typeof rest[1] === 'number')
    selectorPath = rest;
  else if (rest.length === 4 && rest[0] === 'excludes' && typeof rest[1] === 'number' && rest[2] === 'local-address')
    selectorPath = rest;
  else if (
    rest.length === 5 &&
    rest[0] === 'excludes' &&
    typeof rest[1] === 'number' &&
    rest[2] === 'target-addresses' &&
    typeof rest[3] === 'number'
  )
    selectorPath = rest;
  if (!selectorPath) return undefined;
  const field = rest.filter((s) => typeof s === 'string').join('.');
  if (last === 'name') return { kind: 'addresses', field };
  if (last === 'class') return { kind: 'address-classes', field };
  if (last === 'label') return { kind: 'labels', field, address: stringValue(propertyValue(holder, 'name')) };
  return undefined;
}

/** address-classes.C.<match-filter|exclude-filter>(.filters.N | .filter)*.class of an `address-class` filter. */
function filterSlot(rest: Seg[], holder: JsonNode | undefined): ReferenceSlot | undefined {
  if (rest[0] !== 'match-filter' && rest[0] !== 'exclude-filter') return undefined;
  if (rest[rest.length - 1] !== 'class') return undefined;
  for (let i = 1; i < rest.length - 1;) {
    if (rest[i] === 'filters' && typeof rest[i + 1] === 'number') i += 2;
    else if (rest[i] === 'filter') i += 1;
    else return undefined;
  }
  const type = stringValue(propertyValue(holder, 'type'));
  return type === undefined || type === 'address-class' ? { kind: 'address-classes', field: 'class' } : undefined;
}

/** Key slots: `addresses.A.remote-addresses.<key>` names another address. */
export function keySlotAt(objectPath: JsonPath): ReferenceSlot | undefined {
  if (objectPath.length === 3 && objectPath[0] === 'addresses' && objectPath[2] === 'remote-addresses')
    return { kind: 'addresses', field: 'remote-addresses' };
  return undefined;
}

/** Labels an address offers to selectors: its own and those of its remote-addresses entries (pSConfig accepts both). */
export function labelsOfAddress(root: JsonNode | undefined, address: string): string[] {
  const spec = propertyValue(propertyValue(root, 'addresses'), address);
  const out = new Set<string>();
  const add = (labels: JsonNode | undefined): void => {
    for (const prop of labels?.type === 'object' ? (labels.children ?? []) : []) {
      const k = prop.children?.[0];
      if (!prop.comment && typeof k?.value === 'string') out.add(k.value);
    }
  };
  add(propertyValue(spec, 'labels'));
  const remotes = propertyValue(spec, 'remote-addresses');
  for (const prop of remotes?.type === 'object' ? (remotes.children ?? []) : [])
    add(propertyValue(prop.children?.[1], 'labels'));
  return [...out];
}
