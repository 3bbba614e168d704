import { test } from 'node:test';
import assert from 'node:assert/strict';
import { check, errors, template, withCode } from './helpers';
import { analyseTemplate } from '../../../server/src/template/model';

test('every kind of reference is checked, at the name, with pSConfig wording', () => {
  const ds = check(
    template({
      addresses: {
        a: {
          address: 'a',
          host: 'nohost',
          contexts: ['noctx'],
          labels: { v4: { address: '10.0.0.1', contexts: ['noctx2'] } },
          'remote-addresses': { b: { address: '10.0.0.2', contexts: ['noctx3'] } },
        },
        b: { address: 'b' },
      },
      hosts: { h: { archives: ['noarch-host'] } },
      'address-classes': {
        k: {
          'data-source': { type: 'current-config' },
          'match-filter': { type: 'address-class', class: 'noclass-filter' },
        },
      },
      groups: {
        g: {
          type: 'mesh',
          addresses: [{ name: 'a', label: 'v6' }, { name: 'noaddr' }, { class: 'noclass' }],
          excludes: [{ 'local-address': { name: 'noexcl' }, 'target-addresses': [{ name: 'b' }, { class: 'k' }] }],
        },
      },
      subtasks: { st: { test: 'notest-sub', archives: ['noarch-sub'] } },
      tasks: {
        task: { group: 'nogroup', test: 'notest', schedule: 'nosched', archives: ['noarch'], subtasks: ['nosub'] },
      },
    }),
  );
  const found = errors(ds).map((d) => [d.code, d.text]);
  assert.deepEqual(
    found,
    [
      ['psconfig/unknown-host', 'nohost'],
      ['psconfig/unknown-context', 'noctx'],
      ['psconfig/unknown-context', 'noctx2'],
      ['psconfig/unknown-context', 'noctx3'],
      ['psconfig/unknown-address', 'nogroup'.replace('nogroup', 'noaddr')],
      ['psconfig/unknown-label', 'v6'],
      ['psconfig/unknown-address-class', 'noclass'],
      ['psconfig/unknown-address', 'noexcl'],
      ['psconfig/unknown-group', 'nogroup'],
      ['psconfig/unknown-test', 'notest'],
      ['psconfig/unknown-schedule', 'nosched'],
      ['psconfig/unknown-archive', 'noarch'],
      ['psconfig/unknown-subtask', 'nosub'],
      ['psconfig/unknown-archive', 'noarch-host'],
      ['psconfig/unknown-address-class', 'noclass-filter'],
      ['psconfig/unknown-test', 'notest-sub'],
      ['psconfig/unknown-archive', 'noarch-sub'],
      // the label v4 has contexts: pSConfig 5.2.4's reference check raises on it (config.py ~283-286)
      ['psconfig/label-contexts-crash', '"contexts"'],
    ].sort((x, y) => ds.findIndex((d) => d.text === x[1]) - ds.findIndex((d) => d.text === y[1])),
  );
  const msg = (name: string): string => ds.find((d) => d.text === name)!.message;
  assert.match(msg('nohost'), /^Address a references a host object nohost that does not exist\./);
  assert.match(msg('noctx2'), /^Address a has a label v4 using a context object noctx2 that does not exist\./);
  assert.match(
    msg('noctx3'),
    /^Address a has a remote definition for b using a context object noctx3 that does not exist\./,
  );
  assert.match(msg('v6'), /^Group g references a label v6 for address object a that does not exist\./);
  assert.match(msg('noarch-host'), /^Host h references an archive object noarch-host that does not exist\./);
  assert.match(msg('nogroup'), /^Task task references a group nogroup that does not exist\./);
  assert.deepEqual(ds.find((d) => d.text === 'nogroup')!.data, {
    kind: 'missing-ref',
    section: 'groups',
    name: 'nogroup',
    closest: undefined,
    path: ['tasks', 'task', 'group'],
  });
});

test('a label may come from a remote-addresses entry', () => {
  const ds = check(
    template({
      addresses: {
        a: { address: 'a', 'remote-addresses': { b: { labels: { circuit: { address: '10.0.0.1' } } } } },
        b: { address: 'b' },
      },
      groups: { g: { type: 'mesh', addresses: [{ name: 'a', label: 'circuit' }, { name: 'b' }] } },
    }),
  );
  assert.deepEqual(errors(ds), []);
});

test('near-miss names get a suggestion and quick-fix data', () => {
  const ds = check(template({ tasks: { task: { group: 'gg', test: 't' } } }));
  const [d] = withCode(ds, 'psconfig/unknown-group');
  assert.match(d.message, /did you mean `g`\?/);
  assert.equal(d.data?.kind === 'missing-ref' ? d.data.closest : undefined, 'g');
});

test('remote-addresses keys naming no address warn', () => {
  const ds = check(
    template({ addresses: { a: { address: 'a', 'remote-addresses': { zz: { address: 'x' } } }, b: { address: 'b' } } }),
  );
  const [d] = withCode(ds, 'psconfig/unknown-remote-address');
  assert.equal(d.severity, 'warning');
  assert.equal(d.text, 'zz');
});

test('with an include that is not read, missing references are listed once on the include entry', () => {
  const ds = check(
    template({
      includes: ['https://example.net/more.json'],
      tasks: { task: { group: 'g', test: 't', archives: ['remote-archive'] } },
    }),
  );
  assert.deepEqual(withCode(ds, 'psconfig/unknown-archive'), []);
  const [d] = withCode(ds, 'psconfig/include-skipped');
  assert.equal(d.severity, 'warning');
  assert.equal(d.text, 'https://example.net/more.json');
  assert.match(d.message, /one name used here cannot be checked \(they may come from it\): archive `remote-archive`/);
});

test('labels per address: a short list and a long one (indexed by name) answer alike', () => {
  // a: two labels; b: twelve, one of them written twice (beyond the short list, looked up by name)
  const many = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`l${i}`, { address: `10.0.1.${i}` }]));
  const text = JSON.stringify({
    addresses: {
      a: { address: 'a', labels: { v4: { address: '10.0.0.1' }, v6: { address: '2001:db8::1' } } },
      b: { address: 'b', labels: { ...many, v4: { address: '10.0.2.1' } } },
    },
    groups: {},
    tests: {},
    tasks: {},
  }).replace('"l3":{"address":"10.0.1.3"}', '"l3":{"address":"10.0.1.3"},"l3":{"address":"10.0.1.33"}');
  const { index } = analyseTemplate(text);
  assert.deepEqual(index.namesIn('labels', 'a'), ['v4', 'v6']);
  assert.deepEqual(index.namesIn('labels', 'b'), [...Object.keys(many), 'v4']);
  for (const [address, name, count] of [
    ['a', 'v4', 1],
    ['a', 'l3', 0],
    ['b', 'l3', 2],
    ['b', 'v4', 1],
    ['b', 'v6', 0],
    ['nowhere', 'v4', 0],
  ] as const) {
    assert.equal(index.isDefined('labels', name, address), count > 0, `${address}/${name}`);
    const defs = index.definitionsOf('labels', name, address);
    assert.equal(defs.length, count, `${address}/${name}`);
    for (const d of defs) assert.equal(d.address, address);
  }
  assert.equal(index.definitionsOf('labels', 'v4').length, 2);
});
