// The real example templates (test/fixtures/psconfig/examples, see its INDEX.md) give exactly the expected errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateTemplate } from '../../../server/src/template/diagnostics';
import { LineIndex } from '../../../server/src/template/positions';
import { examplesDir } from './helpers';
import { exampleFiles } from '../../fixtures';

interface Row {
  code: string;
  severity: string;
  line: number;
  col: number;
  text: string;
}

function run(file: string): Row[] {
  const text = readFileSync(join(examplesDir, file), 'utf8');
  const lines = new LineIndex(text);
  return validateTemplate(text).diagnostics.map((d) => {
    const p = lines.positionAt(d.start);
    return {
      code: d.code,
      severity: d.severity,
      line: p.line + 1,
      col: p.character + 1,
      text: text.slice(d.start, d.end),
    };
  });
}

const SPECIAL = new Set([
  'psconfig--t-inputs-invalid.json',
  'psconfig--skeleton.json',
  'pwa--import3-i2-ap-rex-expected.json',
  'qa--psconfig-netsage-mesh.json',
  'testbed-pve--02-testbed-hosts-partial.json',
  'testbed-pve--99-archives-partial.json',
]);
/** Warnings a valid example may legitimately get. */
// Valid for psconfig validate, but 5.x agents stumble on them: class selectors (KeyError), esmond, netmask filters.
const EXPECTED_WARNINGS = new Set([
  'psconfig/name-not-validated',
  'psconfig/esmond-archiver',
  'psconfig/netmask-filter',
  'psconfig/class-selector-python',
]);

const files = exampleFiles();

test('all 26 example templates are present', () => {
  assert.equal(files.length, 26);
});

for (const file of files.filter((f) => !SPECIAL.has(f))) {
  test(`${file}: valid with references ok gives no errors, only expected warnings`, () => {
    const ds = run(file);
    assert.deepEqual(
      ds.filter((d) => d.severity === 'error'),
      [],
    );
    assert.deepEqual(
      ds.filter((d) => d.severity === 'warning' && !EXPECTED_WARNINGS.has(d.code)),
      [],
    );
  });
}

test('psconfig--skeleton.json: only its two placeholder addresses are errors (not host names)', () => {
  const ds = run('psconfig--skeleton.json');
  assert.deepEqual(
    ds.filter((d) => d.severity === 'error').map((d) => [d.code, d.text]),
    [
      ['psconfig/invalid-address', 'FILL_IN_HOSTNAME_OR_IP_1'],
      ['psconfig/invalid-address', 'FILL_IN_HOSTNAME_OR_IP_2'],
    ],
  );
  assert.deepEqual(
    ds.filter((d) => d.severity === 'warning' && !EXPECTED_WARNINGS.has(d.code)),
    [],
  );
});

test('psconfig--t-inputs-invalid.json: exactly the two schema errors, at the archive', () => {
  const ds = run('psconfig--t-inputs-invalid.json');
  assert.deepEqual(
    ds.map((d) => [d.code, d.severity, d.line, d.col, d.text]),
    [
      ['psconfig/missing-property', 'error', 3, 9, '"example-archive-central"'],
      ['psconfig/unknown-property', 'error', 4, 13, '"archive"'],
    ],
  );
});

test('pwa--import3-i2-ap-rex-expected.json: exactly its 4 missing archive references', () => {
  const errs = run('pwa--import3-i2-ap-rex-expected.json').filter((d) => d.severity === 'error');
  assert.deepEqual(
    errs.map((d) => [d.code, d.line, d.text]),
    [75, 81, 91, 97].map((line) => ['psconfig/unknown-archive', line, 'config-archive0']),
  );
});

test('qa--psconfig-netsage-mesh.json: exactly its 1 missing address', () => {
  const errs = run('qa--psconfig-netsage-mesh.json').filter((d) => d.severity === 'error');
  assert.deepEqual(
    errs.map((d) => [d.code, d.text]),
    [['psconfig/unknown-address', '62.40.106.8']],
  );
});

test('testbed-pve--02 partial: missing addresses/groups and 6 references to group perfsonar', () => {
  const errs = run('testbed-pve--02-testbed-hosts-partial.json').filter((d) => d.severity === 'error');
  assert.deepEqual(
    errs.filter((d) => d.code === 'psconfig/missing-property').map((d) => d.line),
    [1, 1],
  );
  const refs = errs.filter((d) => d.code !== 'psconfig/missing-property');
  assert.equal(refs.length, 6);
  assert.ok(refs.every((d) => d.code === 'psconfig/unknown-group' && d.text === 'perfsonar'));
});

test('testbed-pve--99 partial: only the 4 missing sections', () => {
  const errs = run('testbed-pve--99-archives-partial.json').filter((d) => d.severity === 'error');
  assert.equal(errs.length, 4);
  assert.ok(errs.every((d) => d.code === 'psconfig/missing-property'));
});
