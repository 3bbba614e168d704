// Template variables: all seven, standalone vs embedded, JSON types, IPv6, where expansion happens, errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { expand, sel } from './helpers';
import { bracketIpv6Urls } from '../../../server/src/template/expand/template-vars';
import { createJqRunner } from '../../../server/src/template/jq';

const addresses = {
  a: {
    address: 'a.example',
    'pscheduler-address': 'pa.example:443',
    'lead-bind-address': 'la',
    _meta: { speed: 10, name: 'A' },
  },
  b: { address: '2001:db8::2', _meta: { name: 'B "quoted"' } },
};

function one(spec: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    addresses,
    groups: { g: { type: 'disjoint', 'a-addresses': sel('a'), 'b-addresses': sel('b'), unidirectional: true } },
    tests: { t: { type: 'x', spec } },
    tasks: { task: { group: 'g', test: 't', ...extra } },
    ...(extra.__top as object),
  };
}

test('address, pscheduler_address (IPv6 bracketed), lead_bind_address with fallbacks', async () => {
  const r = await expand(
    one({
      a0: '{% address[0] %}',
      a1: '{% address[1] %}',
      p0: '{% pscheduler_address[0] %}',
      p1: '{% pscheduler_address[1] %}',
      l0: '{% lead_bind_address[0] %}',
      l1: '{% lead_bind_address[1] %}',
      nospace: '{%address[0]%}',
    }),
  );
  assert.deepEqual(r.combinations[0].pscheduler?.test.spec, {
    a0: 'a.example',
    a1: '2001:db8::2',
    p0: 'pa.example:443',
    p1: '[2001:db8::2]',
    l0: 'la',
    l1: '2001:db8::2',
    nospace: '{%address[0]%}',
  });
});

test('standalone values keep their JSON type, embedded ones are spliced into the string; IPv6 URLs get brackets', async () => {
  const r = await expand(
    one({
      flip: '{% flip %}',
      flipText: 'x{% flip %}',
      speed: '{% jq .addresses[0]._meta.speed %}',
      speedText: 'speed={% jq .addresses[0]._meta.speed %}',
      obj: '{% jq .addresses[0]._meta %}',
      url: 'http://{% address[1] %}/path',
      urlPort: 'https://{% address[1] %}:8443/',
      name: '{% jq .addresses[1]._meta.name %}',
    }),
  );
  const spec = r.combinations[0].pscheduler?.test.spec;
  assert.deepEqual(spec, {
    flip: false,
    flipText: 'xfalse',
    speed: 10,
    speedText: 'speed=10',
    obj: { speed: 10, name: 'A' },
    url: 'http://[2001:db8::2]/path',
    // Ambiguous without brackets: pSConfig's _bracket_ipv6_url brackets the whole valid literal too.
    urlPort: 'https://[2001:db8::2:8443]/',
    name: 'B "quoted"',
  });
  const msgs = r.notes.map((n) => n.message).join('\n');
  assert.match(msgs, /returned a number: its JSON type is kept/);
  assert.match(msgs, /returned a object/);
  assert.match(msgs, /containing a quote/);
});

test('jq sees the document pSConfig builds: addresses, archives, contexts (per address), hosts, task, test, schedule', async () => {
  const t = one(
    {
      doc: '{% jq {n: (.addresses|length), h: .hosts, ar: [.archives[].archiver], cx: .contexts, task: .task.tools, test: .test.type, s: .schedule.repeat} %}',
    },
    { tools: ['iperf3'], schedule: 's', archives: ['arch'] },
  );
  Object.assign(t, {
    addresses: { ...addresses, a: { ...addresses.a, host: 'ha', contexts: ['c1'] } },
    hosts: { ha: { tags: ['x'], archives: ['harch'] } },
    archives: { arch: { archiver: 'http', data: {} }, harch: { archiver: 'syslog', data: {} } },
    contexts: { c1: { context: 'changenothing', data: {} } },
    schedules: { s: { repeat: 'PT1H' } },
  });
  const r = await expand(t);
  assert.deepEqual(r.combinations[0].pscheduler?.test.spec, {
    doc: {
      n: 2,
      h: [{ tags: ['x'], archives: ['harch'] }, {}],
      ar: ['http', 'syslog'],
      cx: [[{ context: 'changenothing', data: {} }], []],
      task: ['iperf3'],
      test: 'x',
      s: 'PT1H',
    },
  });
});

