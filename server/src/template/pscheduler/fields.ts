// The fields of a spec / data value as editing sees them (completion and hover): which schema version a value is
// read with, the properties an object may take at a path below the value in each version, and the values a field
// allows. The version choice follows what check.ts applies (each plug-in's program, see catalog.ts Selection:
// perfsonar/pscheduler pscheduler-test-*/*/validate.py, pscheduler-archiver-*/*/data-is-valid, ...); editing only
// needs to know which version applies, not every way a wrong `schema` is refused.
import { pschedulerType, versionNumbers, type PluginData, type Schema } from './catalog';
import { describeSchema } from './describe';
import { memberValue, type NodeLike } from './nodes';
import { pythonRegex } from './formats';

export interface SelectedVersion {
  /** The version the value names (1 when `schema` is absent or unusable). */
  version: number;
  /**
   * default: no `schema` (pScheduler takes 1); set: an integer naming a version; invalid: a `schema` pScheduler
   * refuses or does not validate with (read as version 1 here); variable: a template variable (unknown until
   * expanded, read as version 1).
   */
  how: 'default' | 'set' | 'invalid' | 'variable';
  /** Key of `p.versions` whose schema applies (`1` for a plug-in with one skeleton for every version). */
  applied: string;
}

/** The version pScheduler reads the value (an object node, or nothing yet) with. */
export function selectedVersion(p: PluginData, value: NodeLike | undefined): SelectedVersion {
  const node = value?.type === 'object' ? memberValue(value, 'schema') : undefined;
  if (!node) return { version: 1, how: 'default', applied: '1' };
  if (node.type === 'string' && String(node.value).includes('{%')) return { version: 1, how: 'variable', applied: '1' };
  const n = node.value;
  if (node.type !== 'number' || typeof n !== 'number' || !Number.isInteger(n) || n < 1)
    return { version: 1, how: 'invalid', applied: '1' };
  if (p.maxSchema !== null && n > p.maxSchema) return { version: 1, how: 'invalid', applied: '1' };
  if (p.select === 'single') return { version: n, how: 'set', applied: '1' };
  return p.versions[String(n)]
    ? { version: n, how: 'set', applied: String(n) }
    : { version: 1, how: 'invalid', applied: '1' };
}

/** Does the plug-in keep one schema per version (so that a field can belong to some versions only)? */
export function hasVersions(p: PluginData): boolean {
  return p.select !== 'single' && versionNumbers(p).length > 1;
}

interface Resolved {
  schema: Schema | boolean | undefined;
  /** The pScheduler type or local definition reached last (`Duration`, `congestion`). */
  label?: string;
  /** Whether that label is a standard pScheduler type (describeSchema words it). */
  standard?: boolean;
}

/** Follow `$ref`s (pScheduler types and the plug-in's local definitions) to a schema with content. */
export function resolve(p: PluginData, schema: Schema | boolean | undefined): Resolved {
  let s = schema;
  let label: string | undefined;
  let standard = false;
  for (let i = 0; i < 16 && s && typeof s === 'object' && s.$ref !== undefined; i++) {
    const m = /^#\/(pScheduler|local)\/(.+)$/.exec(s.$ref);
    if (!m) return { schema: undefined, label };
    label = m[2];
    standard = m[1] === 'pScheduler';
    s = standard
      ? pschedulerType(m[2])
      : Object.prototype.hasOwnProperty.call(p.local, m[2])
        ? p.local[m[2]]
        : undefined;
  }
  return { schema: s, label, standard };
}

/** The root schema of a version as editing reads it: where pScheduler drops a skeleton's structure (a top-level
 *  `oneOf`, see the plug-in's notes) the dropped part still says which keys the plug-in's own code reads. */
function rootSchema(p: PluginData, versionKey: string): Schema | undefined {
  const s = p.versions[versionKey];
  if (!s) return undefined;
  if (p.unchecked && !s.properties && !s.$ref && !s.oneOf && !s.anyOf) return p.unchecked;
  return s;
}

/** The alternatives a value may take (refs followed, anyOf / oneOf / allOf flattened). */
function alternatives(p: PluginData, schema: Schema | boolean | undefined, out: Schema[] = [], depth = 0): Schema[] {
  const s = resolve(p, schema).schema;
  if (!s || typeof s !== 'object' || depth > 12) return out;
  out.push(s);
  for (const list of [s.anyOf, s.oneOf, s.allOf]) if (list) for (const a of list) alternatives(p, a, out, depth + 1);
  return out;
}

