// The task diff of the 200-address mesh (test/generated-templates.ts's meshTemplate, 39,800 tasks) against a copy with
// one group edited (one address left out of the mesh group: 398 tasks removed), beside the two expansions it needs,
// measured in the same run and interleaved; then the same comparison in the language server's worker, as the editor
// asks for it (psconfig/compareTasks on an open document: first with a new base, then after an edit, the base kept);
// and, beyond the aim, the tree's comparison when every task's duration changed too (an answer of 39,402 changed
// tasks, which the main thread and the pipe carry).
//   npm run bench -- task-diff
import * as os from 'node:os';
import type { CompareTasksResult } from '../common/protocol';
import type * as FromText from '../server/src/template/expand/from-text';
import type * as IncludesScope from '../server/src/template/includes/scope';
import type * as TaskDiff from '../server/src/template/task-diff';
import { LspClient } from '../test/lsp/lsp-client';
import { loadBundled } from './bundled';
import { meshTemplate } from '../test/generated-templates';

type Engine = typeof FromText & typeof IncludesScope & typeof TaskDiff;

const ROUNDS = 3;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The mesh with `host-7` left out of its group (its address object stays: only the group is edited). */
function edited(t: Record<string, unknown>): Record<string, unknown> {
  const c = JSON.parse(JSON.stringify(t)) as { groups: { mesh: { addresses: { name: string }[] } } };
  c.groups.mesh.addresses = c.groups.mesh.addresses.filter((s) => s.name !== 'host-7');
  return c;
}

