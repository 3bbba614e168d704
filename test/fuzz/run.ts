// `npm run fuzz -- --n N --seed S [--json FILE] [--no-lsp] [--jq PATH]`: mutated templates (mutations.ts) through
// validate and expand (in this process, as the CLI runs them) and through a real language server process (open,
// diagnostics, hover, completion, outline, quick fixes, expansion, close). Reports crashes (an exception, a handler
// that failed, a server that died), hangs (a stage without an answer within 30 s), stalls over 1 s and peak memory,
// with the server's memory after the first 100 inputs and at the end. Exit 1 on any crash, hang or stall, or when
// the server's memory at the end is over twice its memory after 100 inputs, or (runs of 200 inputs or more) its
// resident size, once every input is closed and its idle worker retired, is over 1.5× the idle server's.
// The server's memory is what it holds: the live heaps of its threads (main and worker) after a full collection
// (`psconfig/serverMemory`). Resident size during the run is reported beside but not judged: V8 keeps heap pages it
// grew for one large expansion for later ones, so it follows the largest recent input rather than what is still
// referenced. At the end it is judged: what an editor user sees must come back once the documents are closed.
// A stall is more than 1 s of CPU time spent on one input: by validate or by expand in this process, or by the
// server (all its threads) from opening the document to answering a probe on a small one after closing it. CPU
// time, because the 2-core machine this runs on is shared: wall times grow with the load and are reported beside.
// Documented waits, not stalls: jq runs (separate processes, up to their time limit: 1 s here), a server
// expansion that jq holds longer than 3 s, cancelled by closing the document (its jq processes are killed), and
// work proportional to what the template expands to: CPU over 1 s but within 1 s plus 20 ms per MB of the task JSON
// of its combinations (long strings repeated in every combination: a 340 KB template expanding to 185 MB, which
// pSConfig would produce too). The preview's answer is bounded (4 MB, capAnswer); the expansion itself is not.
import { mkdirSync, writeFileSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { jsonText } from '../../common/json';
import { tmpdir } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { CompletionList, Diagnostic, DocumentSymbol, Hover } from 'vscode-languageserver-protocol';
import { validateText } from '../../cli/validate-command';
import { expandText } from '../../server/src/template/expand/from-text';
import { DEFAULT_INCLUDE_LIMITS, type IncludePolicy } from '../../server/src/template/includes/loader';
import { examplesDir, repoRoot } from '../fixtures';
import { LspClient } from '../lsp/lsp-client';
import { residentMb } from '../processes';
import { ServerMemoryRequest, type ServerMemoryResult } from '../../common/protocol';
import { mutate, MUTATION_NAMES } from './mutations';
import { Random } from './random';

const HANG_MS = 30_000;
const STALL_MS = 1000;
const JQ_TIMEOUT_MS = 1000;
const SERVER_EXPAND_WAIT_MS = 3000;
const MEMORY_MARK = 100;
/**
 * The server retires its worker this long after a document closed, when it has had no job since (30 s by default;
 * shorter here so the end of a run does not wait long). Inputs come one after another, so mid-run it rarely happens.
 */
const WORKER_IDLE_MS = 5000;
/** Resident size at the end (all inputs closed, the worker retired) against the idle server's: at most this. */
const RESIDENT_RATIO_LIMIT = 1.5;
/** CPU allowed per MB of expanded task JSON beyond STALL_MS before work proportional to the output is a stall. */
const OUTPUT_MS_PER_MB = 20;

interface Options {
  n: number;
  seed: number;
  json?: string;
  lsp: boolean;
  jq: string;
}

function parseOptions(argv: string[]): Options {
  const o: Options = { n: 1000, seed: 1, lsp: true, jq: process.env.JQ_PATH || '/usr/bin/jq' };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--n') o.n = Number(argv[++i]);
    else if (a === '--seed') o.seed = Number(argv[++i]);
    else if (a === '--json') o.json = argv[++i];
    else if (a === '--no-lsp') o.lsp = false;
    else if (a === '--jq') o.jq = argv[++i];
    else throw new Error(`unknown option ${a} (usage: --n N --seed S [--json FILE] [--no-lsp] [--jq PATH])`);
  }
  if (!Number.isInteger(o.n) || o.n < 1 || !Number.isInteger(o.seed)) throw new Error('--n and --seed take integers');
  return o;
}

