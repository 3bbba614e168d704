import { test } from 'node:test';
import assert from 'node:assert/strict';
import { check, template, withCode } from './helpers';

test('notes on what the 5.x agent ignores, drops or overrides', () => {
  const ds = check(
    template({
      'address-classes': { k: { 'data-source': { type: 'current-config' }, 'match-filter': { type: 'not', filter: { type: 'netmask', netmask: '10.0.0.0/8' } } } },
      groups: { g: { type: 'mesh', addresses: [{ name: 'a', disabled: true }, { name: 'b' }, { class: 'k' }] } },
      schedules: { s: { repeat: 'PT1H', until: '@P1D' } },
      tasks: { task: { group: 'g', test: 't', schedule: 's', priority: 0, reference: { psconfig: {}, mine: 1 } } },
    }),
  );
  assert.deepEqual(withCode(ds, 'psconfig/netmask-filter').map((d) => [d.text, d.severity]), [['"netmask"', 'warning']]);
  assert.deepEqual(withCode(ds, 'psconfig/selector-disabled-ignored').map((d) => d.text), ['"disabled"']);
  assert.deepEqual(withCode(ds, 'psconfig/schedule-until-overridden').map((d) => d.text), ['"until"']);
  assert.deepEqual(withCode(ds, 'psconfig/priority-zero').map((d) => d.text), ['0']);
  assert.deepEqual(withCode(ds, 'psconfig/reserved-reference-key').map((d) => d.text), ['"psconfig"']);
  assert.deepEqual(ds.filter((d) => d.severity === 'error'), []);
});
