// A long-running process of the harness (an API server, a daemon, an agent) in its own process group, so that
// stopping it also stops the workers and tool runs it started; its output goes to a log file.
import { spawn } from 'node:child_process';
import { openSync, closeSync } from 'node:fs';

export interface GroupProcess {
  name: string;
  pid: number;
  log: string;
  /** Whether the leader is still running. */
  alive(): boolean;
  /** SIGTERM to the group, then SIGKILL after `graceMs` if the leader is still there. Idempotent. */
  stop(graceMs?: number): Promise<void>;
}

export function startGroup(
  name: string,
  command: string,
  args: string[],
  options: { env: NodeJS.ProcessEnv; cwd?: string; log: string },
): GroupProcess {
  const fd = openSync(options.log, 'a');
  const child = spawn(command, args, {
    env: options.env,
    cwd: options.cwd,
    stdio: ['ignore', fd, fd],
    detached: true, // setsid: the child leads a new process group
  });
  closeSync(fd);
  if (child.pid === undefined) throw new Error(`${name}: ${command} did not start`);
  const pid = child.pid;
  let exited = false;
  child.on('exit', () => (exited = true));
  child.on('error', () => (exited = true));
  child.unref();
  const signal = (sig: NodeJS.Signals): void => {
    try {
      process.kill(-pid, sig);
    } catch {
      // the group is gone
    }
  };
  return {
    name,
    pid,
    log: options.log,
    alive: () => !exited,
    async stop(graceMs = 10_000) {
      signal('SIGTERM');
      const deadline = Date.now() + graceMs;
      while (!exited && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      // Workers of the group may outlive a leader that exited on SIGTERM: the group gets SIGKILL either way.
      signal('SIGKILL');
    },
  };
}
