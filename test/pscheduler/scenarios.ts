// The live scenarios: each a pSConfig template in scenarios/ (its one address is the instance's), run by pSConfig's
// agent against its own pScheduler instance. Time is scaled down so that the horizon edge and the agent's renewal
// show within minutes: every instance has schedule_horizon PT3M (a real host: P1D) and every agent task-min-ttl PT4M
// (P1D), check-interval PT30S (PT1H), task-renewal-fudge-factor 0.25 (its default).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentSettings } from './harness/agent';
import { harnessDir } from './harness/prefix';

export interface Scenario {
  name: string;
  /** 127.0.0.host: the address the template names. */
  host: number;
  /** Part of `npm run test:pscheduler`'s CI subset (the rest run with PSCHEDULER_LIVE_FULL=1). */
  ci: boolean;
  /** What the scenario shows, for reports. */
  shows: string;
  /**
   * Stop the agent once its log holds this many "Problem adding test" lines (a scenario about refusals needs no
   * more passes, and each refused POST costs the machine plug-in runs).
   */
  stopAfterRefusals?: number;
  /**
   * Stop the agent once this many of its passes finished: the next one began ("Running agent..."; a pass logs
   * "Added N new tasks" only when it changed something).
   */
  stopAfterPasses?: number;
  /**
   * A scenario about which tasks the agent creates, not about their runs: compared with the project's expansion
   * verdicts (verdict-checks.ts) instead of the schedule model.
   */
  verdicts?: boolean;
}

export const HORIZON = 'PT3M';
export const HORIZON_SECONDS = 180;
export const AGENT: AgentSettings = { taskMinTtl: 'PT4M', checkInterval: 'PT30S', renewalFudgeFactor: 0.25 };
export const AGENT_SECONDS = { ttl: 240, check: 30 };

export const SCENARIOS: readonly Scenario[] = [
  {
    name: 'no-slip-identical',
    host: 21,
    ci: true,
    shows:
      'no slip, exclusive 21 s: runs decided at the horizon edge are non-starters; two identical template tasks make one pScheduler task',
  },
  {
    name: 'slip-50s',
    host: 22,
    ci: true,
    shows: 'slip PT50S: every run fits; a group naming the address twice makes one task',
  },
  {
    name: 'equal-repeat',
    host: 23,
    ci: true,
    shows: 'two different tasks with the same repeat, posted one after the other',
  },
  { name: 'background', host: 25, ci: true, shows: 'a background test without slip is never cut' },
  {
    name: 'refused',
    host: 26,
    ci: true,
    shows: 'every task refused by pScheduler: the agent creates nothing',
    // two passes over the template's two tasks
    stopAfterRefusals: 4,
  },
  {
    name: 'rejected-excludes-self',
    host: 27,
    ci: true,
    shows:
      'a group with "excludes-self": false (the schema wants a string): the agent rejects the template, creates nothing',
    verdicts: true,
    stopAfterPasses: 1,
  },
  {
    name: 'rejected-missing-ref',
    host: 28,
    ci: true,
    shows: 'a task naming a test the template lacks: the agent rejects the whole template, creates nothing',
    verdicts: true,
    stopAfterPasses: 1,
  },
  {
    name: 'task-verdicts',
    host: 30,
    ci: true,
    shows:
      'one task created, one skipped by the agent (a spec value exactly "{% localhost %}"), one refused by pScheduler (only a tool it lacks)',
    verdicts: true,
    stopAfterPasses: 1,
  },
  {
    name: 'short-no-slip',
    host: 24,
    ci: false,
    shows: 'a 6 s exclusive run without slip: edge runs fit or not with the loop phase',
  },
];

/** The scenario's template, parsed; checks that its addresses are the scenario's instance. */
export function scenarioTemplate(s: Scenario): Record<string, unknown> {
  const text = readFileSync(scenarioPath(s), 'utf8');
  const template = JSON.parse(text) as Record<string, unknown>;
  const addresses = Object.values((template.addresses ?? {}) as Record<string, { address?: string }>).map(
    (a) => a.address,
  );
  if (addresses.length === 0 || addresses.some((a) => a !== `127.0.0.${s.host}`))
    throw new Error(`scenarios/${s.name}.json: every address must be 127.0.0.${s.host} (its instance)`);
  return template;
}

export function scenarioPath(s: Scenario): string {
  return join(harnessDir, 'scenarios', `${s.name}.json`);
}
