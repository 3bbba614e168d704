// What a user waits for: `psconfig-tools schedule MESH --days 1 --format json` beside `psconfig-tools expand MESH
// --format json`, both as whole processes of the bundled CLI (dist/cli.js, which `npm run bench` builds first), on the
// 200-address full throughput mesh (39,800 tasks). The two commands take turns over the rounds in one run (which one
// goes first alternates), so both see the same load; the figures are medians and the ratio schedule / expand. The
// issue's aim (26): the schedule within 2.5× the expansion. CPU is the process tree's (node, its jq processes and
// V8's helper threads), read from bash's `times`.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import { join } from 'node:path';
import { meshTemplate } from '../test/generated-templates';

const ROUNDS = Number(process.env.SCHEDULE_CLI_ROUNDS ?? 5);
const ADDRESSES = Number(process.env.SCHEDULE_CLI_ADDRESSES ?? 200);

interface Measured {
  wallMs: number;
  cpuMs: number;
  exit: number;
}

/** `0m2.080s` → milliseconds. */
function timesField(s: string): number {
  const m = /^(\d+)m([\d.]+)s$/.exec(s);
  if (!m) throw new Error(`unexpected times output: ${s}`);
  return (Number(m[1]) * 60 + Number(m[2])) * 1000;
}

/**
 * One CLI run under bash, its output to `out` (/dev/null when measured): wall time from spawn to exit, and the CPU
 * of everything bash waited for (its second `times` line: the children's user and system time).
 */
function runCli(cli: string, args: string[], out = '/dev/null'): Promise<Measured> {
  // "$0" is node; the CLI's stderr (findings, notes) is dropped as its stdout is.
  const script = `"$0" "$@" > '${out}' 2>/dev/null; code=$?; times; exit $code`;
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn('bash', ['-c', script, process.execPath, cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (text += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = performance.now() - t0;
      const children = text.trim().split('\n')[1]?.trim().split(/\s+/);
      if (!children || children.length !== 2) return reject(new Error(`no times from bash: ${text}${err}`));
      resolve({ wallMs, cpuMs: timesField(children[0]) + timesField(children[1]), exit: code ?? -1 });
    });
  });
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

const load = (): string =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

export async function run(): Promise<void> {
  const root = join(__dirname, '..', '..');
  const cli = join(root, 'dist', 'cli.js');
  if (!existsSync(cli)) {
    console.log('skipped: dist/cli.js is missing (node scripts/build.mjs)');
    return;
  }
  const dir = mkdtempSync(join(os.tmpdir(), 'psconfig-schedule-cli-'));
  try {
    const mesh = join(dir, 'mesh.json');
    writeFileSync(mesh, JSON.stringify(meshTemplate(ADDRESSES), null, 2));
    // A fixed warm-up day, so every run prints the same bytes.
    const schedule = ['schedule', mesh, '--days', '1', '--format', 'json', '--start', '2026-11-26'];
    const expand = ['expand', mesh, '--format', 'json'];
    console.log(
      `node ${process.version}; ${os.cpus().length} CPUs; ${ADDRESSES}-address mesh (${(ADDRESSES * (ADDRESSES - 1)).toLocaleString('en-US')} tasks); load average ${load()} at the start`,
    );
    // Warm-up (disk cache of the bundle, node and jq) on a small mesh, output kept to check it is there.
    const small = join(dir, 'small.json');
    writeFileSync(small, JSON.stringify(meshTemplate(10), null, 2));
    const probe = join(dir, 'probe.json');
    const w = await runCli(cli, ['expand', small, '--format', 'json'], probe);
    if (w.exit !== 0 || statSync(probe).size === 0) throw new Error(`expand of the warm-up mesh exited ${w.exit}`);
    await runCli(cli, ['schedule', small, '--days', '1', '--format', 'json'], probe);
    if (statSync(probe).size === 0) throw new Error('schedule of the warm-up mesh printed nothing');

    const e: Measured[] = [];
    const s: Measured[] = [];
    console.log('round  first     expand wall / CPU     schedule wall / CPU    schedule ÷ expand (wall / CPU)');
    for (let round = 1; round <= ROUNDS; round++) {
      const expandFirst = round % 2 === 1;
      let te: Measured;
      let ts: Measured;
      if (expandFirst) {
        te = await runCli(cli, expand);
        ts = await runCli(cli, schedule);
      } else {
        ts = await runCli(cli, schedule);
        te = await runCli(cli, expand);
      }
      // expand: 0, every task accepted; schedule: 0 or 1 (the mesh loses runs), never 2.
      if (te.exit !== 0 || ts.exit > 1) throw new Error(`exit codes: expand ${te.exit}, schedule ${ts.exit}`);
      e.push(te);
      s.push(ts);
      console.log(
        `${String(round).padStart(5)}  ${(expandFirst ? 'expand' : 'schedule').padEnd(8)}  ${te.wallMs.toFixed(0).padStart(6)} / ${te.cpuMs.toFixed(0).padStart(5)} ms  ${ts.wallMs.toFixed(0).padStart(7)} / ${ts.cpuMs.toFixed(0).padStart(5)} ms  ${(ts.wallMs / te.wallMs).toFixed(2).padStart(8)}× / ${(ts.cpuMs / te.cpuMs).toFixed(2)}×`,
      );
    }
    const ew = median(e.map((x) => x.wallMs));
    const ec = median(e.map((x) => x.cpuMs));
    const sw = median(s.map((x) => x.wallMs));
    const sc = median(s.map((x) => x.cpuMs));
    const ratios = e.map((x, i) => s[i].wallMs / x.wallMs);
    console.log(
      `median of ${ROUNDS}: expand ${ew.toFixed(0)} ms (CPU ${ec.toFixed(0)} ms), schedule ${sw.toFixed(0)} ms (CPU ${sc.toFixed(0)} ms): ` +
        `${(sw / ew).toFixed(2)}× the expansion's wall time (rounds ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}×), ${(sc / ec).toFixed(2)}× its CPU (aim: within 2.5×); load average ${load()} at the end`,
    );
    console.log(
      'each: `node dist/cli.js …` to /dev/null from spawn to exit; CPU: the process and everything it waited for (jq), user + system.',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// Run directly: node out/bench/schedule-cli.bench.js
if (require.main === module) {
  run().catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}
