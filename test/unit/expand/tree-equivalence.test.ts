// The structural fill (template-tree.ts) must give exactly what pSConfig's string substitution gives.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTreeFill } from '../../../server/src/template/expand/template-vars';
import { expand, sel } from './helpers';
import { exampleFiles } from '../../fixtures';

import { examplesDir as examples } from '../../fixtures';

async function both(t: unknown, agentAddresses?: string[]): Promise<[string, string]> {
  setTreeFill(false);
  try {
    const slow = JSON.stringify(await expand(t, { agentAddresses }), (k, v: unknown) =>
      k === 'elapsedMs' || k === 'jqProcesses' ? 0 : v,
    );
    setTreeFill(true);
    const fast = JSON.stringify(await expand(t, { agentAddresses }), (k, v: unknown) =>
      k === 'elapsedMs' || k === 'jqProcesses' ? 0 : v,
    );
    return [fast, slow];
  } finally {
    setTreeFill(true);
  }
}

test('every example template: identical output with and without the structural fill', async () => {
  for (const f of exampleFiles()) {
    const [fast, slow] = await both(JSON.parse(readFileSync(join(examples, f), 'utf8')));
    assert.equal(fast, slow, f);
  }
});

test('tricky values: quotes, backslashes, URLs, IPv6, jq objects, variables in keys, matches across strings', async () => {
  const t = {
    addresses: {
      a: {
        address: '2001:db8::1',
        _meta: { name: 'q"uote', path: 'C:\\dir', url: 'http://::1/x', obj: { u: 'https://2001:db8::5/' }, n: 3 },
      },
      b: { address: 'b.example', 'pscheduler-address': 'fe80::1' },
      c: { address: 'c"x' },
    },
    groups: { g: { type: 'mesh', addresses: sel('a', 'b') }, h: { type: 'mesh', addresses: sel('a', 'c') } },
    tests: {
      t: {
        type: 'x',
        spec: {
          url: 'http://{% address[0] %}:8080/',
          node: '{% pscheduler_address[1] %}',
          name: '{% jq .addresses[0]._meta.name %}',
          nameText: 'n={% jq .addresses[0]._meta.name %}',
          path: '{% jq .addresses[0]._meta.path %}',
          murl: '{% jq .addresses[0]._meta.url %}',
          obj: '{% jq .addresses[0]._meta.obj %}',
          objText: 'o={% jq .addresses[0]._meta.obj %}',
          num: '{% jq .addresses[0]._meta.n %}',
          '{% address[1] %}': 'key',
          split: ['{% address[0]', 'x %}'],
          lit: 'https://2001:db8::9/static',
          flip: ['{% flip %}', 'f{% flip %}'],
          nl: 'line\n{% address[1] %}\t"q"',
        },
      },
    },
    tasks: { g: { group: 'g', test: 't' }, h: { group: 'h', test: 't' } },
  };
  const [fast, slow] = await both(t);
  assert.equal(fast, slow);
  const noKeys = JSON.parse(JSON.stringify(t)) as { tests: { t: { spec: Record<string, unknown> } } };
  delete noKeys.tests.t.spec['{% address[1] %}'];
  delete noKeys.tests.t.spec.split;
  const [fast2, slow2] = await both(noKeys);
  assert.equal(fast2, slow2);
});