export async function run(): Promise<void> {
  const e = loadBundled<Engine>([
    'server/src/template/expand/from-text',
    'server/src/template/includes/scope',
    'server/src/template/task-diff',
  ]);
  const jq = { path: process.env.JQ_PATH || '/usr/bin/jq' };
  const includes = await e.policyFor(e.commandLineScope(undefined, false));
  const oldText = JSON.stringify(meshTemplate(200), null, 2);
  const newText = JSON.stringify(edited(meshTemplate(200)), null, 2);
  const side = (text: string, source: string) => ({ text, source, uri: `bench:${source}`, includes });
  const expand = (text: string) => e.expandText({ uri: 'bench', version: null, text, includes, jq });
  // Warm-up (JIT, jq's page cache) on a small mesh.
  const small = JSON.stringify(meshTemplate(20));
  await e.compareTemplates(side(small, 'a'), side(small, 'b'), { jq });

  console.log(
    `machine: ${os.cpus().length} CPUs, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}; ${ROUNDS} interleaved rounds, medians`,
  );
  const two: number[] = [];
  const diff: number[] = [];
  const diffNoChecks: number[] = [];
  const gc = (globalThis as { gc?: () => void }).gc;
  for (let round = 0; round < ROUNDS; round++) {
    gc?.();
    let t0 = performance.now();
    const a = await expand(oldText);
    const b = await expand(newText);
    two.push(performance.now() - t0);
    if (a.combinations.length !== 39_800 || b.combinations.length !== 39_402)
      throw new Error(`unexpected expansions: ${a.combinations.length}, ${b.combinations.length}`);
    gc?.();
    t0 = performance.now();
    const d = await e.compareTemplates(side(oldText, 'old'), side(newText, 'new'), { jq });
    diff.push(performance.now() - t0);
    const s = d.summary;
    if (s.removed !== 398 || s.added || s.changed || s.agentsAffected !== 200)
      throw new Error(`unexpected diff: ${JSON.stringify(s)}`);
    gc?.();
    t0 = performance.now();
    await e.compareTemplates(side(oldText, 'old'), side(newText, 'new'), { jq, diagnostics: false });
    diffNoChecks.push(performance.now() - t0);
  }
  const base = median(two);
  const line = (what: string, ms: number): void =>
    console.log(`${what.padEnd(62)} ${ms.toFixed(0).padStart(6)} ms  ${(ms / base).toFixed(2)}× the two expansions`);
  console.log(`200-address mesh (39,800 tasks) vs one group edited (39,402): −398 tasks on 200 agents`);
  line('the two expansions (expandText, one after the other)', base);
  line('task diff (psconfig-tools diff: expansions, checks, diff)', median(diff));
  line('task diff without the checks (--no-diagnostics)', median(diffNoChecks));

  // In the language server's worker, as the editor asks (Compare Tasks with HEAD, the status bar), against the
  // worker's own expansions of the same texts (it runs at a lower priority than this process: its baseline is its own).
  const client = await LspClient.start();
  try {
    const uri = 'file:///bench/mesh200.psconfig.json';
    await client.open(uri, newText);
    let version = 0;
    /**
     * A new version the worker has not expanded, with the same tasks: trailing blank lines (so the comparison is the
     * one-group edit the CLI lines measure). With `duration`, every task's test duration changes too.
     */
    const edit = async (duration = false): Promise<void> => {
      version++;
      const text = duration ? newText.replace('"PT30S"', `"PT${30 + version}S"`) : newText;
      await client.change(uri, [{ text: text + '\n'.repeat(version) }]);
    };
    const workerExpansion: number[] = [];
    const workerCompare: number[] = [];
    const workerEdit: number[] = [];
    const workerAllChanged: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // One full expansion in the worker (a limited request is cut from it; the answer stays small).
      await edit();
      let t0 = performance.now();
      await client.request('psconfig/expandTasks', { uri, limit: 1 });
      workerExpansion.push(performance.now() - t0);
      // A comparison with a base text the worker has not seen (trailing blank lines make it new): both sides expanded.
      await edit();
      t0 = performance.now();
      const r = await client.request<CompareTasksResult>('psconfig/compareTasks', {
        uri,
        base: { text: oldText + '\n'.repeat(round + 1), source: 'HEAD' },
      });
      workerCompare.push(performance.now() - t0);
      if (r.error || r.diff?.summary.removed !== 398 || r.diff.summary.changed !== 0)
        throw new Error(`worker: ${r.error ?? JSON.stringify(r.diff?.summary)}`);
      // The next edit, the base kept: what the status bar costs.
      await edit();
      t0 = performance.now();
      await client.request<CompareTasksResult>('psconfig/compareTasks', {
        uri,
        base: { text: oldText + '\n'.repeat(round + 1), source: 'HEAD' },
        summaryOnly: true,
      });
      workerEdit.push(performance.now() - t0);
      // The tree when every task also changed (its duration): the answer lists 39,402 changed tasks (4.6 MB of JSON).
      await edit(true);
      t0 = performance.now();
      const all = await client.request<CompareTasksResult>('psconfig/compareTasks', {
        uri,
        base: { text: oldText + '\n'.repeat(round + 1), source: 'HEAD' },
      });
      workerAllChanged.push(performance.now() - t0);
      if (all.diff?.summary.changed !== 39_402) throw new Error(`worker: ${JSON.stringify(all.diff?.summary)}`);
    }
    const w = 2 * median(workerExpansion);
    const wline = (what: string, ms: number): void =>
      console.log(`${what.padEnd(62)} ${ms.toFixed(0).padStart(6)} ms  ${(ms / w).toFixed(2)}× its two expansions`);
    wline('worker: two expansions (2 × one full expansion there)', w);
    wline('worker: Compare Tasks with HEAD (both sides new; the tree)', median(workerCompare));
    wline('worker: after an edit, the base kept (the status bar)', median(workerEdit));
    wline('worker: every task changed too, the base kept (beyond the aim)', median(workerAllChanged));
  } finally {
    await client.stop();
  }
  console.log(
    'aim: the task diff within 1.5× the time of its two expansions. Wall times on a shared machine grow with its load.',
  );
}

if (require.main === module) {
  run().catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}