/** The schemas of the value at `path` below the plug-in's value (a spec or data) in one version. */
export function schemasAt(p: PluginData, versionKey: string, path: readonly (string | number)[]): Schema[] {
  const root = rootSchema(p, versionKey);
  let current: (Schema | boolean)[] = root ? [root] : [];
  for (const seg of path) {
    const next: (Schema | boolean)[] = [];
    for (const c of current)
      for (const a of alternatives(p, c)) {
        if (typeof seg === 'number') {
          if (a.items !== undefined) next.push(a.items);
          continue;
        }
        if (a.properties && Object.prototype.hasOwnProperty.call(a.properties, seg)) next.push(a.properties[seg]);
        else {
          for (const pat in a.patternProperties ?? {})
            if (pythonRegex(pat).test(seg)) next.push(a.patternProperties![pat]);
          if (a.additionalProperties !== undefined && typeof a.additionalProperties === 'object')
            next.push(a.additionalProperties);
        }
      }
    current = next;
  }
  return current.filter((s): s is Schema => typeof s === 'object');
}

export interface FieldInfo {
  key: string;
  /** The property's schema (as written: may be a `$ref`). */
  schema: Schema;
  /** What it takes, in words (type, unit, allowed values). */
  takes: string;
  /** Our one-line description, when we have one. */
  doc?: string;
  /** Required in the version looked at (in every form that declares it). */
  required: boolean;
  /** Versions of the plug-in whose schema declares the key at this path (empty: one skeleton for all). */
  versions: number[];
}

/** Memo per plug-in of (version, path) → result: the data never changes, and completion asks on every keystroke. */
const memo = new WeakMap<PluginData, Map<string, unknown>>();
const MAX_MEMO = 2000;
function memoised<T>(p: PluginData, key: string, compute: () => T): T {
  let table = memo.get(p);
  if (!table) memo.set(p, (table = new Map<string, unknown>()));
  if (table.has(key)) return table.get(key) as T;
  const value = compute();
  if (table.size >= MAX_MEMO) table.clear();
  table.set(key, value);
  return value;
}
/** A path as a memo key: array indexes all read the same `items` schema. */
function pathKey(path: readonly (string | number)[]): string {
  let k = '';
  for (const seg of path) k += typeof seg === 'number' ? '\u0001#' : `\u0001${seg}`;
  return k;
}

/** Fields an object at `path` may take in the version `versionKey` (properties of every form it may take). The
 *  map is shared (memoised): read it, do not change it. */
export function fieldsIn(
  p: PluginData,
  versionKey: string,
  path: readonly (string | number)[],
): ReadonlyMap<string, FieldInfo> {
  return memoised(p, `f${versionKey}${pathKey(path)}`, () => computeFieldsIn(p, versionKey, path));
}

function computeFieldsIn(
  p: PluginData,
  versionKey: string,
  path: readonly (string | number)[],
): Map<string, FieldInfo> {
  const out = new Map<string, FieldInfo>();
  const requiredBy = new Map<string, boolean>();
  for (const s of schemasAt(p, versionKey, path))
    for (const a of alternatives(p, s)) {
      if (!a.properties) continue;
      for (const key of Object.keys(a.properties)) {
        const req = a.required?.includes(key) ?? false;
        requiredBy.set(key, (requiredBy.get(key) ?? true) && req);
        if (out.has(key)) continue;
        out.set(key, {
          key,
          schema: a.properties[key],
          takes: describeField(p, a.properties[key]),
          doc: docOf(p, key),
          required: false,
          versions: [],
        });
      }
    }
  for (const [key, f] of out) f.required = requiredBy.get(key) ?? false;
  return out;
}

export interface FieldChoice extends FieldInfo {
  /** The key is declared by the version the value is read with. */
  inSelected: boolean;
  /** When it is not: the first later version declaring it. */
  needsVersion?: number;
}

/** Every field an object at `path` may take, in the selected version or (marked) in another version. Shared
 *  (memoised): read it, do not change it. */
export function fieldChoices(
  p: PluginData,
  selected: SelectedVersion,
  path: readonly (string | number)[],
): readonly FieldChoice[] {
  return memoised(p, `c${selected.applied}\u0002${selected.version}${pathKey(path)}`, () =>
    computeFieldChoices(p, selected, path),
  );
}

