// template/hosts/ on what a real pScheduler answered: test/fixtures/pscheduler-hosts/reads.json, recorded by
// test/pscheduler/hosts-live.ts (PSCHEDULER_HOSTS_RECORD=1) from two instances holding tasks posted as pSConfig's
// agent posts them (that file says which). The expectations are what was posted, not the comparison's output.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pschedulerHostsDir } from '../../fixtures';
import { expandText } from '../../../server/src/template/expand/from-text';
import { compareHosts } from '../../../server/src/template/hosts';
import type { HostRead, HostsResult } from '../../../common/protocol';

const A = '127.0.0.40';
const B = '127.0.0.41';

async function compared(): Promise<HostsResult> {
  const text = readFileSync(join(pschedulerHostsDir, 'template-new.json'), 'utf8');
  const expansion = await expandText({ uri: 'template-new.json', version: null, text });
  assert.equal(expansion.error, undefined);
  const reads = JSON.parse(readFileSync(join(pschedulerHostsDir, 'reads.json'), 'utf8')) as HostRead[];
  return compareHosts({ combinations: expansion.combinations, agents: expansion.agents, reads, since: 'PT1H' });
}

const verdicts = (r: HostsResult, host: string) =>
  r.hosts
    .find((h) => h.host === host)!
    .entries.map(
      (e) => `${e.verdict}${e.lifetime && e.lifetime !== 'current' ? `/${e.lifetime}` : ''} ${e.task ?? e.testType}`,
    );

test("127.0.0.40: archived present (renewing), commented different, the old template's task extra", async () => {
  const r = await compared();
  assert.deepEqual(verdicts(r, A), ['present/renewing archived', 'different commented', 'extra idle']);
  const host = r.hosts.find((h) => h.host === A)!;
  const archived = host.entries[0];
  assert.equal(archived.hrefs?.length, 2);
  assert.ok(archived.runs!.archivingsSucceeded >= 1);
  assert.ok(archived.runs!.archivingsFailed >= 1);
  const failed = archived.runs!.problems.filter((p) => p.kind === 'archiving-failed');
  assert.ok(failed.every((p) => p.archiver === 'bitbucket' && /this transform fails on purpose/.test(p.reason ?? '')));
  assert.deepEqual(host.entries[1].parts, [
    { part: 'test.spec.starting-comment', old: 'old comment', new: 'new comment' },
  ]);
  assert.equal(host.entries[2].createdBy?.['user-agent'], 'psconfig-pscheduler-agent');
  // pScheduler's own `failed` runs: the tool outran its run time ("Process took too long to run." in `errors`).
  for (const p of host.entries.flatMap((e) => e.runs?.problems ?? []).filter((x) => x.kind === 'failed'))
    assert.ok(p.reason, "a failed run carries pScheduler's reason");
});

test('127.0.0.41: lonely missing, busy-1 and busy-2 present with non-starters and their reason', async () => {
  const r = await compared();
  assert.deepEqual(verdicts(r, B), ['missing lonely', 'present busy-1', 'present busy-2']);
  const host = r.hosts.find((h) => h.host === B)!;
  const nonStarters = host.entries.flatMap((e) => e.runs?.problems ?? []).filter((p) => p.kind === 'nonstart');
  assert.ok(nonStarters.length >= 1);
  for (const p of nonStarters) assert.equal(p.reason, 'No times available for this run.');
  assert.equal(r.problems, true);
});
