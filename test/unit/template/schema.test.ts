import { test } from 'node:test';
import assert from 'node:assert/strict';
import { check, errors, template, withCode } from './helpers';

test('a minimal template has no diagnostics (but the Grafana note when its task has no display-task-name)', () => {
  assert.deepEqual(
    check(template()).map((d) => d.code),
    ['psconfig/grafana-no-display-name'],
  );
  const named = { tasks: { task: { group: 'g', test: 't', reference: { 'display-task-name': 'Task' } } } };
  assert.deepEqual(check(template(named)), []);
});

test('mesh group with a-addresses: names the field and what mesh takes', () => {
  const ds = check(template({ groups: { g: { type: 'mesh', 'a-addresses': [{ name: 'a' }] } } }));
  const unknown = withCode(ds, 'psconfig/unknown-property');
  assert.equal(unknown.length, 1);
  assert.equal(unknown[0].text, '"a-addresses"');
  assert.match(unknown[0].message, /mesh groups take `addresses`/);
  const missing = withCode(ds, 'psconfig/missing-property');
  assert.equal(missing.length, 1);
  assert.equal(missing[0].text, '"g"');
  assert.match(missing[0].message, /`addresses`/);
  assert.ok(!ds.some((d) => /any of the given schemas/.test(d.message)));
});

test('group type: missing and unknown', () => {
  let ds = check(template({ groups: { g: { 'a-addresses': [{ name: 'a' }], 'b-addresses': [{ name: 'b' }] } } }));
  assert.equal(errors(ds).length, 1);
  assert.match(errors(ds)[0].message, /no `type`.*`disjoint`/);
  ds = check(template({ groups: { g: { type: 'star', addresses: [{ name: 'a' }] } } }));
  assert.equal(errors(ds).length, 1);
  assert.equal(errors(ds)[0].text, '"star"');
  assert.match(errors(ds)[0].message, /not a group type: use one of `disjoint`, `list`, `mesh`/);
});

test('list groups reject excludes; disjoint reject addresses', () => {
  let ds = check(template({ groups: { g: { type: 'list', addresses: [{ name: 'a' }], excludes: [] } } }));
  assert.match(withCode(ds, 'psconfig/unknown-property')[0].message, /list groups have no `excludes`/);
  ds = check(
    template({ groups: { g: { type: 'disjoint', addresses: [{ name: 'a' }], 'b-addresses': [{ name: 'b' }] } } }),
  );
  const e = errors(ds);
  assert.deepEqual(e.map((d) => d.code).sort(), ['psconfig/missing-property', 'psconfig/unknown-property']);
  assert.match(
    e.find((d) => d.code === 'psconfig/unknown-property')!.message,
    /disjoint groups take `a-addresses` and `b-addresses`/,
  );
});

test('address selectors: name and class together, label alone, bad name', () => {
  const ds = check(
    template({
      'address-classes': { k: { 'data-source': { type: 'current-config' } } },
      groups: { g: { type: 'mesh', addresses: [{ name: 'a', class: 'k' }, { label: 'x' }, { name: 'b c' }] } },
    }),
  );
  const shape = withCode(ds, 'psconfig/selector-shape');
  assert.equal(shape.length, 2);
  assert.equal(shape[0].text, '"class"');
  assert.equal(shape[1].text, '"label"');
  const bad = withCode(ds, 'psconfig/invalid-name');
  assert.equal(bad.length, 1);
  assert.equal(bad[0].text, '"b c"');
});

test('pscheduler-address: bare IPv6 is explained; bracketed with port passes', () => {
  const ds = check(
    template({
      addresses: {
        a: { address: '::1', 'pscheduler-address': '::1' },
        b: { address: 'b', 'pscheduler-address': '[::1]:443' },
      },
    }),
  );
  const e = errors(ds);
  assert.equal(e.length, 1);
  assert.equal(e[0].code, 'psconfig/invalid-host-port');
  assert.equal(e[0].text, '"::1"');
  assert.match(e[0].message, /in brackets/);
});

