// Where the harness's scripts and the built pScheduler live, and the environment every pScheduler and agent process
// gets. The prefix is outside the repository (build-pscheduler.sh installs there; PSCHEDULER_PREFIX overrides it).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '../../fixtures';

/** test/pscheduler: the scripts, scenarios and vendored sources. */
export const harnessDir = join(repoRoot(), 'test', 'pscheduler');

/** Where build-pscheduler.sh installs pScheduler and pSConfig. */
export function prefixDir(): string {
  return process.env.PSCHEDULER_PREFIX || '/opt/psconfig-vscode-pscheduler';
}

/**
 * The environment of the daemons, the API and the agent: Debian's python3 first on PATH (the plug-ins start with
 * `#!/usr/bin/env python3` and need Debian's python3-* packages, not a pyenv or venv python), the prefix's libraries
 * on PYTHONPATH, UTC.
 */
export function pschedulerEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const prefix = prefixDir();
  return {
    PSCHEDULER_PREFIX: prefix,
    PATH: `${prefix}/bin:/usr/sbin:/usr/bin:/sbin:/bin`,
    PYTHONPATH: `${prefix}/lib`,
    PYTHONDONTWRITEBYTECODE: '1',
    LC_ALL: 'C.UTF-8',
    TZ: 'UTC',
    HOME: process.env.HOME ?? '/root',
    ...extra,
  };
}

/** Runs one of the harness's bash scripts to completion within `timeoutMs`; rejects with its output on failure. */
export function runScript(script: string, args: string[], timeoutMs: number): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn('bash', [join(harnessDir, script), ...args], {
      env: { ...process.env, ...pschedulerEnv() },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const timer = setTimeout(() => {
      try {
        process.kill(-(child.pid as number), 'SIGKILL');
      } catch {
        // already gone
      }
      reject(new Error(`${script} ${args.join(' ')}: no result within ${timeoutMs / 1000} s\n${out}`));
    }, timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolvePromise(out);
      else reject(new Error(`${script} ${args.join(' ')} failed (${signal ?? `exit ${code}`}):\n${out.slice(-4000)}`));
    });
  });
}