function computeFieldChoices(
  p: PluginData,
  selected: SelectedVersion,
  path: readonly (string | number)[],
): FieldChoice[] {
  const current = fieldsIn(p, selected.applied, path);
  const out: FieldChoice[] = [];
  const versions = hasVersions(p) ? versionNumbers(p) : [];
  const having = new Map<string, number[]>();
  const other = new Map<string, FieldInfo>();
  for (const v of versions)
    for (const [key, f] of fieldsIn(p, String(v), path)) {
      let list = having.get(key);
      if (!list) having.set(key, (list = []));
      list.push(v);
      if (!current.has(key) && !other.has(key)) other.set(key, f);
    }
  for (const [key, f] of current) out.push({ ...f, versions: having.get(key) ?? [], inSelected: true });
  for (const [key, f] of other) {
    const list = having.get(key) ?? [];
    const later = list.find((v) => v > selected.version);
    out.push({ ...f, versions: list, inSelected: false, required: false, needsVersion: later });
  }
  return out;
}

/** The field `key` of the object at `path`, wherever some version declares it. */
export function fieldChoice(
  p: PluginData,
  selected: SelectedVersion,
  path: readonly (string | number)[],
  key: string,
): FieldChoice | undefined {
  return fieldChoices(p, selected, path).find((f) => f.key === key);
}

/** Does the object at `path` accept keys it does not declare (additionalProperties, patternProperties)? The
 *  checker (validate.ts) allows them unless `additionalProperties` is false. */
export function acceptsOtherKeys(p: PluginData, versionKey: string, path: readonly (string | number)[]): boolean {
  for (const s of schemasAt(p, versionKey, path))
    for (const a of alternatives(p, s)) {
      const objectish = a.properties !== undefined || a.type === 'object' || a.additionalProperties !== undefined;
      if (objectish && a.additionalProperties !== false) return true;
      if (a.patternProperties && Object.keys(a.patternProperties).length) return true;
    }
  return false;
}

/** The value choices a schema offers (enum / const values, booleans), in the schema's order, without repeats. */
export function valueChoices(p: PluginData, schemas: readonly Schema[]): unknown[] {
  const out: unknown[] = [];
  const add = (v: unknown): void => {
    if (!out.some((x) => x === v)) out.push(v);
  };
  for (const s of schemas)
    for (const a of alternatives(p, s)) {
      if (a.enum) a.enum.forEach(add);
      if (a.const !== undefined) add(a.const);
      const types = a.type === undefined ? [] : Array.isArray(a.type) ? a.type : [a.type];
      if (types.includes('boolean') && !a.enum) {
        add(true);
        add(false);
      }
    }
  return out.filter((v) => v === null || typeof v !== 'object');
}

/** The JSON type a field's value has, when one only (for the text inserted after a key). */
export function valueShape(
  p: PluginData,
  schema: Schema,
): 'string' | 'number' | 'boolean' | 'object' | 'array' | 'unknown' {
  const shapes = new Set<string>();
  for (const a of alternatives(p, schema)) {
    const types = a.type === undefined ? [] : Array.isArray(a.type) ? a.type : [a.type];
    for (const t of types) shapes.add(t === 'integer' ? 'number' : t);
    if (!types.length && a.enum) for (const e of a.enum) shapes.add(typeof e === 'string' ? 'string' : 'other');
    if (!types.length && a.properties) shapes.add('object');
  }
  if (shapes.size !== 1) return 'unknown';
  const only = [...shapes][0];
  return only === 'string' || only === 'number' || only === 'boolean' || only === 'object' || only === 'array'
    ? only
    : 'unknown';
}

/** A property's schema in words ("an ISO 8601 duration such as PT30S ... (pScheduler type Duration)"). */
export function describeField(p: PluginData, schema: Schema): string {
  const r = resolve(p, schema);
  if (r.schema === undefined) return 'a valid value';
  return describeSchema(r.schema, r.standard ? r.label : undefined);
}

function docOf(p: PluginData, key: string): string | undefined {
  return Object.prototype.hasOwnProperty.call(p.docs, key) ? p.docs[key] : undefined;
}

/** "1–7", "1" */
export function versionSpan(list: readonly number[]): string {
  if (!list.length) return '';
  const sorted = [...list].sort((a, b) => a - b);
  const contiguous = sorted.every((v, i) => i === 0 || v === sorted[i - 1] + 1);
  if (sorted.length === 1) return String(sorted[0]);
  return contiguous ? `${sorted[0]}–${sorted[sorted.length - 1]}` : sorted.join(', ');
}
