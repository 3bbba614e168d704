// Address classes (both data sources, every filter type), includes merging, and countCombinations.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { countCombinations, mergeIncludes } from '../../../server/src/template/expand';
import { expandText } from '../../../server/src/template/expand/from-text';
import { DEFAULT_INCLUDE_LIMITS, loadIncludes, type IncludePolicy } from '../../../server/src/template/includes/loader';
import { expand, pairs } from './helpers';

const base = {
  addresses: {
    v4: { address: '192.0.2.10', tags: ['Lab'], _meta: { speed: 10 } },
    v6: { address: '2001:db8::1', host: 'h1' },
    name: { address: 'perfsonar.example.org', host: 'h2', tags: ['core'] },
    other: { address: '198.51.100.7', host: 'h3' },
    agent: { address: 'agent.local' },
  },
  hosts: { h1: { tags: ['lab'] }, h2: { tags: ['core', 'lab'], 'no-agent': true, _meta: { site: 'X' } }, h3: {} },
  tests: { pair: { type: 'rtt', spec: { source: '{% address[0] %}', dest: '{% address[1] %}' } } },
};

function classTemplate(filters: Record<string, unknown>): Record<string, unknown> {
  const classes = Object.fromEntries(
    Object.entries(filters).map(([k, f]) => [k, { 'data-source': { type: 'current-config' }, 'match-filter': f }]),
  );
  return {
    ...base,
    'address-classes': classes,
    // agent.local schedules a test to every address the class selects (the class side may be no-agent).
    groups: Object.fromEntries(
      Object.keys(filters).map((k) => [
        k,
        { type: 'disjoint', 'a-addresses': [{ name: 'agent' }], 'b-addresses': [{ class: k }], unidirectional: true },
      ]),
    ),
    tasks: Object.fromEntries(Object.keys(filters).map((k) => [k, { group: k, test: 'pair' }])),
  };
}

test('every filter type selects the addresses Perl 4.x would, in template order', async () => {
  const t = classTemplate({
    tag: { type: 'tag', tag: 'lab' }, // address tags, then host tags, case-insensitive
    host: { type: 'host', tag: 'lab' }, // host tag, host no-agent must equal the filter's (false)
    hostNoAgent: { type: 'host', 'no-agent': true },
    hostJq: { type: 'host', jq: { script: '._meta.site == "X"' }, 'no-agent': true },
    v4: { type: 'ip-version', 'ip-version': 4 },
    v6: { type: 'ip-version', 'ip-version': 6 },
    net: { type: 'netmask', netmask: '192.0.2.0/24' },
    net6: { type: 'netmask', netmask: '2001:db8::/32' },
    jq: { type: 'jq', jq: { script: ['._meta.speed', '== 10'] } },
    and: {
      type: 'and',
      filters: [
        { type: 'tag', tag: 'lab' },
        { type: 'ip-version', 'ip-version': 6 },
      ],
    },
    or: {
      type: 'or',
      filters: [
        { type: 'tag', tag: 'core' },
        { type: 'netmask', netmask: '198.51.100.0/24' },
      ],
    },
    not: { type: 'not', filter: { type: 'address-class', class: 'tag' } },
  });
  const r = await expand(t);
  const got = (task: string): string[] => pairs(r, task).map((p) => p.replace(/^agent\.local->/, ''));
  assert.deepEqual(got('tag'), ['192.0.2.10', '2001:db8::1', 'perfsonar.example.org']);
  assert.deepEqual(got('host'), ['2001:db8::1'], 'h2 has the tag but is no-agent');
  assert.deepEqual(got('hostNoAgent'), ['perfsonar.example.org']);
  assert.deepEqual(got('hostJq'), ['perfsonar.example.org']);
  assert.deepEqual(got('v4'), ['192.0.2.10', '198.51.100.7']);
  assert.deepEqual(got('v6'), ['2001:db8::1']);
  assert.deepEqual(got('net'), ['192.0.2.10']);
  assert.deepEqual(got('net6'), ['2001:db8::1']);
  assert.deepEqual(got('jq'), ['192.0.2.10']);
  assert.deepEqual(got('and'), ['2001:db8::1']);
  assert.deepEqual(got('or'), ['perfsonar.example.org', '198.51.100.7']);
  assert.deepEqual(got('not'), ['198.51.100.7']);
  const notes = r.notes.map((n) => n.message).join('\n');
  assert.match(
    notes,
    /perfsonar\.example\.org\) is a host name: whether it passes the ip-version filter depends on DNS/,
  );
  assert.match(notes, /KeyError 'label'/);
});

