import { test } from 'node:test';
import assert from 'node:assert/strict';
import { check, template, withCode } from './helpers';

test('notes on what the 5.x agent ignores, drops or overrides', () => {
  const ds = check(
    template({
      'address-classes': {
        k: {
          'data-source': { type: 'current-config' },
          'match-filter': { type: 'not', filter: { type: 'netmask', netmask: '10.0.0.0/8' } },
        },
      },
      groups: { g: { type: 'mesh', addresses: [{ name: 'a', disabled: true }, { name: 'b' }, { class: 'k' }] } },
      schedules: { s: { repeat: 'PT1H', until: '@P1D' } },
      tasks: { task: { group: 'g', test: 't', schedule: 's', priority: 0, reference: { psconfig: {}, mine: 1 } } },
    }),
  );
  assert.deepEqual(
    withCode(ds, 'psconfig/netmask-filter').map((d) => [d.text, d.severity]),
    [['"netmask"', 'warning']],
  );
  assert.deepEqual(
    withCode(ds, 'psconfig/selector-disabled-ignored').map((d) => d.text),
    ['"disabled"'],
  );
  assert.deepEqual(
    withCode(ds, 'psconfig/schedule-until-overridden').map((d) => d.text),
    ['"until"'],
  );
  assert.deepEqual(
    withCode(ds, 'psconfig/priority-zero').map((d) => d.text),
    ['0'],
  );
  assert.deepEqual(
    withCode(ds, 'psconfig/reserved-reference-key').map((d) => d.text),
    ['"psconfig"'],
  );
  assert.deepEqual(
    ds.filter((d) => d.severity === 'error'),
    [],
  );
});

test('class selectors in groups: warned at the class name, saying what 5.x and 4.x do', () => {
  const ds = check(
    template({
      'address-classes': {
        k: { 'data-source': { type: 'current-config' }, 'match-filter': { type: 'tag', tag: 'x' } },
      },
      groups: { g: { type: 'disjoint', 'a-addresses': [{ name: 'a' }], 'b-addresses': [{ class: 'k' }] } },
    }),
  );
  const [d] = withCode(ds, 'psconfig/class-selector-python');
  assert.equal(withCode(ds, 'psconfig/class-selector-python').length, 1);
  assert.equal(d.text, '"k"');
  assert.equal(d.severity, 'warning');
  assert.match(d.message, /KeyError/);
  assert.match(d.message, /4\.x \(Perl\)/);
  // name selectors are fine
  assert.deepEqual(withCode(check(template()), 'psconfig/class-selector-python'), []);
});

test('jq results that are certainly not strings warn at the script; strings and unknown paths do not', () => {
  const ds = check(
    template({
      tests: {
        t: {
          type: 'rtt',
          spec: {
            source: '{% address[0] %}',
            dest: '{% address[1] %}',
            count: '{% jq .test.spec | length %}',
            note: 'n={% jq [.addresses[].address] %}',
            fine: '{% jq .addresses[0]._meta."display-name" %}',
            str: '{% jq .addresses | length | tostring %}',
            flag: '{% jq .task.x == 1 %}',
          },
        },
      },
    }),
  );
  const found = withCode(ds, 'psconfig/jq-result-not-string');
  assert.deepEqual(
    found.map((d) => d.text),
    ['.test.spec | length', '[.addresses[].address]', '.task.x == 1'],
  );
  assert.ok(found.every((d) => d.severity === 'warning'));
  assert.match(found[0].message, /returns a number.*5\.x.*TypeError.*4\.x \(Perl\) keeps the number/);
  assert.match(found[1].message, /returns an array/);
  assert.match(found[2].message, /returns a boolean/);
});
