// The REST answers of a live run kept as fixtures (test/fixtures/pscheduler-live/<scenario>.json), trimmed: no
// secrets (pScheduler's answers hold none for tasks posted without a key; any "key" or "auth" member is dropped
// anyway), the schedule answer cut to its first entries. Unit tests and later features read real answers from there.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixturesDir } from '../fixtures';
import type { LiveRunResult, ScenarioResult } from './live-run';
import { SCENARIOS } from './scenarios';

export const liveFixturesDir = join(fixturesDir, 'pscheduler-live');

/** The shape of one fixture file. */
export interface LiveFixture {
  scenario: string;
  recordedAt: string;
  pscheduler: string;
  psconfig: string;
  horizonSeconds: number;
  agent: ScenarioResult['agent'];
  agentStarted: string;
  collectedAt: string;
  agentPasses: ScenarioResult['agentPasses'];
  passStarts: string[];
  refusals: string[];
  /** GET /tasks?expanded=true&detail=true */
  tasks: unknown;
  /** GET /tasks/UUID/runs/RUN for every run, by task UUID */
  runs: Record<string, unknown[]>;
  /** GET /schedule?start=&end= (first entries) */
  schedule: unknown;
}

const SCHEDULE_ENTRIES = 12;

function scrub(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(scrub);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.entries(v as Record<string, unknown>)
        .filter(([k]) => k !== 'key' && k !== 'auth')
        .map(([k, x]) => [k, scrub(x)]),
    );
  return v;
}

export function fixtureOf(r: ScenarioResult, versions: { pscheduler: string; psconfig: string }): LiveFixture {
  const schedule = Array.isArray(r.raw.schedule) ? r.raw.schedule.slice(0, SCHEDULE_ENTRIES) : r.raw.schedule;
  return {
    scenario: r.scenario,
    recordedAt: r.collectedAt,
    pscheduler: versions.pscheduler,
    psconfig: versions.psconfig,
    horizonSeconds: r.horizonSeconds,
    agent: r.agent,
    agentStarted: r.agentStarted,
    collectedAt: r.collectedAt,
    agentPasses: r.agentPasses,
    passStarts: r.passStarts,
    refusals: r.refusals,
    tasks: scrub(r.raw.tasks),
    runs: scrub(r.raw.runs) as Record<string, unknown[]>,
    schedule: scrub(schedule),
  };
}

export function writeFixtures(result: LiveRunResult, versions: { pscheduler: string; psconfig: string }): string[] {
  mkdirSync(liveFixturesDir, { recursive: true });
  const written: string[] = [];
  for (const r of result.scenarios) {
    // The verdict scenarios' runs are not what they show (their verdicts are checked live, verdict-checks.ts).
    if (SCENARIOS.find((s) => s.name === r.scenario)?.verdicts) continue;
    const file = join(liveFixturesDir, `${r.scenario}.json`);
    writeFileSync(file, `${JSON.stringify(fixtureOf(r, versions), null, 1)}\n`);
    written.push(file);
  }
  const posts = join(liveFixturesDir, 'post-timings.json');
  writeFileSync(
    posts,
    `${JSON.stringify({ recordedAt: result.scenarios[0]?.collectedAt, posts: result.posts }, null, 1)}\n`,
  );
  written.push(posts);
  return written;
}
