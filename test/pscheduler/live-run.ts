// One live run: the scenarios' instances and a probe instance, pSConfig's agent against each scenario instance, a
// fixed observation time, then every instance read through its REST API; everything stopped at the end, also on
// failure. The probe instance runs no agent: the harness times its own task POSTs there (what the model calls
// postSeconds), once before the agents start and then once a minute under the scenarios' load.
import { loadavg } from 'node:os';
import {
  agentErrors,
  agentPasses,
  agentPassStarts,
  agentRefusals,
  startAgent,
  type RunningAgent,
} from './harness/agent';
import { collectInstance, type LiveTask } from './harness/collect';
import { prepareHarness, startInstances, type Instance } from './harness/instances';
import { postJson } from './harness/rest';
import { AGENT, AGENT_SECONDS, HORIZON, HORIZON_SECONDS, scenarioTemplate, type Scenario } from './scenarios';

export interface ScenarioResult {
  scenario: string;
  url: string;
  horizonSeconds: number;
  agent: { ttlSeconds: number; checkSeconds: number; fudge: number };
  agentStarted: string;
  collectedAt: string;
  tasks: LiveTask[];
  agentPasses: { time: string; added: number; deleted: number }[];
  /** When each of the agent's passes began ("Running agent..." in its log). */
  passStarts: string[];
  refusals: string[];
  /** The agent's ERROR lines of its first pass: a rejected template, tasks it could not expand, refusals. */
  agentErrors?: string[];
  raw: { tasks: unknown; schedule: unknown; runs: Record<string, unknown[]> };
}

export interface PostTiming {
  at: string;
  seconds: number;
  /** idle: before any agent ran; loaded: while the scenarios ran */
  phase: 'idle' | 'loaded';
  /** 1-minute load average of the machine when the POST started */
  load1: number;
  /** Set when pScheduler refused or failed the POST. */
  error?: string;
}

export interface LiveRunResult {
  startedAt: string;
  observeSeconds: number;
  scenarios: ScenarioResult[];
  posts: PostTiming[];
}

export const PROBE = { name: 'probe', host: 29 };

/** A task that never runs within the run (starts a day later): only the POST path is exercised. */
function probeTask(address: string): unknown {
  const start = new Date(Date.now() + 86_400_000).toISOString().replace(/\.\d+Z$/, 'Z');
  return {
    schema: 1,
    test: { type: 'idleex', spec: { host: address, duration: 'PT20S' } },
    schedule: { start, repeat: 'PT1M' },
  };
}

export async function timePost(probe: Instance, phase: PostTiming['phase']): Promise<PostTiming> {
  const load1 = loadavg()[0];
  const t0 = Date.now();
  let error: string | undefined;
  try {
    await postJson(`${probe.url}/tasks`, probeTask(probe.address));
  } catch (e) {
    // Under load pScheduler can answer 500 "Unable to determine participants: Process took too long to run." (a
    // plug-in program past its time limit): that is a measurement too, not a failure of the run.
    error = e instanceof Error ? e.message : String(e);
  }
  return {
    at: new Date(t0).toISOString(),
    seconds: (Date.now() - t0) / 1000,
    phase,
    load1,
    ...(error ? { error } : {}),
  };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export async function runLive(
  scenarios: readonly Scenario[],
  options: { observeSeconds: number; log?: (line: string) => void },
): Promise<LiveRunResult> {
  const log = options.log ?? (() => {});
  const templates = new Map(scenarios.map((s) => [s.name, scenarioTemplate(s)]));
  const startedAt = new Date().toISOString();
  const harness = await prepareHarness(log);
  const agents = new Map<string, RunningAgent>();
  let group: Awaited<ReturnType<typeof startInstances>> | undefined;
  try {
    group = await startInstances({
      instances: [...scenarios.map((s) => ({ name: s.name, host: s.host })), PROBE],
      horizon: HORIZON,
    });
    const byName = new Map(group.instances.map((i) => [i.name, i]));
    const probe = byName.get(PROBE.name) as Instance;
    log(`instances up: ${group.instances.map((i) => i.url).join(' ')}`);
    const posts: PostTiming[] = [];
    for (let i = 0; i < 3; i++) posts.push(await timePost(probe, 'idle'));
    log(
      `POST before the agents start: ${posts.map((p) => `${p.seconds.toFixed(2)} s${p.error ? ' (failed)' : ''}`).join(', ')}`,
    );

    const agentStarted = new Date().toISOString();
    for (const s of scenarios)
      agents.set(s.name, startAgent(byName.get(s.name) as Instance, templates.get(s.name), AGENT));
    // Observation: a fixed span of wall time from the agents' start (the scenarios are defined on it); meanwhile one
    // timed probe POST a minute and a check that no agent died. Bounded by count and by the deadline.
    const end = Date.now() + options.observeSeconds * 1000;
    for (let minute = 0; minute < Math.ceil(options.observeSeconds / 60) + 1 && Date.now() < end; minute++) {
      const next = Math.min(end, Date.now() + 60_000);
      for (const s of scenarios) {
        const a = agents.get(s.name) as RunningAgent;
        const done =
          (s.stopAfterRefusals !== undefined && agentRefusals(a.log()).length >= s.stopAfterRefusals) ||
          (s.stopAfterPasses !== undefined && agentPassStarts(a.log()).length > s.stopAfterPasses);
        if (done) {
          if (a.process.alive()) await a.process.stop();
        } else if (!a.process.alive()) throw new Error(`${s.name}: the agent exited:\n${a.log().slice(-3000)}`);
      }
      if (Date.now() + 30_000 < end) {
        const p = await timePost(probe, 'loaded');
        posts.push(p);
        log(`probe POST ${p.seconds.toFixed(2)} s (load ${p.load1.toFixed(2)})${p.error ? `: ${p.error}` : ''}`);
      }
      await sleep(Math.max(0, next - Date.now()));
    }

    // Stop the agents first, so no pass posts while the instances are read.
    await Promise.all([...agents.values()].map((a) => a.process.stop()));
    const results: ScenarioResult[] = [];
    for (const s of scenarios) {
      const inst = byName.get(s.name) as Instance;
      const collectedAt = new Date().toISOString();
      const windowStart = new Date(Date.parse(startedAt) - 3_600_000).toISOString();
      const windowEnd = new Date(Date.now() + 3_600_000).toISOString();
      const c = await collectInstance(inst.url, { start: windowStart, end: windowEnd });
      const agentLog = (agents.get(s.name) as RunningAgent).log();
      results.push({
        scenario: s.name,
        url: inst.url,
        horizonSeconds: HORIZON_SECONDS,
        agent: { ttlSeconds: AGENT_SECONDS.ttl, checkSeconds: AGENT_SECONDS.check, fudge: AGENT.renewalFudgeFactor },
        agentStarted,
        collectedAt,
        tasks: c.tasks,
        agentPasses: agentPasses(agentLog),
        passStarts: agentPassStarts(agentLog),
        refusals: agentRefusals(agentLog),
        agentErrors: agentErrors(agentLog),
        raw: c.raw,
      });
      log(`${s.name}: ${c.tasks.length} tasks, ${c.tasks.reduce((n, t) => n + t.runs.length, 0)} runs`);
    }
    return { startedAt, observeSeconds: options.observeSeconds, scenarios: results, posts };
  } finally {
    await Promise.all([...agents.values()].map((a) => a.process.stop()));
    await group?.stop();
    await harness.stop();
  }
}
