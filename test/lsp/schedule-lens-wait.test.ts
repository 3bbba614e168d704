// The schedule lens's bounded wait (server/src/lsp/main/lens-handlers.ts): VS Code keeps drawing the old links of a
// line's lenses (their commands already released) until every lens of its resolve round is back, so a schedule lens
// does not wait for a long simulation. With the wait set to 1 ms, the lens says "simulating…"; once the simulation is done the
// server asks the client for lenses again (workspace/codeLens/refresh), and the new round has the figures.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CodeLens } from 'vscode-languageserver-protocol';
import { ServerCommands } from '../../common/protocol';
import { LspClient } from './lsp-client';

/** Ten hosts, throughput every minute: 90 pScheduler tasks, hundreds of thousands of tries to simulate. */
function mesh(n: number): string {
  const addresses: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) addresses[`h${i}`] = { address: `h${i}.example.net` };
  return JSON.stringify(
    {
      addresses,
      groups: { mesh: { type: 'mesh', addresses: Object.keys(addresses).map((name) => ({ name })) } },
      tests: { bw: { type: 'throughput', spec: { source: '{% address[0] %}', dest: '{% address[1] %}' } } },
      schedules: { often: { repeat: 'PT1M', slip: 'PT1M' } },
      tasks: { busy: { group: 'mesh', test: 'bw', schedule: 'often' } },
    },
    null,
    2,
  );
}

async function scheduleLens(client: LspClient, uri: string): Promise<CodeLens> {
  const lenses = await client.request<CodeLens[]>('textDocument/codeLens', { textDocument: { uri } });
  const resolved = await Promise.all(
    lenses.map((l) => (l.command ? Promise.resolve(l) : client.request<CodeLens>('codeLens/resolve', l))),
  );
  const own = resolved.filter((l) => l.command?.command === ServerCommands.showSchedule);
  assert.equal(own.length, 1);
  return own[0];
}

test('a schedule lens answers "simulating…" after its wait, and the server asks for the lenses again once simulated', async () => {
  const client = await LspClient.start({ lensRefresh: true, env: { PSCONFIG_SCHEDULE_LENS_WAIT_MS: '1' } });
  try {
    const uri = 'file:///tmp/psconfig-lens-wait/mesh.json';
    await client.open(uri, mesh(10));
    const first = await scheduleLens(client, uri);
    assert.equal(first.command!.title, 'schedule: simulating…');
    assert.deepEqual(first.command!.arguments, [{ uri, task: 'busy' }], 'the timeline still opens from it');
    await client.until(() => client.lensRefreshes >= 1, 'workspace/codeLens/refresh');
    const again = await scheduleLens(client, uri);
    assert.match(again.command!.title, /^schedule: [\d,.]+ of 129,6\d\d runs a day fit \(\d+ of 90 tasks lose runs\)$/);
    assert.deepEqual(client.loggedErrors(), []);
  } finally {
    await client.stop();
  }
});

test('a client without refresh support gets "simulating…" too, and no request it cannot take', async () => {
  const client = await LspClient.start({ env: { PSCONFIG_SCHEDULE_LENS_WAIT_MS: '1' } });
  try {
    const uri = 'file:///tmp/psconfig-lens-wait/plain.json';
    await client.open(uri, mesh(10));
    assert.equal((await scheduleLens(client, uri)).command!.title, 'schedule: simulating…');
    // The simulation ends; its figures come with the client's next request for lenses (an edit, a scroll).
    const simulated = await client.request<{ error?: string }>('psconfig/schedule', { uri, noTasks: true });
    assert.equal(simulated.error, undefined);
    assert.match((await scheduleLens(client, uri)).command!.title, /^schedule: [\d,.]+ of 129,6\d\d runs a day fit/);
    assert.equal(client.lensRefreshes, 0);
  } finally {
    await client.stop();
  }
});