/** The fuzzer's corpus: every real template of the fixtures and the examples the project carries. */
export function corpus(): string[] {
  const texts = readdirSync(examplesDir)
    .filter((f) => f.endsWith('.json') && f !== 'expected-pairs.json')
    .map((f) => readFileSync(join(examplesDir, f), 'utf8'));
  const examples = join(repoRoot(), 'examples');
  for (const f of readdirSync(examples)) if (f.endsWith('.json')) texts.push(readFileSync(join(examples, f), 'utf8'));
  return texts;
}

interface Finding {
  input: number;
  stage: string;
  what: string;
  mutations: string[];
  file?: string;
}

class Outcome<T> {
  constructor(
    readonly value: T | undefined,
    readonly ms: number,
    readonly timedOut: boolean,
    readonly error?: unknown,
  ) {}
}

async function timed<T>(work: () => Promise<T>, limitMs = HANG_MS): Promise<Outcome<T>> {
  const t0 = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), limitMs)));
  try {
    const r = await Promise.race([work(), timeout]);
    if (r === 'timeout') return new Outcome<T>(undefined, performance.now() - t0, true);
    return new Outcome<T>(r, performance.now() - t0, false);
  } catch (e) {
    return new Outcome<T>(undefined, performance.now() - t0, false, e);
  } finally {
    clearTimeout(timer);
  }
}

/** CPU time (user + system, all threads) of a process, ms, from /proc (clock ticks of 10 ms). */
function cpuMsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return 0;
  }
}

function selfCpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** Waits (up to `limitMs`) for the server's log line saying it retired its idle worker, after log entry `from`. */
async function workerRetired(client: LspClient, from: number, limitMs: number): Promise<boolean> {
  const end = Date.now() + limitMs;
  for (;;) {
    if (client.logs.slice(from).some((l) => /background worker retired/.test(l.message))) return true;
    if (Date.now() > end || !client.alive) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The live heaps of the server's threads after a full collection, MB (undefined if it does not answer). */
async function heldMb(client: LspClient): Promise<number | undefined> {
  const m = await timed(() => client.request<ServerMemoryResult>(ServerMemoryRequest.method, {}));
  if (!m.value) return undefined;
  return Math.round(m.value.heaps.reduce((n, h) => n + h.heapUsedMb, 0) * 10) / 10;
}

const usesJq = (text: string): boolean => /\{%\s*jq|"jq"\s*:/.test(text);

export async function runFuzz(o: Options): Promise<number> {
  const started = Date.now();
  const r = new Random(o.seed);
  const texts = corpus();
  const out = join(repoRoot(), 'test-results', 'fuzz');
  mkdirSync(out, { recursive: true });
  const work = join(tmpdir(), `psconfig-fuzz-${process.pid}`);
  mkdirSync(work, { recursive: true });
  const policy: IncludePolicy = {
    workingDir: work,
    workingDirLabel: 'the fuzz directory',
    remote: 'no-consent',
    limits: { ...DEFAULT_INCLUDE_LIMITS, timeoutMs: 2000 },
  };
  const jq = { path: o.jq, timeoutMs: JQ_TIMEOUT_MS, memoryLimitMb: 128 };

  const crashes: Finding[] = [];
  const hangs: Finding[] = [];
  const stalls: Finding[] = [];
  let documentedWaits = 0;
  const outputWaits: { input: number; stage: string; cpuMs: number; outputMb: number }[] = [];
  const slowest: Record<string, { ms: number; input: number }> = {};
  const note = (stage: string, ms: number, input: number): void => {
    if (!slowest[stage] || slowest[stage].ms < ms) slowest[stage] = { ms, input };
  };
  const mutationCounts: Record<string, number> = Object.fromEntries(MUTATION_NAMES.map((m) => [m, 0]));

  let client: LspClient | undefined;
  const control = 'file:///tmp/psconfig-fuzz-control.psconfig.json';
  const controlText = texts[0];
  const startServer = async (): Promise<LspClient> => {
    const c = await LspClient.start({
      settings: { jq: { path: o.jq, memoryLimitMb: 128 } },
      env: { PSCONFIG_WORKER_IDLE_RETIRE_MS: String(WORKER_IDLE_MS) },
    });
    await c.open(control, controlText);
    await c.request('psconfig/expandTasks', { uri: control });
    return c;
  };
  if (o.lsp) client = await startServer();
  // The idle server: the control template open, checked and expanded.
  const serverIdle = client ? residentMb(client.child.pid as number).rss : 0;
  /** Where the server's log stood when the latest input was closed (its retirement is logged after that). */
  let logsAtClose = 0;
  let serverAt100: number | undefined;
  let heldAt100: number | undefined;
  let serverPeak = 0;
  let errorsSeen = 0;
  let probeMax = 0;
  const loop = monitorEventLoopDelay({ resolution: 20 });

  for (let i = 0; i < o.n; i++) {
    const { text, applied } = mutate(texts, r);
    for (const m of applied) mutationCounts[m]++;
    const save = (kind: string): string => {
      const file = join(out, `${kind}-seed${o.seed}-input${i}.json`);
      writeFileSync(file, text);
      return file;
    };
    const finding = (list: Finding[], stage: string, what: string): void => {
      list.push({ input: i, stage, what, mutations: applied, file: save(list === crashes ? 'crash' : 'slow') });
    };

    // ---- in-process: validate and expand as the CLI does; this process's event loop must never block 1 s.
    loop.reset();
    loop.enable();
    let cpu0 = selfCpuMs();
    const v = await timed(() => validateText('fuzz.json', text, policy, true));
    const validateCpu = selfCpuMs() - cpu0;
    note('validate CPU', validateCpu, i);
    if (validateCpu > STALL_MS) finding(stalls, 'validate', `${Math.round(validateCpu)} ms of CPU`);
    cpu0 = selfCpuMs();
    if (v.error) finding(crashes, 'validate', (v.error as Error).stack ?? jsonText(v.error));
    else if (v.timedOut) finding(hangs, 'validate', `no result within ${HANG_MS} ms`);
    note('validate', v.ms, i);
    const e = await timed(() =>
      expandText({ uri: `file://${work}/input-${i}.json`, version: null, text, includes: policy, jq, limit: 2000 }),
    );
    if (e.error) finding(crashes, 'expand', (e.error as Error).stack ?? jsonText(e.error));
    else if (e.timedOut) finding(hangs, 'expand', `no result within ${HANG_MS} ms`);
    else if (e.value?.error?.startsWith('Internal error')) finding(crashes, 'expand', e.value.error);
    note('expand', e.ms, i);
    const expandCpu = selfCpuMs() - cpu0;
    note('expand CPU', expandCpu, i);
    // The task JSON this input expands to (measured only for an input that took over 1 s somewhere).
    let outputMb: number | undefined;
    const output = (): number =>
      (outputMb ??= (e.value?.combinations ?? []).reduce((n, c) => n + JSON.stringify(c).length, 0) / 1e6);
    const slow = (stage: string, cpuMs: number, what: string): void => {
      if (cpuMs <= STALL_MS) return;
      if (cpuMs <= STALL_MS + OUTPUT_MS_PER_MB * output())
        outputWaits.push({ input: i, stage, cpuMs: Math.round(cpuMs), outputMb: Math.round(output()) });
      else finding(stalls, stage, what);
    };
    slow('expand', expandCpu, `${Math.round(expandCpu)} ms of CPU`);
    loop.disable();
    note('event loop blocked (wall)', loop.max / 1e6, i);

    // ---- the language server, a real process.
    if (client) {
      const uri = `file:///tmp/psconfig-fuzz/input-${i}.psconfig.json`;
      const serverCpu0 = cpuMsOf(client.child.pid as number);
      const d = await timed(() => client!.open(uri, text));
      let diagnostics: Diagnostic[] = d.value ?? [];
      if (d.timedOut || d.error) {
        if (!client.alive) finding(crashes, 'server', `the server died on open: ${String(d.error)}`);
        else finding(hangs, 'server diagnostics', `none within ${HANG_MS} ms`);
      } else {
        note('server first diagnostics', d.ms, i);
      }
      if (client.alive) {
        const at = (k: number): { line: number; character: number } => {
          const lines = text.split('\n');
          const line = k % Math.max(1, lines.length);
          return { line, character: lines[line] ? (k * 7) % (lines[line].length + 1) : 0 };
        };
        const asks: [string, () => Promise<unknown>][] = [
          [
            'hover',
            () =>
              client!.request<Hover | null>('textDocument/hover', { textDocument: { uri }, position: at(r.int(1e6)) }),
          ],
          [
            'completion',
            () =>
              client!.request<CompletionList | null>('textDocument/completion', {
                textDocument: { uri },
                position: at(r.int(1e6)),
              }),
          ],
          [
            'outline',
            () => client!.request<DocumentSymbol[]>('textDocument/documentSymbol', { textDocument: { uri } }),
          ],
          [
            'quick fixes',
            () =>
              client!.request('textDocument/codeAction', {
                textDocument: { uri },
                range: diagnostics[0]?.range ?? { start: at(0), end: at(0) },
                context: { diagnostics: diagnostics.slice(0, 20) },
              }),
          ],
        ];
        for (const [name, ask] of asks) {
          const a = await timed(ask);
          if (a.timedOut) finding(hangs, `server ${name}`, `no answer within ${HANG_MS} ms`);
          else if (a.error && !client.alive)
            finding(crashes, `server ${name}`, a.error instanceof Error ? String(a.error) : jsonText(a.error));
          note(`server ${name}`, a.ms, i);
        }
        const x = await timed(
          () => client!.request('psconfig/expandTasks', { uri, limit: 200 }),
          usesJq(text) ? SERVER_EXPAND_WAIT_MS : HANG_MS,
        );
        if (x.timedOut) {
          if (usesJq(text)) documentedWaits++;
          else finding(hangs, 'server expandTasks', `no answer within ${HANG_MS} ms`);
        } else note('server expandTasks', x.ms, i);
        logsAtClose = client.logs.length;
        client.close(uri);
        // The main thread must answer a cheap request on a small document at once.
        const probe = await timed(() =>
          client!.request('textDocument/documentSymbol', { textDocument: { uri: control } }),
        );
        probeMax = Math.max(probeMax, probe.ms);
        if (probe.timedOut) finding(hangs, 'server main thread', `a probe had no answer within ${HANG_MS} ms`);
        const serverCpu = cpuMsOf(client.child.pid as number) - serverCpu0;
        note('server CPU', serverCpu, i);
        slow('server', serverCpu, `${Math.round(serverCpu)} ms of CPU on one document`);
        diagnostics = [];
      }
      const failed = client.loggedErrors().filter((l) => /failed|uncaught|unhandled/i.test(l));
      if (failed.length > errorsSeen) {
        finding(crashes, 'server handler', failed.slice(errorsSeen).join('\n').slice(0, 2000));
        errorsSeen = failed.length;
      }
      if (!client.alive) {
        finding(crashes, 'server', 'the server process exited');
        await client.stop().catch(() => undefined);
        client = await startServer();
        errorsSeen = 0;
      }
      const mem = residentMb(client.child.pid as number);
      serverPeak = Math.max(serverPeak, mem.hwm);
      if (i + 1 === MEMORY_MARK) {
        serverAt100 = mem.rss;
        heldAt100 = await heldMb(client);
      }
    }
    if ((i + 1) % 500 === 0 || i + 1 === o.n)
      console.log(
        `  ${i + 1}/${o.n} inputs, ${Math.round((Date.now() - started) / 1000)} s: ${crashes.length} crashes, ${hangs.length} hangs, ${stalls.length} stalls`,
      );
  }

  // Memory comes back: every input is closed; the server retires its idle worker WORKER_IDLE_MS later and logs it
  // (a worker retired earlier and not started again has nothing left to give back: the wait then ends at its limit).
  const retiredAtEnd = client ? await workerRetired(client, logsAtClose, WORKER_IDLE_MS + 30_000) : false;
  const serverEnd = client ? residentMb(client.child.pid as number).rss : 0;
  const heldEnd = client ? await heldMb(client) : undefined;
  const idleRatio = serverIdle ? serverEnd / serverIdle : undefined;
  if (client) await client.stop();
  const fuzzerPeak = process.resourceUsage().maxRSS / 1024;
  const rssRatio = serverAt100 ? serverEnd / serverAt100 : undefined;
  const ratio = heldAt100 && heldEnd !== undefined ? heldEnd / heldAt100 : undefined;
  const report = {
    inputs: o.n,
    seed: o.seed,
    seconds: Math.round((Date.now() - started) / 1000),
    crashes,
    hangs,
    stalls,
    documentedWaits,
    outputWaits,
    slowestMs: Object.fromEntries(
      Object.entries(slowest).map(([k, s]) => [k, { ms: Math.round(s.ms), input: s.input }]),
    ),
    serverProbeMaxMs: Math.round(probeMax),
    memoryMb: {
      fuzzerPeak: Math.round(fuzzerPeak),
      heldAfter100: heldAt100,
      heldAtEnd: heldEnd,
      ratio: ratio && Number(ratio.toFixed(2)),
      serverIdle: Math.round(serverIdle),
      serverAfter100: serverAt100 && Math.round(serverAt100),
      serverAtEnd: Math.round(serverEnd),
      rssRatio: rssRatio && Number(rssRatio.toFixed(2)),
      workerRetiredAtEnd: retiredAtEnd,
      idleRatio: idleRatio && Number(idleRatio.toFixed(2)),
      serverPeak: Math.round(serverPeak),
    },
    mutations: mutationCounts,
  };
  if (o.json) writeFileSync(o.json, JSON.stringify(report, null, 2));
  console.log(
    [
      `fuzz: ${o.n} inputs, seed ${o.seed}, ${report.seconds} s`,
      `  crashes: ${crashes.length}   hangs: ${hangs.length}   stalls over 1 s: ${stalls.length}`,
      `  documented waits: ${documentedWaits} server expansions held by jq past ${SERVER_EXPAND_WAIT_MS} ms (cancelled by closing); ${outputWaits.length} over 1 s in proportion to their output (within ${OUTPUT_MS_PER_MB} ms per MB of task JSON)${
        outputWaits.length
          ? `: ${outputWaits
              .slice(0, 8)
              .map((w) => `#${w.input} ${w.stage} ${w.cpuMs} ms for ${w.outputMb} MB`)
              .join(', ')}`
          : ''
      }`,
      `  slowest: ${Object.entries(report.slowestMs)
        .map(([k, s]) => `${k} ${s.ms} ms (#${s.input})`)
        .join(', ')}`,
      `  memory: fuzzer peak ${report.memoryMb.fuzzerPeak} MB; server held (live heaps after a full collection) ${report.memoryMb.heldAfter100 ?? '-'} MB after ${MEMORY_MARK} inputs, ${report.memoryMb.heldAtEnd ?? '-'} MB at the end (×${report.memoryMb.ratio ?? '-'}); resident ${report.memoryMb.serverAfter100 ?? '-'} MB after ${MEMORY_MARK}, ${report.memoryMb.serverAtEnd} MB at the end (×${report.memoryMb.rssRatio ?? '-'}), peak ${report.memoryMb.serverPeak} MB`,
      `  resident at the end, every input closed${retiredAtEnd ? ' and the idle worker retired' : ''}: ${report.memoryMb.serverAtEnd} MB against ${report.memoryMb.serverIdle} MB for the idle server (×${report.memoryMb.idleRatio ?? '-'}; at most ×${RESIDENT_RATIO_LIMIT})`,
      `  mutations: ${Object.entries(mutationCounts)
        .map(([k, c]) => `${k} ${c}`)
        .join(', ')}`,
      ...[...crashes, ...hangs, ...stalls]
        .slice(0, 20)
        .map((f) => `  #${f.input} ${f.stage}: ${f.what.split('\n')[0]} [${f.mutations.join(', ')}] ${f.file ?? ''}`),
    ].join('\n'),
  );
  const memoryOk =
    o.n < MEMORY_MARK * 2 ||
    ((ratio === undefined || ratio <= 2) && (idleRatio === undefined || idleRatio <= RESIDENT_RATIO_LIMIT));
  return crashes.length || hangs.length || stalls.length || !memoryOk ? 1 : 0;
}

if (require.main === module) {
  let options: Options;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (e) {
    console.error((e as Error).message);
    process.exit(2);
  }
  runFuzz(options).then(
    (code) => process.exit(code),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
}
