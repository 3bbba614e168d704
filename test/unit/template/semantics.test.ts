import { test } from 'node:test';
import assert from 'node:assert/strict';
import { check, errors, template, withCode } from './helpers';

test('scheduled-by beyond the group size', () => {
  const ds = check(
    template({
      groups: { l: { type: 'list', addresses: [{ name: 'a' }, { name: 'b' }] } },
      tests: { t: { type: 'rtt', spec: {} } },
      tasks: { task: { group: 'l', test: 't', 'scheduled-by': 1 } },
    }),
  );
  const [d] = withCode(ds, 'psconfig/scheduled-by-range');
  assert.equal(d.severity, 'error');
  assert.equal(d.text, '1');
  assert.match(d.message, /list group/);
  assert.equal(
    withCode(
      check(template({ tasks: { task: { group: 'g', test: 't', 'scheduled-by': 1 } } })),
      'psconfig/scheduled-by-range',
    ).length,
    0,
  );
});

test('esmond archiver warns at the archiver value', () => {
  const ds = check(
    template({
      archives: { e: { archiver: 'esmond', data: {} } },
      tasks: { task: { group: 'g', test: 't', archives: ['e'] } },
    }),
  );
  const [d] = withCode(ds, 'psconfig/esmond-archiver');
  assert.equal(d.severity, 'warning');
  assert.equal(d.text, '"esmond"');
});

test('unused definitions are hints tagged unnecessary; host archives and class selections count', () => {
  const ds = check(
    template({
      addresses: { a: { address: 'a', host: 'h' }, b: { address: 'b' }, c: { address: 'c' } },
      hosts: { h: { archives: ['via-host'] }, lonely: {} },
      archives: { 'via-host': { archiver: 'http', data: {} }, spare: { archiver: 'http', data: {} } },
      schedules: { never: { repeat: 'PT1H' } },
    }),
  );
  const unused = withCode(ds, 'psconfig/unused-definition');
  assert.deepEqual(
    unused.map((d) => d.text),
    ['c', 'lonely', 'spare', 'never'],
  );
  assert.ok(unused.every((d) => d.severity === 'hint' && d.tags?.includes('unnecessary')));
  const classes = check(
    template({
      addresses: { a: { address: 'a' }, b: { address: 'b' }, c: { address: 'c' } },
      'address-classes': { all: { 'data-source': { type: 'current-config' } } },
      groups: { g: { type: 'mesh', addresses: [{ class: 'all' }] } },
    }),
  );
  assert.equal(withCode(classes, 'psconfig/unused-definition').length, 0);
});

test('default-address-label that no member has', () => {
  const ds = check(
    template({
      groups: { g: { type: 'mesh', 'default-address-label': 'ipv6', addresses: [{ name: 'a' }, { name: 'b' }] } },
    }),
  );
  assert.deepEqual(
    withCode(ds, 'psconfig/default-label-unused').map((d) => d.text),
    ['ipv6'],
  );
});

test('duplicate keys are warnings at the later key, naming the line that wins and the one ignored', () => {
  const text =
    '{"addresses": {"a": {"address": "x"},\n "a": {"address": "y"}}, "groups": {}, "tests": {}, "tasks": {}}';
  const ds = check(text);
  const [d] = withCode(ds, 'psconfig/duplicate-key');
  assert.equal(d.severity, 'warning');
  assert.equal(d.start, text.lastIndexOf('"a"'));
  assert.equal(d.text, '"a"');
  assert.match(d.message, /last one wins, so the value on line 2 is used and the earlier one on line 1 is ignored/);
  assert.deepEqual(errors(ds), []);
});

test('duplicate keys: references resolve to the value that wins', () => {
  const text = JSON.stringify(template()).replace('"group":"g"', '"group":"nope","group":"g"');
  assert.ok(text.includes('"group":"nope"'));
  const ds = check(text);
  assert.equal(withCode(ds, 'psconfig/duplicate-key').length, 1);
  assert.equal(
    withCode(ds, 'psconfig/unknown-group').length,
    0,
    'the earlier, ignored `group` is not checked as a reference',
  );
});

test('subtasks get a note; includes not read by a plain check get one note each', () => {
  const ds = check(
    template({ includes: ['relative.json'], tests: { t: { type: 'rtt', spec: {} } }, subtasks: { s: { test: 't' } } }),
  );
  assert.equal(withCode(ds, 'psconfig/subtasks-no-effect').length, 1);
  const [inc] = withCode(ds, 'psconfig/include-skipped');
  assert.equal(inc.severity, 'information');
  assert.equal(inc.text, 'relative.json');
});
