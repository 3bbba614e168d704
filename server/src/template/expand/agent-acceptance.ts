// Whether pSConfig's pScheduler agent takes the template at all. Before it expands a single task it checks the
// template and, on any problem, falls back to a cached copy or creates nothing (perfsonar/psconfig
// psconfig/perfsonar-psconfig/psconfig/base_agent.py ~354-402):
//   1. `psconfig.validate()`: the official schema, by python-jsonschema's `validate()` with no format checker
//      (client/psconfig/config.py ~198-208), on the template with `#` keys stripped, and again after includes;
//   2. the includes: one that cannot be read fails the whole template (base_connect.py expand_config ~216-245);
//   3. `psconfig.validate_refs()`: every reference by name (config.py ~246-340).
// The expansion engine asks this first: a rejected template yields no task in any view, with the agent's reason.
//
// Simplified, said once: the first schema problem in document order is reported, where python-jsonschema reports
// its `best_match` (the same problem whenever there is one); JSON text is read by JavaScript, so `2.0` counts as
// the integer 2 (draft 4 in jsonschema would refuse it as an integer).
import { officialSchema, type JsonSchema } from '../schema/schema-source';
import { type Json, type JsonObject } from './template-view';
import { isObject } from '../../../../common/json';

/** Why the agent creates nothing from this template (with `#` keys stripped and includes merged), or undefined. */
export function agentRejection(
  merged: JsonObject,
  includeErrors: readonly string[] = [],
  /** false when the schema was checked already (a template without includes is checked once) */
  checkSchema = true,
): string | undefined {
  if (checkSchema) {
    const problem = schemaRejection(merged);
    if (problem) return problem;
  }
  if (includeErrors.length)
    return `pSConfig's agent rejects this template, so it creates no task: Error expanding include directives in JSON: ${includeErrors.join('; ')}`;
  const crash = referenceCheckCrash(merged);
  if (crash) return `pSConfig's agent fails while checking this template's references, so it creates no task: ${crash}`;
  let refs: string[];
  try {
    refs = referenceProblems(merged);
  } catch (e) {
    if (!(e instanceof RefCheckRaises)) throw e;
    return `pSConfig's agent fails while checking this template's references, so it creates no task: ${e.message}`;
  }
  if (refs.length)
    return `pSConfig's agent rejects this template, so it creates no task (psconfig_ref_validation_error): ${refs[0]}${refs.length > 1 ? ` (and ${refs.length - 1} more)` : ''}`;
  return undefined;
}

