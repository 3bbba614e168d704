// Completion latency at reference positions and in pScheduler payloads on the large generated template (2,000 addresses, 100 groups,
// 1,000 tasks): the pure module on a warm model, and over LSP to the bundled server, beside JSON.parse of the
// same text measured in the same run.   npm run bench -- completion
import { completeAt } from '../server/src/template/navigation/completion';
import { analyseTemplate } from '../server/src/template/model';
import { LspClient, offsetToPosition } from '../test/lsp/lsp-client';
import { generateLargeTemplate } from './diagnostics.bench';

interface Stats {
  median: number;
  p95: number;
}

function stats(samples: number[]): Stats {
  const s = [...samples].sort((a, b) => a - b);
  return { median: s[s.length >> 1], p95: s[Math.min(s.length - 1, Math.floor(s.length * 0.95))] };
}

function timeSync(fn: () => unknown, runs: number): Stats {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    fn();
    samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return stats(samples);
}

async function timeAsync(fn: () => Promise<unknown>, runs: number): Promise<Stats> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    await fn();
    samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return stats(samples);
}

const fmt = (s: Stats): string =>
  `median ${s.median.toFixed(2).padStart(8)} ms  p95 ${s.p95.toFixed(2).padStart(8)} ms`;
const ratio = (s: Stats, base: Stats): string => `${(s.median / base.median).toFixed(2)}x JSON.parse`;

