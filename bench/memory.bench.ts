// Issue 30: memory after hostile input. The real bundled server (`node dist/server.js --stdio`, as an editor starts
// it) opens a few ordinary templates (the first inputs), then 1,000 fuzzed ones as an editor would (didOpen, hover,
// completion, an edit, a preview, didClose), then stays idle past its worker's retirement; its resident size (VmRSS
// of /proc/PID/status: both threads live in the one process) after the first inputs, at its peak and after the idle
// time, and what stays. Figures only, no thresholds.
//   npm run bench -- memory
// Environment: PSCONFIG_BENCH_MEMORY_INPUTS (1000), PSCONFIG_BENCH_MEMORY_SEED (1), PSCONFIG_BENCH_MEMORY_IDLE_MS
// (45000: idle time after the last close), PSCONFIG_BENCH_MEMORY_RETIRE_MS (unset: the server's own 30 s; set, it
// is passed as PSCONFIG_WORKER_IDLE_RETIRE_MS), PSCONFIG_BENCH_BASE_SERVER (another bundle, e.g. main's, to compare),
// PSCONFIG_BENCH_MEMORY_PLAIN=1 (started without the environment the VS Code client gives it, common/server-env.ts,
// as `node dist/server.js` in a shell: glibc's malloc with its default, dynamic thresholds).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { ServerMemoryRequest, type ServerMemoryResult } from '../common/protocol';
import { SERVER_PROCESS_ENV } from '../common/server-env';
import { examplesDir } from '../test/fixtures';
import { corpus } from '../test/fuzz/run';
import { MUTATIONS, SIZE_MUTATIONS, mutate } from '../test/fuzz/mutations';
import { Random } from '../test/fuzz/random';
import { LspClient } from '../test/lsp/lsp-client';
import { WORKER_IDLE_RETIRE_MS } from '../server/src/lsp/main/worker-client';

const INPUTS = Number(process.env.PSCONFIG_BENCH_MEMORY_INPUTS ?? 1000);
const SEED = Number(process.env.PSCONFIG_BENCH_MEMORY_SEED ?? 1);
const IDLE_MS = Number(process.env.PSCONFIG_BENCH_MEMORY_IDLE_MS ?? 45_000);
const RETIRE_MS = process.env.PSCONFIG_BENCH_MEMORY_RETIRE_MS;
const PLAIN = process.env.PSCONFIG_BENCH_MEMORY_PLAIN === '1';
/** How long one step of one input may take before the bench goes on (jq runs up to its time limit; a close cancels). */
const STEP_MS = 5000;

/** The first inputs: ordinary templates an operator opens. */
const FIRST = [
  'psconfig--example-1-simple.json',
  'perl-shared--client-psconfig-mesh.json',
  'psconfig--example-2-testbed.json',
  'qa--throughput3-psconfig.json',
];

interface Proc {
  rss: number;
  hwm: number;
  anon: number;
  file: number;
  split: ReturnType<typeof anonymousSplit>;
}

/** Resident size now and at its peak, and how much of it is anonymous (heaps, malloc) or file-backed (code), MB. */
function proc(pid: number): Proc {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const mb = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0) / 1024;
  return {
    rss: mb('VmRSS'),
    hwm: mb('VmHWM'),
    anon: mb('RssAnon'),
    file: mb('RssFile') + mb('RssShmem'),
    split: anonymousSplit(pid),
  };
}

const ARENA = 64 * 1024 * 1024;

/**
 * Where the anonymous resident memory lies (/proc/PID/smaps), MB: glibc's main heap (`[heap]`, the main thread's
 * malloc), its thread arenas (64 MB-aligned reservations of 64 MB: malloc of other threads, kept after they end)
 * and the rest (V8's heap pages, large malloc blocks mapped on their own, thread stacks).
 */
