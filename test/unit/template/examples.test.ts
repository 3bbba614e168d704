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
  'perl-shared--client-psconfig-addressclasses.json',
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
  // upstream's examples post to other hosts' /logstash with no Authorization header: a perfSONAR 5 archive host
  // answers 401 (perfsonar/archive apache-logstash.conf), and an example cannot hold a real credential
  'psconfig/archive-logstash-auth',
]);

/** pScheduler would refuse these (rules/pscheduler.ts); docs/checks.md "What the example templates show" explains each. */
const PSCHEDULER =
  /^psconfig\/(spec|archiver-data|context-data)-|^psconfig\/(unknown-test-type|unknown-archiver|unknown-context-type|tool-cannot-run|archive-needs-schema|archive-invalid|meta-not-removed)$/;
const META_IN_DATA = (line: number): [string, number, string] => [
  'psconfig/archiver-data-unknown-property',
  line,
  '"_meta"',
];
const EXPECTED_PSCHEDULER: Record<string, [string, number, string][]> = {
  // (`$requesting-agent` and `$group::N`, the drafts' placeholders pScheduler refuses as hosts, have their own
  // error, psconfig/legacy-placeholder: see 'draft placeholders' below)
  // `_meta` inside an http archive's data: pSConfig removes only the archive-level `_meta`
  'psconfig--example-1-simple.json': [META_IN_DATA(13)],
  'psconfig--example-2-testbed.json': [META_IN_DATA(13)],
  'psconfig--example-3-circuits.json': [13, 28, 43, 58, 73, 88, 103, 118, 133].map(META_IN_DATA),
  'psconfig--example-5-classes.json': [META_IN_DATA(13)],
  // snmpget wants `version` as a string ("3") and `oid` as a list
  'psconfig--example-4-snmp.json': [
    ['psconfig/spec-invalid-value', 35, '3'],
    ['psconfig/spec-invalid-value', 38, '"1.3.6.1.2.1.2.2.1.14"'],
  ],
  // (the skeleton's placeholder addresses are invalid addresses, reported where they are defined, not at each use)
  'psconfig--skeleton.json': [META_IN_DATA(17)],
  // throughput has no `omit-interval`; owping does not run latencybg (powstream does)
  'pwa--latentput-psconfig.json': [
    ['psconfig/spec-unknown-property', 103, '"omit-interval"'],
    ['psconfig/tool-cannot-run', 117, '"tools"'],
  ],
  // esmond `url` values that are not URLs
  'qa--throughput3-psconfig.json': [
    ['psconfig/archiver-data-invalid-value', 1, '"asdfz"'],
    ['psconfig/archiver-data-invalid-value', 1, '"qwerty"'],
  ],
};

const files = exampleFiles();

test('what pScheduler would refuse in each example, exactly', () => {
  const found: Record<string, [string, number, string][]> = {};
  for (const file of files) {
    const rows = run(file)
      .filter((d) => (d.severity === 'error' || d.severity === 'warning') && PSCHEDULER.test(d.code))
      .map((d): [string, number, string] => [d.code, d.line, d.text]);
    if (rows.length) found[file] = rows;
  }
  assert.deepEqual(found, EXPECTED_PSCHEDULER);
});

test('all 26 example templates are present', () => {
  assert.equal(files.length, 26);
});

for (const file of files.filter((f) => !SPECIAL.has(f))) {
  test(`${file}: valid with references ok gives no errors, only expected warnings (pScheduler's refusals aside)`, () => {
    const ds = run(file).filter((d) => !PSCHEDULER.test(d.code));
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
  const ds = run('psconfig--skeleton.json').filter((d) => !PSCHEDULER.test(d.code));
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
  // (Grafana's view of the examples: test/unit/grafana/agent-view.test.ts)
  const ds = run('psconfig--t-inputs-invalid.json').filter(
    (d) => !PSCHEDULER.test(d.code) && !d.code.startsWith('psconfig/grafana-'),
  );
  assert.deepEqual(
    ds.map((d) => [d.code, d.severity, d.line, d.col, d.text]),
    [
      ['psconfig/missing-property', 'error', 3, 9, '"example-archive-central"'],
      ['psconfig/unknown-property', 'error', 4, 13, '"archive"'],
      ['psconfig/legacy-placeholder', 'error', 7, 39, '$requesting-agent'],
      ...[33, 41, 48].flatMap((line) => [
        ['psconfig/legacy-placeholder', 'error', line, 28, '$group::0'],
        ['psconfig/legacy-placeholder', 'error', line + 1, 26, '$group::1'],
      ]),
    ],
  );
});

test('draft placeholders: perl-shared addressclasses has one error per `$` placeholder, and nothing else wrong', () => {
  const ds = run('perl-shared--client-psconfig-addressclasses.json').filter((d) => !PSCHEDULER.test(d.code));
  assert.deepEqual(
    ds.filter((d) => d.severity === 'error').map((d) => [d.code, d.line, d.text]),
    [
      ['psconfig/legacy-placeholder', 7, '$requesting-agent'],
      ['psconfig/legacy-placeholder', 283, '$group::0'],
      ['psconfig/legacy-placeholder', 284, '$group::1'],
    ],
  );
  assert.deepEqual(
    ds.filter((d) => d.severity === 'warning' && !EXPECTED_WARNINGS.has(d.code)),
    [],
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