export async function run(): Promise<void> {
  const text = generateLargeTemplate();
  // Reference positions: a task's group (100 candidates) and a group selector's name (2,000 candidates).
  const groupAt = text.indexOf('"group": "group-') + '"group": "'.length + 2;
  const selectorAt = text.indexOf('"name": "ps-') + '"name": "'.length + 2;
  // pScheduler payloads: a key of a throughput spec (its fields at the spec's version) and an http data value.
  const specKeyAt = text.indexOf('"duration": "PT30S"', text.indexOf('"type": "throughput"')) + 3;
  const dataValueAt = text.indexOf('"op": "put"') + '"op": "'.length;
  const positions = [
    { label: 'task.group (100 groups)', offset: groupAt },
    { label: 'selector name (2,000 addresses)', offset: selectorAt },
    { label: 'throughput spec key', offset: specKeyAt },
    { label: 'http archive data value (op)', offset: dataValueAt },
  ];
  const runs = 200;

  JSON.parse(text);
  const jsonParse = timeSync(() => JSON.parse(text), 15);
  const model = analyseTemplate(text);
  console.log(
    `template: ${(text.length / 1e6).toFixed(2)} MB; ${runs} completions per position; JSON.parse of the same text ${fmt(jsonParse)}`,
  );
  console.log('aim: completion under 10 ms');
  for (const p of positions) {
    const n = completeAt(model, p.offset).items.length;
    const s = timeSync(() => completeAt(model, p.offset), runs);
    console.log(
      `pure completeAt  ${p.label.padEnd(32)} ${String(n).padStart(5)} items  ${fmt(s)}  ${ratio(s, jsonParse)}`,
    );
  }

  const client = await LspClient.start({ itemDefaults: true });
  try {
    const uri = 'file:///bench/large.psconfig.json';
    const t0 = process.hrtime.bigint();
    await client.open(uri, text);
    const firstDiagnosticsMs = Number(process.hrtime.bigint() - t0) / 1e6;
    console.log(
      `LSP: first diagnostics ${firstDiagnosticsMs.toFixed(0)} ms after didOpen (parse + every check, once per version)`,
    );
    for (const p of positions) {
      const position = offsetToPosition(text, p.offset);
      const ask = () =>
        client.request<{ items: unknown[] }>('textDocument/completion', { textDocument: { uri }, position });
      const response = await ask();
      const n = response.items.length;
      const s = await timeAsync(ask, runs);
      console.log(
        `LSP completion   ${p.label.padEnd(32)} ${String(n).padStart(5)} items  ${fmt(s)}  ${ratio(s, jsonParse)}`,
      );
      // The floor for this answer over JSON-RPC: one stringify (server) and one parse (client) of the same JSON.
      const wire = JSON.stringify(response);
      const json = timeSync(() => JSON.parse(JSON.stringify(response)), 50);
      console.log(`  its JSON: ${(wire.length / 1024).toFixed(0)} KB; stringify + parse ${fmt(json)}`);
    }
    const noop = await timeAsync(
      () => client.request('textDocument/definition', { textDocument: { uri }, position: { line: 0, character: 0 } }),
      runs,
    );
    console.log(`LSP round trip of a request with an empty answer (definition at 0:0): ${fmt(noop)}`);
    // Task lenses: listing is immediate; the first resolve waits for the per-version counts (computed in the worker).
    const t2 = process.hrtime.bigint();
    const lenses = await client.request<{ range: unknown; data: unknown }[]>('textDocument/codeLens', {
      textDocument: { uri },
    });
    const listed = Number(process.hrtime.bigint() - t2) / 1e6;
    const t3 = process.hrtime.bigint();
    const first = await client.request<{ command?: { title: string } }>('codeLens/resolve', lenses[0]);
    const resolvedMs = Number(process.hrtime.bigint() - t3) / 1e6;
    const again = await timeAsync(() => client.request('codeLens/resolve', lenses[1]), 20);
    console.log(
      `LSP code lenses: ${lenses.length} listed in ${listed.toFixed(1)} ms; first resolve ("${first.command?.title}") ${resolvedMs.toFixed(0)} ms; later resolves ${fmt(again)}`,
    );
    // After an edit: typing inside a string is answered from the previous parse (edited-text.ts); an edit that
    // changes the structure makes the first request pay for the new version's parse on the main thread.
    let version = 1;
    let current = text;
    const afterEdit = async (
      label: string,
      edit: { at: number; del?: number; insert: string },
      completeAt: (t: string) => number,
    ): Promise<void> => {
      const change = {
        range: { start: offsetToPosition(current, edit.at), end: offsetToPosition(current, edit.at + (edit.del ?? 0)) },
        text: edit.insert,
      };
      current = current.slice(0, edit.at) + edit.insert + current.slice(edit.at + (edit.del ?? 0));
      void client.connection.sendNotification('textDocument/didChange', {
        textDocument: { uri, version: ++version },
        contentChanges: [change],
      });
      const position = offsetToPosition(current, completeAt(current));
      const t1 = process.hrtime.bigint();
      const r = await client.request<{ items: unknown[] } | null>('textDocument/completion', {
        textDocument: { uri },
        position,
      });
      const ms = Number(process.hrtime.bigint() - t1) / 1e6;
      console.log(
        `LSP completion right after ${label.padEnd(58)} ${String(r?.items.length ?? 0).padStart(5)} items  ${ms.toFixed(1).padStart(7)} ms`,
      );
    };
    // A fresh parse first, so each case starts from a parsed version.
    const reparse = async (): Promise<void> => {
      await client.request('textDocument/documentSymbol', { textDocument: { uri } });
    };
    const nameEnd = (t: string): number => t.indexOf('"', t.indexOf('"name": "ps-') + '"name": "'.length);
    await afterEdit('typing a character at the end of a selector name', { at: nameEnd(current), insert: 'x' }, nameEnd);
    await afterEdit('typing a second character there', { at: nameEnd(current), insert: 'y' }, nameEnd);
    await reparse();
    const task0 = current.indexOf('"display-task-name": "Task 0"') + '"display-task-name": "Task 0'.length;
    await afterEdit(
      'an edit in a far string (completion in task.group)',
      { at: task0, insert: '!' },
      (t) => t.indexOf('"group": "group-') + '"group": "'.length + 2,
    );
    await reparse();
    await afterEdit(
      'an edit that adds a property (needs a new parse)',
      { at: task0 + 2, insert: ', "#note": 1' },
      (t) => t.indexOf('"group": "group-') + '"group": "'.length + 2,
    );
    // Another structural edit, then a request that needs its analysis: document symbols. Asked twice: the second
    // answer, on the analysed version, shows what the answer itself costs (every definition of the template with its
    // ranges: megabytes of JSON for this one).
    const at = current.indexOf('"#note": 1') + '"#note": 1'.length;
    void client.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri, version: ++version },
      contentChanges: [
        { range: { start: offsetToPosition(current, at), end: offsetToPosition(current, at) }, text: ', "#more": 2' },
      ],
    });
    const t4 = process.hrtime.bigint();
    await reparse();
    const parseMs = Number(process.hrtime.bigint() - t4) / 1e6;
    const t5 = process.hrtime.bigint();
    await reparse();
    const symbolsMs = Number(process.hrtime.bigint() - t5) / 1e6;
    console.log(
      `documentSymbol of the ${(current.length / 1e6).toFixed(2)} MB template right after a structural edit: ${parseMs.toFixed(0)} ms; again on the analysed version (the answer's own cost): ${symbolsMs.toFixed(0)} ms`,
    );
  } finally {
    await client.stop();
  }
}
