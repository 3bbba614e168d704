// validateTemplate beside JSON.parse in a worker thread started with the server's worker heap settings
// (server/src/lsp/main/worker-heap.ts), where the server runs its diagnostics. Started by diagnostics.bench.ts, which
// prints what it posts back.
import { parentPort } from 'node:worker_threads';
import { validateTemplate } from '../server/src/template/diagnostics';
import { generateLargeTemplate, median, type Timing } from './diagnostics.bench';

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
  return median(fn, runs, false);
}

if (parentPort) {
  const text = generateLargeTemplate();
  const runs = 40;
  const figures: WorkerFigures = {
    jsonParse: steady(() => void JSON.parse(text), runs),
    validate: steady(() => validateTemplate(text).parsed.tree.release(), runs),
    runs,
  };
  parentPort.postMessage(figures);
}
