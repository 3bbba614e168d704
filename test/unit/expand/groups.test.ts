// Groups, selectors, excludes, labels, remote-addresses, disabled, no-agent, scheduling, agent matching.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addrs, expand, pairs, sel, template } from './helpers';

test('mesh: every ordered pair, first-index-major; excludes-self host (default) drops same host and same address', async () => {
  const t = template({
    addresses: {
      a: { address: 'a', host: 'H' },
      b: { address: 'b', host: 'h' },
      c: { address: 'c' },
      c2: { address: 'c' },
    },
    hosts: { H: {}, h: {} },
    groups: {
      g: { type: 'mesh', addresses: sel('a', 'b', 'c', 'c2') },
      gAddr: { type: 'mesh', addresses: sel('a', 'b', 'c2'), 'excludes-self': 'address' },
      gNone: { type: 'mesh', addresses: sel('a', 'b'), 'excludes-self': 'disabled' },
    },
  });
  const r = await expand(t);
  // a and b share host H/h (case-insensitive); c and c2 share the address string.
  assert.deepEqual(pairs(r, 't-g'), ['a->c', 'a->c', 'b->c', 'b->c', 'c->a', 'c->b', 'c->a', 'c->b']);
  assert.deepEqual(pairs(r, 't-gAddr'), ['a->b', 'a->c', 'b->a', 'b->c', 'c->a', 'c->b']);
  assert.deepEqual(pairs(r, 't-gNone'), ['a->a', 'a->b', 'b->a', 'b->b']);
});

test('disjoint: A→B then B→A; unidirectional; duplicate selectors once; self pair dropped', async () => {
  const t = template({
    addresses: addrs('a', 'b', 'c'),
    groups: {
      bi: { type: 'disjoint', 'a-addresses': sel('a'), 'b-addresses': sel('a', 'b', 'c', 'b') },
      uni: { type: 'disjoint', 'a-addresses': sel('a', 'b'), 'b-addresses': sel('c'), unidirectional: true },
    },
  });
  const r = await expand(t);
  assert.deepEqual(pairs(r, 't-bi'), ['a->b', 'a->c', 'b->a', 'c->a']);
  assert.deepEqual(pairs(r, 't-uni'), ['a->c', 'b->c']);
});

test('list: one address per task; scheduled-by too big stops the task with pSConfig wording', async () => {
  const t = template({
    addresses: addrs('a', 'b'),
    groups: { l: { type: 'list', addresses: sel('a', 'b') } },
    tasks: { ok: { group: 'l', test: 'one' }, bad: { group: 'l', test: 'one', 'scheduled-by': 1 } },
  });
  const r = await expand(t);
  assert.deepEqual(pairs(r, 'ok'), ['a', 'b']);
  assert.deepEqual(r.combinations[0].pscheduler?.test.spec, { dest: 'a' });
  assert.deepEqual(pairs(r, 'bad'), []);
  assert.equal(
    r.tasks.find((x) => x.task === 'bad')?.error,
    'The scheduled-by property for task bad is too big. It is set to 1 but must not be bigger than 1',
  );
});

test('excludes are directional and compare whole selectors', async () => {
  const t = template({
    addresses: {
      a: { address: 'a', labels: { v4: { address: '10.0.0.1' } } },
      b: { address: 'b' },
      c: { address: 'c' },
    },
    groups: {
      g: {
        type: 'mesh',
        addresses: [{ name: 'a' }, { name: 'b' }, { name: 'c' }, { name: 'a', label: 'v4' }],
        excludes: [{ 'local-address': { name: 'a' }, 'target-addresses': [{ name: 'b' }, { name: 'c' }] }],
      },
    },
  });
  const r = await expand(t);
  const p = pairs(r, 't-g');
  assert.ok(!p.includes('a->b') && !p.includes('a->c'));
  assert.ok(p.includes('b->a') && p.includes('c->a'), 'the reverse direction stays');
  assert.ok(p.includes('10.0.0.1->b'), '{name:a,label:v4} is a different selector from {name:a}');
});

test('labels, default-address-label (sparse), remote-addresses with and without labels', async () => {
  const t = template({
    addresses: {
      a: {
        address: 'a.example',
        labels: { v4: { address: '10.0.0.1' } },
        'remote-addresses': { b: { address: '192.168.1.1', labels: { v4: { address: '172.16.0.1' } } } },
      },
      b: { address: 'b.example', labels: { v4: { address: '10.0.0.2' } } },
      c: { address: 'c.example' },
    },
    groups: {
      plain: { type: 'mesh', addresses: sel('a', 'b') },
      labelled: { type: 'mesh', addresses: [{ name: 'a', label: 'v4' }, { name: 'c' }] },
      dflt: { type: 'mesh', addresses: sel('a', 'b', 'c'), 'default-address-label': 'v4' },
    },
  });
  const r = await expand(t);
  // a's remote entry for b applies whenever b is the other member, in both directions.
  assert.deepEqual(pairs(r, 't-plain'), ['192.168.1.1->b.example', 'b.example->192.168.1.1']);
  assert.deepEqual(pairs(r, 't-labelled'), ['10.0.0.1->c.example', 'c.example->10.0.0.1']);
  // c has no v4 label, so pairs with c are skipped; a→b uses the remote entry's v4 label.
  assert.deepEqual(pairs(r, 't-dflt'), ['172.16.0.1->10.0.0.2', '10.0.0.2->172.16.0.1']);
  const ab = r.combinations.find((c) => c.task === 't-dflt');
  assert.deepEqual(ab?.addresses, ['a', 'b'], 'label/remote entries are named by their address object');
  assert.equal(ab?.agent, 'a.example', 'the agent is the parent address');
});

