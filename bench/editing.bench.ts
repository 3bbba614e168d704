// Completion, hover and definition right after an edit of the 1.6 MB template, over LSP with the bundled server:
// typing in a string, adding a property, pasting a 200-line block. Every request follows its own edit, so every
// one is answered on a version nobody has analysed yet. The same edits also run against a server that parses
// each version whole (what it did before edits were re-parsed in place), and JSON.parse of the text and an empty
// round trip are measured in the same run.   npm run bench -- editing
import { readFileSync, readdirSync } from 'node:fs';
import { LspClient, offsetToPosition } from '../test/lsp/lsp-client';
import { generateLargeTemplate } from './diagnostics.bench';

/**
 * CPU milliseconds a server process has used so far: its main thread (the one answering requests), and every other
 * thread (the checks' worker, V8's helpers), from Linux's /proc (undefined elsewhere). Wall times on a shared
 * 2-core machine swing with everything else running; CPU per edit does not.
 */
export function serverCpu(pid: number | undefined): { main: number; other: number } | undefined {
  if (pid === undefined) return undefined;
  try {
    const ticks = (tid: string): number => {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return Number(f[11]) + Number(f[12]); // utime + stime, in clock ticks (1/100 s)
    };
    let other = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`)) if (tid !== String(pid)) other += ticks(tid);
    return { main: ticks(String(pid)) * 10, other: other * 10 };
  } catch {
    return undefined;
  }
}

export interface Stats {
  median: number;
  p95: number;
  max: number;
}

export function stats(samples: number[]): Stats {
  const s = [...samples].sort((a, b) => a - b);
  return {
    median: s[s.length >> 1],
    p95: s[Math.min(s.length - 1, Math.ceil(s.length * 0.95) - 1)],
    max: s[s.length - 1],
  };
}

export const fmt = (s: Stats): string =>
  `median ${s.median.toFixed(1).padStart(7)} ms  p95 ${s.p95.toFixed(1).padStart(7)} ms  max ${s.max.toFixed(1).padStart(7)} ms`;

type Kind = 'completion' | 'hover' | 'definition';
const KINDS: Kind[] = ['completion', 'hover', 'definition'];

/** A 200-line block of tasks to paste at the start of `tasks` (names unique per paste). */
export function pastedBlock(n: number): string {
  const lines: string[] = [];
  for (let i = 0; i < 20; i++) {
    lines.push(
      `    "pasted-${n}-${i}": {`,
      `      "group": "group-${i % 100}",`,
      `      "test": "test-${i}",`,
      `      "schedule": "hourly",`,
      `      "archives": [`,
      `        "central"`,
      `      ],`,
      `      "reference": {`,
      `        "display-task-name": "Pasted ${n}.${i}"`,
      `      }`,
      `    },`,
    );
  }
  // 20 tasks of 10 lines each (the closing line of one shares no line with the next).
  return `\n${lines.join('\n')}`;
}

interface Scenario {
  label: string;
  /** The edit of round `k` on the current text: where, how much to delete, what to insert. */
  edit(text: string, k: number): { at: number; del: number; insert: string };
}

const SCENARIOS: Scenario[] = [
  {
    label: 'typing in a string (one character)',
    edit: (t) => {
      const at = t.indexOf('"display-name": "Host 1000') + '"display-name": "Host 1000'.length;
      return { at, del: 0, insert: 'x' };
    },
  },
  {
    label: 'adding a property (one line)',
    edit: (t, k) => {
      const at = t.indexOf('"test-500": {') + '"test-500": {'.length;
      return { at, del: 0, insert: `\n      "x-added-${k}": ${k},` };
    },
  },
  {
    label: 'pasting a 200-line block',
    edit: (t, k) => ({ at: t.indexOf('"tasks": {') + '"tasks": {'.length, del: 0, insert: pastedBlock(k) }),
  },
];

/** Where each request asks, in the current text: a task near the end (its offsets moved by every edit). */
function probe(t: string, kind: Kind): number {
  const task = t.indexOf('"task-999": {');
  if (kind === 'hover') return t.indexOf('"test": "test-999"', task) + '"test": "te'.length;
  return t.indexOf('"group": "group-', task) + '"group": "gr'.length;
}

/** One document per server, edited the same way, the servers taking turns each round (callers pass one server at
 *  a time: see run()). */
async function measure(
  clients: LspClient[],
  base: string,
  scenario: Scenario,
  rounds: number,
  uri: string,
): Promise<{ times: Record<Kind, number[]>[]; cpu: ({ main: number; other: number } | undefined)[] }> {
  const texts = clients.map(() => base);
  const versions = clients.map(() => 1);
  const out = clients.map((): Record<Kind, number[]> => ({ completion: [], hover: [], definition: [] }));
  for (const client of clients) {
    await client.open(uri, base);
    // The first analysis of the document: one whole parse, before any edit.
    await client.request('textDocument/documentSymbol', { textDocument: { uri } });
  }
  const cpu0 = clients.map((c) => serverCpu(c.child.pid));
  for (let k = 0; k < rounds; k++) {
    for (const [c, client] of clients.entries()) {
      for (const kind of KINDS) {
        const text = texts[c];
        const e = scenario.edit(text, k * KINDS.length + KINDS.indexOf(kind));
        const change = {
          range: { start: offsetToPosition(text, e.at), end: offsetToPosition(text, e.at + e.del) },
          text: e.insert,
        };
        const next = text.slice(0, e.at) + e.insert + text.slice(e.at + e.del);
        texts[c] = next;
        void client.connection.sendNotification('textDocument/didChange', {
          textDocument: { uri, version: ++versions[c] },
          contentChanges: [change],
        });
        const position = offsetToPosition(next, probe(next, kind));
        const method = `textDocument/${kind}`;
        const t0 = process.hrtime.bigint();
        const answer = await client.request<unknown>(method, { textDocument: { uri }, position });
        out[c][kind].push(Number(process.hrtime.bigint() - t0) / 1e6);
        if (!answer || (Array.isArray(answer) && answer.length === 0)) throw new Error(`${method}: no answer`);
      }
    }
  }
  // Per edit (and the request after it): what each server's threads spent.
  const edits = rounds * KINDS.length;
  const cpu = clients.map((c, i) => {
    const a = cpu0[i];
    const b = serverCpu(c.child.pid);
    return a && b ? { main: (b.main - a.main) / edits, other: (b.other - a.other) / edits } : undefined;
  });
  for (const client of clients) client.close(uri);
  return { times: out, cpu };
}

export async function run(): Promise<void> {
  const base = generateLargeTemplate();
  const rounds = 30;
  JSON.parse(base);
  const parses: number[] = [];
  for (let i = 0; i < 15; i++) {
    const t0 = process.hrtime.bigint();
    JSON.parse(base);
    parses.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  console.log(
    `template: ${(base.length / 1e6).toFixed(2)} MB; ${rounds} edits per request kind and scenario, each request right after its own edit; diagnostics debounced 250 ms as in the editor`,
  );
  console.log(`JSON.parse of the same text: ${fmt(stats(parses))}`);
  // The server as shipped, and one that parses every version whole (re-parsing in place switched off).
  const labels = ['edits re-parsed in place', 'every version parsed whole (before)'];
  const clients = [
    await LspClient.start({ itemDefaults: true, env: { PSCONFIG_DIAGNOSTICS_DELAY_MS: '250' } }),
    await LspClient.start({
      itemDefaults: true,
      env: { PSCONFIG_DIAGNOSTICS_DELAY_MS: '250', PSCONFIG_INCREMENTAL_MIN_CHARS: String(1e9) },
    }),
  ];
  try {
    const tiny = 'file:///bench/tiny.psconfig.json';
    await clients[0].open(tiny, '{"tasks": {}, "groups": {}}');
    const noop: number[] = [];
    for (let i = 0; i < 30; i++) {
      const t0 = process.hrtime.bigint();
      await clients[0].request('textDocument/definition', {
        textDocument: { uri: tiny },
        position: { line: 0, character: 1 },
      });
      noop.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
    console.log(`empty round trip on a tiny document: ${fmt(stats(noop))}`);
    const results = [];
    for (const [i, scenario] of SCENARIOS.entries()) {
      // One server at a time, scenario by scenario: taking turns edit by edit, the slower server's checks (in its
      // worker, after each quiet period its own slowness made) took the CPU from the other's requests, which no
      // editor sees.
      const uri = `file:///bench/editing-${i}.psconfig.json`;
      const runs = [];
      for (const client of clients) runs.push(await measure([client], base, scenario, rounds, uri));
      results.push({ times: runs.map((r) => r.times[0]), cpu: runs.map((r) => r.cpu[0]) });
    }
    for (const [c, label] of labels.entries()) {
      console.log(`${label}:`);
      for (const [i, scenario] of SCENARIOS.entries()) {
        for (const kind of KINDS)
          console.log(`  ${scenario.label.padEnd(36)} ${kind.padEnd(10)} ${fmt(stats(results[i].times[c][kind]))}`);
        const cpu = results[i].cpu[c];
        if (cpu)
          console.log(
            `  ${''.padEnd(36)} server CPU per edit + request: main thread ${cpu.main.toFixed(1)} ms, other threads ${cpu.other.toFixed(1)} ms`,
          );
      }
    }
  } finally {
    for (const client of clients) await client.stop();
  }
}