test('variables are expanded in test, archives, contexts and reference only; schedule and tools stay literal', async () => {
  const t = one(
    { d: '{% address[1] %}' },
    {
      schedule: 's',
      tools: ['{% address[0] %}'],
      archives: ['arch'],
      reference: { who: '{% address[0] %}', psconfig: 'mine' },
    },
  );
  Object.assign(t, {
    addresses: { ...addresses, a: { ...addresses.a, contexts: ['c1'] } },
    archives: {
      arch: {
        archiver: 'http',
        data: { url: 'https://{% scheduled_by_address %}/x', _meta: 1 },
        _meta: { note: 'dropped' },
      },
    },
    contexts: { c1: { context: 'linuxnns', data: { namespace: '{% address[0] %}' }, _meta: {} } },
    // (a variable in `start` would fail the official schema's timestamp pattern: the agent would reject the template)
    schedules: { s: { repeat: 'PT1H', _meta: { x: '{% address[0] %}' } } },
  });
  const r = await expand(t);
  const task = r.combinations[0].pscheduler;
  assert.ok(task);
  assert.deepEqual(task.archives, [{ archiver: 'http', data: { url: 'https://a.example/x', _meta: 1 } }]);
  assert.deepEqual(task.contexts, { contexts: [[{ context: 'linuxnns', data: { namespace: 'a.example' } }], []] });
  assert.deepEqual(task.schedule, { repeat: 'PT1H' });
  assert.deepEqual(task.tools, ['{% address[0] %}']);
  assert.deepEqual(task.reference, {
    who: 'a.example',
    psconfig: {
      'created-by': { 'user-agent': 'psconfig-pscheduler-agent', 'agent-hostname': 'a.example', uuid: '<preview>' },
    },
  });
});

test('failures become per-combination errors in pSConfig wording, never exceptions', async () => {
  const cases: [unknown, RegExp][] = [
    [
      { x: '{% address[2] %}' },
      /^task=task,addresses=a\.example->2001:db8::2,error=Error expanding test specification: Unable to expand variable address\[2\]: Index is too big in group\[2\] template variable$/,
    ],
    [{ x: '{% nonsense %}' }, /Unable to expand variable nonsense: Unrecognized template variable nonsense$/],
    [
      { x: '{% jq .addresses[0].address | tonumber %}' },
      /Unable to expand variable jq \.addresses\[0\]\.address \| tonumber: Error handling jq template variable: .*a\.example/,
    ],
    [{ x: '{% jq .foo | bar( %}' }, /Error handling jq template variable: jq: error: syntax error/],
    [{ x: '{% jq empty %}' }, /jq returned no output/],
  ];
  for (const [spec, re] of cases) {
    const r = await expand(one(spec));
    assert.equal(r.combinations.length, 1);
    assert.match(r.combinations[0].error ?? '', re);
    assert.equal(r.tasks[0].count, 0, 'failed combinations are not counted');
  }
  // A `"` in an address is spliced unescaped (both implementations): the JSON breaks.
  const quoted = one({ x: '{% address[0] %}' });
  Object.assign(quoted, { addresses: { ...addresses, a: { address: 'a"x' } } });
  assert.match(
    (await expand(quoted)).combinations[0].error ?? '',
    /error=Error expanding test specification: Unable to create valid JSON after expanding template, error: /,
  );
  const idx = await expand(one({ x: '{% address[2] %}' }));
  assert.ok(idx.notes.some((n) => /IndexError/.test(n.message)));
});

test('archive, context and reference errors use their own prefixes', async () => {
  // A task naming a missing archive: validate_refs reports it and the agent rejects the whole template
  // (psconfig config.py ~332-336, base_agent.py ~388-402), before any task's archives are expanded.
  const t = one({}, { archives: ['missing'] });
  const missing = await expand(t);
  assert.equal(missing.rejected, true);
  assert.match(missing.error ?? '', /Task task references an archive missing that does not exist\.$/);
  const t2 = one({}, { archives: ['arch'] });
  Object.assign(t2, { archives: { arch: { archiver: 'http', data: { u: '{% address[3] %}' } } } });
  assert.match(
    (await expand(t2)).combinations[0].error ?? '',
    /error=Error expanding archives: Unable to expand variable address\[3\]/,
  );
  const t3 = one({}, { reference: { r: '{% jq error("boom") %}' } });
  assert.match((await expand(t3)).combinations[0].error ?? '', /error=Error expanding reference: .*boom/);
});

