// Validates a template AST against the official draft-04 schema, reporting EVERY error on the smallest range.
//
// A small interpreter of the schema JSON (definitions under `pSConfig`, refs `#/pSConfig/X`, non-unicode regexps
// so patterns like `24\:?00` compile). Where the schema offers alternatives (anyOf/oneOf) the author's intent is
// dispatched on (see alternatives.ts) so messages name the field at fault. `#` keys are comments and skipped.
// Objects whose names pSConfig does not validate (outside NameType) get a warning and are validated leniently.
import type { JsonNode } from '../parse';
import { KEEP_ALIVE, NODE, Tree } from '../tree';
import { diag, type DiagnosticCode, type Severity, type TemplateDiagnostic } from '../rules/diagnostic';
import { closestName } from '../rules/closest-name';
import { ALTERNATIVES } from './alternatives';
import {
  DEFINITION_LABELS,
  describePath,
  singular,
  expectedType,
  isIntegerToken,
  jsonTypeName,
  quote,
} from './describe';
import { officialSchema, type JsonSchema } from './schema-source';
import { unknownPropertyHint } from './property-hints';
import type { Frame, SchemaCheck } from './checker-types';

const { ARRAY, COMMENT, NUMBER, OBJECT, STRING } = NODE;

const NAME_KEY = '^[a-zA-Z0-9:._\\-]+$';

interface Compiled {
  refName: string | undefined;
  refSchema: JsonSchema | undefined;
  anyJson: boolean;
  alt: ((c: SchemaCheck, node: number, frame: Frame) => void) | undefined;
  alternatives: boolean;
  type: string | string[] | undefined;
  enumValues: unknown[] | undefined;
  pattern: RegExp | undefined;
  minimum: number | undefined;
  properties: Map<string, JsonSchema>;
  patternProps: { re: RegExp; schema: JsonSchema; isName: boolean }[];
  additional: boolean | JsonSchema | undefined;
  required: string[];
  items: JsonSchema | undefined;
}

/** Compiled keywords per schema object (the official schema is loaded once and never mutated). */
const COMPILED = new Map<JsonSchema, Compiled>();

export class SchemaChecker implements SchemaCheck {
  readonly out: TemplateDiagnostic[] = [];
  readonly defs: Record<string, JsonSchema>;
  private readonly regexps = new Map<string, RegExp>();
  /** Property frames of finished objects, for the next ones. */
  private readonly spareFrames: Frame[] = [];

  readonly text: string;

  constructor(
    readonly tree: Tree,
    readonly schema: JsonSchema,
  ) {
    this.text = tree.text;
    this.defs = schema.pSConfig ?? {};
  }

  report(
    code: DiagnosticCode,
    frame: Frame,
    message: string,
    start: number,
    end: number,
    data?: TemplateDiagnostic['data'],
  ): void {
    const severity: Severity = frame.lenient ? 'warning' : 'error';
    const suffix = frame.lenient ? ' (pSConfig does not validate this object because of its name.)' : '';
    this.out.push(diag(code, severity, message + suffix, start, end, data ? { data } : undefined));
  }

  regex(pattern: string): RegExp {
    let r = this.regexps.get(pattern);
    if (!r) {
      r = new RegExp(pattern); // no `u` flag: the schema's patterns use identity escapes such as `\:`
      this.regexps.set(pattern, r);
    }
    return r;
  }

  private readonly resolved = new Map<string, { name: string; schema: JsonSchema }>();

  resolve(ref: string): { name: string; schema: JsonSchema } {
    let r = this.resolved.get(ref);
    if (!r) {
      const name = ref.slice(ref.lastIndexOf('/') + 1);
      r = { name, schema: this.defs[name] ?? {} };
      this.resolved.set(ref, r);
    }
    return r;
  }

