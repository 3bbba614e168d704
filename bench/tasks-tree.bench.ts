// Tasks tree responsiveness on full meshes: what the extension host does with one ExpandTasksResult (decode it,
// index it, render the roots, open one agent and one task), next to JSON.parse of the same result text
// (the unavoidable cost of receiving it over IPC), measured in the same run.
import type { ExpandTasksResult, ExpandedCombination } from '../common/protocol';
import { TaskTreeModel } from '../client/src/preview/task-tree-model';

function meshResult(n: number): ExpandTasksResult {
  const addresses = Array.from({ length: n }, (_, i) => `host-${i}.example.net`);
  const combinations: ExpandedCombination[] = [];
  for (const a of addresses) {
    for (const b of addresses) {
      if (a === b) continue;
      combinations.push({
        task: 'throughput-mesh',
        addresses: [a, b],
        addressValues: [a, b],
        agent: a,
        pscheduler: {
          test: { type: 'throughput', spec: { source: a, dest: b, duration: 'PT30S' } },
          archives: [
            { archiver: 'http', data: { schema: 2, _url: `https://archive.example.net/logstash`, op: 'put' } },
          ],
          schedule: { repeat: 'PT4H', sliprand: true, slip: 'PT4H' },
          reference: { psconfig: { 'created-by': { 'user-agent': 'psconfig-pscheduler-agent' } } },
        },
      });
    }
  }
  return {
    uri: 'file:///bench/mesh.json',
    version: 1,
    truncated: false,
    notes: [],
    elapsedMs: 0,
    agents: addresses,
    combinations,
    tasks: [
      {
        task: 'throughput-mesh',
        testType: 'throughput',
        group: 'mesh',
        groupType: 'mesh',
        count: combinations.length,
        agents: addresses,
      },
    ],
  };
}

function time<T>(fn: () => T): { ms: number; value: T } {
  const t0 = process.hrtime.bigint();
  const value = fn();
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, value };
}

export function run(): void {
  console.log(
    'addresses  combinations  result MB  JSON.parse ms  index+roots ms  open agent+task ms  ratio(tree/parse)',
  );
  for (const n of [50, 100, 200, 300]) {
    const text = JSON.stringify(meshResult(n));
    const parsed = time(() => JSON.parse(text) as ExpandTasksResult);
    const model = new TaskTreeModel({
      kind: 'result',
      template: 'file:///bench/mesh.json',
      result: parsed.value,
      agentAddresses: [],
    });
    const roots = time(() => model.roots().map((r) => model.item(r)));
    const open = time(() => {
      const agent = model.roots()[Math.floor(n / 2)];
      const task = model.children(agent)[0];
      return model.children(task).map((c) => model.item(c));
    });
    const tree = roots.ms + open.ms;
    console.log(
      [
        String(n).padStart(9),
        String(parsed.value.combinations.length).padStart(13),
        (text.length / 1e6).toFixed(1).padStart(10),
        parsed.ms.toFixed(1).padStart(14),
        roots.ms.toFixed(1).padStart(15),
        open.ms.toFixed(2).padStart(19),
        (tree / parsed.ms).toFixed(2).padStart(18),
      ].join('  '),
    );
  }
}
