// A compact draft-07 checker for pScheduler's skeletons, run on the template's own tree so that every problem
// lands on a token. It follows jsonschema as pScheduler runs it: `$ref` hides its siblings, `integer` accepts
// 2.0, `pattern` is Python's re.search, formats per host profile (formats.ts). Unlike jsonschema it reports
// every problem, not only the first, and says what was expected in our words (describe.ts).
//
// Strings holding template variables are judged by what pSConfig would put there (an Expansion from the caller):
// a standalone `{% flip %}` is a boolean, an address is one of the candidate strings, a jq result is unknown.
// Nothing is ever reported only because a value is a variable.
import type { JsonPath } from '../parse';
import { closestName, MAX_SUGGEST_LENGTH } from '../rules/closest-name';
import { cacheKey, ownString } from '../own-string';
import { pschedulerType, type PluginData, type Schema } from './catalog';
import { describeSchema, describeValue } from './describe';
import { checkFormat, pythonRegex, type HostProfile } from './formats';
import { memberProp, type NodeLike } from './nodes';
import { noun } from '../../../../common/text';

/** One string a template variable may become, and where it comes from (for the message). */
export interface Candidate {
  value: string;
  /** The task it comes from, when the string is used by several. */
  task?: string;
  /** Completes "... must be X, but ___." for a task: "`{% address[1] %}` is \"a b\" for task `t1`". */
  why: (task: string | undefined) => string;
}

/** What pSConfig puts in place of a string holding template variables. */
export type Expansion =
  | { kind: 'unknown' }
  | { kind: 'boolean'; values?: boolean[] }
  | {
      kind: 'string';
      values?: Candidate[];
      /** The task using the string, when one task does (set when handed out; messages name it). */
      task?: string;
      /** Verdicts per schema and profile (index of the first failing candidate, -1 for none), filled by the
       *  checker: the expansion is shared by every string of the template with the same users and text. */
      verdicts?: Map<Schema, Map<HostProfile, number>>;
    };

export type ProblemKind =
  'unknown-property' | 'missing-property' | 'invalid-value' | 'needs-schema' | 'rule' | 'not-validated';

export interface Problem {
  kind: ProblemKind;
  /** The value node; for unknown-property the key node; for missing-property the object. */
  node: NodeLike;
  /** Path inside the checked value (for messages and the CLI). */
  path: JsonPath;
  message: string;
  severity: 'error' | 'warning';
  /** unknown-property: the closest allowed key; invalid-value: the closest allowed value. */
  closest?: string;
  /** needs-schema: the version to set; missing-property: the missing key. */
  version?: number;
  property?: string;
}

export interface CheckOptions {
  profile?: HostProfile;
  /**
   * Strings with `{%` in them: what they become (without it they are checked as written). `wantValues` is false
   * when the schema does not look at a string's content, so candidates need not be computed.
   */
  expansion?: (node: NodeLike, wantValues: boolean) => Expansion | undefined;
}

/** Validity of candidate strings per schema object and profile: a mesh reuses the same few thousand addresses. */
const candidateMemo = new Map<Schema, Map<string, boolean>>(); // per debian12 / el8: two maps
const candidateMemoEl8 = new Map<Schema, Map<string, boolean>>();
const MAX_MEMO = 50_000;
const contentMemo = new Map<Schema, boolean>(); // schemas are our data: a fixed, small set
/** Validity of concrete strings per schema object (each belongs to one plug-in's data, or is a shared type). */
const stringMemo = new Map<Schema, Map<string, boolean>>();
const stringMemoEl8 = new Map<Schema, Map<string, boolean>>();

/** Shown in messages for a path: `data-ports.lower`, `retry-policy[0].wait`, or `the spec` for the root. */
export function fieldName(path: JsonPath, root = 'the value'): string {
  if (!path.length) return root;
  let s = '';
  for (const p of path) s += typeof p === 'number' ? `[${p}]` : s ? `.${p}` : p;
  return `\`${s}\``;
}

