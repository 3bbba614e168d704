// A restricted (untrusted) workspace: the server runs no jq at all — no compile check, no {% jq %} value, no
// address-class filter — says so once, and picks everything up when trust is granted (a settings change).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import type { ExpandTasksResult } from '../../common/protocol';
import { descendants, haveProc } from '../processes';
import { LspClient, messageText } from './lsp-client';

const JQ = process.env.JQ_PATH ?? '/usr/bin/jq';
let client: LspClient;
let jqSeen = 0;
let watch: NodeJS.Timeout | undefined;
before(async () => {
  client = await LspClient.start({ settings: { jq: { path: JQ }, workspaceTrusted: false } });
  if (haveProc)
    watch = setInterval(() => {
      jqSeen += descendants(client.child.pid as number).filter((p) => p.comm === 'jq').length;
    }, 50);
});
after(async () => {
  clearInterval(watch);
  await client.stop();
});

const TEMPLATE = JSON.stringify(
  {
    addresses: { a: { address: 'a.example.net' }, b: { address: 'b.example.net' } },
    groups: { g: { type: 'mesh', addresses: [{ name: 'a' }, { name: 'b' }] } },
    tests: {
      t: { type: 'latencybg', spec: { source: '{% jq .addresses[0].address %}', dest: '{% jq .x | ( %}' } },
    },
    tasks: { task: { group: 'g', test: 't' } },
  },
  null,
  2,
);

async function until(uri: string, ok: (d: Diagnostic[]) => boolean): Promise<Diagnostic[]> {
  for (let i = 0; i < 10; i++) {
    const last = client.lastDiagnostics(uri);
    if (last && ok(last)) return last;
    await client.nextDiagnostics(uri);
  }
  throw new Error(`never matched: ${JSON.stringify(client.lastDiagnostics(uri))}`);
}

test('restricted workspace: no jq process, one note saying why, expansion explains the missing values', async () => {
  const uri = 'file:///tmp/restricted.psconfig.json';
  await client.open(uri, TEMPLATE);
  const d = await until(uri, (x) => x.some((y) => y.code === 'psconfig/jq-unavailable'));
  const note = d.find((y) => y.code === 'psconfig/jq-unavailable');
  assert.match(messageText(note?.message), /jq does not run in a restricted workspace/);
  assert.ok(!d.some((y) => y.code === 'psconfig/jq-compile'));
  const r = await client.request<ExpandTasksResult>('psconfig/expandTasks', { uri });
  assert.equal(r.combinations.length, 2);
  for (const c of r.combinations) assert.match(c.error ?? '', /restricted workspace/);
  if (haveProc) assert.equal(jqSeen, 0, 'a jq process ran in the restricted workspace');

  // Trust granted: the client sends the new settings; the document is checked again, now with jq.
  client.changeSettings({ jq: { path: JQ } }, true);
  const trusted = await until(uri, (x) => x.some((y) => y.code === 'psconfig/jq-compile'));
  assert.ok(!trusted.some((y) => y.code === 'psconfig/jq-unavailable'));
  const expanded = await client.request<ExpandTasksResult>('psconfig/expandTasks', { uri });
  assert.equal((expanded.combinations[0].error ?? '').includes('restricted'), false);
});

test('a client slow to answer workspace/configuration: still no jq before the restricted settings arrive', async () => {
  const slow = await LspClient.start({
    settings: { jq: { path: JQ }, workspaceTrusted: false },
    configurationDelayMs: 1500,
  });
  let seen = 0;
  const sampler = haveProc
    ? setInterval(() => {
        seen += descendants(slow.child.pid as number).filter((p) => p.comm === 'jq').length;
      }, 50)
    : undefined;
  try {
    const uri = 'file:///tmp/restricted-slow.psconfig.json';
    // Opened at once, long before the settings come back (diagnostics wait only 20 ms in tests).
    await slow.open(uri, TEMPLATE);
    const r = await slow.request<ExpandTasksResult>('psconfig/expandTasks', { uri });
    for (const c of r.combinations) assert.match(c.error ?? '', /restricted workspace/);
    for (let i = 0; i < 10 && !slow.lastDiagnostics(uri)?.some((d) => d.code === 'psconfig/jq-unavailable'); i++)
      await slow.nextDiagnostics(uri);
    const d = slow.lastDiagnostics(uri) ?? [];
    assert.ok(
      d.some((x) => x.code === 'psconfig/jq-unavailable'),
      JSON.stringify(d),
    );
    assert.ok(!d.some((x) => x.code === 'psconfig/jq-compile'));
    if (haveProc) assert.equal(seen, 0, 'jq ran before the settings were known');
  } finally {
    clearInterval(sampler);
    await slow.stop();
  }
});
