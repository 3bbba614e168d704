import { test } from 'node:test';
import assert from 'node:assert/strict';
import { check, errors, template, withCode } from './helpers';

const listGroup = { l: { type: 'list', addresses: [{ name: 'a' }] } };

test('address[1] in a test used by a list-group task is an error at the variable naming task and group', () => {
  const ds = check(
    template({
      groups: { g: { type: 'mesh', addresses: [{ name: 'a' }, { name: 'b' }] }, ...listGroup },
      tasks: { task: { group: 'g', test: 't' }, 'list-task': { group: 'l', test: 't' } },
    }),
  );
  const [d] = withCode(ds, 'psconfig/variable-index');
  assert.equal(d.severity, 'error');
  assert.equal(d.text, '{% address[1] %}');
  assert.match(d.message, /task `list-task`/);
  assert.match(d.message, /group `l` is a list group/);
  assert.equal(errors(ds).length, 1);
});

test('index checks reach archives (task and host), contexts and task references', () => {
  const ds = check(
    template({
      addresses: { a: { address: 'a', host: 'h', contexts: ['c'] }, b: { address: 'b' } },
      hosts: { h: { archives: ['ha'] } },
      contexts: { c: { context: 'linux-namespace', data: { ns: '{% lead_bind_address[1] %}' } } },
      archives: {
        ta: { archiver: 'http', data: { u: '{% pscheduler_address[1] %}' } },
        ha: { archiver: 'http', data: { u: '{% address[1] %}' } },
      },
      groups: listGroup,
      tests: { t: { type: 'rtt', spec: { dest: '{% address[0] %}' } } },
      tasks: {
        task: { group: 'l', test: 't', archives: ['ta'], reference: { x: '{% address[1] %}', y: '{% address[0] %}' } },
      },
    }),
  );
  assert.deepEqual(
    withCode(ds, 'psconfig/variable-index').map((d) => d.text),
    // document order: tasks (reference), then the appended contexts and archives (task archive, host archive)
    ['{% address[1] %}', '{% lead_bind_address[1] %}', '{% pscheduler_address[1] %}', '{% address[1] %}'],
  );
});

test('index 2 is out of range for pairs', () => {
  const ds = check(template({ tests: { t: { type: 'rtt', spec: { x: 'a {% address[2] %}' } } } }));
  const [d] = withCode(ds, 'psconfig/variable-index');
  assert.match(d.message, /mesh group, which yields two addresses/);
});

test('unknown, malformed, standalone localhost, not expanded', () => {
  const ds = check(
    template({
      addresses: { a: { address: '{% address[0] %}' }, b: { address: 'b' } },
      tests: {
        t: {
          type: 'rtt',
          spec: {
            a: '{% adress[0] %}',
            b: '{%address[0]%}',
            c: '{% localhost %}',
            d: 'https://{% localhost %}/x',
            e: '{% address %}',
          },
        },
      },
    }),
  );
  const unknown = withCode(ds, 'psconfig/unknown-variable');
  assert.deepEqual(
    unknown.map((d) => d.text),
    ['adress[0]', 'address'],
  );
  assert.match(unknown[0].message, /did you mean `address\[0\]`/);
  assert.match(unknown[1].message, /needs an index/);
  const spacing = withCode(ds, 'psconfig/variable-missing-space');
  assert.deepEqual(
    spacing.map((d) => [d.text, d.severity]),
    [['{%address[0]%}', 'warning']],
  );
  assert.match(spacing[0].message, /Write `\{% address\[0\] %\}`/);
  assert.deepEqual(
    withCode(ds, 'psconfig/standalone-localhost').map((d) => d.text),
    ['{% localhost %}'],
  );
  const lit = withCode(ds, 'psconfig/variable-not-expanded');
  assert.deepEqual(
    lit.map((d) => [d.text, d.severity]),
    [['{% address[0] %}', 'warning']],
  );
});

test('escaped quotes inside a jq variable keep document offsets', () => {
  const text = JSON.stringify(
    template({
      tasks: { task: { group: 'g', test: 't', reference: { n: '{% jq .addresses[0]._meta."display-name" %}' } } },
    }),
    null,
    2,
  );
  const ds = check(text);
  assert.deepEqual(errors(ds), []);
});
