// Full template diagnostics on a large generated template vs JSON.parse of the same text, in the same run; then a
// 16 MB template opened in the real language server, timed to its first diagnostics.
//   npm run bench -- diagnostics
import { join } from 'node:path';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import { LspClient } from '../test/lsp/lsp-client';
import { WORKER_RESOURCE_LIMITS } from '../server/src/lsp/main';
import type { WorkerFigures } from './diagnostics-worker';
import { validateTemplate } from '../server/src/template/diagnostics';
import { buildModel } from '../server/src/template/model';
import { parseTemplate } from '../server/src/template/parse';
import { checkReferences } from '../server/src/template/rules/references';
import { checkTemplateVariables } from '../server/src/template/rules/template-variables';
import { checkSemantics } from '../server/src/template/rules/semantics';
import { checkAgentBehaviour } from '../server/src/template/rules/agent-behaviour';
import { checkUnused } from '../server/src/template/rules/unused';
import { checkSyntax } from '../server/src/template/rules/syntax';
import { validateSchema } from '../server/src/template/schema/validator';
import { buildSymbolIndex } from '../server/src/template/symbols';
import { checkAddressFormats } from '../server/src/template/rules/address-format';
import { checkEmptySelections, clearSelectionVerdicts } from '../server/src/template/rules/empty-selection';
import { IncludeSet } from '../server/src/template/includes/include-set';
import { checkPscheduler } from '../server/src/template/rules/pscheduler';
import { clearPschedulerCaches } from '../server/src/template/pscheduler/template-expansion';
import { grafanaDiagnostics } from '../server/src/template/grafana/agent-view';

/** A realistic large template: 2,000 addresses, 100 groups, 1,000 tasks, variables in tests/archives/references. */
export function generateLargeTemplate(addresses = 2000, groups = 100, tasks = 1000): string {
  const t: Record<string, Record<string, unknown>> = {
    addresses: {},
    groups: {},
    tests: {},
    tasks: {},
    archives: {},
    schedules: {},
    hosts: {},
  };
  for (let i = 0; i < addresses; i++) {
    const name = `ps-${i}.example.net`;
    t.hosts[`host-${i}`] = { archives: ['central'], tags: ['dc'] };
    t.addresses[name] = {
      address: name,
      host: `host-${i}`,
      labels: {
        ipv4: { address: `10.${i >> 16}.${(i >> 8) & 255}.${i & 255}` },
        ipv6: { address: `2001:db8::${i.toString(16)}` },
      },
      tags: ['perfsonar'],
      _meta: { 'display-name': `Host ${i}` },
    };
  }
  const per = Math.max(2, Math.floor(addresses / groups));
  for (let g = 0; g < groups; g++) {
    const sel = Array.from({ length: per }, (_, k) => ({
      name: `ps-${(g * per + k) % addresses}.example.net`,
      ...(k % 3 === 0 ? { label: 'ipv4' } : {}),
    }));
    t.groups[`group-${g}`] =
      g % 10 === 0
        ? { type: 'list', addresses: sel }
        : g % 2
          ? { type: 'disjoint', 'a-addresses': sel.slice(0, 1), 'b-addresses': sel.slice(1) }
          : { type: 'mesh', addresses: sel, 'excludes-self': 'host' };
  }
  t.schedules.hourly = { repeat: 'PT1H', slip: 'PT30M', sliprand: true };
  t.archives.central = {
    archiver: 'http',
    data: {
      schema: 3,
      _url: 'https://archive.example.net/logstash',
      op: 'put',
      _headers: { 'x-ps-observer': '{% scheduled_by_address %}' },
    },
  };
  for (let i = 0; i < tasks; i++) {
    const g = i % groups;
    const list = g % 10 === 0;
    t.tests[`test-${i}`] = {
      type: i % 2 ? 'throughput' : 'latencybg',
      spec: list
        ? { dest: '{% address[0] %}', duration: 'PT30S' }
        : {
            source: '{% address[0] %}',
            dest: '{% address[1] %}',
            'source-node': '{% pscheduler_address[0] %}',
            duration: 'PT30S',
            // latencybg has `flip`; throughput has not (pScheduler would refuse every such task)
            ...(i % 2 ? {} : { flip: '{% flip %}' }),
          },
    };
    t.tasks[`task-${i}`] = {
      group: `group-${g}`,
      test: `test-${i}`,
      schedule: 'hourly',
      archives: ['central'],
      reference: { 'display-task-name': `Task ${i}`, name: '{% jq .addresses[0]._meta."display-name" %}' },
    };
  }
  return JSON.stringify(t, null, 2);
}

export interface Timing {
  wall: number;
  cpu: number;
}

/**
 * Median wall-clock and CPU (user+system of this process) milliseconds over `runs` back-to-back calls, after one
 * collection before the series (not before each call: a forced full collection empties the young generation, so
 * the next call pays to map it again, which a server in use never does). CPU time is steadier on a busy machine.
 * `collectFirst` false: no collection at all (the worker figures, diagnostics-worker.ts).
 */