function anonymousSplit(pid: number): { brk: number; arenas: number; arenaCount: number; other: number } {
  const out = { brk: 0, arenas: 0, arenaCount: 0, other: 0 };
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/smaps`, 'utf8');
  } catch {
    return out;
  }
  const maps: { start: number; end: number; name: string; rss: number }[] = [];
  for (const block of text.split(/\n(?=[0-9a-f]+-[0-9a-f]+ )/)) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+[ \t]*(.*)$/m.exec(block);
    if (!head) continue;
    const rss = Number(/^Rss:\s+(\d+)/m.exec(block)?.[1] ?? 0) / 1024;
    maps.push({ start: parseInt(head[1], 16), end: parseInt(head[2], 16), name: head[3].trim(), rss });
  }
  for (let i = 0; i < maps.length; i++) {
    const m = maps[i];
    if (m.name === '[heap]') out.brk += m.rss;
    else if (m.name !== '') continue;
    else if (m.start % ARENA === 0) {
      // An arena: its used part and the reserved rest, adjacent, 64 MB in all.
      let end = m.end;
      let rss = m.rss;
      let j = i + 1;
      while (j < maps.length && maps[j].start === end && maps[j].name === '' && end - m.start < ARENA) {
        end = maps[j].end;
        rss += maps[j].rss;
        j++;
      }
      if (end - m.start === ARENA) {
        out.arenas += rss;
        out.arenaCount++;
        i = j - 1;
      } else out.other += m.rss;
    } else out.other += m.rss;
  }
  return out;
}

const f0 = (n: number): string => n.toFixed(0);

async function bounded<T>(work: Promise<T>, ms = STEP_MS): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((r) => (timer = setTimeout(r, ms, undefined)));
  try {
    return await Promise.race([work.catch(() => undefined), late]);
  } finally {
    clearTimeout(timer);
  }
}

function where(p: Proc): string {
  const s = p.split;
  return `file-backed ${f0(p.file)}, anonymous ${f0(p.anon)}: malloc main heap ${f0(s.brk)}, ${s.arenaCount} malloc thread arenas ${f0(s.arenas)}, other (V8 pages, large blocks, stacks) ${f0(s.other)}`;
}

function position(text: string, k: number): { line: number; character: number } {
  const lines = text.split('\n');
  const line = k % Math.max(1, lines.length);
  return { line, character: lines[line] ? (k * 7) % (lines[line].length + 1) : 0 };
}

/** What an editor does with one template: open, hover, completion, one edit, a preview, close. */
async function edit(client: LspClient, uri: string, text: string, r: Random): Promise<void> {
  await bounded(client.open(uri, text, 'psconfig', 60_000), 60_000);
  const textDocument = { uri };
  await bounded(client.request('textDocument/hover', { textDocument, position: position(text, r.int(1e6)) }));
  await bounded(client.request('textDocument/completion', { textDocument, position: position(text, r.int(1e6)) }));
  const at = position(text, r.int(1e6));
  await bounded(client.change(uri, [{ range: { start: at, end: at }, text: r.pick(['"', ' ', '{', 'x', '}']) }]));
  await bounded(client.request('textDocument/completion', { textDocument, position: at }));
  await bounded(client.request('psconfig/expandTasks', { uri, limit: 200 }));
}

function describe(label: string, m: ServerMemoryResult | undefined): string {
  if (!m) return `  ${label}: (no answer)`;
  const heaps = m.heaps
    .map((h) => {
      const spaces = h.spacesMb
        ? ` [${Object.entries(h.spacesMb)
            .filter(([, mb]) => mb >= 0.5)
            .map(([s, mb]) => `${s.replace(/_space$/, '')} ${mb}`)
            .join(', ')}]`
        : '';
      const entries = h.entries
        ? `; entries ${
            Object.entries(h.entries)
              .filter(([, n]) => n > 0)
              .map(([k, n]) => `${k} ${n}`)
              .join(', ') || 'none'
          }`
        : '';
      return `${h.thread}: used ${h.heapUsedMb} / total ${h.heapTotalMb} MB, external ${h.externalMb}${spaces}${entries}`;
    })
    .join('; ');
  const buffers = m.arrayBuffersMb !== undefined ? `, array buffers ${m.arrayBuffersMb} MB` : '';
  return `  ${label} (after a full collection; resident then ${m.rssMb} MB${buffers}): ${heaps}${m.heaps.length < 2 ? '; no worker thread' : ''}`;
}

export async function run(): Promise<void> {
  const base = process.env.PSCONFIG_BENCH_BASE_SERVER;
  const load0 = loadavg()[0];
  // As the VS Code client starts it (common/server-env.ts), unless PLAIN.
  const env: Record<string, string> = PLAIN ? {} : { ...SERVER_PROCESS_ENV };
  if (RETIRE_MS) env.PSCONFIG_WORKER_IDLE_RETIRE_MS = RETIRE_MS;
  const client = await LspClient.start({
    settings: { jq: { path: process.env.JQ_PATH || '/usr/bin/jq', memoryLimitMb: 128 } },
    env,
    ...(base ? { command: [process.execPath, base, '--stdio'] } : {}),
  });
  const pid = client.child.pid as number;
  const memory = (): Promise<ServerMemoryResult | undefined> =>
    bounded(client.request<ServerMemoryResult>(ServerMemoryRequest.method, {}), 60_000);
  try {
    const r = new Random(SEED);
    // The first inputs: each opened, asked, edited and previewed; the first stays open all along (the operator's
    // own template), the others are closed.
    const kept = 'file:///bench/memory/kept.psconfig.json';
    for (const [i, name] of FIRST.entries()) {
      const uri = i === 0 ? kept : `file:///bench/memory/first-${i}.psconfig.json`;
      await edit(client, uri, readFileSync(join(examplesDir, name), 'utf8'), r);
      if (i > 0) client.close(uri);
    }
    const first = proc(pid);
    const atFirst = await memory();

    const texts = corpus();
    const mutations = { ...MUTATIONS, ...SIZE_MUTATIONS };
    const t0 = Date.now();
    let chars = 0;
    let lastClose = Date.now();
    let logsAtClose = 0;
    for (let i = 0; i < INPUTS && client.alive; i++) {
      const { text } = mutate(texts, r, mutations);
      chars += text.length;
      const uri = `file:///bench/memory/fuzz-${i}.psconfig.json`;
      await edit(client, uri, text, r);
      // (The client's own record of publications and logs would grow with every input: only the latest are kept.)
      client.publications.splice(0);
      client.logs.splice(0);
      logsAtClose = client.logs.length;
      client.close(uri);
      lastClose = Date.now();
      if ((i + 1) % 100 === 0)
        console.log(
          `  ${i + 1}/${INPUTS} inputs, ${Math.round((Date.now() - t0) / 1000)} s: resident ${f0(proc(pid).rss)} MB (load ${loadavg()[0].toFixed(1)})`,
        );
    }
    if (!client.alive) throw new Error('the server exited during the run');
    const fuzzSeconds = Math.round((Date.now() - t0) / 1000);
    const afterRun = proc(pid);
    // Idle: IDLE_MS from the last close, and at least until the server logged its worker's retirement.
    await new Promise((res) => setTimeout(res, Math.max(0, lastClose + IDLE_MS - Date.now())));
    const retired = client.logs.slice(logsAtClose).some((l) => /background worker retired/.test(l.message));
    const idle = proc(pid);
    const atIdle = await memory();
    const ratio = idle.rss / first.rss;
    console.log(
      [
        `Server: ${base ?? 'dist/server.js'}, ${
          PLAIN
            ? 'plain (no environment of its own)'
            : `with the client's environment (${Object.entries(SERVER_PROCESS_ENV)
                .map(([k, v]) => `${k}=${v}`)
                .join(' ')})`
        }; worker retired after ${RETIRE_MS ? `${RETIRE_MS} ms (PSCONFIG_WORKER_IDLE_RETIRE_MS; default ${WORKER_IDLE_RETIRE_MS} ms)` : `${WORKER_IDLE_RETIRE_MS} ms (the default)`} idle; load average ${load0.toFixed(2)} -> ${loadavg()[0].toFixed(2)}`,
        `${FIRST.length} first inputs (ordinary templates; the first kept open), then ${INPUTS} fuzzed (seed ${SEED}, ${(chars / 1e6).toFixed(0)} MB of text) in ${fuzzSeconds} s, then ${IDLE_MS / 1000} s idle after the last close (worker retired: ${retired ? 'yes' : 'no'})`,
        `  resident after the first inputs: ${f0(first.rss)} MB (${where(first)})`,
        `  resident after the fuzzed inputs: ${f0(afterRun.rss)} MB; peak ${f0(idle.hwm)} MB`,
        `  resident after ${IDLE_MS / 1000} s idle: ${f0(idle.rss)} MB (${where(idle)})`,
        `  ratio after idle / after the first inputs: ${ratio.toFixed(2)}x`,
        describe('after the first inputs', atFirst),
        describe('after idle', atIdle),
      ].join('\n'),
    );
  } finally {
    await client.stop();
  }
}
