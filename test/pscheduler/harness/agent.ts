// pSConfig's own pScheduler agent (perfsonar/psconfig psconfig/perfsonar-psconfig/bin/psconfig_pscheduler_agent,
// unmodified, built into the prefix by build-pscheduler.sh) against one instance, its lifetimes shortened in its
// configuration file. It is a daemon (no one-shot mode): it passes over its template every check-interval.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startGroup, type GroupProcess } from './process-group';
import { pschedulerEnv, prefixDir } from './prefix';
import type { Instance } from './instances';

export interface AgentSettings {
  /** task-min-ttl (ISO 8601; the agent's default P1D, psconfig/pscheduler/agent.py). */
  taskMinTtl: string;
  /** check-interval (default PT1H, psconfig/base_agent.py). */
  checkInterval: string;
  /** task-renewal-fudge-factor (default 0.25). */
  renewalFudgeFactor: number;
}

export interface RunningAgent {
  process: GroupProcess;
  dir: string;
  /** The agent's log so far (stderr: Python logging, `--verbose`). */
  log(): string;
}

/**
 * Starts the agent against `instance` with `template` (pSConfig JSON) as its one remote, read from a file:// URL.
 * match-addresses and the requesting-agent file name the instance's address, so the agent asks no DNS.
 */
export function startAgent(instance: Instance, template: unknown, settings: AgentSettings): RunningAgent {
  const dir = join(prefixDir(), 'agent', instance.name);
  rmSync(dir, { recursive: true, force: true });
  for (const d of ['pscheduler.d', 'archives.d', 'transforms.d', 'cache']) mkdirSync(join(dir, d), { recursive: true });
  writeFileSync(join(dir, 'template.json'), JSON.stringify(template, null, 2));
  writeFileSync(
    join(dir, 'requesting-agent.json'),
    JSON.stringify({ [instance.address]: { address: instance.address } }),
  );
  // Keys as psconfig/pscheduler/config_connect.py reads them.
  const config = {
    remotes: [{ url: `file://${join(dir, 'template.json')}`, 'configure-archives': true }],
    'pscheduler-assist-server': instance.address,
    'match-addresses': [instance.address],
    'include-directory': join(dir, 'pscheduler.d'),
    'archive-directory': join(dir, 'archives.d'),
    'transform-directory': join(dir, 'transforms.d'),
    'requesting-agent-file': join(dir, 'requesting-agent.json'),
    'client-uuid-file': join(dir, 'client-uuid'),
    'pscheduler-tracker-file': join(dir, 'pscheduler-tracker'),
    'cache-directory': join(dir, 'cache') + '/',
    'task-min-ttl': settings.taskMinTtl,
    'task-renewal-fudge-factor': settings.renewalFudgeFactor,
    'check-interval': settings.checkInterval,
    'check-config-interval': 'PT10S',
  };
  writeFileSync(join(dir, 'agent.json'), JSON.stringify(config, null, 2));
  const program = join(prefixDir(), 'psconfig', 'psconfig', 'perfsonar-psconfig', 'bin', 'psconfig_pscheduler_agent');
  const log = join(dir, 'agent.log');
  const process = startGroup(
    `${instance.name}/agent`,
    '/usr/bin/python3',
    [program, '--config', join(dir, 'agent.json'), '--verbose', '--disable-inotify'],
    { env: pschedulerEnv(), cwd: dir, log },
  );
  return { process, dir, log: () => readFileSync(log, 'utf8') };
}

/** "Added N new tasks, and deleted M old tasks" lines of the log (psconfig/pscheduler/agent.py `_run_end`). */
export function agentPasses(log: string): { time: string; added: number; deleted: number }[] {
  const out: { time: string; added: number; deleted: number }[] = [];
  for (const m of log.matchAll(
    /^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}) .*Added (\d+) new tasks, and deleted (\d+) old tasks/gm,
  ))
    out.push({ time: m[1], added: Number(m[2]), deleted: Number(m[3]) });
  return out;
}

/** "Problem adding test ..." errors of the log: tasks pScheduler refused (psconfig/client/pscheduler/task_manager.py). */
export function agentRefusals(log: string): string[] {
  return [...log.matchAll(/Problem adding test .*$/gm)].map((m) => m[0]);
}

/** When each pass began: "Running agent..." (perfsonar-psconfig/bin/psconfig_pscheduler_agent main loop). */
export function agentPassStarts(log: string): string[] {
  return [...log.matchAll(/^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}) .*Running agent\.\.\./gm)].map((m) => m[1]);
}

/**
 * The ERROR lines of the agent's first pass, up to the second "Running agent..." (a pass logs "Added N new tasks"
 * only when it added or deleted one: psconfig/pscheduler/agent.py `_run_end`), in Python logging's words, through
 * psconfig's logf (`key=value` fields such as `category=psconfig_schema_validation_error`, then `msg=`) or plain;
 * each without its time, pid and guid. One pass: every pass logs the same errors again.
 */
export function agentErrors(log: string): string[] {
  const starts = [...log.matchAll(/^.*Running agent\.\.\..*$/gm)];
  const pass = starts.length >= 2 ? log.slice(0, starts[1].index) : log;
  // A message may span lines (pScheduler's refusal names each participant's tools below it): the lines up to the next
  // timestamped one belong to it.
  return [...pass.matchAll(/^\S+ \S+ ERROR (.*(?:\n(?!\d{4}-\d\d-\d\d ).*)*)/gm)].map((m) =>
    m[1]
      .replace(/\b(pid|guid)=\S+ /g, '')
      .trimEnd()
      .slice(0, 1600),
  );
}
