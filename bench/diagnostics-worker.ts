// validateTemplate beside JSON.parse in a worker thread started with the server's worker heap settings
// (server/src/lsp/worker-heap.ts), where the server runs its diagnostics. Started by diagnostics.bench.ts, which
// prints what it posts back.
import { parentPort } from 'node:worker_threads';
import { validateTemplate } from '../server/src/template/diagnostics';
import { generateLargeTemplate, median, type Timing } from './diagnostics.bench';

export interface WorkerFigures {
  jsonParse: Timing;
  validate: Timing;
}

if (parentPort) {
  const text = generateLargeTemplate();
  // warm up every path, as the main-thread figures do
  JSON.parse(text);
  validateTemplate(text).parsed.tree.release();
  const runs = 15;
  const figures: WorkerFigures = {
    jsonParse: median(() => JSON.parse(text), runs),
    validate: median(() => validateTemplate(text).parsed.tree.release(), runs),
  };
  parentPort.postMessage(figures);
}