  check(node: number, s: JsonSchema, frame: Frame): void {
    const t = this.tree;
    const c = this.compile(s);
    if (c.refName !== undefined) {
      if (c.anyJson) return;
      // The frame is only read while checking (dispatchers copy it), so switch its definition in place and
      // restore it, rather than allocating a frame per $ref'd value.
      const { def, ignore } = frame;
      frame.def = c.refName;
      frame.ignore = undefined;
      if (c.alt) c.alt(this, node, frame);
      else this.check(node, c.refSchema!, frame);
      frame.def = def;
      frame.ignore = ignore;
      return;
    }
    if (c.alternatives) return this.checkGeneric(node, s, frame);
    if (c.type !== undefined && !this.typeOk(node, c.type)) return this.wrongType(node, c.type, frame);
    const type = t.type(node);
    if (c.enumValues && !c.enumValues.includes(t.scalar(node))) {
      const list = c.enumValues.map((e) => quote(e)).join(', ');
      this.report(
        'psconfig/invalid-enum',
        frame,
        `${quote(t.scalar(node))} is not allowed for \`${frame.field ?? 'this value'}\`: use one of ${list}.`,
        t.start[node],
        t.end[node],
      );
      return;
    }
    if (c.pattern && type === STRING && !c.pattern.test(t.str(node))) {
      if (frame.lenient && frame.def === 'NameType') return; // already flagged by name-not-validated
      return this.patternError(node, s, frame);
    }
    if (c.minimum !== undefined && type === NUMBER && (t.scalar(node) as number) < c.minimum) {
      this.report(
        'psconfig/out-of-range',
        frame,
        `\`${frame.field ?? 'value'}\` must be at least ${c.minimum} (it is ${t.scalar(node) as number}).`,
        t.start[node],
        t.end[node],
      );
      return;
    }
    if (type === OBJECT) this.checkObject(node, s, c, frame);
    else if (type === ARRAY && c.items) {
      const first = t.firstChild(node);
      if (first < 0) return;
      // a spare frame, given back after the items (thousands of arrays: tags, archives, selector lists)
      const itemFrame = childFrame(this.spareFrames.pop(), frame, frame.field, undefined, true);
      for (let item = first; item >= 0; item = t.nextSibling(item, node)) this.check(item, c.items, itemFrame);
      this.spareFrames.push(itemFrame);
    }
  }

  /** The schema object's keywords read once into a fixed-shape record (schema JSON objects have many shapes). */
  compile(s: JsonSchema): Compiled {
    // The lookup apart from the compilation: a closure in the same function makes V8 allocate a context on every
    // call, hits included (4 MB per check of the 1.6 MB bench template).
    return COMPILED.get(s) ?? this.compileNew(s);
  }

  private compileNew(s: JsonSchema): Compiled {
    const refName = s.$ref !== undefined ? s.$ref.slice(s.$ref.lastIndexOf('/') + 1) : undefined;
    const pats = s.patternProperties ?? {};
    const c: Compiled = {
      refName,
      refSchema: refName !== undefined ? (this.defs[refName] ?? {}) : undefined,
      anyJson: refName === 'AnyJSON',
      alt: refName !== undefined ? ALTERNATIVES[refName] : undefined,
      alternatives: !!(s.anyOf || s.oneOf),
      type: s.type,
      enumValues: s.enum,
      pattern: s.pattern !== undefined ? this.regex(s.pattern) : undefined,
      minimum: s.minimum,
      properties: new Map(Object.entries(s.properties ?? {})),
      patternProps: Object.keys(pats).map((p) => ({ re: this.regex(p), schema: pats[p], isName: p === NAME_KEY })),
      additional: s.additionalProperties,
      required: s.required ?? [],
      items: s.items,
    };
    COMPILED.set(s, c);
    return c;
  }

  /** True when check(node, schema) would certainly report nothing, decided without allocating: scalars that
   *  pass their (possibly $ref'd) type/enum/pattern/minimum. Containers and alternatives take the full walk. */
  quietlyValid(node: number, c: Compiled): boolean {
    while (c.refName !== undefined) {
      if (c.anyJson) return true;
      if (c.alt) return false;
      c = this.compile(c.refSchema!);
    }
    const t = this.tree;
    const type = t.type(node);
    if (c.alternatives || type === OBJECT || type === ARRAY) return false;
    if (c.type !== undefined && !this.typeOk(node, c.type)) return false;
    if (c.enumValues && !c.enumValues.includes(t.scalar(node))) return false;
    if (c.pattern && type === STRING && !c.pattern.test(t.str(node))) return false;
    return !(c.minimum !== undefined && type === NUMBER && (t.scalar(node) as number) < c.minimum);
  }

  typeOk(node: number, type: string | string[]): boolean {
    if (Array.isArray(type)) return type.some((t) => this.typeOk(node, t));
    if (type === 'integer') return isIntegerToken(this.tree, node);
    return this.tree.typeName(node) === type;
  }

  wrongType(node: number, type: string | string[], frame: Frame, what?: string): void {
    const subject =
      frame.field === undefined
        ? 'The template'
        : frame.item
          ? `Each item of \`${frame.field}\``
          : `\`${frame.field}\``;
    const [start, end] = this.valueRange(node, frame);
    this.report(
      'psconfig/wrong-type',
      frame,
      `${subject} must be ${what ?? expectedType(type, frame.def)}, not ${jsonTypeName(this.tree, node)}.`,
      start,
      end,
    );
  }