test('exclude-filter, requesting-agent data source fed by the agent addresses', async () => {
  const t = {
    ...base,
    'address-classes': {
      notLab: { 'data-source': { type: 'current-config' }, 'exclude-filter': { type: 'tag', tag: 'lab' } },
      me: { 'data-source': { type: 'requesting-agent' } },
    },
    groups: {
      g: {
        type: 'disjoint',
        'a-addresses': [{ class: 'me' }],
        'b-addresses': [{ class: 'notLab' }],
        unidirectional: true,
      },
    },
    tests: { pair: { type: 'x', spec: { s: '{% address[0] %}', d: '{% address[1] %}' } } },
    tasks: { t: { group: 'g', test: 'pair' } },
  };
  assert.deepEqual(pairs(await expand(t, { agentAddresses: ['agent.example'] })), [
    'agent.example->198.51.100.7',
    'agent.example->agent.local',
  ]);
  const none = await expand(t);
  assert.deepEqual(pairs(none), []);
  assert.ok(none.notes.some((n) => /requesting-agent data source/.test(n.message)));
});

test('includes: in order, base and earlier includes win, nested includes and _meta ignored, errors collected', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'merge-'));
  writeFileSync(
    join(dir, 'one.json'),
    JSON.stringify({
      addresses: { a: { address: 'from-one' }, c: { address: 'c' } },
      includes: [join(dir, 'never.json')],
      _meta: { x: 1 },
    }),
  );
  writeFileSync(join(dir, 'never.json'), JSON.stringify({ addresses: { n: { address: 'n' } } }));
  writeFileSync(
    join(dir, 'two.json'),
    JSON.stringify({
      addresses: { c: { address: 'from-two' }, d: { address: 'd', '#note': 'stripped' } },
      tasks: { t2: { group: 'g', test: 'x' } },
    }),
  );
  writeFileSync(join(dir, 'bad.json'), '{ nope');
  const baseT = {
    addresses: { a: { address: 'base' } },
    groups: {},
    tests: {},
    tasks: {},
    includes: [
      join(dir, 'one.json'),
      `file://${join(dir, 'two.json')}`,
      join(dir, 'bad.json'),
      join(dir, 'missing.json'),
      'https://example.org/t.json',
    ],
  };
  const policy: IncludePolicy = { remote: 'no-consent', limits: DEFAULT_INCLUDE_LIMITS };
  const r = await mergeIncludes(baseT, { loadIncludes: (refs) => loadIncludes(refs, policy) });
  // one.json adds c; two.json's c loses to it, its d comes in with the # key stripped; a stays the base's.
  assert.deepEqual(r.merged.addresses, { a: { address: 'base' }, c: { address: 'c' }, d: { address: 'd' } });
  assert.deepEqual(Object.keys(r.merged.tasks as object), ['t2']);
  assert.equal(r.errors.length, 3);
  assert.match(r.errors[0], /^Error including \/.*\/bad\.json: not valid JSON/);
  assert.match(r.errors[1], /^Error including \/.*\/missing\.json: no such file/);
  assert.match(
    r.errors[2],
    /^Error including https:\/\/example\.org\/t\.json: not read: remote includes are fetched only with consent \(the setting psconfig\.includes\.allowRemote/,
  );
  const remote = await mergeIncludes(
    { includes: ['https://example.org/t.json'] },
    {
      loadIncludes: (refs) =>
        loadIncludes(refs, {
          ...policy,
          remote: 'allowed',
          fetchText: async () => JSON.stringify({ hosts: { h: {} } }),
        }),
    },
  );
  assert.deepEqual(remote.merged.hosts, { h: {} });
});

