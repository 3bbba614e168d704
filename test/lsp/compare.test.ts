// psconfig/compareTasks and psconfig/compareTaskJson through a real server (dist/server.js, its worker): an open
// template compared with another version's text gives the same diff as the engine in-process, part values left out;
// each side of a task reads back; a file not open is read from disk; a restricted workspace runs no jq.
import { test } from 'node:test';
import type { TemplateFixture } from '../fixtures';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CompareTaskJsonResult, CompareTasksResult } from '../../common/protocol';
import { commandLineScope, policyFor } from '../../server/src/template/includes/scope';
import { compareTemplates } from '../../server/src/template/task-diff';
import { exampleText, LspClient, serverForSuite } from './lsp-client';

let client: LspClient;
serverForSuite((c) => (client = c), { env: { JQ_PATH: process.env.JQ_PATH || '/usr/bin/jq' } });

type Obj = TemplateFixture;
const old = (): Obj => JSON.parse(exampleText('qa--testbed-nightly-psconfig.json')) as Obj;
function edited(): Obj {
  const t = old();
  t.tests['iperf3 TCP Test Between Testbeds'].spec.duration = 'PT30S';
  t.groups['Ping Between Testbeds'].addresses.pop();
  return t;
}

test('compareTasks: the engine’s diff of the open document against a base text, part values left out', async () => {
  const uri = 'file:///compare/nightly.psconfig.json';
  const base = JSON.stringify(old(), null, 2);
  const text = JSON.stringify(edited(), null, 2);
  await client.open(uri, text);
  const r = await client.request<CompareTasksResult>('psconfig/compareTasks', {
    uri,
    base: { text: base, source: 'HEAD' },
  });
  assert.equal(r.error, undefined);
  const includes = await policyFor(commandLineScope(undefined, false));
  const want = await compareTemplates(
    { text: base, source: 'HEAD', uri: 'test:old', includes },
    { text, source: uri, uri, includes },
    { jq: { path: process.env.JQ_PATH || '/usr/bin/jq' } },
  );
  assert.ok(want.summary.removed > 0 && want.summary.changed > 0);
  assert.deepEqual(r.diff!.summary, want.summary);
  assert.deepEqual(r.diff!.old, { ...want.old, source: 'HEAD' });
  assert.deepEqual(
    r.diff!.agents,
    want.agents.map((a) => ({
      ...a,
      changed: a.changed.map((c) => ({ ...c, parts: c.parts.map((p) => ({ part: p.part })) })),
    })),
  );
  assert.deepEqual(r.diff!.newDiagnostics, want.newDiagnostics);
  // Each host's load before and after, as the CLI's diff computes it (the Task Changes tree shows them).
  assert.ok(want.hosts?.length);
  assert.deepEqual(r.diff!.hosts, want.hosts);

  // Both sides of a changed task, one side of a removed one.
  const agent = r.diff!.agents.find((a) => a.changed.length && a.removed.length)!;
  const changed = agent.changed[0];
  const side = (s: 'old' | 'new', e: { task: string; addresses: string[] }) =>
    client.request<CompareTaskJsonResult>('psconfig/compareTaskJson', {
      uri,
      id: r.id,
      side: s,
      agent: agent.agent,
      task: e.task,
      addresses: e.addresses,
    });
  const [before, after] = [await side('old', changed), await side('new', changed)];
  assert.equal(before.combination?.pscheduler?.test.spec.duration, 'PT20S');
  assert.equal(after.combination?.pscheduler?.test.spec.duration, 'PT30S');
  assert.deepEqual(after.combination?.addressValues, changed.addresses);
  const removed = agent.removed[0];
  assert.ok((await side('old', removed)).combination?.pscheduler);
  assert.deepEqual(await side('new', removed), {});

  // summaryOnly (the status bar, after every edit): no agents, and not kept, so the tree's tasks still open.
  const s = await client.request<CompareTasksResult>('psconfig/compareTasks', {
    uri,
    base: { text: base, source: 'HEAD' },
    summaryOnly: true,
  });
  assert.deepEqual(s.diff!.summary, want.summary);
  assert.deepEqual(s.diff!.agents, []);
  assert.equal(s.id, '');
  assert.ok((await side('old', removed)).combination?.pscheduler);
  // A newer full comparison replaces the kept one: the old id says so.
  const again = await client.request<CompareTasksResult>('psconfig/compareTasks', {
    uri,
    base: { text: base, source: 'HEAD' },
  });
  assert.notEqual(again.id, r.id);
  assert.match((await side('old', removed)).error ?? '', /no longer kept/);
  client.close(uri);
});

test('compareTasks on a file that is not open reads it from disk; an unreadable one says why', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'compare-lsp-'));
  try {
    const file = join(dir, 'mesh.psconfig.json');
    const mesh = exampleText('perl-shared--client-psconfig-mesh.json');
    writeFileSync(file, mesh.replace('"PT30S"', '"PT20S"'));
    const uri = pathToFileURL(file).toString();
    const r = await client.request<CompareTasksResult>('psconfig/compareTasks', {
      uri,
      base: { text: mesh, source: 'HEAD' },
    });
    assert.deepEqual(r.diff!.summary, { added: 0, removed: 0, changed: 6, agentsAffected: 3 });
    const missing = await client.request<CompareTasksResult>('psconfig/compareTasks', {
      uri: pathToFileURL(join(dir, 'nope.json')).toString(),
      base: { text: mesh, source: 'HEAD' },
    });
    assert.match(missing.error ?? '', /Cannot read .*nope\.json/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
