// jq started by the CLI or the language server never outlives them, stops at its memory limit with a clear
// message, and an edit kills the jq runs of the previous version. Linux (/proc) for the process checks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ExpandTasksResult } from '../../common/protocol';
import { descendants, haveProc, running, waitFor } from '../processes';
import { LspClient, repoRoot } from './lsp-client';

const cliJs = join(repoRoot, 'dist', 'cli.js');
const JQ = process.env.JQ_PATH ?? '/usr/bin/jq';
const ENDLESS = 'last(range(1e13)) | tostring';
const MEMORY_HOG = '[range(1e9)] | length | tostring';

/** A two-address mesh whose test spec holds one jq variable. */
function templateWithJq(expression: string): string {
  return JSON.stringify(
    {
      addresses: { a: { address: 'a.example.net' }, b: { address: 'b.example.net' } },
      groups: { g: { type: 'mesh', addresses: [{ name: 'a' }, { name: 'b' }] } },
      tests: { t: { type: 'latencybg', spec: { source: '{% address[0] %}', dest: `{% jq ${expression} %}` } } },
      tasks: { task: { group: 'g', test: 't' } },
    },
    null,
    2,
  );
}

function templateFile(expression: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'jq-processes-'));
  const file = join(dir, 'hostile.psconfig.json');
  writeFileSync(file, templateWithJq(expression));
  return file;
}

const jqUnder = (pid: number): number[] =>
  descendants(pid)
    .filter((p) => p.comm === 'jq')
    .map((p) => p.pid);

test('no jq process is left after SIGKILL of the CLI', { skip: !haveProc }, async () => {
  const cli = spawn(process.execPath, [cliJs, 'expand', templateFile(ENDLESS), '--jq', JQ], { stdio: 'ignore' });
  assert.ok(await waitFor(() => jqUnder(cli.pid as number).length > 0, 10_000), 'jq did not start');
  const pids = jqUnder(cli.pid as number);
  cli.kill('SIGKILL');
  assert.ok(await waitFor(() => pids.every((p) => !running(p)), 3000), 'jq outlived the killed CLI');
});

test('no jq process is left after SIGKILL of the language server', { skip: !haveProc }, async () => {
  const client = await LspClient.start();
  const uri = 'file:///tmp/hostile-kill.psconfig.json';
  await client.open(uri, templateWithJq(ENDLESS));
  void client.request('psconfig/expandTasks', { uri }).catch(() => undefined);
  const server = client.child.pid as number;
  assert.ok(await waitFor(() => jqUnder(server).length > 0, 10_000), 'jq did not start');
  const pids = jqUnder(server);
  client.child.kill('SIGKILL');
  assert.ok(await waitFor(() => pids.every((p) => !running(p)), 3000), 'jq outlived the killed server');
  assert.ok(await waitFor(() => !client.alive, 3000));
  await client.stop();
});

test(
  'the CLI reports a jq run stopped at its memory limit, per combination',
  { skip: process.platform === 'win32' },
  () => {
    const started = Date.now();
    const r = spawnSync(
      process.execPath,
      [cliJs, 'expand', templateFile(MEMORY_HOG), '--jq', JQ, '--jq-memory-mb', '64'],
      {
        encoding: 'utf8',
      },
    );
    assert.equal(r.status, 1, r.stderr);
    const out = JSON.parse(r.stdout) as { error?: string }[];
    assert.equal(out.length, 2);
    for (const c of out) assert.match(c.error ?? '', /jq stopped: it needed more than its memory limit of 64 MB/);
    assert.ok(Date.now() - started < 30_000);
  },
);

test(
  'the language server reports the memory limit in the expansion (setting jq.memoryLimitMb)',
  { skip: process.platform === 'win32' },
  async () => {
    const client = await LspClient.start({ settings: { jq: { path: JQ, memoryLimitMb: 64 } } });
    try {
      const uri = 'file:///tmp/hostile-memory.psconfig.json';
      await client.open(uri, templateWithJq(MEMORY_HOG));
      const r = await client.request<ExpandTasksResult>('psconfig/expandTasks', { uri });
      assert.equal(r.combinations.length, 2);
      for (const c of r.combinations) assert.match(c.error ?? '', /memory limit of 64 MB.*psconfig\.jq\.memoryLimitMb/);
    } finally {
      await client.stop();
    }
  },
);

test('an edit kills the jq runs of the previous version', { skip: !haveProc }, async () => {
  const client = await LspClient.start();
  try {
    const uri = pathToFileURL(join(tmpdir(), 'hostile-edit.psconfig.json')).toString();
    await client.open(uri, templateWithJq(ENDLESS));
    const pending = client.request<ExpandTasksResult>('psconfig/expandTasks', { uri });
    const server = client.child.pid as number;
    assert.ok(await waitFor(() => jqUnder(server).length > 0, 10_000), 'jq did not start');
    const pids = jqUnder(server);
    const edited = Date.now();
    await client.change(uri, [{ text: templateWithJq('"quick"') }]);
    // The old run's limit is 10 s; it must die long before.
    assert.ok(await waitFor(() => pids.every((p) => !running(p)), 3000), 'the old version kept its jq running');
    const r = await pending;
    assert.equal(r.version, client.version(uri));
    assert.deepEqual(
      r.combinations.map((c) => (c.pscheduler?.test.spec as { dest?: string } | undefined)?.dest),
      ['quick', 'quick'],
    );
    assert.ok(Date.now() - edited < 8000);
  } finally {
    await client.stop();
  }
});
