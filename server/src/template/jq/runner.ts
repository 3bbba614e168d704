// Runs the jq binary ourselves (child_process) rather than through node-jq's run():
//  - node-jq reads JQ_PATH once, when it is first loaded, so a changed `psconfig.jq.path` setting would be ignored;
//  - it spawns without an 'error' listener (a missing or non-executable binary kills the process);
//  - it has no time limit, and a looping jq expression (`repeat(.)`) would hang the language server.
// We keep node-jq's conventions (empty environment, text on stdin) and its bundled binary location (resolve.ts).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JqBinary, resolveJqBinary } from './resolve';

export type JqRunOutcome = { ok: true; stdout: string } | { ok: false; error: string };

export interface JqRunOptions {
  /** Extra jq flags placed before the program (e.g. ['-n']). '-c' is always passed. */
  flags?: string[];
  timeoutMs?: number;
}

/** What the expansion engine needs from jq; tests and the server share one implementation. */
export interface JqRunner {
  /** Runs one program over `stdin`; never rejects: failures come back as `{ ok: false, error }`. */
  run(program: string, stdin: string, options?: JqRunOptions): Promise<JqRunOutcome>;
  /** Why jq cannot run at all (binary not found), or undefined when it can. */
  readonly unavailable: string | undefined;
  readonly binary: JqBinary | undefined;
  /** Number of jq processes started by this runner (benchmarks and tests read it). */
  readonly processesStarted: number;
  /** `jq --version` output (e.g. "jq-1.6"), for error messages about builtins missing in old versions. */
  version(): Promise<string | undefined>;
}

export const DEFAULT_JQ_TIMEOUT_MS = 10_000; // Perl's perfSONAR_PS::Utils::JQ uses 10 s per jq run.
/** Linux refuses a single argv string over 128 KiB (MAX_ARG_STRLEN); longer programs go through a file. */
const MAX_PROGRAM_ARG = 100_000;

class SpawnedJqRunner implements JqRunner {
  processesStarted = 0;
  private versionPromise: Promise<string | undefined> | undefined;

  constructor(
    readonly binary: JqBinary | undefined,
    readonly unavailable: string | undefined,
    private readonly defaultTimeoutMs: number,
  ) {}

  version(): Promise<string | undefined> {
    this.versionPromise ??= this.run('', '', { flags: ['--version'] }).then((r) =>
      r.ok ? r.stdout.trim() : undefined,
    );
    return this.versionPromise;
  }

  run(program: string, stdin: string, options: JqRunOptions = {}): Promise<JqRunOutcome> {
    const binary = this.binary;
    if (!binary) return Promise.resolve({ ok: false, error: this.unavailable ?? 'jq is not available' });
    const flags = options.flags ?? [];
    const isVersion = flags.includes('--version');
    let tmpDir: string | undefined;
    const args = ['-c', ...flags];
    if (!isVersion) {
      if (program.length > MAX_PROGRAM_ARG) {
        tmpDir = mkdtempSync(join(tmpdir(), 'psconfig-jq-'));
        const file = join(tmpDir, 'program.jq');
        writeFileSync(file, program);
        args.push('-f', file);
      } else {
        args.push(program);
      }
    }
    const timeoutMs = options.timeoutMs ?? this.defaultTimeoutMs;
    this.processesStarted++;
    return new Promise<JqRunOutcome>((resolve) => {
      let settled = false;
      const finish = (outcome: JqRunOutcome): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (tmpDir) rmSync(tmpDir, { recursive: true, force: true });
        resolve(outcome);
      };
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      let child;
      try {
        // Empty environment: a template's jq must not read the server's environment through $ENV/env.
        child = spawn(binary.path, args, { env: {}, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
      } catch (e) {
        finish({ ok: false, error: `Unable to start jq (${binary.path}): ${(e as Error).message}` });
        return;
      }
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        finish({ ok: false, error: `Timeout executing jq command (no result after ${timeoutMs} ms)` });
      }, timeoutMs);
      child.on('error', (e) =>
        finish({ ok: false, error: `Unable to start jq (${binary.path}, from ${binary.source}): ${e.message}` }),
      );
      child.stdout.on('data', (d: Buffer) => out.push(d));
      child.stderr.on('data', (d: Buffer) => err.push(d));
      // jq exits early on a compile error; writing to its closed stdin then raises EPIPE, which is not our error.
      child.stdin.on('error', () => undefined);
      child.on('close', (code, signal) => {
        if (code === 0) finish({ ok: true, stdout: Buffer.concat(out).toString('utf8') });
        else {
          const stderr = Buffer.concat(err).toString('utf8').trim();
          finish({ ok: false, error: stderr || `jq exited with ${signal ? `signal ${signal}` : `code ${code}`}` });
        }
      });
      child.stdin.end(stdin);
    });
  }
}

export interface JqRunnerOptions {
  /** The `psconfig.jq.path` setting; empty means JQ_PATH, node-jq's binary, then PATH. */
  jqPath?: string;
  timeoutMs?: number;
  env?: NodeJS.ProcessEnv;
}

/** A runner bound to one resolved binary; resolution happens now, so a missing jq is reported, not spawned. */
export function createJqRunner(options: JqRunnerOptions = {}): JqRunner {
  const r = resolveJqBinary(options.jqPath, options.env);
  return new SpawnedJqRunner(
    r.ok ? r.binary : undefined,
    r.ok ? undefined : r.error,
    options.timeoutMs ?? DEFAULT_JQ_TIMEOUT_MS,
  );
}
