// What Neovim, Emacs and Helix users meet: settings changes (pushed or pulled) re-check open documents, a bare
// `jq.path` is found on PATH, a quick fix whose range arrives shifted (byte columns, CRLF, an edit above) still
// changes only the name it was about, the preview and the expansion are server commands, and hovers keep template
// text literal.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { dirname } from 'node:path';
import type { CodeAction, Diagnostic, Hover, MarkupContent } from 'vscode-languageserver-protocol';
import { ServerCommands, type ExpandTasksResult, type PreviewTasksText } from '../../common/protocol';
import { applyEdits, LspClient, positionOf } from './lsp-client';

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

/** A template whose task sits on one line after non-ASCII text, as hand-written templates have it. */
function oneLineTask(group: string, eol = '\n'): string {
  return [
    '{',
    '  "addresses": { "a": { "address": "a.example.net" }, "b": { "address": "b.example.net" } },',
    '  "groups": { "mesh-group": { "type": "mesh", "addresses": [ { "name": "a" }, { "name": "b" } ] } },',
    '  "tests": { "t": { "type": "latencybg", "spec": { "source": "{% address[0] %}", "dest": "{% address[1] %}" } } },',
    `  "tasks": { "réseau-café ☕": { "group": "${group}", "test": "t" } }`,
    '}',
    '',
  ].join(eol);
}

/** The range as Neovim 0.7–0.10 send it back: the columns counted in UTF-8 bytes of the line. */
function byteColumns(text: string, range: Diagnostic['range']): Diagnostic['range'] {
  const lines = text.split(/\r?\n/);
  const col = (p: { line: number; character: number }) => ({
    line: p.line,
    character: Buffer.byteLength(lines[p.line].slice(0, p.character), 'utf8'),
  });
  return { start: col(range.start), end: col(range.end) };
}

const askFixes = (uri: string, diagnostic: Diagnostic): Promise<CodeAction[]> =>
  client.request<CodeAction[]>('textDocument/codeAction', {
    textDocument: { uri },
    range: diagnostic.range,
    context: { diagnostics: [diagnostic] },
  });

/** The text after the "Change to" action's edits, or undefined when it was not offered. */
async function changedBy(uri: string, text: string, diagnostic: Diagnostic, to: string): Promise<string | undefined> {
  const change = (await askFixes(uri, diagnostic)).find((a) => a.title === `Change to "${to}"`);
  const edits = change?.edit?.changes?.[uri];
  if (!edits) return undefined;
  assert.equal(edits.length, 1, 'one edit: the name');
  return applyEdits(text, edits);
}

test('"Change to" with shifted ranges: byte columns, CRLF, non-ASCII before the name, an edit above', async () => {
  for (const eol of ['\n', '\r\n']) {
    const uri = `file:///tmp/quick-fix-${eol === '\n' ? 'lf' : 'crlf'}.psconfig.json`;
    const text = oneLineTask('mesh-grop', eol);
    const diagnostics = await client.open(uri, text);
    const d = diagnostics.find((x) => x.code === 'psconfig/unknown-group');
    assert.ok(d, JSON.stringify(diagnostics));
    const fixed = oneLineTask('mesh-group', eol);
    // The range as published, and as Neovim sends it back (byte columns: two "é" and a "☕" shift it by 4).
    assert.equal(await changedBy(uri, text, d, 'mesh-group'), fixed);
    const bytes = { ...d, range: byteColumns(text, d.range) };
    assert.equal(bytes.range.start.character - d.range.start.character, 4);
    assert.equal(await changedBy(uri, text, bytes, 'mesh-group'), fixed, `byte columns (${JSON.stringify(eol)})`);
    // A line inserted above (a comment key: the template stays valid): the client still sends the old diagnostic;
    // the name is found at its place in the tree.
    const edited = text.replace(`{${eol}`, `{${eol}  "#": "a note",${eol}`);
    await client.change(uri, [{ text: edited }]);
    assert.equal(
      await changedBy(uri, edited, bytes, 'mesh-group'),
      fixed.replace(`{${eol}`, `{${eol}  "#": "a note",${eol}`),
    );
    // The name at that place was retyped by hand since: the old diagnostic changes nothing.
    await client.change(uri, [{ text: edited.replace('"mesh-grop"', '"mesh-gr"') }]);
    assert.equal(await changedBy(uri, edited, bytes, 'mesh-group'), undefined);
    client.close(uri);
  }
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