test('one jq process for the whole batch of combinations (plus one compile check)', async () => {
  const names = Array.from({ length: 20 }, (_, i) => `h${i}`);
  const r = await expand({
    addresses: Object.fromEntries(names.map((n) => [n, { address: n, _meta: { n } }])),
    groups: { g: { type: 'mesh', addresses: sel(...names) } },
    tests: { t: { type: 'x', spec: { s: '{% jq .addresses[0]._meta.n %}', d: '{% jq .addresses[1].address %}' } } },
    tasks: { t1: { group: 'g', test: 't' }, t2: { group: 'g', test: 't', tools: ['x'] } },
  });
  assert.equal(r.combinations.length, 2 * 20 * 19);
  assert.deepEqual(r.combinations[20].pscheduler?.test.spec, { s: 'h1', d: 'h2' });
  assert.ok(r.jqProcesses <= 2, `${r.jqProcesses} jq processes`);
});

test('priority 0 is dropped as 5.x does (noted); archives [] and schedule {} are always present', async () => {
  const r = await expand(one({ d: 1 }, { priority: 0 }));
  const task = r.combinations[0].pscheduler;
  assert.equal(task?.priority, undefined);
  assert.deepEqual(task?.archives, []);
  assert.deepEqual(task?.schedule, {});
  assert.ok(r.notes.some((n) => /priority is 0/.test(n.message)));
  assert.equal((await expand(one({ d: 1 }, { priority: 5 }))).combinations[0].pscheduler?.priority, 5);
});

test('task archives plus the scheduler host archives, de-duplicated', async () => {
  const t = one({}, { archives: ['a1', 'a2'] });
  Object.assign(t, {
    addresses: { ...addresses, a: { ...addresses.a, host: 'h' } },
    hosts: { h: { archives: ['a2', 'a3', 'a1copy'] } },
    archives: {
      a1: { archiver: 'x', data: { n: 1 } },
      a1copy: { archiver: 'x', data: { n: 1 } },
      a2: { archiver: 'y', data: {} },
      a3: { archiver: 'z', data: {} },
    },
  });
  const r = await expand(t);
  assert.deepEqual(
    r.combinations[0].pscheduler?.archives.map((a) => a.archiver),
    ['x', 'y', 'z'],
  );
});

test('limit bounds the combinations built while counts cover all of them', async () => {
  const names = ['a', 'b', 'c', 'd'];
  const r = await expand(
    {
      addresses: Object.fromEntries(names.map((n) => [n, { address: n }])),
      groups: { g: { type: 'mesh', addresses: sel(...names) } },
      tests: { t: { type: 'rtt', spec: { dest: '{% address[1] %}' } } },
      tasks: { t: { group: 'g', test: 't' } },
    },
    { limit: 5 },
  );
  assert.equal(r.combinations.length, 5);
  assert.equal(r.truncated, true);
  assert.equal(r.tasks[0].count, 12);
});

test('IPv6 URL bracketing agrees with pSConfig 5.x _bracket_ipv6_url (outputs recorded by running it)', () => {
  const facts: [string, string][] = [
    ['"https://2001:db8::2:8443/"', '"https://[2001:db8::2:8443]/"'],
    ['"http://2001:db8::2/path"', '"http://[2001:db8::2]/path"'],
    ['"http://::1/x"', '"http://[::1]/x"'],
    ['"http://fe80::1%eth0/"', '"http://[fe80::1]%eth0/"'],
    ['"http://1.2.3.4/"', '"http://1.2.3.4/"'],
    ['"http://dead:beef::1:80/"', '"http://[dead:beef::1:80]/"'],
    ['"https://cafe.example/"', '"https://cafe.example/"'],
    ['"http://2001:db8:0:0:0:0:0:1/"', '"http://[2001:db8:0:0:0:0:0:1]/"'],
    ['"http://[::1]/"', '"http://[::1]/"'],
  ];
  for (const [input, want] of facts) assert.equal(bracketIpv6Urls(input), want, input);
});

test('without jq, combinations that need it fail with install advice; the others expand; nothing throws', async () => {
  const missing = createJqRunner({ jqPath: '/nonexistent/jq' });
  const t = one({ v: '{% jq .addresses[0].address %}' });
  Object.assign(t, {
    tests: {
      t: { type: 'x', spec: { v: '{% jq .addresses[0].address %}' } },
      plain: { type: 'x', spec: { d: '{% address[1] %}' } },
    },
    tasks: { task: { group: 'g', test: 't' }, plain: { group: 'g', test: 'plain' } },
  });
  const r = await expand(t, { jq: missing });
  assert.match(
    r.combinations[0].error ?? '',
    /Error handling jq template variable: jq not found: .*apt-get install jq/,
  );
  assert.deepEqual(r.combinations[1].pscheduler?.test.spec, { d: '2001:db8::2' });
  assert.equal(missing.processesStarted, 0);
});
