// A broken template never makes the engine throw: deterministic random mutations of the real examples.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { countCombinations } from '../../../server/src/template/expand';
import { expandText } from '../../../server/src/template/expand/from-text';
import { expand } from './helpers';
import { exampleFiles } from '../../fixtures';

import { examplesDir as examples } from '../../fixtures';

/** Small deterministic PRNG (mulberry32) so a failure can be replayed. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const junk: unknown[] = [
  null,
  0,
  -1,
  7,
  true,
  '',
  'x',
  '{% address[9] %}',
  '{% jq .nope[ %}',
  [],
  {},
  [{}],
  { name: 'missing' },
  { class: 'nope' },
  'mesh',
  'list',
];

function mutate(v: unknown, r: () => number): unknown {
  if (Array.isArray(v)) return v.map((x) => (r() < 0.08 ? junk[Math.floor(r() * junk.length)] : mutate(x, r)));
  if (typeof v === 'object' && v !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      const p = r();
      if (p < 0.04) continue; // drop the key
      out[k] = p < 0.1 ? junk[Math.floor(r() * junk.length)] : mutate(x, r);
    }
    return out;
  }
  return v;
}

test('mutated example templates expand (and count) without throwing', async () => {
  const r = rng(20261122);
  const files = exampleFiles();
  let runs = 0;
  for (const f of files) {
    const base: unknown = JSON.parse(readFileSync(join(examples, f), 'utf8'));
    for (let i = 0; i < 6; i++) {
      const t = mutate(base, r);
      const res = await expand(t, { agentAddresses: r() < 0.3 ? ['host-a.perfsonar.net'] : undefined });
      assert.ok(Array.isArray(res.combinations), f);
      for (const c of res.combinations) assert.ok(c.error !== undefined || c.pscheduler !== undefined, f);
      assert.ok(Array.isArray(countCombinations(t).tasks));
      runs++;
    }
  }
  assert.ok(runs > 100);
});

test('non-object and broken inputs are values, not exceptions', async () => {
  for (const t of [
    null,
    3,
    'text',
    [],
    { tasks: 5 },
    { tasks: { t: null } },
    { tasks: { t: { group: 'g', test: 't' } }, groups: { g: { type: 'mesh', addresses: 'x' } }, tests: { t: 1 } },
  ]) {
    const r = await expand(t);
    assert.ok(r.error !== undefined || Array.isArray(r.combinations));
  }
  const bad = await expandText({ uri: 'file:///x.json', version: 1, text: '{"tasks": ' });
  assert.match(bad.error ?? '', /^JSON syntax error at line 1, column \d+/);
  assert.equal((await expand(null)).error, 'The template is not a JSON object.');
});

test('a long text of variables filled for every combination stops at the fill budget with a clear error', async () => {
  // The fuzzer's case: a 160 KB archive key of `{% address[0] %}` repeated, in a 20-address mesh (380
  // combinations, about 300 M characters filled: more than a string or JSON.stringify can hold).
  const addresses: Record<string, { address: string }> = {};
  for (let i = 0; i < 20; i++) addresses[`h${i}`] = { address: `host-${i}.example.net` };
  const template = {
    addresses,
    groups: { g: { type: 'mesh', addresses: Object.keys(addresses).map((name) => ({ name })) } },
    tests: { t: { type: 'latencybg', spec: { source: '{% address[0] %}', dest: '{% address[1] %}' } } },
    archives: {
      a: { archiver: 'http', data: { _url: 'https://ma.example.net/', x: '{% address[0] %}'.repeat(10_000) } },
    },
    tasks: { task: { group: 'g', test: 't', archives: ['a'] } },
  };
  const r = await expandText({ uri: 'file:///budget.json', version: 1, text: JSON.stringify(template) });
  assert.equal(r.combinations.length, 380);
  const filled = r.combinations.filter((c) => c.pscheduler);
  const stopped = r.combinations.filter((c) => c.error?.includes('expand to more than 64 M characters'));
  // The budget ran out part way: the first combinations are filled, every later one says why it is not.
  assert.ok(filled.length > 100 && filled.length < 380, `${filled.length} filled`);
  assert.equal(filled.length + stopped.length, 380);
  assert.ok(r.combinations.slice(0, filled.length).every((c) => c.pscheduler));
});