  /** Scalars are short: mark the value. Objects/arrays can span pages: mark their key when there is one. */
  valueRange(node: number, frame: Frame): [number, number] {
    const t = this.tree;
    const container = t.type(node) === OBJECT || t.type(node) === ARRAY;
    if (container && frame.key !== undefined) return [t.start[frame.key], t.end[frame.key]];
    if (container) return [t.start[node], t.start[node] + 1];
    return [t.start[node], t.end[node]];
  }

  patternError(node: number, s: JsonSchema, frame: Frame): void {
    const t = this.tree;
    const v = t.str(node);
    const field = `\`${frame.field ?? 'value'}\``;
    const at: [number, number] = [t.start[node], t.end[node]];
    switch (frame.def) {
      case 'NameType':
        return this.report(
          'psconfig/invalid-name',
          frame,
          `${quote(v)} is not a valid name for ${field}: names may contain only letters, digits and \`: . _ -\`.`,
          ...at,
        );
      case 'Duration': {
        const base = (s['x-invalid-message'] ?? "'%s' is not a valid ISO 8601 duration.").replace('%s', v);
        return this.report(
          'psconfig/invalid-duration',
          frame,
          `${base} Write it like PT30S, PT4H or P1DT12H (W, D, H, M, S; months and years are not allowed).`,
          ...at,
        );
      }
      case 'HostNamePort':
      case 'IPv6RFC2732':
        return this.report(
          'psconfig/invalid-host-port',
          frame,
          `${quote(v)} is not a valid host[:port] for ${field}: use a hostname or IPv4 address, or an IPv6 address in brackets (\`[2001:db8::1]\`), optionally followed by \`:port\`.`,
          ...at,
        );
      case 'Timestamp':
        return this.report(
          'psconfig/invalid-time',
          frame,
          `${quote(v)} is not a valid time for ${field}: use an ISO 8601 timestamp (\`2025-01-31T12:00:00Z\`), a duration (\`PT1H\`) or a relative time (\`@PT1H\`, \`@R5/PT1H\`).`,
          ...at,
        );
      case 'IPv4CIDR':
      case 'IPv6CIDR':
        return this.report(
          'psconfig/invalid-netmask',
          frame,
          `${quote(v)} is not a CIDR netmask: write it like \`10.0.0.0/8\` or \`2001:db8::/32\`.`,
          ...at,
        );
      default:
        return this.report(
          'psconfig/invalid-value',
          frame,
          `${quote(v)} does not match the format required for ${field} (${s.pattern}).`,
          ...at,
        );
    }
  }

  checkObject(node: number, s: JsonSchema, c: Compiled, frame: Frame): void {
    const t = this.tree;
    let child: Frame | undefined; // one frame for all properties, reset for each (checks never keep a frame, so it
    // goes back to the spare frames at the end: a large template has some 10,000 objects)
    for (let prop = t.firstChild(node); prop >= 0; prop = t.nextSibling(prop, node)) {
      const val = t.propValue(prop);
      if (val < 0 || t.kind[prop] & COMMENT) continue;
      const key = prop + 1;
      const k = t.str(key);
      if (frame.ignore?.has(k)) continue;
      const sub = c.properties.get(k);
      if (sub) {
        // Most values are valid scalars: decide that without allocating a frame (a large template has ~50,000).
        if (!this.quietlyValid(val, this.compile(sub)))
          this.check(val, sub, (child = childFrame(child ?? this.spareFrames.pop(), frame, k, key)));
        continue;
      }
      child = childFrame(child ?? this.spareFrames.pop(), frame, k, key);
      let matched = false;
      let nameSchema: JsonSchema | undefined;
      // Indexed loops: in this recursive function V8 does not elide for-of iterators (1.2 MB of them per check of
      // the bench template).
      const pps = c.patternProps;
      for (let i = 0; i < pps.length; i++) {
        const pp = pps[i];
        if (pp.isName) nameSchema = pp.schema;
        if (pp.re.test(k)) {
          matched = true;
          this.check(val, pp.schema, child);
        }
      }
      if (matched) continue;
      if (c.additional === false) {
        this.unknownProperty(key, k, s, frame);
      } else if (nameSchema) {
        // Section maps: pSConfig lets such names through unvalidated. Say so, then validate anyway.
        const section = frame.field ?? 'this section';
        this.out.push(
          diag(
            'psconfig/name-not-validated',
            'warning',
            `${quote(k)} has characters outside \`[a-zA-Z0-9:._-]\`: pSConfig skips validating this ${singular(section)} entirely, and validated objects cannot reference it. Rename it, e.g. ${quote(k.replace(/[^a-zA-Z0-9:._-]+/g, '-'))}.`,
            t.start[key],
            t.end[key],
          ),
        );
        child.lenient = true;
        this.check(val, nameSchema, child);
      } else if (typeof c.additional === 'object') {
        this.check(val, c.additional, child);
      }
    }
    const required = c.required;
    for (let i = 0; i < required.length; i++) {
      const r = required[i];
      if (t.propertyValue(node, r) >= 0 || frame.ignore?.has(r)) continue;
      const owner = frame.def === '#' ? 'The template' : capitalize(describePath(t.path(node)));
      const [start, end] =
        frame.key !== undefined ? [t.start[frame.key], t.end[frame.key]] : [t.start[node], t.start[node] + 1];
      const hint =
        frame.def === '#'
          ? ` (add \`"${r}": {}\` if it has none; a fragment that is only ever included by another template may leave it out)`
          : (REQUIRED_HINTS[r] ?? '');
      this.report(
        'psconfig/missing-property',
        frame,
        `${owner} is missing the required property \`${r}\`${hint}.`,
        start,
        end,
        { kind: 'missing-property', property: r },
      );
    }
    if (child) this.spareFrames.push(child);
  }

