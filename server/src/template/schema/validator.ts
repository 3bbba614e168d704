// Validates a template AST against the official draft-04 schema, reporting EVERY error on the smallest range.
//
// A small interpreter of the schema JSON (definitions under `pSConfig`, refs `#/pSConfig/X`, non-unicode regexps
// so patterns like `24\:?00` compile). Where the schema offers alternatives (anyOf/oneOf) the author's intent is
// dispatched on (see alternatives.ts) so messages name the field at fault. `#` keys are comments and skipped.
// Objects whose names pSConfig does not validate (outside NameType) get a warning and are validated leniently.
import { keyOf, memberProps, nodePath, propertyValue, type JsonNode } from '../parse';
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

const NAME_KEY = '^[a-zA-Z0-9:._\\-]+$';

interface Compiled {
  refName: string | undefined;
  refSchema: JsonSchema | undefined;
  anyJson: boolean;
  alt: ((c: SchemaCheck, node: JsonNode, frame: Frame) => void) | undefined;
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

  constructor(
    readonly text: string,
    readonly schema: JsonSchema,
  ) {
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

  check(node: JsonNode, s: JsonSchema, frame: Frame): void {
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
    if (c.enumValues && !c.enumValues.includes(node.value)) {
      const list = c.enumValues.map((e) => quote(e)).join(', ');
      this.report(
        'psconfig/invalid-enum',
        frame,
        `${quote(node.value)} is not allowed for \`${frame.field ?? 'this value'}\`: use one of ${list}.`,
        node.offset,
        node.offset + node.length,
      );
      return;
    }
    if (c.pattern && node.type === 'string' && !c.pattern.test(node.value as string)) {
      if (frame.lenient && frame.def === 'NameType') return; // already flagged by name-not-validated
      return this.patternError(node, s, frame);
    }
    if (c.minimum !== undefined && typeof node.value === 'number' && node.value < c.minimum) {
      this.report(
        'psconfig/out-of-range',
        frame,
        `\`${frame.field ?? 'value'}\` must be at least ${c.minimum} (it is ${node.value}).`,
        node.offset,
        node.offset + node.length,
      );
      return;
    }
    if (node.type === 'object') this.checkObject(node, s, c, frame);
    else if (node.type === 'array' && c.items) {
      const kids = node.children ?? [];
      if (kids.length === 0) return;
      const itemFrame: Frame = {
        def: frame.def,
        field: frame.field,
        keyNode: undefined,
        item: true,
        lenient: frame.lenient,
        ignore: undefined,
      };
      for (const item of kids) this.check(item, c.items, itemFrame);
    }
  }

  /** The schema object's keywords read once into a fixed-shape record (schema JSON objects have many shapes). */
  compile(s: JsonSchema): Compiled {
    let c = COMPILED.get(s);
    if (c) return c;
    const refName = s.$ref !== undefined ? s.$ref.slice(s.$ref.lastIndexOf('/') + 1) : undefined;
    const pats = s.patternProperties ?? {};
    c = {
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
  quietlyValid(node: JsonNode, c: Compiled): boolean {
    while (c.refName !== undefined) {
      if (c.anyJson) return true;
      if (c.alt) return false;
      c = this.compile(c.refSchema!);
    }
    if (c.alternatives || node.type === 'object' || node.type === 'array') return false;
    if (c.type !== undefined && !this.typeOk(node, c.type)) return false;
    if (c.enumValues && !c.enumValues.includes(node.value)) return false;
    if (c.pattern && node.type === 'string' && !c.pattern.test(node.value as string)) return false;
    return !(c.minimum !== undefined && typeof node.value === 'number' && node.value < c.minimum);
  }

  typeOk(node: JsonNode, type: string | string[]): boolean {
    if (Array.isArray(type)) return type.some((t) => this.typeOk(node, t));
    if (type === 'integer') return isIntegerToken(node, this.text);
    return node.type === type;
  }

  wrongType(node: JsonNode, type: string | string[], frame: Frame, what?: string): void {
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
      `${subject} must be ${what ?? expectedType(type, frame.def)}, not ${jsonTypeName(node, this.text)}.`,
      start,
      end,
    );
  }

  /** Scalars are short: mark the value. Objects/arrays can span pages: mark their key when there is one. */
  valueRange(node: JsonNode, frame: Frame): [number, number] {
    if ((node.type === 'object' || node.type === 'array') && frame.keyNode)
      return [frame.keyNode.offset, frame.keyNode.offset + frame.keyNode.length];
    if (node.type === 'object' || node.type === 'array') return [node.offset, node.offset + 1];
    return [node.offset, node.offset + node.length];
  }

  patternError(node: JsonNode, s: JsonSchema, frame: Frame): void {
    const v = node.value as string;
    const field = `\`${frame.field ?? 'value'}\``;
    const at: [number, number] = [node.offset, node.offset + node.length];
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

  checkObject(node: JsonNode, s: JsonSchema, c: Compiled, frame: Frame): void {
    let child: Frame | undefined; // one frame for all properties, reset for each (checks never keep a frame)
    for (const prop of memberProps(node)) {
      const key = keyOf(prop);
      const k = key.value as string;
      if (frame.ignore?.has(k)) continue;
      const val = prop.children![1];
      const sub = c.properties.get(k);
      if (sub) {
        // Most values are valid scalars: decide that without allocating a frame (a large template has ~50,000).
        if (!this.quietlyValid(val, this.compile(sub)))
          this.check(val, sub, (child = childFrame(child, frame, k, key)));
        continue;
      }
      child = childFrame(child, frame, k, key);
      let matched = false;
      let nameSchema: JsonSchema | undefined;
      for (const pp of c.patternProps) {
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
            `${quote(k)} has characters outside \`[a-zA-Z0-9:._-]\`: pSConfig skips validating this ${singular(section)} entirely, and validated objects cannot reference it. Rename it, e.g. ${quote(k.replace(/[^a-zA-Z0-9:._\-]+/g, '-'))}.`,
            key.offset,
            key.offset + key.length,
          ),
        );
        child.lenient = true;
        this.check(val, nameSchema, child);
      } else if (typeof c.additional === 'object') {
        this.check(val, c.additional, child);
      }
    }
    for (const r of c.required) {
      if (propertyValue(node, r) !== undefined || frame.ignore?.has(r)) continue;
      const owner = frame.def === '#' ? 'The template' : capitalize(describePath(nodePath(node)));
      const [start, end] = frame.keyNode
        ? [frame.keyNode.offset, frame.keyNode.offset + frame.keyNode.length]
        : [node.offset, node.offset + 1];
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
  }

  unknownProperty(key: JsonNode, k: string, s: JsonSchema, frame: Frame): void {
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
    this.report('psconfig/unknown-property', frame, message, key.offset, key.offset + key.length, {
      kind: 'unknown-property',
      property: k,
      closest,
    });
  }

  /** anyOf/oneOf without a dedicated dispatcher: keep the branches whose type fits; report the closest branch. */
  checkGeneric(node: JsonNode, s: JsonSchema, frame: Frame): void {
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
      const sub = new SchemaChecker(this.text, this.schema);
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
function childFrame(reuse: Frame | undefined, frame: Frame, field: string, keyNode: JsonNode): Frame {
  if (!reuse) return { def: frame.def, field, keyNode, item: false, lenient: frame.lenient, ignore: undefined };
  reuse.def = frame.def;
  reuse.field = field;
  reuse.keyNode = keyNode;
  reuse.item = false;
  reuse.lenient = frame.lenient;
  reuse.ignore = undefined;
  return reuse;
}

function capitalize(s: string): string {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}

/** Schema diagnostics for a parsed template. */
export function validateSchema(
  root: JsonNode | undefined,
  text: string,
  schema: JsonSchema = officialSchema(),
): TemplateDiagnostic[] {
  if (!root) return [];
  const checker = new SchemaChecker(text, schema);
  checker.check(root, schema, { def: '#' });
  return checker.out;
}
