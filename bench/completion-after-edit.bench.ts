// Issue 30: completion right after an edit of the 1.6 MB template, over LSP with the bundled server. Three kinds of
// edit, 20 of each: one character typed in a task's group name, a new property in that task, a 200-line paste of
// tasks; after each, the didChange and at once a completion request in a group slot (the typed name's, the edited
// task's, the last pasted task's), timed from the didChange sent to the answer. Each edit follows a quiet server
// (the previous version's diagnostics published), as when a user pauses and types again. Baselines of the same
// run: JSON.parse of the text, an empty round trip, and, with PSCONFIG_BENCH_BASE_SERVER=<bundle> (e.g. main's
// dist/server.js built from `git archive` into /tmp), the same edits against that server.
//   npm run bench -- completion-after-edit
import { loadavg } from 'node:os';
import { LspClient, offsetToPosition } from '../test/lsp/lsp-client';
import { generateLargeTemplate } from './diagnostics.bench';
import { fmt, pastedBlock, serverCpu, stats } from './editing.bench';

interface EditKind {
  label: string;
  /** The edit of round `k` on the current text: where, how much to delete, what to insert. */
  edit(text: string, k: number): { at: number; del: number; insert: string };
  /** Where the user asks for completion after it, in the edited text. */
  probe(text: string, k: number): number;
  /** A label the answer must hold (a wrong or empty answer is not a figure). */
  expect: string;
}

/** The end of task-999's group name (its value's closing quote). */
const groupEnd = (t: string): number => t.indexOf('"', t.indexOf('"group": "', t.indexOf('"task-999": {')) + 10);

export const EDIT_KINDS: EditKind[] = [
  {
    label: 'one character typed in a string',
    edit: (t) => ({ at: groupEnd(t), del: 0, insert: 'x' }),
    probe: groupEnd,
    expect: 'group-99',
  },
  {
    label: 'a new property in an object',
    edit: (t, k) => {
      const at = t.indexOf('"task-999": {') + '"task-999": {'.length;
      return { at, del: 0, insert: `\n      "x-added-${k}": ${k},` };
    },
    probe: groupEnd,
    expect: 'group-99',
  },
  {
    label: 'a 200-line paste',
    edit: (t, k) => ({ at: t.indexOf('"tasks": {') + '"tasks": {'.length, del: 0, insert: pastedBlock(k) }),
    // The last pasted task's group name, which the user goes on to change.
    probe: (t, k) => t.indexOf('"', t.indexOf('"group": "', t.indexOf(`"pasted-${k}-19": {`)) + 10),
    expect: 'group-0',
  },
];

interface Run {
  times: number[];
  /** Server CPU per edit + request (main thread, other threads), from /proc. */
  cpu: { main: number; other: number } | undefined;
}

/** `rounds` edits of one kind on a fresh document of `client`, each followed by a completion request. */
async function measure(client: LspClient, base: string, kind: EditKind, rounds: number, uri: string): Promise<Run> {
  let text = base;
  await client.open(uri, base);
  // The first analysis of the document: one whole parse, before any edit.
  await client.request('textDocument/documentSymbol', { textDocument: { uri } });
  const times: number[] = [];
  const cpu0 = serverCpu(client.child.pid);
  for (let k = 0; k < rounds; k++) {
    const e = kind.edit(text, k);
    const change = {
      range: { start: offsetToPosition(text, e.at), end: offsetToPosition(text, e.at + e.del) },
      text: e.insert,
    };
    text = text.slice(0, e.at) + e.insert + text.slice(e.at + e.del);
    const version = k + 2;
    const published = client.nextDiagnostics(uri, version);
    const position = offsetToPosition(text, kind.probe(text, k));
    const t0 = process.hrtime.bigint();
    void client.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri, version },
      contentChanges: [change],
    });
    const answer = await client.request<{ items: { label: string }[] } | null>('textDocument/completion', {
      textDocument: { uri },
      position,
    });
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    if (!answer?.items.some((i) => i.label === kind.expect))
      throw new Error(`${kind.label}: completion without ${kind.expect}`);
    // A quiet server before the next edit: this version checked and published.
    await published;
  }
  const cpu1 = serverCpu(client.child.pid);
  client.close(uri);
  return {
    times,
    cpu:
      cpu0 && cpu1 ? { main: (cpu1.main - cpu0.main) / rounds, other: (cpu1.other - cpu0.other) / rounds } : undefined,
  };
}

export async function run(): Promise<void> {
  const base = generateLargeTemplate();
  const rounds = 20;
  const load0 = loadavg();
  JSON.parse(base);
  const parses: number[] = [];
  for (let i = 0; i < 15; i++) {
    const t0 = process.hrtime.bigint();
    JSON.parse(base);
    parses.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  console.log(
    `template: ${(base.length / 1e6).toFixed(2)} MB; ${rounds} edits of each kind, each followed at once by a completion request (didChange sent → answer); diagnostics debounced 250 ms as in the editor`,
  );
  console.log(`JSON.parse of the same text: ${fmt(stats(parses))}`);
  const env = { PSCONFIG_DIAGNOSTICS_DELAY_MS: '250' };
  const baseServer = process.env.PSCONFIG_BENCH_BASE_SERVER;
  const servers: { label: string; start: () => Promise<LspClient> }[] = [
    { label: 'this server', start: () => LspClient.start({ itemDefaults: true, env }) },
  ];
  if (baseServer)
    servers.unshift({
      label: `base server (${baseServer})`,
      start: () => LspClient.start({ itemDefaults: true, env, command: [process.execPath, baseServer, '--stdio'] }),
    });
  for (const server of servers) {
    const client = await server.start();
    try {
      const tiny = 'file:///bench/tiny.psconfig.json';
      await client.open(tiny, '{"tasks": {}, "groups": {}}');
      const noop: number[] = [];
      for (let i = 0; i < 30; i++) {
        const t0 = process.hrtime.bigint();
        await client.request('textDocument/definition', {
          textDocument: { uri: tiny },
          position: { line: 0, character: 1 },
        });
        noop.push(Number(process.hrtime.bigint() - t0) / 1e6);
      }
      console.log(`${server.label}:`);
      console.log(`  ${'empty round trip (tiny document)'.padEnd(36)} ${fmt(stats(noop))}`);
      for (const [i, kind] of EDIT_KINDS.entries()) {
        const r = await measure(client, base, kind, rounds, `file:///bench/after-edit-${i}.psconfig.json`);
        const cpu = r.cpu
          ? `  server CPU per edit: main ${r.cpu.main.toFixed(0)} ms, other threads ${r.cpu.other.toFixed(0)} ms`
          : '';
        console.log(`  ${kind.label.padEnd(36)} ${fmt(stats(r.times))}${cpu}`);
      }
    } finally {
      await client.stop();
    }
  }
  const load1 = loadavg();
  console.log(
    `load average (1, 5, 15 min): ${load0.map((l) => l.toFixed(2)).join(' ')} at the start, ${load1.map((l) => l.toFixed(2)).join(' ')} at the end`,
  );
}
