// psconfig/compareHosts through a real server (dist/server.js and its worker), on what two real pScheduler instances
// answered (test/fixtures/pscheduler-hosts/reads.json, recorded by test/pscheduler/hosts-live.ts): the server's
// comparison equals the engine's in-process one (a second path: expandText + compareHosts, as the CLI runs them);
// without reads it answers the agents only; afterwards the task lenses and hovers say how each task went on its hosts,
// and a request with reads of the wrong shape is refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CompareHostsResult, HostRead } from '../../common/protocol';
import { ServerCommands } from '../../common/protocol';
import { expandText } from '../../server/src/template/expand/from-text';
import { compareHosts } from '../../server/src/template/hosts';
import { pschedulerHostsDir } from '../fixtures';
import { LspClient, positionOf, serverForSuite } from './lsp-client';

let client: LspClient;
serverForSuite((c) => (client = c), { lensRefresh: true });

const text = readFileSync(join(pschedulerHostsDir, 'template-new.json'), 'utf8');
const reads = JSON.parse(readFileSync(join(pschedulerHostsDir, 'reads.json'), 'utf8')) as HostRead[];
const uri = 'file:///hosts/template-new.json';

interface Lens {
  command?: { title: string; command: string; arguments?: { task?: string }[] };
}

test('without reads: the agents to read; with them: the engine’s comparison, kept for lenses and hovers', async () => {
  await client.open(uri, text);
  const plan = await client.request<CompareHostsResult>('psconfig/compareHosts', { uri });
  assert.deepEqual(plan.agents, ['127.0.0.40', '127.0.0.41']);
  assert.equal(plan.result, undefined);
  const lensesBefore = await client.request<Lens[]>('textDocument/codeLens', { textDocument: { uri } });
  assert.ok(!lensesBefore.some((l) => l.command?.command === ServerCommands.showHosts), 'no hosts lens before a read');

  const refreshes = client.lensRefreshes;
  const r = await client.request<CompareHostsResult>('psconfig/compareHosts', { uri, reads });
  const expansion = await expandText({ uri, version: null, text });
  const want = compareHosts({
    combinations: expansion.combinations,
    agents: expansion.agents,
    reads,
    template: uri,
    since: 'PT1H',
  });
  assert.deepEqual(r.result, want);
  assert.equal(r.error, undefined);

  // The lenses: one per task the hosts have an entry for, naming what was found (counted here from the result).
  // The server asked for lenses again before answering (messages arrive in order on the stream).
  assert.ok(client.lensRefreshes > refreshes, 'workspace/codeLens/refresh was sent');
  const lenses = await client.request<Lens[]>('textDocument/codeLens', { textDocument: { uri } });
  const hostsLenses = lenses.filter((l) => l.command?.command === ServerCommands.showHosts);
  const tasks = new Set(want.hosts.flatMap((h) => h.entries.map((e) => e.task).filter((t) => t !== undefined)));
  assert.deepEqual(new Set(hostsLenses.map((l) => l.command!.arguments![0].task)), tasks);
  const lonely = hostsLenses.find((l) => l.command!.arguments![0].task === 'lonely')!;
  assert.match(lonely.command!.title, /^on its hosts: 1 missing · last PT1H: 0 finished$/);

  const hover = await client.request<{ contents: { value: string } } | null>('textDocument/hover', {
    textDocument: { uri },
    position: positionOf(text, '"lonely"', 2),
  });
  assert.match(hover?.contents.value ?? '', /\*\*On its hosts\*\*/);
  assert.match(hover?.contents.value ?? '', /127\\\.0\\\.0\\\.41: missing/);
});

test('reads that are not HostRead objects are refused with a message', async () => {
  await client.open(uri, text);
  await assert.rejects(
    client.request('psconfig/compareHosts', { uri, reads: [{ host: 1 }] }),
    /reads must be HostRead objects/,
  );
});