export function median(fn: () => void, runs: number, collectFirst = true): Timing {
  const wall: number[] = [];
  const cpu: number[] = [];
  if (collectFirst) (globalThis as { gc?: () => void }).gc?.();
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

/** Medians of two functions run alternately (ABAB…, then BABA… order swapped each round). */
function interleaved(a: () => void, b: () => void, runs: number): [Timing, Timing] {
  const ta: Timing[] = [];
  const tb: Timing[] = [];
  for (let i = 0; i < runs; i++) {
    const order: [() => void, Timing[]][] =
      i % 2
        ? [
            [b, tb],
            [a, ta],
          ]
        : [
            [a, ta],
            [b, tb],
          ];
    for (const [fn, into] of order) into.push(median(fn, 1));
  }
  const mid = (xs: number[]): number => xs.sort((x, y) => x - y)[xs.length >> 1];
  const pick = (ts: Timing[]): Timing => ({ wall: mid(ts.map((t) => t.wall)), cpu: mid(ts.map((t) => t.cpu)) });
  return [pick(ta), pick(tb)];
}

/** The change from base to x, signed: `+5.3 %`, `-1.1 %`. */
function pct(x: number, base: number): string {
  const p = ((x - base) / base) * 100;
  return `${p >= 0 ? '+' : ''}${p.toFixed(1)} %`;
}

function row(label: string, t: Timing, base?: Timing): string {
  const ratio = base
    ? `  ${(t.wall / base.wall).toFixed(1)}x wall, ${(t.cpu / base.cpu).toFixed(1)}x cpu vs JSON.parse`
    : '';
  return `${label.padEnd(18)} wall ${t.wall.toFixed(1).padStart(7)} ms  cpu ${t.cpu.toFixed(1).padStart(7)} ms${ratio}`;
}

export async function run(): Promise<void> {
  const text = generateLargeTemplate();
  const runs = 9;
  // Warm up: a server checks the template on every keystroke, so the figure that matters is the steady state (the
  // `cold` row below is the first check). One run is not enough for that: V8 compiles the hot functions with its
  // optimizing tiers over the first few calls, and on this template the first runs after one warm-up read 10-20 %
  // slower than the rest.
  for (let i = 0; i < 5; i++) JSON.parse(text);
  const warm = validateTemplate(text);
  for (let i = 0; i < 4; i++) validateTemplate(text).parsed.tree.release();
  const errors = warm.diagnostics.filter((d) => d.severity === 'error').length;
  // Rounds of the three series, their medians taken: a single series of the baseline drifted with whatever the
  // benches before it left in the heap (one full run read JSON.parse at 8.9 ms, 5 ms alone), which flattered the
  // ratios; rounds put both sides through the same drift.
  const rounds = 5;
  const series: [Timing[], Timing[], Timing[]] = [[], [], []];
  for (let r = 0; r < rounds; r++) {
    series[0].push(median(() => void JSON.parse(text), runs));
    // As the server's worker does: check, then give the tree's storage back for the next version (tree.ts).
    series[1].push(median(() => parseTemplate(text).tree.release(), runs));
    series[2].push(median(() => validateTemplate(text).parsed.tree.release(), runs));
  }
  const mid = (ts: Timing[], k: 'wall' | 'cpu'): number => ts.map((t) => t[k]).sort((x, y) => x - y)[ts.length >> 1];
  const [jsonParse, parse, full] = series.map((ts) => ({ wall: mid(ts, 'wall'), cpu: mid(ts, 'cpu') }));
  console.log(
    `template: ${(text.length / 1e6).toFixed(2)} MB, 2,000 addresses, 100 groups, 1,000 tasks; ${warm.diagnostics.length} diagnostics (${errors} errors)`,
  );
  console.log(
    `medians of ${rounds} rounds of ${runs} runs each (the rows below: of ${runs} runs); aim: validateTemplate within 8x of JSON.parse`,
  );
  console.log(row('JSON.parse', jsonParse));
  console.log(row('parseTemplate', parse, jsonParse));
  console.log(row('validateTemplate', full, jsonParse));
  // Where the server runs its checks: a worker thread with the server's heap settings (a larger young generation),
  // and beside it one with V8's defaults, both measured the same way (diagnostics-worker.ts).
  for (const limits of [WORKER_RESOURCE_LIMITS, undefined]) {
    const w = await workerFigures(limits);
    console.log(
      `in a worker, ${limits ? `as the server's (${JSON.stringify(limits)})` : "V8's default heap"}, medians of ${w.runs} runs: JSON.parse ${w.jsonParse.wall.toFixed(1)} ms, validateTemplate ${w.validate.wall.toFixed(1)} ms wall: ${(w.validate.wall / w.jsonParse.wall).toFixed(1)}x (cpu ${(w.validate.cpu / w.jsonParse.cpu).toFixed(1)}x)`,
    );
  }
  // The same on a first version: the verdicts that pScheduler's checks and the empty-selection check keep while
  // the addresses and hosts text is unchanged (between keystrokes) emptied before each run, as on opening a file.
  const cold = median(() => {
    clearPschedulerCaches();
    clearSelectionVerdicts();
    validateTemplate(text).parsed.tree.release();
  }, runs);
  console.log(row('  cold', cold, jsonParse));
  // pScheduler's own checks (rules/pscheduler.ts): the same validation with and without them, runs alternating in
  // this process so that both see the same load.
  const [withPs, withoutPs] = interleaved(
    () => validateTemplate(text),
    () => validateTemplate(text, { pscheduler: false }),
    15,
  );
  console.log(row('  with pScheduler', withPs, jsonParse));
  console.log(row('  without', withoutPs, jsonParse));
  console.log(
    `  pScheduler checks cost: ${pct(withPs.cpu, withoutPs.cpu)} cpu, ${pct(withPs.wall, withoutPs.wall)} wall (medians of 15 alternating runs)`,
  );
  // Where the time goes, each pass alone on an already parsed template (no fresh tree to promote: less GC).
  const parsed = parseTemplate(text);
  const index = buildSymbolIndex(parsed.root);
  console.log('passes on a parsed template (fresh model each run, so per-model caches do not hide work):');
  const passes: [string, () => unknown][] = [
    ['symbol index', () => buildSymbolIndex(parsed.root)],
    ['model', () => buildModel(parsed, index)],
    ['schema', () => validateSchema(parsed.root)],
    ['syntax', () => checkSyntax(parsed)],
    ['references', () => checkReferences(buildModel(parsed, index))],
    ['variables', () => checkTemplateVariables(buildModel({ ...parsed }, index))],
    ['semantics', () => checkSemantics(buildModel(parsed, index))],
    ['agent behaviour', () => checkAgentBehaviour(buildModel({ ...parsed }, index))],
    ['unused', () => checkUnused(buildModel(parsed, index))],
    ['address formats', () => checkAddressFormats(buildModel(parsed, index))],
    // Every group and task planned up to its first combination (no includes: an empty, complete set).
    // (verdicts kept while the addresses and hosts text is unchanged; cold: emptied first)
    ['empty selections', () => checkEmptySelections(buildModel(parsed, index), new IncludeSet([]))],
    [
      'empty selections, cold',
      () => {
        clearSelectionVerdicts();
        checkEmptySelections(buildModel(parsed, index), new IncludeSet([]));
      },
    ],
    // pScheduler's checks keep candidate addresses and verdicts across versions while the addresses and hosts
    // text is unchanged (as between keystrokes); cold: that cache emptied first, as on opening the file.
    // What perfSONAR 5's Grafana agent draws of each task (one view per model).
    ['grafana', () => grafanaDiagnostics(buildModel(parsed, index))],
    ['pscheduler', () => checkPscheduler(buildModel(parsed, index))],
    [
      'pscheduler, cold',
      () => {
        clearPschedulerCaches();
        checkPscheduler(buildModel(parsed, index));
      },
    ],
  ];
  for (const [label, fn] of passes) console.log(row(`  ${label}`, median(fn, runs), jsonParse));
  parsed.tree.release();
  await firstDiagnosticsOfLargest();
}

/** The worker figures (diagnostics-worker.ts), measured in a worker started as the server starts its own. */
function workerFigures(resourceLimits: ResourceLimits | undefined): Promise<WorkerFigures> {
  return new Promise((resolve, reject) => {
    const w = new Worker(join(__dirname, 'diagnostics-worker.js'), { resourceLimits });
    w.once('message', (m: WorkerFigures) => {
      resolve(m);
      void w.terminate();
    });
    w.once('error', reject);
  });
}

/**
 * The largest template the server analyses (just under its 16 MiB bound: 20,000 addresses, 1,000 groups, 10,000
 * tasks), opened in the real server: the time from didOpen to its first diagnostics (every check, in the worker),
 * beside JSON.parse of the same text and validateTemplate in this process.
 */
async function firstDiagnosticsOfLargest(): Promise<void> {
  const text = generateLargeTemplate(20000, 1000, 10000);
  const t0 = process.hrtime.bigint();
  JSON.parse(text);
  const parseMs = Number(process.hrtime.bigint() - t0) / 1e6;
  const t1 = process.hrtime.bigint();
  validateTemplate(text).parsed.tree.release();
  const validateMs = Number(process.hrtime.bigint() - t1) / 1e6;
  const client = await LspClient.start();
  try {
    const t2 = process.hrtime.bigint();
    const diagnostics = await client.open('file:///bench/largest.psconfig.json', text);
    const firstMs = Number(process.hrtime.bigint() - t2) / 1e6;
    const tooLarge = diagnostics.some((d) => d.code === 'psconfig/too-large');
    console.log(
      `${(text.length / 1e6).toFixed(1)} MB template (20,000 addresses, 10,000 tasks)${tooLarge ? ' REFUSED as too large' : ''}: ` +
        `first diagnostics over LSP ${firstMs.toFixed(0)} ms after didOpen (${diagnostics.length} diagnostics); ` +
        `JSON.parse ${parseMs.toFixed(0)} ms, validateTemplate in this process ${validateMs.toFixed(0)} ms ` +
        `(${(validateMs / parseMs).toFixed(1)}x)`,
    );
  } finally {
    await client.stop();
  }
}
