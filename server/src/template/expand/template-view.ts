// The plain-JSON view of a template the engine works on, and the address objects a group hands out.
// Mirrors pSConfig's object model (Address, AddressLabel, RemoteAddress with inherited parent fields).
import { isObject } from '../../../../common/json';
import { MAX_NESTING, TooDeepError } from '../nesting';

export type Json = null | boolean | number | string | Json[] | JsonObject;
export interface JsonObject {
  [key: string]: Json;
}

/**
 * pSConfig 5.2 strips every key starting with `#`, at any depth, before anything else (json_decomment). This is
 * the first walk over every value the engine expands (the template and each include), so it also enforces the
 * nesting limit: deeper than MAX_NESTING throws TooDeepError, and every later walk is safe from the stack's end.
 */
export function stripHashKeys(v: unknown, depth = 0, path = ''): Json {
  if (Array.isArray(v) || isObject(v)) if (depth >= MAX_NESTING) throw new TooDeepError(path || '(top)');
  // The path names the first levels only (it is for the message).
  const at = (step: string): string => (depth < 6 ? path + step : depth === 6 ? `${path}…` : path);
  if (Array.isArray(v)) return v.map((x, i) => stripHashKeys(x, depth + 1, at(`[${i}]`)));
  if (isObject(v)) {
    const out: JsonObject = {};
    for (const [k, val] of Object.entries(v))
      if (!k.startsWith('#'))
        out[k] = stripHashKeys(val, depth + 1, at(`.${k.length > 40 ? `${k.slice(0, 40)}…` : k}`));
    return out;
  }
  return v as Json;
}

/** Canonical JSON (sorted keys): pSConfig compares selectors and archives by a checksum of exactly this. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) {
    let out = '[';
    for (let i = 0; i < v.length; i++) out += (i ? ',' : '') + canonicalJson(v[i]);
    return out + ']';
  }
  if (isObject(v)) {
    const keys = Object.keys(v);
    if (keys.length > 1) keys.sort();
    let out = '{';
    for (let i = 0; i < keys.length; i++)
      out += `${i ? ',' : ''}${JSON.stringify(keys[i])}:${canonicalJson(v[keys[i]])}`;
    return out + '}';
  }
  return JSON.stringify(v) ?? 'null';
}

/** A section of the template (`addresses`, `tasks`, ...) as name → object, ignoring non-object entries. */
export function section(template: JsonObject, name: string): Map<string, JsonObject> {
  const out = new Map<string, JsonObject>();
  const s = template[name];
  if (isObject(s)) for (const [k, v] of Object.entries(s)) if (isObject(v)) out.set(k, v);
  return out;
}

export function str(v: Json | undefined): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

export function strList(v: Json | undefined): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/** Perl/Python truthiness of a JSON boolean-ish field. */
export function truthy(v: Json | undefined): boolean {
  return v !== undefined && v !== null && v !== false && v !== 0 && v !== '' && v !== '0';
}

/** An address object chosen for a combination: an address, one of its labels, or a remote-addresses entry. */
export interface AddressNode {
  /** Index in the engine's address table (the jq document refers to addresses by it). */
  id: number;
  kind: 'address' | 'label' | 'remote';
  /** Raw JSON of this entry (what `.addresses[i]` is in jq). */
  data: JsonObject;
  address: string | undefined;
  /** Name of the address object in `addresses` (the parent's name for label/remote entries). */
  objectName: string;
  /** Parent fields inherited by label/remote entries (merge_parents). */
  parentAddress?: string;
  hostRef?: string;
  disabled: boolean;
  noAgent: boolean;
}

/** The address string pSConfig matches agents and excludes-self against (the parent's for label/remote entries). */
export function effectiveAddress(n: AddressNode): string | undefined {
  return n.parentAddress ?? n.address;
}

/** What a selector yields: a name (for remote-addresses lookups), an optional label and the address JSON. */
export interface NameLabelAddress {
  name: string;
  label?: string;
  data: JsonObject;
}

export interface TemplateView {
  raw: JsonObject;
  addresses: Map<string, JsonObject>;
  addressClasses: Map<string, JsonObject>;
  archives: Map<string, JsonObject>;
  contexts: Map<string, JsonObject>;
  groups: Map<string, JsonObject>;
  hosts: Map<string, JsonObject>;
  schedules: Map<string, JsonObject>;
  tasks: Map<string, JsonObject>;
  tests: Map<string, JsonObject>;
}

export function viewOf(raw: JsonObject): TemplateView {
  return {
    raw,
    addresses: section(raw, 'addresses'),
    addressClasses: section(raw, 'address-classes'),
    archives: section(raw, 'archives'),
    contexts: section(raw, 'contexts'),
    groups: section(raw, 'groups'),
    hosts: section(raw, 'hosts'),
    schedules: section(raw, 'schedules'),
    tasks: section(raw, 'tasks'),
    tests: section(raw, 'tests'),
  };
}

/** The host object of an address (own `host` for addresses, the parent's for label/remote entries). */
export function hostOf(view: Pick<TemplateView, 'hosts'>, n: Pick<AddressNode, 'hostRef'>): JsonObject | undefined {
  return n.hostRef ? view.hosts.get(n.hostRef) : undefined;
}

export function isDisabled(view: TemplateView, n: AddressNode): boolean {
  return n.disabled || truthy(hostOf(view, n)?.disabled);
}

export function isNoAgent(view: TemplateView, n: AddressNode): boolean {
  return n.noAgent || truthy(hostOf(view, n)?.['no-agent']);
}