/** What each task of a rejected template says (its lens, hover, the Tasks view): the rejection, cut short. */
export function rejectedTaskError(rejection: string): string {
  const why = rejection.replace(/^pSConfig's agent rejects this template, so it creates no task/, '');
  return `pSConfig's agent rejects the template${why.length > 90 ? `${why.slice(0, 89)}…` : why}`;
}

/** The schema check alone, as the agent runs it on the template before its includes are read. */
export function schemaRejection(template: JsonObject): string | undefined {
  const problem = firstSchemaProblem(template);
  return problem
    ? `pSConfig's agent rejects this template, so it creates no task (psconfig_schema_validation_error; a host keeps a valid version it cached before): ${problem}`
    : undefined;
}

// ---- the official schema, as python-jsonschema's Draft4Validator checks it without formats --------------------------

/** `JSON Path: groups/g/excludes-self: False is not of type 'string'`, or undefined when the schema accepts it. */
export function firstSchemaProblem(value: Json): string | undefined {
  const root = officialSchema();
  const found = check(root, value, [], root.pSConfig ?? {});
  return found && `JSON Path: ${found.path.join('/') || '(the template)'}: ${found.message}`;
}

interface Found {
  path: (string | number)[];
  message: string;
}

const regexps = new Map<string, RegExp>();
function regex(pattern: string): RegExp {
  let r = regexps.get(pattern);
  // Python's re.search; the schema's patterns use escapes like `\:` that only a non-unicode RegExp accepts.
  if (!r) regexps.set(pattern, (r = new RegExp(pattern)));
  return r;
}

function check(
  schema: JsonSchema,
  value: Json,
  path: (string | number)[],
  defs: Record<string, JsonSchema>,
): Found | undefined {
  if (schema.$ref !== undefined) {
    // draft 4: a `$ref` stands for its target; its siblings are ignored
    const target = defs[schema.$ref.replace(/^#\/pSConfig\//, '')];
    return target ? check(target, value, path, defs) : undefined;
  }
  const at = (message: string): Found => ({ path, message });
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (!types.some((t) => isType(value, t)))
      return at(`${repr(value)} is not of type ${types.map((t) => `'${t}'`).join(', ')}`);
  }
  if (schema.enum && !schema.enum.some((e) => sameJson(e, value)))
    return at(`${repr(value)} is not one of ${repr(schema.enum as Json)}`);
  if (typeof value === 'string' && schema.pattern !== undefined && !regex(schema.pattern).test(value))
    return at(`${repr(value)} does not match ${repr(schema.pattern)}`);
  if (typeof value === 'number' && schema.minimum !== undefined && value < schema.minimum)
    return at(`${repr(value)} is less than the minimum of ${schema.minimum}`);
  if (schema.anyOf && !schema.anyOf.some((s) => !check(s, value, path, defs)))
    return at(`${repr(value)} is not valid under any of the given schemas`);
  if (schema.oneOf) {
    const valid = schema.oneOf.filter((s) => !check(s, value, path, defs)).length;
    if (valid === 0) return at(`${repr(value)} is not valid under any of the given schemas`);
    if (valid > 1) return at(`${repr(value)} is valid under each of ${valid} of the given schemas`);
  }
  if (isObject(value)) {
    for (const r of schema.required ?? []) if (!(r in value)) return at(`${repr(r)} is a required property`);
    const extra: string[] = [];
    for (const [k, v] of Object.entries(value)) {
      let matched = false;
      const own = schema.properties?.[k];
      if (own) {
        matched = true;
        const f = check(own, v, [...path, k], defs);
        if (f) return f;
      }
      for (const [p, s] of Object.entries(schema.patternProperties ?? {})) {
        if (!regex(p).test(k)) continue;
        matched = true;
        const f = check(s, v, [...path, k], defs);
        if (f) return f;
      }
      if (matched) continue;
      if (schema.additionalProperties === false) extra.push(k);
      else if (isObject(schema.additionalProperties as Json)) {
        const f = check(schema.additionalProperties as JsonSchema, v, [...path, k], defs);
        if (f) return f;
      }
    }
    if (extra.length)
      return at(
        `Additional properties are not allowed (${extra.map((k) => repr(k)).join(', ')} ${extra.length === 1 ? 'was' : 'were'} unexpected)`,
      );
  }
  if (Array.isArray(value) && schema.items)
    for (let i = 0; i < value.length; i++) {
      const f = check(schema.items, value[i], [...path, i], defs);
      if (f) return f;
    }
  return undefined;
}

function isType(v: Json, t: string): boolean {
  switch (t) {
    case 'object':
      return isObject(v);
    case 'array':
      return Array.isArray(v);
    case 'string':
      return typeof v === 'string';
    case 'boolean':
      return typeof v === 'boolean';
    case 'null':
      return v === null;
    case 'number':
      return typeof v === 'number';
    case 'integer':
      return typeof v === 'number' && Number.isInteger(v);
    default:
      return true;
  }
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Python's repr of a JSON value, as jsonschema's messages show it (long values cut). */
function repr(v: Json): string {
  const full = pyRepr(v);
  return full.length > 80 ? `${full.slice(0, 77)}...` : full;
}

/** Python's truth of a JSON value. */
function truthy(v: Json | undefined): boolean {
  if (Array.isArray(v)) return v.length > 0;
  if (isObject(v)) return Object.keys(v).length > 0;
  return Boolean(v);
}

/** Python's str() of a JSON value, as `format` puts it in a sentence. */
function pyStr(v: Json): string {
  return typeof v === 'string' ? v : pyRepr(v);
}

function pyRepr(v: Json): string {
  if (v === null) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (typeof v === 'string') return `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  if (typeof v === 'number') return String(v);
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(', ')}]`;
  return `{${Object.entries(v)
    .map(([k, x]) => `${pyRepr(k)}: ${pyRepr(x)}`)
    .join(', ')}}`;
}

// ---- references, as Config.validate_refs names them ----------------------------------------------------------------

/** Thrown where validate_refs itself raises (iterating what cannot be iterated). */
class RefCheckRaises extends Error {}

/** Whether `section[name]` exists, as the Config accessors look it up (a dict `get`: a list or object key raises). */
function has(t: JsonObject, sectionName: string, name: Json | undefined): boolean {
  if (Array.isArray(name) || isObject(name))
    throw new RefCheckRaises(`a reference to ${sectionName} is ${repr(name)}, which it cannot look up (TypeError)`);
  // Present is enough: the accessor wraps whatever value the name holds (an unchecked `"x y": 42` is a test).
  // (`_has_field`: a null value counts as missing.)
  const section = t[sectionName];
  return typeof name === 'string' && isObject(section) && section[name] !== undefined && section[name] !== null;
}

const entries = (t: JsonObject, sectionName: string): [string, JsonObject][] =>
  isObject(t[sectionName])
    ? Object.entries(t[sectionName]).filter((e): e is [string, JsonObject] => isObject(e[1]))
    : [];

const list = (v: Json | undefined): Json[] => (Array.isArray(v) ? v : []);

/**
 * What Python's `for x in v` walks, after the `if v:` guard upstream puts before each loop: a list's items, a
 * string's characters, an object's keys; nothing for a falsy value; a TypeError for a number or `true`.
 */
function pyIter(v: Json | undefined, where: string): Json[] {
  if (!truthy(v)) return [];
  if (Array.isArray(v)) return v;
  if (typeof v === 'string') return [...v];
  if (isObject(v)) return Object.keys(v);
  throw new RefCheckRaises(`${where} is ${repr(v ?? null)}, which it cannot iterate (TypeError)`);
}

/** Every problem `validate_refs` reports, in its order and words (config.py ~246-340). */
export function referenceProblems(t: JsonObject): string[] {
  const out: string[] = [];
  const contexts = (owner: JsonObject, say: (c: string) => string): void => {
    for (const c of pyIter(owner.contexts, 'a `contexts` list')) if (!has(t, 'contexts', c)) out.push(say(pyStr(c)));
  };
  for (const [name, a] of entries(t, 'addresses')) {
    if (truthy(a.host) && !has(t, 'hosts', a.host))
      out.push(`Address ${name} references a host object ${pyStr(a.host)} that does not exist.`);
    contexts(a, (c) => `Address ${name} references a context object ${c} that does not exist.`);
    for (const [remote, r] of Object.entries(isObject(a['remote-addresses']) ? a['remote-addresses'] : {})) {
      if (!isObject(r)) continue;
      contexts(
        r,
        (c) => `Address ${name} has a remote definition for ${remote} using a context object ${c} that does not exist.`,
      );
      for (const [label, l] of Object.entries(isObject(r.labels) ? r.labels : {}))
        if (isObject(l))
          contexts(l, (c) => `Address ${name} has a label ${label} using a context object ${c} that does not exist.`);
    }
    // Labels of the address itself: upstream iterates `label.context_refs` without calling it, a TypeError when a
    // label has contexts (referenceCheckCrash).
  }
  for (const [name, g] of entries(t, 'groups')) {
    const selectors =
      g.type === 'disjoint' ? [...list(g['a-addresses']), ...list(g['b-addresses'])] : list(g.addresses);
    for (const s of selectors) {
      // Class selectors are not checked upstream (psconfig.address_class() is called without a name).
      // A selector without a truthy `name` is built as a class selector (AddressSelectorFactory): not checked. A
      // list or object as the name cannot be looked up (unhashable): the error that raises is swallowed upstream.
      if (!isObject(s) || !truthy(s.name) || Array.isArray(s.name) || isObject(s.name)) continue;
      const addressName = pyStr(s.name);
      const a = isObject(t.addresses) ? t.addresses[addressName] : undefined;
      if (typeof s.name !== 'string' || a === undefined || a === null) {
        out.push(`Group ${name} references an address object ${addressName} that does not exist.`);
        continue;
      }
      // (an address that is not an object raises in the label lookup, inside the try that swallows it)
      if (truthy(s.label) && isObject(a) && !labelExists(a, pyStr(s.label)))
        out.push(
          `Group ${name} references a label ${pyStr(s.label)} for address object ${addressName} that does not exist.`,
        );
    }
  }
  for (const [name, h] of entries(t, 'hosts'))
    for (const r of pyIter(h.archives, `hosts/${name}/archives`))
      if (truthy(r) && !has(t, 'archives', r))
        out.push(`Host ${name} references an archive ${pyStr(r)} that does not exist.`);
  for (const [name, task] of entries(t, 'tasks')) {
    for (const [key, sectionName] of [
      ['group', 'groups'],
      ['test', 'tests'],
      ['schedule', 'schedules'],
    ] as const)
      if (truthy(task[key]) && !has(t, sectionName, task[key]))
        out.push(`Task ${name} references a ${key} ${pyStr(task[key])} that does not exist.`);
    for (const r of pyIter(task.archives, `tasks/${name}/archives`))
      if (truthy(r) && !has(t, 'archives', r))
        out.push(`Task ${name} references an archive ${pyStr(r)} that does not exist.`);
  }
  return out;
}

/**
 * What makes `validate_refs` raise instead of answering: an address label with contexts (below), and objects the
 * schema leaves unchecked (names outside its NameType pattern): an entry that is not an object (its accessors call `.get` on it, base_node.py ~411), a group of a
 * type GroupFactory does not build (groups/group_factory.py: None, then `group.type`, config.py ~294).
 */
export function referenceCheckCrash(t: JsonObject): string | undefined {
  // An address's own label with contexts: config.py ~283-286 iterates `label.context_refs`, a method it does not
  // call (TypeError), while the address loop runs, so before any other object is looked at.
  for (const [name, a] of Object.entries(isObject(t.addresses) ? t.addresses : {})) {
    if (!isObject(a)) return `addresses/${name} is ${repr(a)}, not an object (AttributeError)`;
    for (const [label, l] of Object.entries(isObject(a.labels) ? a.labels : {}))
      if (isObject(l) && truthy(l.contexts))
        return `addresses/${name}/labels/${label} has contexts, which pSConfig 5.2.4 cannot iterate there (TypeError: 'method' object is not iterable)`;
  }
  for (const sectionName of ['groups', 'hosts', 'tasks']) {
    const sec = t[sectionName];
    if (!isObject(sec)) continue;
    for (const [name, v] of Object.entries(sec)) {
      if (!isObject(v)) return `${sectionName}/${name} is ${repr(v)}, not an object (AttributeError)`;
      if (sectionName === 'groups' && !['disjoint', 'mesh', 'list'].includes(v.type as string))
        return `groups/${name} has type ${repr(v.type ?? null)}, which pSConfig does not build (AttributeError)`;
    }
  }
  return undefined;
}

/** A label counts when the address or any of its remote definitions has it (config.py _ref_check_label). */
function labelExists(a: JsonObject, label: string): boolean {
  if (isObject(a.labels) && isObject(a.labels[label])) return true;
  const remotes = isObject(a['remote-addresses']) ? Object.values(a['remote-addresses']) : [];
  return remotes.some((r) => isObject(r) && isObject(r.labels) && isObject(r.labels[label]));
}
