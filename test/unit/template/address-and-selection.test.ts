// Address values (host names or IP literals) and groups/tasks that yield nothing, with the reason.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isIPv4, isIPv6 } from 'node:net';
import { addressProblem, isHostOrIp } from '../../../server/src/template/rules/address-format';
import { check, template, withCode } from './helpers';

test('valid address forms: host names, IPv4, IPv6 (full, compressed, mapped), a final dot', () => {
  for (const v of [
    'ps.example.net',
    'localhost',
    'a-b.c-d.example',
    'ps1',
    'example.net.',
    '192.0.2.1',
    '0.0.0.0',
    '2001:db8::1',
    '::1',
    '2001:0db8:0000:0000:0000:0000:0000:0001',
    '::ffff:192.0.2.1',
    'xn--bcher-kva.example',
  ])
    assert.equal(addressProblem(v), undefined, v);
});

test("the host-name check (a loop) accepts exactly what JSON Schema's hostname pattern accepts", () => {
  // The format as a regular expression (RFC 1123 labels of 1-63, at most 253 characters, a final dot allowed), the
  // check's specification; the loop replaced it for speed on large templates.
  const pattern =
    /^(?=.{1,253}\.?$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.?$/i;
  const reference = (v: string): boolean => isIPv4(v) || isIPv6(v) || (pattern.test(v) && !/^[\d.]+$/.test(v));
  const edges = [
    '',
    '.',
    'a',
    'a.',
    'a..b',
    '-a',
    'a-',
    'a.-b',
    'a-.b',
    'A-B.c',
    '1.2.3',
    '1.2.3.256',
    '::1',
    '[::1]',
    'a'.repeat(63),
    'a'.repeat(64),
    `${'a'.repeat(63)}.`.repeat(4),
    `${'a'.repeat(50)}.`.repeat(5) + 'a',
    'é.net',
    'a\n',
  ];
  // Random strings over the characters that matter, from a fixed seed (a linear congruential generator).
  let seed = 7;
  const next = (n: number): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
  const chars = 'ab-.1:_9Z';
  const random = Array.from({ length: 20000 }, () =>
    Array.from({ length: next(12) }, () => chars[next(chars.length)]).join(''),
  );
  for (const v of [...edges, ...random]) assert.equal(isHostOrIp(v), reference(v), JSON.stringify(v));
});

test('invalid address forms say what is wrong and what to write', () => {
  const cases: [string, RegExp][] = [
    ['https://ps.example.net/', /is a URL \(https:\/\/…\): write only the host, `ps\.example\.net`/],
    ['http://[2001:db8::1]:8080', /is a URL .*`2001:db8::1`/],
    ['ps.example.net:443', /has a port \(443\): write `ps\.example\.net`/],
    ['192.0.2.1:861', /has a port \(861\): write `192\.0\.2\.1`/],
    ['[2001:db8::1]', /puts the IPv6 address in brackets: write `2001:db8::1`/],
    ['[2001:db8::1]:443', /in brackets with a port/],
    ['192.0.2.0/24', /is a network \(CIDR\)/],
    ['10.0.0.256', /not a valid IPv4 address/],
    ['1.2.3', /not a valid IPv4 address/],
    ['2001:db8:::1', /not a valid IPv6 address/],
    ['my_host.example', /`_` is not allowed/],
    ['ps example', /contains whitespace/],
    ['', /is empty/],
    ['-bad.example', /neither a host name .* nor an IP address/],
    [`${'a'.repeat(64)}.example`, /neither a host name/],
  ];
  for (const [v, re] of cases) assert.match(addressProblem(v) ?? 'accepted', re, v);
});

test('every address field is checked: address, labels, remote entries, lead-bind-address; variables are left alone', () => {
  const ds = check(
    template({
      addresses: {
        a: {
          address: 'https://a.example.net',
          'lead-bind-address': 'a.example.net:5201',
          labels: { v6: { address: '[2001:db8::a]' } },
          'remote-addresses': { b: { address: '10.1.1.1/32', labels: { v4: { address: '10.1.1.999' } } } },
        },
        b: { address: '{% jq .x %}' },
      },
    }),
  );
  const found = withCode(ds, 'psconfig/invalid-address');
  assert.deepEqual(
    found.map((d) => d.text),
    ['https://a.example.net', 'a.example.net:5201', '[2001:db8::a]', '10.1.1.1/32', '10.1.1.999'],
  );
  assert.ok(found.every((d) => d.severity === 'error'));
  assert.match(found[2].message, /^`address` of label `v6` of address `a` puts the IPv6 address in brackets/);
  assert.match(found[4].message, /label `v4` of the remote entry `b` of address `a`/);
});

const addrs = (...names: string[]): Record<string, unknown> =>
  Object.fromEntries(names.map((n) => [n, { address: `${n}.example.net` }]));
const sel = (...names: string[]): { name: string }[] => names.map((name) => ({ name }));

test('empty groups: an empty list, an empty disjoint side, a mesh of one address', () => {
  const ds = check(
    template({
      addresses: addrs('a', 'b'),
      groups: {
        list: { type: 'list', addresses: [] },
        side: { type: 'disjoint', 'a-addresses': sel('a'), 'b-addresses': [] },
        one: { type: 'mesh', addresses: sel('a') },
        same: { type: 'mesh', addresses: sel('a', 'a') },
        fine: { type: 'mesh', addresses: sel('a', 'b') },
      },
      tasks: {
        t1: { group: 'list', test: 't' },
        t2: { group: 'side', test: 't' },
        t3: { group: 'one', test: 't' },
        t4: { group: 'same', test: 't' },
        t5: { group: 'fine', test: 't' },
      },
    }),
  );
  const groups = withCode(ds, 'psconfig/empty-group');
  assert.deepEqual(
    groups.map((d) => d.text),
    ['list', 'side', 'one', 'same'],
  );
  assert.match(groups[0].message, /its `addresses` list is empty/);
  assert.match(groups[1].message, /its `b-addresses` list is empty/);
  assert.match(groups[2].message, /a mesh needs two addresses, and only `a` is usable/);
  assert.match(groups[3].message, /a mesh needs two addresses/);
  assert.ok(groups.every((d) => d.severity === 'warning'));
  const tasks = withCode(ds, 'psconfig/task-yields-nothing');
  assert.deepEqual(
    tasks.map((d) => d.text),
    ['t1', 't2', 't3', 't4'],
  );
  assert.match(tasks[0].message, /Task `t1` creates no pScheduler task: its group `list` selects nothing/);
});

test('selectors that all resolve to disabled addresses, disabled hosts or missing labels', () => {
  const ds = check(
    template({
      addresses: {
        a: { address: 'a.example.net', disabled: true },
        b: { address: 'b.example.net', host: 'h' },
        c: { address: 'c.example.net' },
      },
      hosts: { h: { disabled: true } },
      groups: {
        off: { type: 'list', addresses: [{ name: 'a' }, { name: 'b' }, { name: 'c', label: 'nolabel' }] },
      },
      tasks: { t: { group: 'off', test: 't' } },
    }),
  );
  const [g] = withCode(ds, 'psconfig/empty-group');
  assert.match(
    g.message,
    /every address its `addresses` selects is unusable: `a` \(disabled\), `b` \(its host `h` is disabled\), `c` label `nolabel` \(no such label\)/,
  );
  assert.equal(withCode(ds, 'psconfig/task-yields-nothing').length, 1);
});

test('every pair excluded, and every member no-agent', () => {
  const ds = check(
    template({
      addresses: {
        a: { address: 'a.example.net', host: 'h' },
        b: { address: 'b.example.net', host: 'h' },
        x: { address: 'x.example.net', 'no-agent': true },
        y: { address: 'y.example.net', 'no-agent': true },
        p: { address: 'p.example.net' },
        q: { address: 'q.example.net' },
      },
      hosts: { h: {} },
      groups: {
        samehost: { type: 'mesh', addresses: sel('a', 'b') },
        excluded: {
          type: 'mesh',
          addresses: sel('p', 'q'),
          excludes: [
            { 'local-address': { name: 'p' }, 'target-addresses': [{ name: 'q' }] },
            { 'local-address': { name: 'q' }, 'target-addresses': [{ name: 'p' }] },
          ],
        },
        nobody: { type: 'mesh', addresses: sel('x', 'y') },
      },
      tasks: {
        t1: { group: 'samehost', test: 't' },
        t2: { group: 'excluded', test: 't' },
        t3: { group: 'nobody', test: 't' },
        off: { group: 'samehost', test: 't', disabled: true },
      },
    }),
  );
  const groups = withCode(ds, 'psconfig/empty-group');
  assert.deepEqual(
    groups.map((d) => d.text),
    ['samehost', 'excluded'],
  );
  assert.match(groups[0].message, /every pair it forms is excluded \(`excludes-self: host`/);
  assert.match(groups[1].message, /every pair it forms is excluded \(`excludes`/);
  const tasks = withCode(ds, 'psconfig/task-yields-nothing');
  assert.deepEqual(
    tasks.map((d) => d.text),
    ['t1', 't2', 't3'],
    'a disabled task is not reported',
  );
  assert.match(
    tasks[2].message,
    /every member of its group `nobody` is `no-agent` \(`x`, `y`\), so no agent schedules it/,
  );
});

test('groups with class selectors, unknown addresses or unread includes are not judged', () => {
  const ds = check(
    template({
      'address-classes': {
        all: { 'data-source': { type: 'current-config' }, 'match-filter': { type: 'tag', tag: 'x' } },
      },
      groups: {
        cls: { type: 'mesh', addresses: [{ class: 'all' }] },
        missing: { type: 'mesh', addresses: sel('a', 'nope') },
      },
      tasks: { t1: { group: 'cls', test: 't' }, t2: { group: 'missing', test: 't' } },
    }),
  );
  assert.deepEqual(withCode(ds, 'psconfig/empty-group'), []);
  assert.deepEqual(withCode(ds, 'psconfig/task-yields-nothing'), []);
  const unread = check(template({ groups: { g: { type: 'list', addresses: [] } }, includes: ['/x.json'] }));
  assert.deepEqual(withCode(unread, 'psconfig/empty-group'), []);
});

test('verdicts kept between versions follow edits of addresses, hosts, groups and tasks', () => {
  // Consecutive checks as the editor runs them: each version must be judged on its own text, whatever the one
  // before it left behind (verdicts are kept while the addresses and hosts text is unchanged).
  const base = {
    addresses: { a: { address: 'a.example.net', host: 'h' }, b: { address: 'b.example.net' } },
    hosts: { h: {} },
    groups: { g: { type: 'mesh', addresses: sel('a', 'b') } },
    tasks: { task: { group: 'g', test: 't' } },
  };
  const codes = (doc: Record<string, unknown>): string[] =>
    check(template(doc))
      .filter((d) => d.code === 'psconfig/empty-group' || d.code === 'psconfig/task-yields-nothing')
      .map((d) => `${d.code} ${d.text}`);
  assert.deepEqual(codes(base), []);
  // an address disabled: the same group text, other addresses text
  const disabled = { ...base, addresses: { ...base.addresses, b: { address: 'b.example.net', disabled: true } } };
  assert.deepEqual(codes(disabled), ['psconfig/empty-group g', 'psconfig/task-yields-nothing task']);
  assert.deepEqual(codes(base), []);
  // the host disabled: only the hosts text differs
  assert.deepEqual(codes({ ...base, hosts: { h: { disabled: true } } }), [
    'psconfig/empty-group g',
    'psconfig/task-yields-nothing task',
  ]);
  // the group edited, then a second task on it, then the group renamed under the same text
  assert.deepEqual(codes({ ...base, groups: { g: { type: 'mesh', addresses: sel('a') } } }), [
    'psconfig/empty-group g',
    'psconfig/task-yields-nothing task',
  ]);
  const two = { ...base, tasks: { task: { group: 'g', test: 't' }, other: { group: 'g', test: 't' } } };
  assert.deepEqual(codes(two), []);
  const renamed = {
    ...base,
    groups: { g: { type: 'mesh', addresses: sel('a', 'b') }, g2: { type: 'mesh', addresses: sel('a') } },
    tasks: { task: { group: 'g2', test: 't' } },
  };
  assert.deepEqual(codes(renamed), ['psconfig/empty-group g2', 'psconfig/task-yields-nothing task']);
  // every member no-agent: the reason names the group the task uses
  const noAgent = {
    ...base,
    hosts: { h: { 'no-agent': true } },
    addresses: { a: { address: 'a.example.net', host: 'h' }, b: { address: 'b.example.net', host: 'h' } },
    groups: { g: { type: 'mesh', addresses: sel('a', 'b'), 'excludes-self': 'disabled' } },
  };
  const found = check(template(noAgent)).filter((d) => d.code === 'psconfig/task-yields-nothing');
  assert.equal(found.length, 1);
  assert.match(found[0].message, /every member of its group `g` is `no-agent`/);
});
