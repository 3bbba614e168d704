// validateTemplate beside JSON.parse in a worker thread started with the server's worker heap settings
// (server/src/lsp/worker-heap.ts), where the server runs its diagnostics. Started by diagnostics.bench.ts, which
// prints what it posts back.
import { parentPort } from 'node:worker_threads';
import { validateTemplate } from '../server/src/template/diagnostics';
import { generateLargeTemplate, type Timing } from './diagnostics.bench';

export interface WorkerFigures {
  jsonParse: Timing;
  validate: Timing;
  runs: number;
}

/** Medians of `runs` calls after 5 unmeasured ones. No forced collection first (unlike the main-thread figures):
 *  the server never forces one, and after one V8 shrinks the young generation and grows it back over the next
 *  checks, which would measure the shrinking rather than the settings. */
function steady(fn: () => void, runs: number): Timing {
  for (let i = 0; i < 5; i++) fn();
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    fn();
    wall.push(Number(process.hrtime.bigint() - t0) / 1e6);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1e3);
  }
  const mid = (a: number[]): number => a.sort((x, y) => x - y)[a.length >> 1];
  return { wall: mid(wall), cpu: mid(cpu) };
}

if (parentPort) {
  const text = generateLargeTemplate();
  const runs = 40;
  const figures: WorkerFigures = {
    jsonParse: steady(() => JSON.parse(text), runs),
    validate: steady(() => validateTemplate(text).parsed.tree.release(), runs),
    runs,
  };
  parentPort.postMessage(figures);
}
