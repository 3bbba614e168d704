// Words for schema messages: what a definition is called, how a JSON path reads, what a type means.
import type { JsonPath, Tree } from '../parse';

/** "a mesh group", "an archive", … by schema definition name (under `pSConfig`). */
export const DEFINITION_LABELS: Record<string, string> = {
  '#': 'the template top level',
  AddressSpecification: 'an address',
  AddressSpecificationLabelMapItem: 'an address label',
  AddressSpecificationRemoteMapItem: 'a remote-addresses entry',
  AddressClassSpecification: 'an address class',
  AddressClassDataSourceSpecification: 'a data-source',
  AddressClassFilterAddressClassSpecification: 'an `address-class` filter',
  AddressClassFilterHostSpecification: 'a `host` filter',
  AddressClassFilterIPVersionSpecification: 'an `ip-version` filter',
  AddressClassFilterJQSpecification: 'a `jq` filter',
  AddressClassFilterNetmaskSpecification: 'a `netmask` filter',
  AddressClassFilterOperandSpecification: 'an `and`/`or` filter',
  AddressClassFilterNotSpecification: 'a `not` filter',
  AddressClassFilterTagSpecification: 'a `tag` filter',
  AddressSelectorClass: 'a class selector',
  AddressSelectorNameLabel: 'a name selector',
  ArchiveSpecification: 'an archive',
  ArchiveJQTransformSpecification: 'an archive transform',
  ContextSpecification: 'a context',
  ExcludesAddressPair: 'an excludes entry',
  GroupDisjointSpecification: 'a disjoint group',
  GroupListSpecification: 'a list group',
  GroupMeshSpecification: 'a mesh group',
  HostSpecification: 'a host',
  JQTransformSpecification: 'a jq transform',
  ScheduleOffsetSpecification: 'a schedule-offset',
  ScheduleSpecification: 'a schedule',
  SubtaskSpecification: 'a subtask',
  TaskSpecification: 'a task',
  TestSpecification: 'a test',
};

const SINGULAR: Record<string, string> = {
  addresses: 'address',
  'address-classes': 'address class',
  archives: 'archive',
  contexts: 'context',
  groups: 'group',
  hosts: 'host',
  schedules: 'schedule',
  subtasks: 'subtask',
  tasks: 'task',
  tests: 'test',
};

export function singular(section: string): string {
  return SINGULAR[section] ?? section;
}

/** "archive `x`", "`addresses[2]` of group `g`", "the template". */
export function describePath(path: JsonPath): string {
  if (path.length === 0) return 'the template';
  const [section, name, ...rest] = path;
  if (typeof section !== 'string' || !(section in SINGULAR)) return `\`${formatPath(path)}\``;
  if (name === undefined) return `section \`${section}\``;
  const owner = `${singular(section)} \`${name}\``;
  return rest.length ? `\`${formatPath(rest)}\` of ${owner}` : owner;
}

export function formatPath(path: JsonPath): string {
  let s = '';
  for (const p of path) s += typeof p === 'number' ? `[${p}]` : s ? `.${p}` : p;
  return s;
}

/** How a value is named in messages ("an object", "`true`", "a non-integer number"). */
export function jsonTypeName(tree: Tree, i: number): string {
  switch (tree.typeName(i)) {
    case 'object':
      return 'an object';
    case 'array':
      return 'an array';
    case 'string':
      return 'a string';
    case 'boolean':
      return tree.scalar(i) ? '`true`' : '`false`';
    case 'null':
      return '`null`';
    case 'number':
      return isIntegerToken(tree, i) ? 'an integer' : 'a non-integer number';
    default:
      return 'a property';
  }
}

/** JSON Schema draft-04 as python-jsonschema applies it: 1.0 is a number but not an integer. */
export function isIntegerToken(tree: Tree, i: number): boolean {
  if (tree.typeName(i) !== 'number') return false;
  const raw = tree.text.slice(tree.start[i], tree.end[i]);
  return !/[.eE]/.test(raw) && Number.isInteger(Number(raw));
}

export function expectedType(type: string | string[], def: string | undefined): string {
  if (def === 'NameType') return 'a name (a string of letters, digits and `: . _ -`)';
  if (def === 'Cardinal') return 'an integer of at least 1';
  if (def === 'IntegerZero') return 'an integer of at least 0';
  if (def === 'Duration') return 'an ISO 8601 duration string such as `PT1H`';
  const one = (t: string): string =>
    ({
      object: 'an object',
      array: 'an array',
      string: 'a string',
      integer: 'an integer',
      boolean: '`true` or `false`',
      number: 'a number',
      null: '`null`',
    })[t] ?? t;
  return Array.isArray(type) ? type.map(one).join(' or ') : one(type);
}

export function quote(v: unknown): string {
  return typeof v === 'string' ? `\`${v}\`` : `\`${JSON.stringify(v)}\``;
}
