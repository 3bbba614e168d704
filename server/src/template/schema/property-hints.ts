// Targeted messages for properties that belong to a sibling alternative (another group type, selector kind …).

const GROUP_HINTS: Record<string, Record<string, string>> = {
  GroupMeshSpecification: {
    'a-addresses':
      '`a-addresses` is for disjoint groups; mesh groups take `addresses`. Rename it to `addresses`, or set `"type": "disjoint"` and add `b-addresses`.',
    'b-addresses':
      '`b-addresses` is for disjoint groups; mesh groups take `addresses`. Rename it to `addresses`, or set `"type": "disjoint"` and add `a-addresses`.',
    unidirectional:
      '`unidirectional` is for disjoint groups; a mesh always tests both directions. Remove it, or use `excludes` to drop directions.',
  },
  GroupListSpecification: {
    'a-addresses': '`a-addresses` is for disjoint groups; list groups take `addresses`.',
    'b-addresses': '`b-addresses` is for disjoint groups; list groups take `addresses`.',
    excludes: 'list groups have no `excludes` (each task has one address): remove it, or use a mesh or disjoint group.',
    'excludes-self': 'list groups have no `excludes-self` (each task has one address): remove it.',
    unidirectional: '`unidirectional` is for disjoint groups; remove it.',
  },
  GroupDisjointSpecification: {
    addresses:
      'disjoint groups take `a-addresses` and `b-addresses`, not `addresses`. Split the addresses into the two sides, or set `"type": "mesh"`.',
  },
  AddressSelectorClass: {
    label:
      '`label` applies to name selectors only; a class selector takes `class` and `disabled`. Remove `label`, or select by `name`.',
  },
  AddressSpecificationLabelMapItem: {
    host: 'labels inherit the `host` of their address; set `host` on the address instead.',
    tags: 'labels have no `tags`; set `tags` on the address instead.',
    labels: 'labels cannot be nested.',
    'remote-addresses': '`remote-addresses` belong on the address, not on a label.',
  },
  ArchiveSpecification: {
    archive: '`archive` is not a property of an archive; did you mean `archiver`?',
    type: 'an archive names its plugin with `archiver`, not `type`.',
    spec: 'an archive’s settings go in `data`, not `spec`.',
  },
  TestSpecification: {
    test: 'a test names its pScheduler test type with `type`, not `test`.',
    data: 'a test’s settings go in `spec`, not `data`.',
  },
  TaskSpecification: {
    tests: 'a task runs one test: use `test` (a single name), not `tests`.',
    groups: 'a task uses one group: use `group` (a single name), not `groups`.',
    archive: 'use `archives` (a list of archive names).',
    schedules: 'use `schedule` (a single schedule name).',
  },
};

export function unknownPropertyHint(def: string, property: string): string | undefined {
  return GROUP_HINTS[def]?.[property];
}
