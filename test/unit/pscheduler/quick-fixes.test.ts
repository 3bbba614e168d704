// Quick fixes of pScheduler's checks, applied to the text: the closest test type, archiver, key or value, and
// `schema` set for a field of a later version. Each result is re-checked by the real rules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { quickFixes } from '../../../server/src/template/navigation/code-actions';
import { validateTemplate } from '../../../server/src/template/diagnostics';
import { applyOffsetEdits, navModel } from '../navigation/nav-fixture';
import { template } from '../template/helpers';

function fix(doc: unknown, code: string): { title: string; out: string } {
  const text = JSON.stringify(doc, null, 2);
  const d = validateTemplate(text).diagnostics.find((x) => x.code === code);
  assert.ok(d, code);
  const [f] = quickFixes(navModel(text), d);
  assert.ok(f, `a fix for ${code}`);
  return { title: f.title, out: applyOffsetEdits(text, f.edits) };
}

const pscheduler = (out: string): string[] =>
  validateTemplate(out)
    .diagnostics.filter(
      (d) => d.severity === 'error' && /spec-|archiver-|unknown-test|unknown-archiver|tool/.test(d.code),
    )
    .map((d) => d.code);

test('an unknown test type becomes the closest one', () => {
  const { title, out } = fix(
    template({ tests: { t: { type: 'througput', spec: { dest: 'h' } } } }),
    'psconfig/unknown-test-type',
  );
  assert.equal(title, 'Change to "throughput"');
  assert.equal((JSON.parse(out) as { tests: { t: { type: string } } }).tests.t.type, 'throughput');
  assert.deepEqual(pscheduler(out), []);
});

test('an unknown archiver becomes the closest one', () => {
  const doc = template({
    archives: { a: { archiver: 'htp', data: { schema: 2, _url: 'https://a.example.net/' } } },
    tasks: { task: { group: 'g', test: 't', archives: ['a'] } },
  });
  const { out } = fix(doc, 'psconfig/unknown-archiver');
  assert.deepEqual(pscheduler(out), []);
});

test('a misspelt spec key is renamed; an enum value off by a letter is replaced', () => {
  const k = fix(
    template({ tests: { t: { type: 'throughput', spec: { dest: 'h', durration: 'PT10S' } } } }),
    'psconfig/spec-unknown-property',
  );
  assert.equal(k.title, 'Change property "durration" to "duration"');
  assert.deepEqual(pscheduler(k.out), []);
  const v = fix(
    template({ tests: { t: { type: 'trace', spec: { dest: 'h', 'probe-type': 'icmpp' } } } }),
    'psconfig/spec-invalid-value',
  );
  assert.equal(v.title, 'Change to "icmp"');
  assert.deepEqual(pscheduler(v.out), []);
});

test('a field of a later version: `schema` is added, or raised', () => {
  const add = fix(
    template({ tests: { t: { type: 'latency', spec: { dest: 'h', reverse: true } } } }),
    'psconfig/spec-needs-schema',
  );
  assert.equal(add.title, 'Set "schema" to 2');
  assert.equal((JSON.parse(add.out) as { tests: { t: { spec: { schema: number } } } }).tests.t.spec.schema, 2);
  assert.deepEqual(pscheduler(add.out), []);
  const raise = fix(
    template({ tests: { t: { type: 'latency', spec: { schema: 2, dest: 'h', protocol: 'owamp' } } } }),
    'psconfig/spec-needs-schema',
  );
  assert.equal(raise.title, 'Set "schema" to 4');
  assert.deepEqual(pscheduler(raise.out), []);
});
