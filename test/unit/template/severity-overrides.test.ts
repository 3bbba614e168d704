// Severity per diagnostic code (server/src/template/severity-overrides.ts): the editor setting and the CLI flags.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  applySeverityOverrides,
  diagnosticCodeOf,
  readSeverityOverrides,
} from '../../../server/src/template/severity-overrides';
import { check, template } from './helpers';

test('the setting is read with or without the psconfig/ prefix; unusable entries are named', () => {
  const { overrides, problems } = readSeverityOverrides({
    'unused-definition': 'off',
    'psconfig/duplicate-key': 'Error',
    'psconfig/include-relative': 'info',
    'psconfig/unknown-grop': 'off',
    'psconfig/syntax': 'loud',
  });
  assert.deepEqual(
    [...overrides],
    [
      ['psconfig/unused-definition', 'off'],
      ['psconfig/duplicate-key', 'error'],
      ['psconfig/include-relative', 'information'],
    ],
  );
  assert.equal(problems.length, 2);
  assert.match(
    problems[0],
    /unknown diagnostic code "psconfig\/unknown-grop" \(did you mean psconfig\/unknown-group\?\)/,
  );
  assert.match(problems[1], /"loud" is not a level/);
  assert.deepEqual(readSeverityOverrides(['x']).problems.length, 1);
  assert.deepEqual(diagnosticCodeOf('unknown-test'), { code: 'psconfig/unknown-test' });
});

test('overrides change severities and drop `off` codes, leaving the rest as they were', () => {
  const ds = check(template({ schedules: { unused: { repeat: 'PT1H' } }, tasks: { task: { group: 'g', test: 'x' } } }));
  assert.ok(ds.some((d) => d.code === 'psconfig/unused-definition'));
  const { overrides } = readSeverityOverrides({ 'unused-definition': 'off', 'unknown-test': 'warning' });
  const out = applySeverityOverrides(ds, overrides);
  assert.ok(!out.some((d) => d.code === 'psconfig/unused-definition'));
  assert.equal(out.find((d) => d.code === 'psconfig/unknown-test')?.severity, 'warning');
  assert.equal(out.length, ds.length - ds.filter((d) => d.code === 'psconfig/unused-definition').length);
  assert.equal(applySeverityOverrides(ds, undefined), ds);
});