test('durations, timestamps, integers and minimums', () => {
  const ds = check(
    template({
      schedules: { s: { repeat: '4 hours', slip: 'PT10M', start: '@R5/PT1H', until: '2025-13-01', 'max-runs': 0 } },
      tasks: { task: { group: 'g', test: 't', schedule: 's', 'scheduled-by': -1, priority: 1.5 } },
    }),
  );
  const byCode = (c: string): string[] => withCode(ds, c).map((d) => d.text);
  assert.deepEqual(byCode('psconfig/invalid-duration'), ['"4 hours"']);
  assert.match(withCode(ds, 'psconfig/invalid-duration')[0].message, /'4 hours' is not a valid ISO 8601 duration/);
  assert.deepEqual(byCode('psconfig/invalid-time'), ['"2025-13-01"']);
  assert.deepEqual(byCode('psconfig/out-of-range').sort(), ['-1', '0']);
  assert.deepEqual(byCode('psconfig/wrong-type'), ['1.5']);
});

test('timestamp pattern with \\: compiles (non-unicode regexps) and accepts 24:00', () => {
  const ds = check(
    template({
      schedules: { s: { start: '2025-01-31T24:00Z' } },
      tasks: { task: { group: 'g', test: 't', schedule: 's' } },
    }),
  );
  assert.deepEqual(errors(ds), []);
});

test('every error is reported, not just the best match', () => {
  const ds = check(
    template({
      foo: 1,
      archives: { x: { archive: 'http', data: {}, ttl: 'PT1M', runs: 'some' } },
      tasks: { task: { group: 'g', test: 't', archives: ['x'], tools: 'iperf3' } },
    }),
  );
  assert.deepEqual(
    errors(ds).map((d) => [d.code, d.text]),
    [
      ['psconfig/wrong-type', '"iperf3"'],
      ['psconfig/unknown-property', '"foo"'],
      ['psconfig/missing-property', '"x"'],
      ['psconfig/unknown-property', '"archive"'],
      // pScheduler: `runs` exists from archive schema 2 on (ArchiveSpecification_V2)
      ['psconfig/archive-needs-schema', '"runs"'],
      ['psconfig/invalid-enum', '"some"'],
    ],
  );
});

test('# keys are comments anywhere, even in closed objects', () => {
  const doc = template({
    '#top': 'x',
    addresses: { '#c': 1, a: { address: 'a', '#why': 'note' }, b: { address: 'b' } },
  });
  assert.deepEqual(
    check(doc).filter((d) => !d.code.startsWith('psconfig/grafana-')),
    [],
  );
});

test('names outside the name pattern: warned, then validated leniently', () => {
  const ds = check(
    template({
      tests: { t: { type: 'rtt', spec: {} }, 'my test': { type: 'rtt' } },
      tasks: { task: { group: 'g', test: 't' }, 'other task': { group: 'g', test: 'my test' } },
    }),
  );
  const names = withCode(ds, 'psconfig/name-not-validated');
  assert.deepEqual(
    names.map((d) => d.text),
    ['"my test"', '"other task"'],
  );
  assert.ok(names.every((d) => d.severity === 'warning'));
  const missing = withCode(ds, 'psconfig/missing-property');
  assert.equal(missing.length, 1);
  assert.equal(missing[0].severity, 'warning', 'inside an unvalidated object problems are warnings');
  assert.equal(
    withCode(ds, 'psconfig/invalid-name').length,
    0,
    'a space name referenced from an unvalidated task is not an error',
  );
});

test('address-class filters dispatch on type and recurse', () => {
  const ds = check(
    template({
      'address-classes': {
        k: {
          'data-source': { type: 'current-config' },
          'match-filter': {
            type: 'and',
            filters: [
              { type: 'tag' },
              { type: 'ip-version', 'ip-version': 5 },
              { type: 'netmask', netmask: '10.0.0.0/33' },
              { type: 'nope' },
            ],
          },
        },
      },
      groups: { g: { type: 'mesh', addresses: [{ class: 'k' }] } },
    }),
  );
  assert.deepEqual(
    errors(ds).map((d) => [d.code, d.text]),
    [
      ['psconfig/missing-property', '{'],
      ['psconfig/invalid-enum', '5'],
      ['psconfig/invalid-netmask', '"10.0.0.0/33"'],
      ['psconfig/invalid-enum', '"nope"'],
    ],
  );
  assert.match(errors(ds)[0].message, /`tag`/);
});

test('the root must be an object with the four sections', () => {
  const ds = check('[]');
  assert.equal(ds.length, 1);
  assert.equal(ds[0].code, 'psconfig/wrong-type');
  const missing = check('{}');
  assert.deepEqual(
    missing.map((d) => d.message.match(/`(\w+)`/)![1]),
    ['addresses', 'groups', 'tests', 'tasks'],
  );
});
