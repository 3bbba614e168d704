// Expansion of full meshes (50, 100, 200, 300 addresses) with two jq variables per test.
// Figures: wall time, combinations/second, jq processes started, peak memory; beside two baselines measured in
// the same run: a plain loop building the same number of task objects, and JSON.stringify of the result; and the
// identical-task step (expand/identical-tasks.ts, part of the expansion) run again alone on the same result, so the
// expansion without it is the wall time less that figure.
import * as os from 'node:os';
import type * as ExpandModule from '../server/src/template/expand';
import type * as JqModule from '../server/src/template/jq';
import type * as IdenticalModule from '../server/src/template/expand/identical-tasks';
import { meshTemplate } from '../test/generated-templates';
import { loadBundled } from './bundled';

function loadBundledEngine(): typeof ExpandModule & typeof JqModule & typeof IdenticalModule {
  return loadBundled([
    'server/src/template/expand',
    'server/src/template/jq',
    'server/src/template/expand/identical-tasks',
  ]);
}

/** The same number of task-shaped objects built by a plain loop (what any implementation must at least pay). */
function baselineLoop(n: number): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      if (i === j) continue;
      const a = `host-${i}.example.net`;
      const b = `host-${j}.example.net`;
      out.push({
        test: { type: 'throughput', spec: { source: a, dest: b, duration: 'PT30S', 'source-node': a } },
        archives: [
          {
            archiver: 'http',
            data: { schema: 2, _url: 'https://archive.example.net/logstash', _headers: { 'x-ps-observer': a } },
          },
        ],
        schedule: { repeat: 'PT4H', slip: 'PT4H', sliprand: true },
        reference: {
          'display-set-source': `Host ${i}`,
          'display-set-dest': `Host ${j}`,
          psconfig: {
            'created-by': { 'user-agent': 'psconfig-pscheduler-agent', 'agent-hostname': a, uuid: '<preview>' },
          },
        },
      });
    }
  }
  return out;
}

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

export async function run(): Promise<void> {
  const { expandTemplate, createJqRunner, markIdenticalTasks } = loadBundledEngine();
  const jq = createJqRunner({ jqPath: process.env.JQ_PATH });
  if (jq.unavailable) {
    console.log(`skipped: ${jq.unavailable}`);
    return;
  }
  console.log(`jq: ${jq.binary?.path} (${await jq.version()}); node ${process.version}`);
  // Warm-up (JIT, jq page cache) so the first size is not penalised.
  await expandTemplate(meshTemplate(10), { jq });
  const gc = (globalThis as { gc?: () => void }).gc;
  // jq's own time, measured around each run (wall: the processes run while Node waits).
  let jqWall = 0;
  const timed = jq.run.bind(jq);
  jq.run = async (...args: Parameters<typeof jq.run>) => {
    const t = performance.now();
    const r = await timed(...args);
    jqWall += performance.now() - t;
    return r;
  };
  console.log(
    `machine: ${os.cpus().length} CPUs, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} (wall times grow with load; node CPU does less)`,
  );
  console.log(
    'addresses  tasks   expand wall  node CPU  jq wall  tasks/s  jq procs  heap peak  maxRSS  | loop baseline (wall / CPU)  ratio (wall / CPU) | stringify | identical step (wall / CPU, share)',
  );
  for (const n of [50, 100, 200, 300]) {
    const template = meshTemplate(n);
    gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    let heapPeak = heapBefore;
    const sampler = setInterval(() => (heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed)), 5);
    const procsBefore = jq.processesStarted;
    jqWall = 0;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const r = await expandTemplate(template, { jq });
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    clearInterval(sampler);
    heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
    const procs = jq.processesStarted - procsBefore;
    const failed = r.combinations.filter((c) => c.error).length;
    if (failed || r.combinations.length !== n * (n - 1))
      throw new Error(`unexpected result: ${r.combinations.length} combinations, ${failed} failed`);
    const sample = r.combinations[n].pscheduler?.reference; // host-1 → host-2
    if (!sample || sample['display-set-dest'] !== 'Host 2')
      throw new Error(`jq values wrong: ${JSON.stringify(sample)}`);
    if (r.combinations.some((c) => c.identicalTo)) throw new Error('a mesh of distinct addresses has no duplicates');
    const ic0 = process.cpuUsage();
    const i0 = performance.now();
    markIdenticalTasks(r.combinations);
    const identicalMs = performance.now() - i0;
    const ic = process.cpuUsage(ic0);
    const identicalCpuMs = (ic.user + ic.system) / 1000;
    const s0 = performance.now();
    const json = JSON.stringify(r.combinations);
    const stringifyMs = performance.now() - s0;
    gc?.();
    const bc0 = process.cpuUsage();
    const b0 = performance.now();
    const base = baselineLoop(n);
    const loopMs = performance.now() - b0;
    const bc = process.cpuUsage(bc0);
    const loopCpuMs = (bc.user + bc.system) / 1000;
    const maxRss = process.resourceUsage().maxRSS * 1024;
    const rate = Math.round((r.combinations.length / ms) * 1000);
    console.log(
      `${String(n).padStart(9)}  ${String(r.combinations.length).padStart(5)}  ${ms.toFixed(0).padStart(8)} ms  ${cpuMs.toFixed(0).padStart(5)} ms  ${jqWall.toFixed(0).padStart(5)} ms  ${String(rate).padStart(7)}  ${String(procs).padStart(8)}  ${mb(heapPeak - heapBefore).padStart(9)}  ${mb(maxRss).padStart(6)}  | ${loopMs.toFixed(0).padStart(6)} ms / ${loopCpuMs.toFixed(0).padStart(4)} ms CPU  ${(ms / loopMs).toFixed(1).padStart(5)}× / ${(cpuMs / loopCpuMs).toFixed(1).padStart(4)}× CPU | ${stringifyMs.toFixed(0)} ms (${mb(json.length)}) | ${identicalMs.toFixed(0)} ms / ${identicalCpuMs.toFixed(0)} ms CPU (${((identicalCpuMs / cpuMs) * 100).toFixed(1)}% of node CPU)`,
    );
    if (base.length !== r.combinations.length) throw new Error('baseline size mismatch');
  }
  console.log(
    'aim: 200 addresses (39,800 tasks) in under 2 s. node CPU = this process during the expansion; jq wall = time jq ran (two processes in parallel above 10,000 tasks);',
  );
  console.log(
    '"heap peak" = heap growth during the expansion; maxRSS = process peak so far; ratios = expand / a plain loop building the same objects, wall and CPU;',
  );
  console.log(
    '"identical step" = marking the tasks pSConfig creates once (included in expand wall), run again alone on the same combinations; expand without it = wall less that.',
  );
}

// Run directly: node out/bench/expand.bench.js
if (require.main === module) {
  run().catch((e: unknown) => {
    console.error(e);
    process.exitCode = 1;
  });
}
