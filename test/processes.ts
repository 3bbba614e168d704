// Process helpers for tests: the process table (to prove no child outlives its parent; Linux /proc, callers skip
// elsewhere) and running the built command line.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';

export const haveProc = process.platform === 'linux' && existsSync('/proc/self/stat');

interface Stat {
  pid: number;
  comm: string;
  state: string;
  ppid: number;
}

function stat(pid: number): Stat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so split at the last ')'.
    const close = text.lastIndexOf(')');
    const rest = text.slice(close + 2).split(' ');
    return { pid, comm: text.slice(text.indexOf('(') + 1, close), state: rest[0], ppid: Number(rest[1]) };
  } catch {
    return undefined;
  }
}

function all(): Stat[] {
  const out: Stat[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const s = stat(Number(name));
    if (s) out.push(s);
  }
  return out;
}

/** Every live (not zombie) descendant of `pid`, with its command name. */
export function descendants(pid: number): { pid: number; comm: string }[] {
  const table = all();
  const out: { pid: number; comm: string }[] = [];
  const frontier = [pid];
  while (frontier.length) {
    const p = frontier.pop() as number;
    for (const s of table)
      if (s.ppid === p) {
        if (s.state !== 'Z') out.push({ pid: s.pid, comm: s.comm });
        frontier.push(s.pid);
      }
  }
  return out;
}

/** True while `pid` exists and is not a zombie (a killed orphan may stay a zombie where nobody reaps it). */
export function running(pid: number): boolean {
  const s = stat(pid);
  return s !== undefined && s.state !== 'Z';
}

/** Polls `predicate` every 25 ms until it holds or `ms` passes; returns whether it held. */
export async function waitFor(predicate: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  for (;;) {
    if (predicate()) return true;
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 25));
  }
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built command line (`dist/cli.js`) with `args` and collects what it prints and its exit code. */
export function runCli(
  cli: string,
  args: string[],
  options: { env?: Record<string, string | undefined>; cwd?: string } = {},
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, ...options.env };
    const child = spawn(process.execPath, [cli, ...args], { env, cwd: options.cwd });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A process's resident size now and its peak (VmRSS, VmHWM of /proc/PID/status), MB; zeros when unreadable. */
export function residentMb(pid: number): { rss: number; hwm: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string): number => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
    return { rss: kb('VmRSS') / 1024, hwm: kb('VmHWM') / 1024 };
  } catch {
    return { rss: 0, hwm: 0 };
  }
}