interface Resolved {
  schema: Schema | undefined;
  label: string;
}
/** `$ref` targets per plug-in (the data never changes). */
const resolved = new WeakMap<PluginData | typeof NO_PLUGIN, Map<string, Resolved>>();
const NO_PLUGIN = {};

interface Frame {
  /** Name of the pScheduler type or local definition we came through (for messages). */
  label?: string;
}

export class SchemaChecker {
  private readonly profile: HostProfile;
  /** The node the current run started from (paths in messages are relative to it). */
  private root: NodeLike | undefined;
  constructor(
    private readonly plugin: PluginData | undefined,
    private readonly opts: CheckOptions = {},
    private readonly rootName = 'the value',
  ) {
    this.profile = opts.profile ?? 'debian12';
  }

  /** Check a whole value; problems go to `out`. */
  run(schema: Schema | boolean, node: NodeLike, out: Problem[]): boolean {
    this.root = node;
    return this.check(schema, node, out);
  }

  resolve(ref: string): Resolved {
    const key = this.plugin ?? NO_PLUGIN;
    let table = resolved.get(key);
    if (!table) resolved.set(key, (table = new Map<string, Resolved>()));
    let r = table.get(ref);
    if (!r) {
      const m = /^#\/(pScheduler|local)\/(.+)$/.exec(ref);
      const local = this.plugin?.local;
      r = !m
        ? { schema: undefined, label: ref }
        : m[1] === 'pScheduler'
          ? { schema: pschedulerType(m[2]), label: m[2] }
          : {
              schema: local && Object.prototype.hasOwnProperty.call(local, m[2]) ? local[m[2]] : undefined,
              label: m[2],
            };
      table.set(ref, r);
    }
    return r;
  }

  /** Path of a node below the run's root (object keys, array indexes); a key node's path ends with its key. */
  pathOf(node: NodeLike): JsonPath {
    const path: JsonPath = [];
    for (let n = node; n !== this.root && n.parent;) {
      const p: NodeLike = n.parent;
      if (p.type === 'property') {
        path.unshift(p.children![0].value as string);
        if (!p.parent) break;
        n = p.parent;
      } else if (p.type === 'array') {
        path.unshift(p.children!.indexOf(n));
        n = p;
      } else n = p;
    }
    return path;
  }

  private field(node: NodeLike): string {
    return fieldName(this.pathOf(node), this.rootName);
  }

  /** Is the node valid? Problems go to `out` when given (a silent run when not). */
  check(schema: Schema | boolean, node: NodeLike, out?: Problem[], frame: Frame = NO_FRAME): boolean {
    if (schema === true) return true;
    if (schema === false) {
      out?.push(this.problem('invalid-value', node, `${this.field(node)} is not allowed here.`));
      return false;
    }
    if (schema.$ref !== undefined) {
      const { schema: target, label } = this.resolve(schema.$ref);
      // An unresolvable reference makes jsonschema raise: the program crashes and the value is refused.
      if (!target) {
        out?.push(this.problem('invalid-value', node, `pScheduler cannot resolve ${schema.$ref}.`));
        return false;
      }
      return this.check(target, node, out, frameOf(label));
    }
    if (node.type === 'string' && typeof node.value === 'string' && node.value.includes('{%') && this.opts.expansion) {
      const exp = this.opts.expansion(node, this.looksAtContent(schema));
      if (exp) return this.checkExpansion(schema, node, exp, out, frame);
    }
    if (node.type === 'string') return this.checkString(schema, node, out, frame);
    return this.checkConcrete(schema, node, out, frame);
  }

  /**
   * A concrete string, remembered per schema and profile: a mesh sends the same few hundred addresses through the
   * same Host schema in every spec. A remembered failure is checked again when its problems are wanted.
   */
  private checkString(schema: Schema, node: NodeLike, out: Problem[] | undefined, frame: Frame): boolean {
    const memos = this.profile === 'el8' ? stringMemoEl8 : stringMemo;
    let memo = memos.get(schema);
    const s = node.value as string;
    const known = memo?.get(s);
    if (known === true || (known === false && !out)) return known;
    const ok = this.checkConcrete(schema, node, out, frame);
    if (!memo || memo.size > MAX_MEMO) memos.set(schema, (memo = new Map<string, boolean>()));
    const k = cacheKey(s); // a copy: the memo outlives the template the string was cut from
    if (k !== undefined) memo.set(k, ok);
    return ok;
  }

