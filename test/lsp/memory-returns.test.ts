// Memory comes back (issue 21): after large and hostile documents are closed, the language server's resident
// memory returns to within 1.5× of what the idle server held. A real server process (`node dist/server.js --stdio`);
// its resident size is read from /proc/PID/status, which is what an editor user sees (the live heaps can be small
// while the process stays large). No timing: the test waits for the server's own log line saying it retired its
// idle worker (PSCONFIG_WORKER_IDLE_RETIRE_MS shortens the idle time from 30 s), then reads the figures.
import assert from 'node:assert/strict';
import test from 'node:test';
import { exampleText } from '../fixtures';
import { meshTemplate, unusedInventory } from '../generated-templates';
import { haveProc, residentMb } from '../processes';
import { LspClient } from './lsp-client';

const RETIRED = /background worker retired/;
const LIMIT_MS = 300_000; // waits, not thresholds: minutes on a loaded 2-core machine

/**
 * A template built to make its expansion large: the bench mesh with, in its archive, a long header every one of its
 * n·(n−1) tasks carries (`headerKb` of it in each task's JSON), as the fuzzer's hostile inputs do.
 */
function repeatedHeaderMesh(n: number, headerKb: number): string {
  const template = meshTemplate(n) as { archives: { central: { data: { _headers: Record<string, string> } } } };
  template.archives.central.data._headers['x-note'] = 'n'.repeat(headerKb * 1024);
  return JSON.stringify(template);
}

/** The server logs a line matching `pattern` (after the first `from` lines); the test's timeout bounds the wait. */
function waitForLog(client: LspClient, pattern: RegExp, from: number): Promise<void> {
  return client.until(() => client.logs.slice(from).some((l) => pattern.test(l.message)), `log line ${pattern}`);
}

test(
  'resident memory returns to within 1.5x of the idle server once large and hostile documents are closed',
  { skip: !haveProc && 'needs /proc', timeout: 2 * LIMIT_MS },
  async (t) => {
    const client = await LspClient.start({
      settings: { jq: { path: process.env.JQ_PATH || '/usr/bin/jq' } },
      env: { PSCONFIG_WORKER_IDLE_RETIRE_MS: '500' },
    });
    try {
      const pid = client.child.pid as number;
      // The idle server: one small template open, checked and expanded (the worker has run every kind of job).
      const small = 'file:///tmp/psconfig-memory/small.psconfig.json';
      await client.open(small, exampleText('perl-shared--client-psconfig-mesh.json'));
      await client.request('psconfig/expandTasks', { uri: small });
      const idle = residentMb(pid);

      // A 6 MB inventory (90,000 addresses, each a hint; the worker's checks and the main thread's parse for
      // navigation) and a mesh whose 3,540 tasks each carry a 24 KB header (85 MB of task JSON).
      const inventory = 'file:///tmp/psconfig-memory/inventory.psconfig.json';
      const hostile = 'file:///tmp/psconfig-memory/hostile.psconfig.json';
      await client.open(inventory, unusedInventory(6_000_000, 40).text, 'psconfig', LIMIT_MS);
      await client.request('textDocument/documentSymbol', { textDocument: { uri: inventory } });
      await client.request('psconfig/expandTasks', { uri: inventory });
      await client.open(hostile, repeatedHeaderMesh(60, 24), 'psconfig', LIMIT_MS);
      const expanded = await client.request<{ combinations: unknown[]; total?: number }>('psconfig/expandTasks', {
        uri: hostile,
        limit: 100,
      });
      assert.ok(expanded.combinations.length > 0, 'the hostile mesh expands');
      const loaded = residentMb(pid);

      const logged = client.logs.length;
      client.close(inventory);
      client.close(hostile);
      await waitForLog(client, RETIRED, logged);
      const after = residentMb(pid);
      t.diagnostic(
        `resident MB: idle ${idle.rss.toFixed(0)}, with the documents ${loaded.rss.toFixed(0)} (peak ${after.hwm.toFixed(0)}), after closing them ${after.rss.toFixed(0)} (${(after.rss / idle.rss).toFixed(2)}x idle)`,
      );
      // The documents did make the process grow (otherwise this test would show nothing) …
      assert.ok(after.hwm > 2 * idle.rss, `peak ${after.hwm} MB is not over twice the idle ${idle.rss} MB`);
      // … and it gave the memory back.
      assert.ok(
        after.rss <= 1.5 * idle.rss,
        `resident ${after.rss.toFixed(0)} MB after closing, over 1.5x the idle server's ${idle.rss.toFixed(0)} MB`,
      );

      // The open template is still served: its next job starts a new worker.
      const again = await client.request<{ combinations: unknown[] }>('psconfig/expandTasks', { uri: small });
      assert.ok(again.combinations.length > 0);
      assert.deepEqual(client.loggedErrors(), []);
    } finally {
      await client.stop();
    }
  },
);
