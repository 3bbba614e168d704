// What Neovim, Emacs and Helix users meet: settings changes (pushed or pulled) re-check open documents, a bare
// `jq.path` is found on PATH, a quick fix whose range arrives shifted changes nothing, the preview and the
// expansion are server commands, and hovers keep template text literal.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { dirname } from 'node:path';
import type { CodeAction, Diagnostic, Hover, MarkupContent } from 'vscode-languageserver-protocol';
import { ServerCommands, type ExpandTasksResult, type PreviewTasksText } from '../../common/protocol';
import { LspClient, positionOf } from './lsp-client';

const JQ = process.env.JQ_PATH ?? '/usr/bin/jq';
let client: LspClient;
before(async () => {
  client = await LspClient.start();
});
after(async () => {
  assert.ok(client.alive);
  await client.stop();
});

function template(dest: string, group = 'mesh-group'): string {
  return JSON.stringify(
    {
      addresses: { a: { address: 'a.example.net' }, b: { address: 'b.example.net' } },
      groups: { 'mesh-group': { type: 'mesh', addresses: [{ name: 'a' }, { name: 'b' }] } },
      tests: { t: { type: 'latencybg', spec: { source: '{% address[0] %}', dest } } },
      tasks: { task: { group, test: 't' } },
    },
    null,
    2,
  );
}

/** Waits for the next publication for `uri` that satisfies `ok` (later publications may add jq checks). */
async function diagnosticsUntil(uri: string, ok: (d: Diagnostic[]) => boolean): Promise<Diagnostic[]> {
  for (let i = 0; i < 10; i++) {
    const last = client.lastDiagnostics(uri);
    if (last && ok(last)) return last;
    await client.nextDiagnostics(uri);
  }
  throw new Error(`diagnostics for ${uri} never matched: ${JSON.stringify(client.lastDiagnostics(uri))}`);
}

const codes = (d: Diagnostic[]): string[] => d.map((x) => String(x.code));

test('workspace/didChangeConfiguration re-runs diagnostics of open documents (pushed and pulled settings)', async () => {
  const uri = 'file:///tmp/settings-change.psconfig.json';
  await client.open(uri, template('{% jq .addresses[0] | ( %}'));
  await diagnosticsUntil(uri, (d) => codes(d).includes('psconfig/jq-compile'));
  // Pushed, as Neovim does: a jq path that does not exist → the note replaces the compile error.
  client.changeSettings({ jq: { path: '/nonexistent/jq' } }, true);
  const missing = await diagnosticsUntil(uri, (d) => codes(d).includes('psconfig/jq-unavailable'));
  assert.ok(!codes(missing).includes('psconfig/jq-compile'));
  // Pulled (the notification carries nothing; the server asks), with a bare name looked up on PATH.
  client.changeSettings({ jq: { path: 'jq' } });
  const back = await diagnosticsUntil(uri, (d) => codes(d).includes('psconfig/jq-compile'));
  assert.ok(!codes(back).includes('psconfig/jq-unavailable'), JSON.stringify(back));
  client.changeSettings({ jq: { path: JQ } });
  client.close(uri);
});

test('a bare jq.path is looked up on the server’s PATH', async () => {
  const bare = await LspClient.start({
    settings: { jq: { path: 'jq' } },
    env: { PATH: dirname(JQ), JQ_PATH: '' },
  });
  try {
    const uri = 'file:///tmp/bare-jq.psconfig.json';
    await bare.open(uri, template('{% jq .addresses[0].address %}'));
    const r = await bare.request<ExpandTasksResult>('psconfig/expandTasks', { uri });
    assert.deepEqual(
      r.combinations.map((c) => (c.pscheduler?.test.spec as { dest?: string }).dest),
      ['a.example.net', 'b.example.net'],
      JSON.stringify(r.combinations.map((c) => c.error)),
    );
  } finally {
    await bare.stop();
  }
});

