// What one edit costs the language server when the Tasks tree (limited request, then one request per agent) and
// the archive code lens all want the expansion of a 200-address mesh: one shared engine run in the worker, beside
// the engine runs those requests would cost separately (measured in-process in the same run).
//   npm run bench -- expansion-sharing
import type { ExpandTasksParams, ExpandTasksResult } from '../common/protocol';
import { expandText } from '../server/src/template/expand/from-text';
import { meshTemplate } from '../test/generated-templates';
import { LspClient } from '../test/lsp/lsp-client';

export async function run(): Promise<void> {
  const text = JSON.stringify(meshTemplate(200), null, 2);
  const jqPath = process.env.JQ_PATH ?? '/usr/bin/jq';
  const requests: Omit<ExpandTasksParams, 'uri'>[] = [
    { limit: 10_000 },
    { agentAddresses: ['host-0.example.net'] },
    { agentAddresses: ['host-1.example.net'] },
    { agentAddresses: ['host-2.example.net'] },
  ];
  // Baseline: each request as its own engine run, plus the full run the archive lens needs.
  let separate = 0;
  for (const r of [{}, ...requests]) {
    const t0 = performance.now();
    await expandText({ uri: 'bench', version: 1, text, jqPath, ...r });
    separate += performance.now() - t0;
  }
  console.log(
    `200-address mesh (39,800 combinations): the full run + ${requests.length} filtered requests as separate engine runs (in-process): ${separate.toFixed(0)} ms`,
  );

  const client = await LspClient.start();
  try {
    const uri = 'file:///bench/mesh200.psconfig.json';
    await client.open(uri, text);
    for (let v = 2; v <= 4; v++) {
      await client.change(uri, [{ text: text.replace('"PT30S"', `"PT3${v}S"`) }]);
      const t0 = performance.now();
      const results = await Promise.all(
        requests.map((r) => client.request<ExpandTasksResult>('psconfig/expandTasks', { uri, ...r })),
      );
      const answered = performance.now() - t0;
      const lenses = await client.request<{ data?: { kind?: string } }[]>('textDocument/codeLens', {
        textDocument: { uri },
      });
      const t1 = performance.now();
      await client.request(
        'codeLens/resolve',
        lenses.find((l) => l.data?.kind === 'archive'),
      );
      const lensMs = performance.now() - t1;
      const runs = new Set(results.map((r) => r.elapsedMs)).size;
      console.log(
        `edit ${v - 1}: ${requests.length} requests answered in ${answered.toFixed(0)} ms (engine runs: ${runs}, engine time ${results[0].elapsedMs.toFixed(0)} ms; ` +
          `${results.map((r) => r.combinations.length).join(' / ')} combinations); archive lens resolved ${lensMs.toFixed(0)} ms later from the same run`,
      );
    }
  } finally {
    await client.stop();
  }
}