  private checkExpansion(
    schema: Schema,
    node: NodeLike,
    exp: Expansion,
    out: Problem[] | undefined,
    frame: Frame,
  ): boolean {
    if (exp.kind === 'unknown') return true;
    if (exp.kind === 'boolean') {
      const values = exp.values?.length ? exp.values : BOTH;
      for (const v of values) {
        if (!this.check(schema, v ? TRUE_NODE : FALSE_NODE, undefined, frame)) {
          out?.push(
            this.problem(
              'invalid-value',
              node,
              `${this.field(node)} must be ${describeSchema(schema, frame.label)}; this variable expands to a boolean.`,
            ),
          );
          return false;
        }
      }
      return true;
    }
    if (!exp.values) {
      // Some string we cannot know: only what any string must satisfy is checked.
      if (this.couldBeString(schema)) return true;
      out?.push(
        this.problem(
          'invalid-value',
          node,
          `${this.field(node)} must be ${describeSchema(schema, frame.label)}; this variable expands to a string.`,
        ),
      );
      return false;
    }
    const values = exp.values;
    exp.verdicts ??= new Map();
    let bySchema = exp.verdicts.get(schema);
    if (!bySchema) exp.verdicts.set(schema, (bySchema = new Map<HostProfile, number>()));
    let failing = bySchema.get(this.profile);
    if (failing === undefined) {
      const memos = this.profile === 'el8' ? candidateMemoEl8 : candidateMemo;
      let memo = memos.get(schema);
      if (!memo || memo.size > MAX_MEMO) memos.set(schema, (memo = new Map<string, boolean>()));
      failing = -1;
      for (let i = 0; i < values.length && failing < 0; i++) {
        const key = values[i].value;
        let valid = memo.get(key);
        if (valid === undefined) {
          const standIn: NodeLike = {
            type: 'string',
            offset: node.offset,
            length: node.length,
            value: values[i].value,
          };
          valid = this.check(schema, standIn, undefined, frame);
          const k = cacheKey(key);
          if (k !== undefined) memo.set(k, valid);
        }
        if (!valid) failing = i;
      }
      bySchema.set(this.profile, failing);
    }
    if (failing < 0) return true;
    out?.push(
      this.problem(
        'invalid-value',
        node,
        `${this.field(node)} must be ${describeSchema(schema, frame.label)}, but ${values[failing].why(values[failing].task ?? exp.task)}.`,
      ),
    );
    return false;
  }

