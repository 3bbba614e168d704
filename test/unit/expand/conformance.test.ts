// expected-pairs.json (transcribed from perl-shared's t/client-psconfig-*.t) and every example template.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expandTemplate } from '../../../server/src/template/expand';
import { createJqRunner } from '../../../server/src/template/jq';
import { exampleFiles } from '../../fixtures';

import { examplesDir as examples } from '../../fixtures';
const jq = createJqRunner({ jqPath: process.env.JQ_PATH || '/usr/bin/jq' });

interface Expectation {
  task: string;
  ordered_pairs?: string[][];
  unordered_pairs?: string[][];
  asserts_end: boolean;
  match_addresses?: string[];
}
const expected = JSON.parse(readFileSync(join(examples, 'expected-pairs.json'), 'utf8')) as {
  tests: Record<string, Expectation[]>;
};

// client-psconfig-addressclasses.t sets one requesting-agent address tagged "testbed".
const requestingAgent = { 'requester.perfsonar.net': { address: 'requester.perfsonar.net', tags: ['testbed'] } };

for (const [file, cases] of Object.entries(expected.tests)) {
  const template: unknown = JSON.parse(readFileSync(join(examples, file), 'utf8'));
  for (const c of cases) {
    test(`${file} ${c.task}${c.match_addresses ? ` (agent ${c.match_addresses.join(',')})` : ''}`, async () => {
      const r = await expandTemplate(template, { jq, agentAddresses: c.match_addresses, requestingAgent });
      assert.equal(r.error, undefined);
      const combos = r.combinations.filter((x) => x.task === c.task);
      // pSConfig's pairs: expansion errors fail; pScheduler's refusals do not (perl-shared's templates put
      // placeholders such as "$group::0" in specs, which pScheduler refuses and these tests never sent to it).
      const failed = (x: (typeof combos)[number]): boolean => x.error !== undefined && !x.refused;
      assert.ok(
        combos.every((x) => !failed(x)),
        combos.find(failed)?.error,
      );
      const got = combos.map((x) => x.addressValues);
      if (c.ordered_pairs) {
        if (c.asserts_end) assert.deepEqual(got, c.ordered_pairs);
        else assert.deepEqual(got.slice(0, c.ordered_pairs.length), c.ordered_pairs);
      }
      if (c.unordered_pairs) {
        const key = (p: string[]): string => p.join(' -> ');
        const gotSet = new Set(got.map(key));
        for (const p of c.unordered_pairs) assert.ok(gotSet.has(key(p)), `missing ${key(p)}`);
        if (c.asserts_end) assert.equal(got.length, c.unordered_pairs.length);
        assert.equal(new Set(got.map(key)).size, got.length, 'no duplicates');
      }
    });
  }
}

for (const file of exampleFiles()) {
  test(`example ${file} expands without an exception`, async () => {
    const r = await expandTemplate(JSON.parse(readFileSync(join(examples, file), 'utf8')), { jq });
    assert.ok(Array.isArray(r.combinations));
    for (const c of r.combinations) assert.ok(c.error !== undefined || c.pscheduler !== undefined);
    // A handful of jq runs per template, never one per variable per task.
    assert.ok(r.jqProcesses <= 4, `${r.jqProcesses} jq processes`);
  });
}
