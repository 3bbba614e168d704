// The schedule of the 200-address full throughput mesh (39,800 tasks, PT30S tests every 4 h with slip PT4H and
// sliprand) beside the time to expand it, both measured in this run, alternately, in one process: the aim is
// a simulated day within 3× the expansion. Figures: expansion wall and CPU; the model (tools, durations, classes,
// participants); the simulation of the warm-up day plus one reported day (every try of both days); runs tried and
// scheduled; the ratio schedule / expansion.
import * as os from 'node:os';
import type * as ExpandModule from '../server/src/template/expand';
import type * as JqModule from '../server/src/template/jq';
import type * as ScheduleModule from '../server/src/template/schedule';
import { loadBundled } from './bundled';
import { meshTemplate } from './expand.bench';

type Engine = typeof ExpandModule & typeof JqModule & typeof ScheduleModule;

const ROUNDS = 3;

interface Timing {
  wallMs: number;
  cpuMs: number;
}

function timed<T>(f: () => T): [T, Timing] {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const r = f();
  const wallMs = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return [r, { wallMs, cpuMs: (c.user + c.system) / 1000 }];
}

async function timedAsync<T>(f: () => Promise<T>): Promise<[T, Timing]> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const r = await f();
  const wallMs = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return [r, { wallMs, cpuMs: (c.user + c.system) / 1000 }];
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

export async function run(): Promise<void> {
  const e = loadBundled<Engine>([
    'server/src/template/expand',
    'server/src/template/jq',
    'server/src/template/schedule',
  ]);
  const jq = e.createJqRunner({ jqPath: process.env.JQ_PATH });
  if (jq.unavailable) {
    console.log(`skipped: ${jq.unavailable}`);
    return;
  }
  const gc = (globalThis as { gc?: () => void }).gc;
  console.log(
    `node ${process.version}; ${os.cpus().length} CPUs, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} (wall times grow with load; CPU does less)`,
  );
  // Warm-up: JIT for both engines on a small mesh.
  const small = await e.expandTemplate(meshTemplate(20), { jq });
  e.simulateSchedule(e.buildScheduleModel(small.combinations), { days: 1 });

  const n = 200;
  const template = meshTemplate(n);
  const expand: Timing[] = [];
  const model: Timing[] = [];
  const simulate: Timing[] = [];
  let summary = '';
  console.log(
    'round  expand wall / CPU      model wall / CPU    simulate wall / CPU    schedule ÷ expand (wall / CPU)',
  );
  for (let round = 1; round <= ROUNDS; round++) {
    gc?.();
    const [expansion, te] = await timedAsync(() => e.expandTemplate(template, { jq }));
    if (expansion.combinations.length !== n * (n - 1) || expansion.combinations.some((c) => c.error))
      throw new Error(`unexpected expansion: ${expansion.combinations.length} combinations`);
    gc?.();
    const [m, tm] = timed(() => e.buildScheduleModel(expansion.combinations));
    const [sim, ts] = timed(() => e.simulateSchedule(m, { days: 1, seed: 1 }));
    expand.push(te);
    model.push(tm);
    simulate.push(ts);
    const wall = tm.wallMs + ts.wallMs;
    const cpu = tm.cpuMs + ts.cpuMs;
    console.log(
      `${String(round).padStart(5)}  ${te.wallMs.toFixed(0).padStart(6)} / ${te.cpuMs.toFixed(0).padStart(5)} ms  ${tm.wallMs.toFixed(0).padStart(6)} / ${tm.cpuMs.toFixed(0).padStart(5)} ms  ${ts.wallMs.toFixed(0).padStart(7)} / ${ts.cpuMs.toFixed(0).padStart(5)} ms  ${(wall / te.wallMs).toFixed(2).padStart(8)}× / ${(cpu / te.cpuMs).toFixed(2)}×`,
    );
    if (round === 1) {
      let wanted = 0;
      let scheduled = 0;
      for (let i = 0; i < m.tasks.length; i++) {
        const t = e.taskTotals(sim, i);
        wanted += t.wanted;
        scheduled += t.scheduled;
      }
      const loads = e.hostLoads(m).map((h) => h.exclusiveLoad);
      summary =
        `${m.tasks.length.toLocaleString('en-US')} tasks on ${m.hosts.length} hosts, ${m.tasks[0].tool} ${m.tasks[0].durationSeconds} s a run; ` +
        `${sim.runs.length.toLocaleString('en-US')} tries over the warm-up day and the reported day; reported day: ` +
        `${scheduled.toLocaleString('en-US')} of ${wanted.toLocaleString('en-US')} runs scheduled; exclusive load per host ${Math.max(...loads).toFixed(3)}`;
    }
  }
  const wall = median(model.map((t, i) => t.wallMs + simulate[i].wallMs));
  const cpu = median(model.map((t, i) => t.cpuMs + simulate[i].cpuMs));
  const ew = median(expand.map((t) => t.wallMs));
  const ec = median(expand.map((t) => t.cpuMs));
  console.log(summary);
  console.log(
    `median of ${ROUNDS}: expand ${ew.toFixed(0)} ms (CPU ${ec.toFixed(0)} ms); schedule (model + simulated day) ${wall.toFixed(0)} ms (CPU ${cpu.toFixed(0)} ms): ${(wall / ew).toFixed(2)}× the expansion wall, ${(cpu / ec).toFixed(2)}× its CPU (aim: within 3×)`,
  );
  console.log(
    'expand = expandTemplate with its jq processes (two jq variables per task); the expansion CPU column is this process only, jq runs beside it.',
  );
}

// Run directly: node out/bench/schedule.bench.js
if (require.main === module) {
  run().catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}
