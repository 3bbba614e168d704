// What one edit costs the language server when the Tasks tree (limited request, then one request per agent) and
// the archive code lens all want the expansion of a 200-address mesh: one shared engine run in the worker, beside
// the engine runs those requests would cost separately (measured in-process in the same run).
//   npm run bench -- expansion-sharing
import type { ExpandTasksParams, ExpandTasksResult } from '../common/protocol';
import { expandText } from '../server/src/template/expand/from-text';
import { LspClient } from '../test/lsp/lsp-client';

function mesh(n: number): string {
  const addresses: Record<string, unknown> = {};
  for (let i = 0; i < n; i++)
    addresses[`host-${i}`] = { address: `host-${i}.example.net`, _meta: { 'display-name': `Host ${i}` } };
  return JSON.stringify(
    {
      addresses,
      archives: {
        central: {
          archiver: 'http',
          data: {
            schema: 2,
            _url: 'https://archive.example.net/logstash',
            _headers: { 'x-ps-observer': '{% scheduled_by_address %}' },
          },
        },
      },
      groups: { mesh: { type: 'mesh', addresses: Object.keys(addresses).map((name) => ({ name })) } },
      tests: {
        throughput: {
          type: 'throughput',
          spec: { source: '{% address[0] %}', dest: '{% address[1] %}', duration: 'PT30S' },
        },
      },
      tasks: {
        mesh: {
          group: 'mesh',
          test: 'throughput',
          archives: ['central'],
          reference: { 'display-set-source': '{% jq .addresses[0]._meta."display-name" %}' },
        },
      },
    },
    null,
    2,
  );
}

export async function run(): Promise<void> {
  const text = mesh(200);
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
