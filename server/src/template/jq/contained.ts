// One contained child process (jq): a wall-clock limit, a memory limit, an output cap, an empty environment, no
// inherited stdin, and a process group that dies with us. On Linux and macOS the child runs under a tiny /bin/sh
// supervisor (SUPERVISOR below) that
//   - sets the memory limit (`ulimit -v`, RLIMIT_AS; where the kernel refuses it, as macOS does, it polls the
//     child's resident size with `ps` every 50 ms and kills it above the limit),
//   - starts the child in its own process group (we spawn it `detached`, i.e. setsid),
//   - watches a lifeline pipe (fd 3) whose other end only this process holds: when it closes - we exited, were
//     killed with SIGKILL, or the worker thread that spawned it was terminated - it kills the whole group.
// Timeouts, cancellation and the output cap kill the group from here. Windows has no /bin/sh: the child is
// spawned directly with the time and output limits only (see docs/task-preview.md, jq contained).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * $1 memory limit in KiB (0: none), $2 1 = poll the resident size instead of `ulimit -v`, then the command.
 * fd 0: input (or /dev/null), fd 3: the lifeline, fd 4: an extra input for the child (jq reads its program there).
 * Node's stdio pipes are socket pairs, which Linux cannot open() through /dev/fd: `cat` copies fd 4 into a real
 * pipe, the child's fd 6.
 * PWD is unset so the child's environment is really empty (sh exports it); PATH is a shell variable, not exported.
 */
const SUPERVISOR = `m=$1; p=$2; shift 2
unset PWD OLDPWD
PATH=/bin:/usr/bin
if [ "$m" -gt 0 ] && [ "$p" = 0 ]; then ulimit -v "$m" 2>/dev/null || p=1; fi
exec 5<&0
cat <&4 3<&- 4<&- 5<&- | { exec 6<&0 <&5 3<&- 4<&- 5<&-; exec "$@"; } &
j=$!
exec 5<&- 4<&-
{ read -r _ <&3; kill -KILL 0; } 2>/dev/null &
w=$!
exec 3<&-
if [ "$m" -gt 0 ] && [ "$p" = 1 ]; then
  while kill -0 "$j" 2>/dev/null; do
    r=$(ps -o rss= -p "$j" 2>/dev/null)
    if [ "\${r:-0}" -gt "$m" ] 2>/dev/null; then echo "psconfig: memory limit exceeded" >&2; kill -KILL "$j"; break; fi
    sleep 0.05
  done
fi
wait "$j"
rc=$?
kill -KILL "$w" 2>/dev/null
exit "$rc"`;

/** The marker the polling supervisor prints; jq itself says `error: cannot allocate memory` when malloc fails. */
const MEMORY_MESSAGES = /psconfig: memory limit exceeded|cannot allocate memory|out of memory/i;

export interface ContainedSpec {
  /** Absolute path of the program. */
  command: string;
  args: string[];
  /** Text written to the child's stdin, which is then closed; undefined: stdin is /dev/null. */
  stdin?: string;
  /** Text the child can read from the path `sideInputPath` (a pipe on fd 4; a temporary file on Windows). */
  sideInput?: string;
  timeoutMs: number;
  /** 0: no memory limit. */
  memoryLimitMb: number;
  maxOutputBytes: number;
  /** Polled every 50 ms: true kills the child (the document changed, the request was cancelled). */
  isCancelled?: () => boolean;
  /** Use the resident-size watchdog even where `ulimit -v` works (tests of the macOS path). */
  pollMemory?: boolean;
}

export type ContainedOutcome =
  | { kind: 'exit'; code: number; stdout: string; stderr: string }
  | { kind: 'timeout' | 'memory' | 'output' | 'cancelled' | 'start'; stderr: string; message: string };

/** How the child names the side input: pass it in `args` where the program's path goes. */
export const SIDE_INPUT_FD_PATH = '/dev/fd/6';
const SIDE_INPUT_MARK = '\u0000side-input\u0000';
/** Put this in `args` where the side input's path belongs; it is replaced per platform. */
export const SIDE_INPUT = SIDE_INPUT_MARK;

const STDERR_KEEP = 16 * 1024;
const CANCEL_POLL_MS = 50;

function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}

export const supervised = process.platform !== 'win32';

/** Children alive now (started by this thread), for tests and the fuzz report. */
let alive = 0;
export function containedAlive(): number {
  return alive;
}