test('"Change to" edits only when the range still holds the name the diagnostic was about', async () => {
  const uri = 'file:///tmp/quick-fix.psconfig.json';
  const text = template('{% address[1] %}', 'mesh-grop');
  const diagnostics = await client.open(uri, text);
  const d = diagnostics.find((x) => x.code === 'psconfig/unknown-group');
  assert.ok(d);
  const ask = (diagnostic: Diagnostic): Promise<CodeAction[]> =>
    client.request<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: diagnostic.range,
      context: { diagnostics: [diagnostic] },
    });
  assert.ok((await ask(d)).some((a) => a.title === 'Change to "mesh-group"'));
  // The editor shifted the text by one line; the client still sends the old diagnostic, whose range now lies on
  // another part of the template.
  await client.change(uri, [{ text: `\n${text}` }]);
  const stale = await ask(d);
  assert.ok(!stale.some((a) => a.title.startsWith('Change to')), JSON.stringify(stale));
  // The same diagnostic moved with the text (as a client that tracks edits sends it) still gets its fix.
  const moved = {
    ...d,
    range: {
      start: { ...d.range.start, line: d.range.start.line + 1 },
      end: { ...d.range.end, line: d.range.end.line + 1 },
    },
  };
  const fixes = await ask(moved);
  const change = fixes.find((a) => a.title === 'Change to "mesh-group"');
  assert.ok(change?.edit?.changes?.[uri]?.[0]);
  assert.deepEqual(change.edit.changes[uri][0].range, moved.range);
  client.close(uri);
});

test('preview and expansion through workspace/executeCommand', async () => {
  const uri = 'file:///tmp/commands.psconfig.json';
  await client.open(uri, template('{% address[1] %}'));
  const expanded = await client.request<ExpandTasksResult>('workspace/executeCommand', {
    command: ServerCommands.expandTasks,
    arguments: [{ uri, agentAddresses: ['a.example.net'] }],
  });
  assert.equal(expanded.combinations.length, 1);
  assert.equal(expanded.combinations[0].agent, 'a.example.net');
  const preview = await client.request<PreviewTasksText>('workspace/executeCommand', {
    command: ServerCommands.previewTasks,
    arguments: [uri],
  });
  assert.equal(preview.failed, 0);
  assert.equal(preview.tasks.length, 2);
  assert.deepEqual(preview.tasks[0].test.spec, { source: 'a.example.net', dest: 'b.example.net' });
  assert.equal(
    preview.text,
    [
      'a.example.net  1 task',
      '  task  latencybg · group mesh-group',
      '    a.example.net → b.example.net',
      'b.example.net  1 task',
      '  task  latencybg · group mesh-group',
      '    b.example.net → a.example.net',
      '',
    ].join('\n'),
  );
  // No argument (Helix): the document last opened or edited.
  const implicit = await client.request<PreviewTasksText>('workspace/executeCommand', {
    command: ServerCommands.previewTasks,
  });
  assert.equal(implicit.uri, uri);
  assert.equal(implicit.text, preview.text);
  const init = await client
    .request<{ error?: unknown }>('workspace/executeCommand', {
      command: 'psconfig.server.nonsense',
      arguments: [uri],
    })
    .catch((e: unknown) => ({ error: e }));
  assert.ok(init.error, 'an unknown command is an error');
  client.close(uri);
});

test('a hover keeps a backtick in an unknown variable inside its code span', async () => {
  const uri = 'file:///tmp/hover-escape.psconfig.json';
  const text = template('{% x`](command:workbench.action.terminal.new) %}');
  await client.open(uri, text);
  const h = await client.request<Hover>('textDocument/hover', {
    textDocument: { uri },
    position: positionOf(text, '{% x`', 4),
  });
  assert.equal(
    (h.contents as MarkupContent).value,
    '``x`](command:workbench.action.terminal.new)`` is not a pSConfig template variable.',
  );
  client.close(uri);
});