test('an included address takes part in expansion', async () => {
  const t = {
    addresses: { a: { address: 'a' } },
    groups: { g: { type: 'mesh', addresses: [{ name: 'a' }, { name: 'b' }] } },
    tests: { x: { type: 'x', spec: {} } },
    tasks: { t: { group: 'g', test: 'x' } },
    includes: ['/b.json'],
  };
  const text = JSON.stringify({ addresses: { b: { address: 'b' } } });
  const r = await expand(t, {
    loadIncludes: async (refs) => refs.map((ref) => ({ ref, kind: 'local', relative: false, status: 'read', text })),
  });
  assert.deepEqual(pairs(r), ['a->b', 'b->a']);
});

test('countCombinations agrees with the full expansion, without jq', async () => {
  const t = {
    addresses: {
      a: { address: 'a' },
      b: { address: 'b', 'no-agent': true },
      c: { address: 'c' },
      d: { address: 'd', disabled: true },
    },
    groups: {
      m: { type: 'mesh', addresses: [{ name: 'a' }, { name: 'b' }, { name: 'c' }, { name: 'd' }] },
      l: { type: 'list', addresses: [{ name: 'a' }] },
    },
    tests: { x: { type: 'x', spec: { v: '{% jq .task %}' } } },
    tasks: {
      m: { group: 'm', test: 'x' },
      l: { group: 'l', test: 'x', 'scheduled-by': 1 },
      off: { group: 'm', test: 'x', disabled: true },
    },
  };
  const full = await expand(t);
  const counts = countCombinations(t);
  // The count without jq is of the tasks the agent would post: pScheduler's refusals (test type `x`) included, and
  // the duplicates jq makes: `{% jq .task %}` fills every spec of an agent alike, which only the engine sees.
  assert.ok(full.tasks.some((x) => x.refused));
  assert.deepEqual(
    counts.tasks.map((x) => [x.task, x.count, x.agents]),
    full.tasks.map((x) => [x.task, x.count + (x.refused ?? 0) + (x.identical ?? 0), x.agents.length]),
  );
  // a schedules a→b, a→c and b→a (b is no-agent: flipped), c the other three; each agent's three are alike: one
  // posted (and refused), two identical to it
  assert.deepEqual([full.tasks[0].refused, full.tasks[0].identical], [2, 4]);
  assert.deepEqual(counts.tasks[0], { task: 'm', count: 6, identical: 0, agents: 2, disabled: false });
  assert.match(counts.tasks[1].error ?? '', /scheduled-by property for task l is too big/);
  assert.equal(countCombinations(t, ['C']).tasks[0].count, 3);
});

test('expandText reads local includes from disk: absolute, file:// and relative to the working directory', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'includes-'));
  writeFileSync(join(dir, 'b.json'), JSON.stringify({ addresses: { b: { address: 'b' } } }));
  writeFileSync(join(dir, 'c.json'), JSON.stringify({ addresses: { c: { address: 'c' } } }));
  writeFileSync(join(dir, 'd.json'), JSON.stringify({ addresses: { d: { address: 'd' } } }));
  const text = JSON.stringify({
    addresses: { a: { address: 'a' } },
    groups: { g: { type: 'list', addresses: [{ name: 'a' }, { name: 'b' }, { name: 'c' }, { name: 'd' }] } },
    tests: { x: { type: 'rtt', spec: { dest: '{% address[0] %}' } } },
    tasks: { t: { group: 'g', test: 'x' } },
    includes: [join(dir, 'b.json'), `file://${join(dir, 'c.json')}`, 'd.json'],
  });
  const r = await expandText({
    uri: 'file:///t.json',
    version: 1,
    text,
    includes: { workingDir: dir, remote: 'no-consent', limits: DEFAULT_INCLUDE_LIMITS },
    jqPath: process.env.JQ_PATH || '/usr/bin/jq',
  });
  assert.deepEqual(
    r.combinations.map((c) => c.addressValues[0]),
    ['a', 'b', 'c', 'd'],
  );
  assert.deepEqual(r.notes, []);
  const untitled = await expandText({
    uri: 'untitled:1',
    version: 1,
    text,
    includes: { remote: 'no-consent', limits: DEFAULT_INCLUDE_LIMITS },
    jqPath: process.env.JQ_PATH || '/usr/bin/jq',
  });
  assert.ok(
    untitled.notes.some((n) =>
      /^Error including d\.json: not read: a relative path is opened from the working directory/.test(n.message),
    ),
    JSON.stringify(untitled.notes),
  );
});