  /** Does the schema look at a string's content (pattern, format, enum, length)? */
  private looksAtContent(schema: Schema | boolean, depth = 0): boolean {
    if (typeof schema === 'boolean' || depth > 20) return false;
    const cached = contentMemo.get(schema);
    if (cached !== undefined) return cached;
    let r = false;
    if (schema.$ref !== undefined) {
      const t = this.resolve(schema.$ref).schema;
      r = t ? this.looksAtContent(t, depth + 1) : false;
    } else {
      r =
        schema.pattern !== undefined ||
        schema.format !== undefined ||
        schema.enum !== undefined ||
        schema.const !== undefined ||
        schema.minLength !== undefined ||
        schema.maxLength !== undefined ||
        [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])].some((s) =>
          this.looksAtContent(s, depth + 1),
        ) ||
        (schema.not !== undefined && this.looksAtContent(schema.not, depth + 1));
    }
    contentMemo.set(schema, r);
    return r;
  }

  /** Could some string pass this schema (patterns and formats aside)? */
  private couldBeString(schema: Schema | boolean, depth = 0): boolean {
    if (typeof schema === 'boolean') return schema;
    if (depth > 20) return true;
    if (schema.$ref !== undefined) {
      const t = this.resolve(schema.$ref).schema;
      return t ? this.couldBeString(t, depth + 1) : false;
    }
    if (
      schema.type !== undefined &&
      !(typeof schema.type === 'string' ? schema.type === 'string' : schema.type.includes('string'))
    )
      return false;
    if (schema.enum && !schema.enum.some((e) => typeof e === 'string')) return false;
    if (schema.const !== undefined && typeof schema.const !== 'string') return false;
    if (schema.allOf && !schema.allOf.every((s) => this.couldBeString(s, depth + 1))) return false;
    if (schema.anyOf && !schema.anyOf.some((s) => this.couldBeString(s, depth + 1))) return false;
    if (schema.oneOf && !schema.oneOf.some((s) => this.couldBeString(s, depth + 1))) return false;
    return true;
  }

  private checkConcrete(schema: Schema, node: NodeLike, out: Problem[] | undefined, frame: Frame): boolean {
    if (schema.type !== undefined && !typeMatches(schema.type, node)) return this.bad(schema, node, out, frame);
    if (schema.enum !== undefined && !schema.enum.some((e) => sameValue(e, node))) {
      if (!out) return false;
      const strings = schema.enum.filter((e): e is string => typeof e === 'string');
      const closest = node.type === 'string' ? closestName(node.value as string, strings) : undefined;
      return this.bad(schema, node, out, frame, closest ? ` Did you mean \`${closest}\`?` : '', closest);
    }
    if (schema.const !== undefined && !sameValue(schema.const, node)) return this.bad(schema, node, out, frame);
    let ok = true;
    if (node.type === 'string') {
      const s = node.value as string;
      if (
        ((schema.minLength !== undefined || schema.maxLength !== undefined) && !lengthFits(s, schema)) ||
        (schema.pattern !== undefined && !pythonRegex(schema.pattern).test(s)) ||
        (schema.format !== undefined && !checkFormat(schema.format, s, this.profile))
      )
        return this.bad(schema, node, out, frame);
    } else if (node.type === 'number') {
      const n = node.value as number;
      if (
        (schema.minimum !== undefined && n < schema.minimum) ||
        (schema.maximum !== undefined && n > schema.maximum) ||
        (schema.exclusiveMinimum !== undefined && n <= schema.exclusiveMinimum) ||
        (schema.exclusiveMaximum !== undefined && n >= schema.exclusiveMaximum)
      )
        return this.bad(schema, node, out, frame);
    } else if (node.type === 'object') {
      if (schema.properties || schema.required || schema.additionalProperties !== undefined || schema.patternProperties)
        ok = this.checkObject(schema, node, out);
    } else if (node.type === 'array') {
      const items = node.children ?? [];
      if (schema.minItems !== undefined && items.length < schema.minItems) {
        const n = schema.minItems;
        out?.push(this.problem('invalid-value', node, `${this.field(node)} needs at least ${n} ${noun(n, 'item')}.`));
        return false;
      }
      if (schema.maxItems !== undefined && items.length > schema.maxItems) {
        out?.push(this.problem('invalid-value', node, `${this.field(node)} takes at most ${schema.maxItems} items.`));
        return false;
      }
      if (schema.items && typeof schema.items === 'object')
        for (let i = 0; i < items.length; i++) ok = this.check(schema.items, items[i], out, NO_FRAME) && ok;
    }
    if (schema.allOf) for (const s of schema.allOf) ok = this.check(s, node, out, frame) && ok;
    if (schema.anyOf || schema.oneOf) ok = this.checkAlternatives(schema, node, out, frame) && ok;
    if (schema.not && this.check(schema.not, node, undefined, NO_FRAME)) {
      out?.push(this.problem('invalid-value', node, `${this.field(node)} must not be ${describeSchema(schema.not)}.`));
      ok = false;
    }
    if (schema.if) {
      const branch = this.check(schema.if, node, undefined, NO_FRAME) ? schema.then : schema.else;
      if (branch) ok = this.check(branch, node, out, frame) && ok;
    }
    return ok;
  }

  /** Report "X must be <what the schema asks for>, not <value>." and answer false. */
  private bad(
    schema: Schema,
    node: NodeLike,
    out: Problem[] | undefined,
    frame: Frame,
    extra = '',
    closest?: string,
  ): false {
    out?.push(
      this.problem(
        'invalid-value',
        node,
        `${this.field(node)} must be ${describeSchema(schema, frame.label)}, not ${describeNode(node)}.${extra}`,
        closest,
      ),
    );
    return false;
  }

  private checkObject(schema: Schema, node: NodeLike, out: Problem[] | undefined): boolean {
    let ok = true;
    if (schema.required)
      for (const req of schema.required) {
        if (memberProp(node, req)) continue;
        ok = false;
        if (out) {
          const p = this.problem(
            'missing-property',
            node,
            `${capitalise(this.field(node))} needs \`${req}\`${this.requiredHint(schema, req)}.`,
          );
          p.property = req;
          out.push(p);
        }
      }
    const declared = schema.properties;
    const patterns = schema.patternProperties;
    const extra = schema.additionalProperties;
    const kids = node.children ?? NO_KIDS;
    for (let i = 0; i < kids.length; i++) {
      const pair = kids[i].children;
      if (kids[i].comment || !pair || !pair[1]) continue;
      const key = pair[0].value as string;
      if (laterDuplicate(kids, i, key)) continue; // Python's json keeps the last
      const value = pair[1];
      let matched = false;
      if (declared && Object.prototype.hasOwnProperty.call(declared, key)) {
        matched = true;
        ok = this.check(declared[key], value, out, NO_FRAME) && ok;
      }
      if (patterns)
        for (const pat in patterns) {
          if (pythonRegex(pat).test(key)) {
            matched = true;
            ok = this.check(patterns[pat], value, out, NO_FRAME) && ok;
          }
        }
      if (matched || extra === undefined || extra === true) continue;
      if (extra === false) {
        ok = false;
        if (out) {
          const closest = closestKey(key, declared ?? NO_PROPS);
          out.push(
            this.problem(
              'unknown-property',
              pair[0],
              `${capitalise(this.field(node))} does not take \`${key}\`.${closest ? ` Did you mean \`${closest}\`?` : ''}`,
              closest,
            ),
          );
        }
      } else ok = this.check(extra, value, out, NO_FRAME) && ok;
    }
    return ok;
  }

  private requiredHint(schema: Schema, key: string): string {
    const s = schema.properties?.[key];
    if (!s) return '';
    return `: ${describeSchema(s, s.$ref ? this.resolve(s.$ref).label : undefined)}`;
  }

  /** anyOf / oneOf: when every alternative fails, report the alternative that fits best, or one summary. */
  private checkAlternatives(schema: Schema, node: NodeLike, out: Problem[] | undefined, frame: Frame): boolean {
    const list = (schema.anyOf ?? schema.oneOf)!;
    if (!out) {
      // silent: count passing alternatives only
      let passing = 0;
      for (const s of list) if (this.check(s, node, undefined, NO_FRAME) && (++passing > 1 || !schema.oneOf)) break;
      return schema.oneOf ? passing === 1 : passing > 0;
    }
    // Most values pass (a Host is a host name, an IPv4 or an IPv6 address): decide silently first, and build the
    // failing alternatives' messages only for a value that needs them.
    if (this.checkAlternatives(schema, node, undefined, frame)) return true;
    const results = list.map((s) => {
      const problems: Problem[] = [];
      return { ok: this.check(s, node, problems, NO_FRAME), problems };
    });
    const passing = results.filter((r) => r.ok).length;
    if (schema.oneOf && passing > 1) {
      out.push(
        this.problem(
          'invalid-value',
          node,
          `${this.field(node)} matches more than one of the forms pScheduler allows (${describeSchema(schema, frame.label)}); exactly one must fit.`,
        ),
      );
      return false;
    }
    if (passing > 0) return true;
    // Prefer an alternative the value has the shape of (no wrong type or value at this node itself): its
    // problems say what to fix (a missing key, a wrong field) better than a summary of every form.
    const shaped = results
      .filter((r) => r.problems.length && r.problems.every((p) => p.node !== node || p.kind === 'missing-property'))
      .sort((a, b) => a.problems.length - b.problems.length);
    if (shaped.length && node.type === 'object') {
      for (const p of shaped[0].problems) out.push(p);
      return false;
    }
    out.push(
      this.problem(
        'invalid-value',
        node,
        `${this.field(node)} must be ${describeSchema(schema, frame.label)}, not ${describeNode(node)}.`,
      ),
    );
    return false;
  }

  problem(kind: ProblemKind, node: NodeLike, message: string, closest?: string): Problem {
    return { kind, node, path: this.pathOf(node), message, severity: 'error', ...(closest ? { closest } : {}) };
  }
}

const BOTH = [true, false];
/** Stand-ins for what `{% flip %}` becomes, checked silently (no path or range needed). */
const TRUE_NODE: NodeLike = { type: 'boolean', offset: 0, length: 4, value: true };
const FALSE_NODE: NodeLike = { type: 'boolean', offset: 0, length: 5, value: false };
const NO_KIDS: readonly NodeLike[] = [];

/** Is there a later property with the same key (objects are small: a scan; large ones are rare)? */
function laterDuplicate(kids: readonly NodeLike[], i: number, key: string): boolean {
  for (let j = i + 1; j < kids.length; j++) {
    const p = kids[j].children;
    if (p && p[1] && p[0].value === key) return true;
  }
  return false;
}

function typeMatches(type: string | string[], node: NodeLike): boolean {
  if (typeof type === 'string') return typeIs(type, node);
  return type.some((x) => typeIs(x, node));
}

function typeIs(x: string, node: NodeLike): boolean {
  if (node.type === 'number') return x === 'number' || (x === 'integer' && Number.isInteger(node.value));
  return x === node.type;
}

/** minLength / maxLength in code points, as Python counts. */
function lengthFits(s: string, schema: Schema): boolean {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdbff) n++;
  }
  return (
    (schema.minLength === undefined || n >= schema.minLength) &&
    (schema.maxLength === undefined || n <= schema.maxLength)
  );
}

/** jsonschema's enum/const equality on a node (booleans never equal numbers: jsonschema 4.x). */
function sameValue(expected: unknown, node: NodeLike): boolean {
  if (node.type === 'object' || node.type === 'array') return false;
  return expected === node.value && (typeof expected === 'boolean') === (node.type === 'boolean');
}

function describeNode(node: NodeLike): string {
  if (node.type === 'object') return 'an object';
  if (node.type === 'array') return 'an array';
  return describeValue(node.value);
}

function capitalise(s: string): string {
  return s.startsWith('the ') ? `T${s.slice(1)}` : s;
}

/** A misspelt key's closest declared key: by edit distance, else a declared key that is one of its dash-separated
 *  parts (`omit-interval` -> `omit`). Memoised per properties object. */
export function closestKey(key: string, declared: Record<string, Schema>): string | undefined {
  // A key this long is no typo (and splitting 60 KB of filled variables at every `-` took 0.3 s per expansion).
  if (key.length > MAX_SUGGEST_LENGTH) return undefined;
  let memo = closestMemo.get(declared);
  if (!memo || memo.size > 1000) closestMemo.set(declared, (memo = new Map<string, string | undefined>()));
  if (memo.has(key)) return memo.get(key);
  const found = findClosestKey(key, Object.keys(declared));
  memo.set(ownString(key), found);
  return found;
}
const closestMemo = new WeakMap<Record<string, Schema>, Map<string, string | undefined>>();
const NO_PROPS: Record<string, Schema> = {};

function findClosestKey(key: string, declared: string[]): string | undefined {
  const byDistance = closestName(key, declared);
  if (byDistance) return byDistance;
  for (const part of key.toLowerCase().split(/[-_]/)) {
    const hit = declared.find((d) => d.length > 2 && d.toLowerCase() === part);
    if (hit) return hit;
  }
  return undefined;
}

const NO_FRAME: Frame = {};
const frames = new Map<string, Frame>();
function frameOf(label: string): Frame {
  let f = frames.get(label);
  if (!f) frames.set(label, (f = { label }));
  return f;
}