test('disabled addresses, hosts and inherited disabled skip combinations; task disabled yields nothing', async () => {
  const t = template({
    addresses: {
      a: { address: 'a' },
      b: { address: 'b', disabled: true },
      c: { address: 'c', host: 'hc' },
      d: { address: 'd', disabled: true, labels: { x: { address: 'dx' } } },
    },
    hosts: { hc: { disabled: true } },
    groups: {
      g: { type: 'mesh', addresses: [{ name: 'a' }, { name: 'b' }, { name: 'c' }, { name: 'd', label: 'x' }] },
    },
    tasks: { on: { group: 'g', test: 'pair' }, off: { group: 'g', test: 'pair', disabled: true } },
  });
  const r = await expand(t);
  assert.deepEqual(pairs(r), []);
  const off = r.tasks.find((x) => x.task === 'off');
  assert.equal(off?.disabled, true);
  assert.equal(off?.count, 0);
});

test('no-agent: the first member with an agent schedules, flip is true, localhost becomes its address', async () => {
  // A standalone "{% localhost %}" is the scheduled-by address when flipped, and the bare word localhost otherwise
  // (psconfig parsers/template.py _parse_localhost ~107-113): that task JSON does not parse and the agent skips it
  // (parsers/base_template.py expand ~60-66).
  const t = template({
    addresses: {
      a: { address: 'a' },
      n: { address: 'n', 'no-agent': true },
      h: { address: 'h', host: 'na' },
      l: { address: 'l', 'no-agent': true, labels: { x: { address: 'lx' } } },
    },
    hosts: { na: { 'no-agent': true } },
    tests: {
      flip: {
        type: 'x',
        spec: { flip: '{% flip %}', host: '{% localhost %}', by: '{% scheduled_by_address %}', text: 'f={% flip %}' },
      },
    },
    groups: {
      g: { type: 'mesh', addresses: [{ name: 'a' }, { name: 'n' }, { name: 'h' }, { name: 'l', label: 'x' }] },
    },
    tasks: { t: { group: 'g', test: 'flip' } },
  });
  const r = await expand(t);
  // n, h and l have no agent: pairs among them have no scheduler and are skipped.
  assert.deepEqual(pairs(r), ['!a->n', '!a->h', '!a->lx', 'n->a', 'h->a', 'lx->a']);
  const flipped = r.combinations.find((c) => c.addressValues[0] === 'n');
  assert.equal(flipped?.flip, true);
  assert.equal(flipped?.agent, 'a');
  assert.deepEqual(flipped?.pscheduler?.test.spec, { flip: true, host: 'a', by: 'a', text: 'f=true' });
  const straight = r.combinations[0];
  assert.equal(straight.pscheduler, undefined);
  assert.match(straight.error ?? '', /Unable to create valid JSON after expanding template/);
});

test('agent matching: case-insensitive exact, by the parent address for labels; scheduled_by_address is the label address', async () => {
  const t = template({
    addresses: { a: { address: 'A.example', labels: { v4: { address: '10.0.0.1' } } }, b: { address: 'b.example' } },
    tests: { s: { type: 'x', spec: { by: '{% scheduled_by_address %}' } } },
    groups: { g: { type: 'mesh', addresses: [{ name: 'a', label: 'v4' }, { name: 'b' }] } },
    tasks: { t: { group: 'g', test: 's' } },
  });
  const r = await expand(t, { agentAddresses: ['a.EXAMPLE'] });
  assert.deepEqual(pairs(r), ['10.0.0.1->b.example']);
  assert.deepEqual(r.combinations[0].pscheduler?.test.spec, { by: '10.0.0.1' });
  assert.deepEqual(r.agents, ['A.example']);
  assert.deepEqual(
    pairs(await expand(t, { agentAddresses: ['10.0.0.1'] })),
    [],
    'the label address is not a match address',
  );
  const all = await expand(t);
  assert.deepEqual(all.agents, ['A.example', 'b.example']);
  assert.deepEqual(all.tasks[0].agents, ['A.example', 'b.example']);
});

test('selector "disabled": true is skipped as the docs say, with a note that the code ignores it', async () => {
  const t = template({
    addresses: addrs('a', 'b', 'c'),
    groups: { g: { type: 'mesh', addresses: [{ name: 'a' }, { name: 'b', disabled: true }, { name: 'c' }] } },
  });
  const r = await expand(t);
  assert.deepEqual(pairs(r), ['a->c', 'c->a']);
  assert.ok(r.notes.some((n) => /neither pSConfig implementation reads/.test(n.message)));
});

test("a selector naming a missing address: pSConfig's agent rejects the whole template", async () => {
  // psconfig client/psconfig/config.py validate_refs ~295-302 (_ref_check_addr_select), then base_agent.py
  // ~388-402: a reference error means the agent creates nothing from the template.
  const r = await expand(
    template({ addresses: addrs('a', 'b'), groups: { g: { type: 'mesh', addresses: sel('a', 'b', 'zz') } } }),
  );
  assert.deepEqual(pairs(r), []);
  assert.equal(r.rejected, true);
  assert.match(r.error ?? '', /Group g references an address object zz that does not exist\.$/);
});

test('# comment keys are stripped before expansion (pSConfig 5.2)', async () => {
  const t = template({
    addresses: { '#c': 'x', a: { address: 'a', '#why': 1 }, b: { address: 'b' } },
    groups: { g: { type: 'mesh', addresses: sel('a', 'b'), '#n': 'x' } },
  });
  assert.deepEqual(pairs(await expand(t)), ['a->b', 'b->a']);
});
