// The simplifications are made in one place (assumptions.ts) and docs/schedule.md lists the same ones, word for word.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../fixtures';
import { DEFAULT_ASSUMPTIONS, SIMPLIFICATIONS } from '../../../server/src/template/schedule/assumptions';

test('docs/schedule.md lists every simplification of assumptions.ts, and no other', () => {
  const doc = readFileSync(join(repoRoot(), 'docs', 'schedule.md'), 'utf8');
  const start = doc.indexOf('<!-- simplifications:');
  const end = doc.indexOf('<!-- end of simplifications -->');
  assert.ok(start > 0 && end > start, 'the marked list in docs/schedule.md');
  const listed = doc
    .slice(doc.indexOf('\n', start) + 1, end)
    .trim()
    .split('\n')
    .map((line) => /^- \*\*([a-z-]+)\*\*: (.*)$/.exec(line))
    .map((m) => (m ? { id: m[1], text: m[2] } : undefined));
  assert.deepEqual(listed, SIMPLIFICATIONS);
});

test("pScheduler's own defaults, as its configurables and scheduler options set them", () => {
  // DB/configurables.sql schedule_horizon P1D, run_start_margin PT3S; SCHED --refresh PT10S, --retries 5,
  // --first-run-offset-multi PT10S, --first-run-offset-single PT5S.
  assert.equal(DEFAULT_ASSUMPTIONS.horizonSeconds, 86_400);
  assert.equal(DEFAULT_ASSUMPTIONS.runStartMarginSeconds, 3);
  assert.equal(DEFAULT_ASSUMPTIONS.refreshSeconds, 10);
  assert.equal(DEFAULT_ASSUMPTIONS.retries, 5);
  assert.equal(DEFAULT_ASSUMPTIONS.firstRunOffsetMultiSeconds, 10);
  assert.equal(DEFAULT_ASSUMPTIONS.firstRunOffsetSingleSeconds, 5);
  // SCHED --retry-backoff PT10S.
  assert.equal(DEFAULT_ASSUMPTIONS.retryBackoffSeconds, 10);
});

test("pSConfig's agent's own defaults (perfsonar/psconfig 5.2.4 psconfig/pscheduler/agent.py, base_agent.py)", () => {
  // agent.py: task_min_ttl_seconds 86400, task-min-runs 2, task-renewal-fudge-factor .25; base_agent.py:
  // check_interval_seconds 3600.
  assert.equal(DEFAULT_ASSUMPTIONS.agentRenewal, true);
  assert.equal(DEFAULT_ASSUMPTIONS.taskMinTtlSeconds, 86_400);
  assert.equal(DEFAULT_ASSUMPTIONS.taskMinRuns, 2);
  assert.equal(DEFAULT_ASSUMPTIONS.renewalFudgeFactor, 0.25);
  assert.equal(DEFAULT_ASSUMPTIONS.checkIntervalSeconds, 3600);
});

test('what a live pScheduler showed is the default: every pending run has priority NULL', () => {
  // Every run the live suite stored had priority NULL (DB/run.sql api_run_post ~1138-1142), see assumptions.ts.
  assert.equal(DEFAULT_ASSUMPTIONS.nullPriorityDefect, true);
});