  unknownProperty(key: number, k: string, s: JsonSchema, frame: Frame): void {
    const allowed = Object.keys(s.properties ?? {});
    const what = DEFINITION_LABELS[frame.def] ?? `\`${frame.field ?? 'this object'}\``;
    const hint = unknownPropertyHint(frame.def, k);
    const closest = hint ? undefined : closestName(k, allowed);
    let message: string;
    if (hint) message = hint;
    else if (s.patternProperties && allowed.length === 0)
      message = `${quote(k)} is not a valid name here: names may contain only letters, digits and \`: . _ -\`.`;
    else
      message = `${quote(k)} is not a property of ${what}${closest ? `; did you mean \`${closest}\`?` : '.'} Allowed: ${allowed.map((a) => `\`${a}\``).join(', ')}.`;
    this.report('psconfig/unknown-property', frame, message, this.tree.start[key], this.tree.end[key], {
      kind: 'unknown-property',
      property: k,
      closest,
    });
  }

  /** anyOf/oneOf without a dedicated dispatcher: keep the branches whose type fits; report the closest branch. */
  checkGeneric(node: number, s: JsonSchema, frame: Frame): void {
    const branches = (s.anyOf ?? s.oneOf)!;
    const fitting = branches.filter((b) => {
      const t = b.$ref ? this.resolve(b.$ref).schema.type : b.type;
      return t === undefined || this.typeOk(node, t);
    });
    if (fitting.length === 0) {
      const types = branches
        .map((b) => (b.$ref ? this.resolve(b.$ref).schema.type : b.type))
        .filter((t): t is string => typeof t === 'string');
      return this.wrongType(node, [...new Set(types)], frame);
    }
    let best: TemplateDiagnostic[] | undefined;
    for (const b of fitting) {
      const sub = new SchemaChecker(this.tree, this.schema);
      sub.check(node, b, frame);
      if (sub.out.length === 0) return;
      if (!best || sub.out.length < best.length) best = sub.out;
    }
    for (const d of best ?? []) this.out.push(d);
  }
}

const REQUIRED_HINTS: Record<string, string> = {
  type: '',
  archiver: ' (the pScheduler archiver plugin, e.g. `http`, `rabbitmq`, `syslog`)',
  data: ' (the archiver’s or context’s own settings; `{}` if none)',
  spec: ' (the pScheduler test spec)',
  group: ' (the name of a group in `groups`)',
  test: ' (the name of a test in `tests`)',
  address: ' (a hostname or IP address)',
};

/** The frame for one property of an object checked under `frame`, reusing `reuse` when given. */
/** A frame for a property's value (`field`, its key node `key`), or with `item` for the items of the array `field`
 *  holds; `reuse` is a spare frame to overwrite (checks never keep a frame). */
function childFrame(
  reuse: Frame | undefined,
  frame: Frame,
  field: string | undefined,
  key: number | undefined,
  item = false,
): Frame {
  if (!reuse) return { def: frame.def, field, key, item, lenient: frame.lenient, ignore: undefined };
  reuse.def = frame.def;
  reuse.field = field;
  reuse.key = key;
  reuse.item = item;
  reuse.lenient = frame.lenient;
  reuse.ignore = undefined;
  return reuse;
}

function capitalize(s: string): string {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}

/** Schema diagnostics for a parsed template (its root node). */
export function validateSchema(
  root: JsonNode | undefined,
  schema: JsonSchema = officialSchema(),
): TemplateDiagnostic[] {
  if (!root) return [];
  if (!keeper) KEEP_ALIVE.push((keeper = new SchemaChecker(new Tree('', 1), schema))); // see tree.ts
  const checker = new SchemaChecker(root.tree, schema);
  checker.check(root.index, schema, { def: '#' });
  return checker.out;
}

let keeper: SchemaChecker | undefined;
