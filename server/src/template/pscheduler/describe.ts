// What a schema asks for, in words ("an integer >= 1 (pScheduler type Cardinal)"), for messages and hovers.
import { pschedulerType, typeDoc, type Schema } from './catalog';
import type { NodeLike } from './nodes';
import { jsonText } from '../../../../common/json';

export function jsonTypeOf(node: NodeLike): string {
  if (node.type === 'number') return Number.isInteger(node.value) ? 'integer' : 'number';
  if (node.type === 'property') return 'property';
  return node.type;
}

/** A value as shown in messages: strings quoted and cut, others as JSON. */
export function describeValue(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v.length > 60 ? `${v.slice(0, 57)}...` : v);
  if (v === undefined) return 'nothing';
  const s = jsonText(v);
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}

const FORMATS: Record<string, string> = {
  ipv4: 'an IPv4 address',
  ipv6: 'an IPv6 address',
  uri: 'a URL',
  email: 'an e-mail address',
};

/** In words. `label` names the pScheduler type we came through (`Cardinal`), if any. */
export function describeSchema(schema: Schema | boolean, label?: string, depth = 0): string {
  if (label) {
    const doc = typeDoc(label);
    if (doc) return `${doc} (pScheduler type ${label})`;
  }
  if (typeof schema === 'boolean') return schema ? 'anything' : 'nothing';
  if (depth > 6) return 'a valid value';
  if (schema.$ref !== undefined) {
    const m = /^#\/pScheduler\/(.+)$/.exec(schema.$ref);
    if (m) {
      const t = pschedulerType(m[1]);
      return t ? describeSchema(t, m[1], depth + 1) : m[1];
    }
    return 'a valid value';
  }
  if (schema.enum) return oneOf(schema.enum);
  if (schema.const !== undefined) return oneOf([schema.const]);
  const alts = schema.anyOf ?? schema.oneOf;
  if (alts) return alts.map((s) => describeSchema(s, undefined, depth + 1)).join(' or ');
  const types = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.length === 1) {
    switch (types[0]) {
      case 'integer':
        return `an integer${bounds(schema)}`;
      case 'number':
        return `a number${bounds(schema)}`;
      case 'boolean':
        return 'true or false';
      case 'null':
        return 'null';
      case 'string':
        if (schema.format && FORMATS[schema.format]) return FORMATS[schema.format];
        if (schema.pattern) return `a string matching /${schema.pattern}/`;
        if (schema.minLength === 1) return 'a non-empty string';
        return 'a string';
      case 'array':
        return schema.items && typeof schema.items === 'object'
          ? `a list (each item ${describeSchema(schema.items, undefined, depth + 1)})`
          : 'a list';
      case 'object': {
        const keys = Object.keys(schema.properties ?? {});
        return keys.length && keys.length <= 4
          ? `an object with ${keys.map((k) => `\`${k}\``).join(', ')}`
          : 'an object';
      }
    }
  }
  if (types.length > 1) return types.join(' or ');
  return 'a valid value';
}

function oneOf(values: unknown[]): string {
  const shown = values
    .slice(0, 12)
    .map((v) => `\`${typeof v === 'string' && !looksLikeJson(v) ? v : JSON.stringify(v)}\``);
  if (values.length === 1) return shown[0];
  const more = values.length > 12 ? `, ... (${values.length} values)` : '';
  return `one of ${shown.join(', ')}${more}`;
}

function bounds(s: Schema): string {
  const lo =
    s.exclusiveMinimum !== undefined ? `> ${s.exclusiveMinimum}` : s.minimum !== undefined ? `>= ${s.minimum}` : '';
  const hi =
    s.exclusiveMaximum !== undefined ? `< ${s.exclusiveMaximum}` : s.maximum !== undefined ? `<= ${s.maximum}` : '';
  if (s.minimum !== undefined && s.maximum !== undefined) return ` from ${s.minimum} to ${s.maximum}`;
  if (lo && hi) return ` ${lo} and ${hi}`;
  return lo || hi ? ` ${lo || hi}` : '';
}

/** A string that would read as a number, boolean or null: shown with its quotes ("3", not 3). */
function looksLikeJson(v: string): boolean {
  return /^(-?\d+(\.\d+)?|true|false|null)$/.test(v);
}
