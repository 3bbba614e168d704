// Dispatchers for the schema's anyOf/oneOf definitions: pick the alternative the author meant (by `type`, by
// shape, by the first character) and validate against that one, so errors name the actual field at fault
// instead of "is not valid under any of the given schemas".
import { members, propertyValue, type JsonNode } from '../parse';
import type { Frame, SchemaCheck } from './checker-types';

type Dispatcher = (c: SchemaCheck, node: JsonNode, frame: Frame) => void;

/** Alternatives discriminated by their `type` enum (groups, address-class filters). */
function byType(kind: string): Dispatcher {
  return (c, node, frame) => {
    if (node.type !== 'object') return c.wrongType(node, 'object', frame);
    const branches = (c.defs[frame.def].anyOf ?? c.defs[frame.def].oneOf ?? []).map((b) => c.resolve(b.$ref ?? ''));
    const byValue = new Map<unknown, { name: string; schema: (typeof branches)[number]['schema'] }>();
    for (const b of branches) for (const v of b.schema.properties?.type?.enum ?? []) byValue.set(v, b);
    const values = [...byValue.keys()].map((v) => `\`${String(v)}\``).join(', ');
    const t = propertyValue(node, 'type');
    if (!t) {
      const [start, end] = frame.keyNode
        ? [frame.keyNode.offset, frame.keyNode.offset + frame.keyNode.length]
        : [node.offset, node.offset + 1];
      const guess = kind === 'group' ? guessGroupType(node) : undefined;
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
    const branch = byValue.get(t.value);
    if (t.type !== 'string' || !branch) {
      c.report(
        'psconfig/invalid-enum',
        frame,
        `${t.type === 'string' ? `\`${String(t.value)}\`` : 'This'} is not a ${kind} type: use one of ${values}.`,
        t.offset,
        t.offset + t.length,
      );
      return;
    }
    c.check(node, branch.schema, { ...frame, def: branch.name });
  };
}

function guessGroupType(node: JsonNode): string | undefined {
  const m = members(node);
  if (m.has('a-addresses') || m.has('b-addresses')) return 'disjoint';
  if (m.has('excludes') || m.has('excludes-self')) return 'mesh';
  return undefined;
}

/** AddressSelector: `{name[, label]}` or `{class}`. */
const selector: Dispatcher = (c, node, frame) => {
  const what = 'an address selector such as `{"name": "<address>"}` or `{"class": "<address class>"}`';
  if (node.type !== 'object') return c.wrongType(node, 'object', frame, what);
  // propertyValue, not members(): thousands of selectors, no Map each
  const name = propertyValue(node, 'name');
  const cls = propertyValue(node, 'class');
  if (name && cls) {
    const key = cls.parent!.children![0];
    c.report(
      'psconfig/selector-shape',
      frame,
      'A selector takes either `name` (with an optional `label`) or `class`, not both: remove one of them.',
      key.offset,
      key.offset + key.length,
    );
    c.check(node, c.defs.AddressSelectorNameLabel, {
      ...frame,
      def: 'AddressSelectorNameLabel',
      ignore: new Set(['class']),
    });
    return;
  }
  if (cls) return checkAs(c, node, 'AddressSelectorClass', frame);
  if (name) return checkAs(c, node, 'AddressSelectorNameLabel', frame);
  const label = propertyValue(node, 'label')?.parent?.children?.[0];
  const [start, end] = label ? [label.offset, label.offset + label.length] : [node.offset, node.offset + 1];
  c.report(
    'psconfig/selector-shape',
    frame,
    label
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
function checkAs(c: SchemaCheck, node: JsonNode, def: string, frame: Frame): void {
  const saved = frame.def;
  frame.def = def;
  c.check(node, c.defs[def], frame);
  frame.def = saved;
}

/** Host and IPAddress: formats are not checked by pSConfig (no FormatChecker), so any string passes. */
const hostString: Dispatcher = (c, node, frame) => {
  if (node.type !== 'string') c.wrongType(node, 'string', frame, 'a hostname or IP address (a string)');
};

/** URLHostPort: `[v6]:port` or `host:port`. */
const urlHostPort: Dispatcher = (c, node, frame) => {
  if (node.type !== 'string') return c.wrongType(node, 'string', frame, 'a host[:port] string');
  const v = node.value as string;
  checkAs(c, node, v.startsWith('[') ? 'IPv6RFC2732' : 'HostNamePort', frame);
};

/** TimestampAbsoluteRelative: `@…` relative, `P…` duration, else an ISO timestamp. */
const timestamp: Dispatcher = (c, node, frame) => {
  if (node.type !== 'string')
    return c.wrongType(node, 'string', frame, 'a timestamp, duration or relative time (a string)');
  const v = node.value as string;
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
  if (node.type !== 'string') return c.wrongType(node, 'string', frame, 'a CIDR netmask string');
  checkAs(c, node, (node.value as string).includes(':') ? 'IPv6CIDR' : 'IPv4CIDR', frame);
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