export function runContained(spec: ContainedSpec): Promise<ContainedOutcome> {
  return new Promise<ContainedOutcome>((resolve) => {
    let tmpDir: string | undefined;
    let args = spec.args;
    if (args.includes(SIDE_INPUT_MARK)) {
      let path = SIDE_INPUT_FD_PATH;
      if (!supervised) {
        tmpDir = mkdtempSync(join(tmpdir(), 'psconfig-jq-'));
        path = join(tmpDir, 'input');
        writeFileSync(path, spec.sideInput ?? '');
      }
      args = args.map((a) => (a === SIDE_INPUT_MARK ? path : a));
    }
    const stdinMode = spec.stdin === undefined ? 'ignore' : 'pipe';
    let child: ChildProcess;
    try {
      child = supervised
        ? spawn(
            '/bin/sh',
            [
              '-c',
              SUPERVISOR,
              'psconfig-jq',
              String(Math.max(0, Math.round(spec.memoryLimitMb * 1024))),
              spec.pollMemory ? '1' : '0',
              spec.command,
              ...args,
            ],
            { env: {}, stdio: [stdinMode, 'pipe', 'pipe', 'pipe', 'pipe'], detached: true },
          )
        : spawn(spec.command, args, { env: {}, stdio: [stdinMode, 'pipe', 'pipe'], windowsHide: true });
    } catch (e) {
      if (tmpDir) rmSync(tmpDir, { recursive: true, force: true });
      resolve({ kind: 'start', stderr: '', message: (e as Error).message });
      return;
    }
    alive++;
    let settled = false;
    let exited = false;
    const gone = (): void => {
      if (!exited) alive--;
      exited = true;
    };
    let outBytes = 0;
    let errBytes = 0;
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const stderrText = (): string => Buffer.concat(err).toString('utf8');

    const killGroup = (): void => {
      if (exited) return;
      try {
        if (supervised && child.pid) process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        // already gone
      }
    };
    const finish = (outcome: ContainedOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(poll);
      // The lifeline and side input are ours to close; the group is gone or going.
      for (const s of child.stdio.slice(3)) s?.destroy();
      if (tmpDir) rmSync(tmpDir, { recursive: true, force: true });
      resolve(outcome);
    };
    const stop = (kind: 'timeout' | 'output' | 'cancelled', message: string): void => {
      killGroup();
      finish({ kind, stderr: stderrText(), message });
    };

    const timer = setTimeout(
      () => stop('timeout', `no result after ${spec.timeoutMs} ms (time limit)`),
      spec.timeoutMs,
    );
    const poll = setInterval(() => {
      if (spec.isCancelled?.()) stop('cancelled', 'cancelled');
    }, CANCEL_POLL_MS);

    child.on('error', (e) => {
      gone();
      finish({ kind: 'start', stderr: stderrText(), message: e.message });
    });
    child.stdout?.on('data', (d: Buffer) => {
      outBytes += d.length;
      if (outBytes > spec.maxOutputBytes)
        stop('output', `its output passed ${sizeText(spec.maxOutputBytes)} (output limit)`);
      else out.push(d);
    });
    child.stderr?.on('data', (d: Buffer) => {
      if (errBytes < STDERR_KEEP) err.push(d.subarray(0, STDERR_KEEP - errBytes));
      errBytes += d.length;
    });
    child.on('exit', gone);
    child.on('close', (code, signal) => {
      gone();
      const stderr = stderrText();
      const rc = code ?? (signal ? 128 : 1);
      // SIGABRT (134) or SIGKILL from the watchdog (137) together with a memory message: the limit was hit.
      if (rc !== 0 && spec.memoryLimitMb > 0 && MEMORY_MESSAGES.test(stderr))
        finish({
          kind: 'memory',
          stderr,
          message: `it needed more than its memory limit of ${spec.memoryLimitMb} MB`,
        });
      else finish({ kind: 'exit', code: rc, stdout: Buffer.concat(out).toString('utf8'), stderr });
    });
    // The child may exit before reading everything (a compile error): EPIPE here is not our error.
    const sideInput = supervised ? (child.stdio[4] as NodeJS.WritableStream | null) : null;
    if (sideInput) {
      (sideInput as unknown as { on(e: 'error', f: () => void): void }).on('error', () => undefined);
      sideInput.end(spec.sideInput ?? '');
    }
    if (child.stdin) {
      child.stdin.on('error', () => undefined);
      child.stdin.end(spec.stdin ?? '');
    }
  });
}
