// Dispatchers for the schema's anyOf/oneOf definitions: pick the alternative the author meant (by `type`, by
// shape, by the first character) and validate against that one, so errors name the actual field at fault
// instead of "is not valid under any of the given schemas".
import { NODE, type Tree } from '../tree';
import type { Frame, SchemaCheck } from './checker-types';

const { OBJECT, STRING } = NODE;

type Dispatcher = (c: SchemaCheck, node: number, frame: Frame) => void;

/** The range to mark for a problem with a whole object: its key when it has one, else its opening brace. */
function objectMark(t: Tree, node: number, frame: Frame): [number, number] {
  return frame.key !== undefined ? [t.start[frame.key], t.end[frame.key]] : [t.start[node], t.start[node] + 1];
}

/** Alternatives discriminated by their `type` enum (groups, address-class filters). */
function byType(kind: string): Dispatcher {
  return (c, node, frame) => {
    const t = c.tree;
    if (t.type(node) !== OBJECT) return c.wrongType(node, 'object', frame);
    const branches = (c.defs[frame.def].anyOf ?? c.defs[frame.def].oneOf ?? []).map((b) => c.resolve(b.$ref ?? ''));
    const byValue = new Map<unknown, { name: string; schema: (typeof branches)[number]['schema'] }>();
    for (const b of branches) for (const v of b.schema.properties?.type?.enum ?? []) byValue.set(v, b);
    const values = [...byValue.keys()].map((v) => `\`${String(v)}\``).join(', ');
    const type = t.propertyValue(node, 'type');
    if (type < 0) {
      const [start, end] = objectMark(t, node, frame);
      const guess = kind === 'group' ? guessGroupType(t, node) : undefined;
      c.report(
        'psconfig/missing-property',
        frame,
        `This ${kind} has no \`type\`: add \`"type"\` with one of ${values}${guess ? ` (its fields suggest \`${guess}\`)` : ''}.`,
        start,
        end,
        { kind: 'missing-property', property: 'type' },
      );
      return;
    }
    const isString = t.type(type) === STRING;
    const branch = isString ? byValue.get(t.str(type)) : undefined;
    if (!branch) {
      c.report(
        'psconfig/invalid-enum',
        frame,
        `${isString ? `\`${t.str(type)}\`` : 'This'} is not a ${kind} type: use one of ${values}.`,
        t.start[type],
        t.end[type],
      );
      return;
    }
    c.check(node, branch.schema, { ...frame, def: branch.name });
  };
}

function guessGroupType(t: Tree, node: number): string | undefined {
  const has = (k: string): boolean => t.propertyValue(node, k) >= 0;
  if (has('a-addresses') || has('b-addresses')) return 'disjoint';
  if (has('excludes') || has('excludes-self')) return 'mesh';
  return undefined;
}

/** AddressSelector: `{name[, label]}` or `{class}`. */
const selector: Dispatcher = (c, node, frame) => {
  const what = 'an address selector such as `{"name": "<address>"}` or `{"class": "<address class>"}`';
  const t = c.tree;
  if (t.type(node) !== OBJECT) return c.wrongType(node, 'object', frame, what);
  const name = t.propertyValue(node, 'name') >= 0;
  const cls = t.propertyValue(node, 'class');
  if (name && cls >= 0) {
    const key = t.parent[cls] + 1;
    c.report(
      'psconfig/selector-shape',
      frame,
      'A selector takes either `name` (with an optional `label`) or `class`, not both: remove one of them.',
      t.start[key],
      t.end[key],
    );
    c.check(node, c.defs.AddressSelectorNameLabel, {
      ...frame,
      def: 'AddressSelectorNameLabel',
      ignore: new Set(['class']),
    });
    return;
  }
  if (cls >= 0) return checkAs(c, node, 'AddressSelectorClass', frame);
  if (name) return checkAs(c, node, 'AddressSelectorNameLabel', frame);
  const labelValue = t.propertyValue(node, 'label');
  const label = labelValue >= 0 ? t.parent[labelValue] + 1 : -1;
  const [start, end] = label >= 0 ? [t.start[label], t.end[label]] : [t.start[node], t.start[node] + 1];
  c.report(
    'psconfig/selector-shape',
    frame,
    label >= 0
      ? '`label` needs a `name`: add `"name": "<address>"` to say which address’s label to use.'
      : 'An address selector needs `name` (an address) or `class` (an address class).',
    start,
    end,
    { kind: 'missing-property', property: 'name' },
  );
  c.check(node, c.defs.AddressSelectorNameLabel, {
    ...frame,
    def: 'AddressSelectorNameLabel',
    ignore: new Set(['name']),
  });
};

/** Checks node against definition `def` with the frame switched to it in place (the frame is restored after;
 *  checks never keep a frame), avoiding a frame copy per value. */
function checkAs(c: SchemaCheck, node: number, def: string, frame: Frame): void {
  const saved = frame.def;
  frame.def = def;
  c.check(node, c.defs[def], frame);
  frame.def = saved;
}

/** Host and IPAddress: formats are not checked by pSConfig (no FormatChecker), so any string passes. */
const hostString: Dispatcher = (c, node, frame) => {
  if (c.tree.type(node) !== STRING) c.wrongType(node, 'string', frame, 'a hostname or IP address (a string)');
};

/** URLHostPort: `[v6]:port` or `host:port`. */
const urlHostPort: Dispatcher = (c, node, frame) => {
  if (c.tree.type(node) !== STRING) return c.wrongType(node, 'string', frame, 'a host[:port] string');
  const v = c.tree.str(node);
  checkAs(c, node, v.startsWith('[') ? 'IPv6RFC2732' : 'HostNamePort', frame);
};

/** TimestampAbsoluteRelative: `@…` relative, `P…` duration, else an ISO timestamp. */
const timestamp: Dispatcher = (c, node, frame) => {
  if (c.tree.type(node) !== STRING)
    return c.wrongType(node, 'string', frame, 'a timestamp, duration or relative time (a string)');
  const v = c.tree.str(node);
  const alts = c.defs.TimestampAbsoluteRelative.oneOf ?? [];
  if (v.startsWith('@')) {
    const rel = alts.find((a) => !a.$ref);
    if (rel?.pattern && !c.regex(rel.pattern).test(v)) c.patternError(node, rel, { ...frame, def: 'Timestamp' });
    return;
  }
  checkAs(c, node, v.startsWith('P') ? 'Duration' : 'Timestamp', frame);
};

/** IPCIDR: v6 when it has a colon. */
const cidr: Dispatcher = (c, node, frame) => {
  if (c.tree.type(node) !== STRING) return c.wrongType(node, 'string', frame, 'a CIDR netmask string');
  checkAs(c, node, c.tree.str(node).includes(':') ? 'IPv6CIDR' : 'IPv4CIDR', frame);
};

export const ALTERNATIVES: Record<string, Dispatcher> = {
  GroupSpecification: byType('group'),
  AddressClassFilterSpecification: byType('filter'),
  AddressSelector: selector,
  Host: hostString,
  IPAddress: hostString,
  URLHostPort: urlHostPort,
  TimestampAbsoluteRelative: timestamp,
  IPCIDR: cidr,
};
