// The live suite's analysis on the REST answers a real pScheduler gave (test/fixtures/pscheduler-live/, recorded by
// `PSCHEDULER_LIVE_RECORD=1 npm run test:pscheduler`). Part of `npm test`: no pScheduler needed. Expectations are
// computed here from the raw answers, field by field, not by the functions under test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isLoadFailure, isoSeconds, viewScenario, renewalOverlapGiveUps } from './analysis';
import { tasksFromAnswers } from './harness/collect';
import { liveFixturesDir, type LiveFixture } from './record';
import { agentErrors } from './harness/agent';

type Obj = Record<string, unknown>;

function fixtures(): LiveFixture[] {
  if (!existsSync(liveFixturesDir)) return [];
  return readdirSync(liveFixturesDir)
    .filter((f) => f.endsWith('.json') && f !== 'post-timings.json')
    .map((f) => JSON.parse(readFileSync(join(liveFixturesDir, f), 'utf8')) as LiveFixture);
}

const recorded = fixtures();
const byName = (name: string): LiveFixture => {
  const f = recorded.find((x) => x.scenario === name);
  assert.ok(f, `no recorded fixture for ${name} in ${liveFixturesDir}`);
  return f;
};
const view = (f: LiveFixture) =>
  viewScenario(tasksFromAnswers(f.tasks, f.runs), {
    horizonSeconds: f.horizonSeconds,
    ttlSeconds: f.agent.ttlSeconds,
    collectedAt: f.collectedAt,
  });

test('a non-starter of pScheduler failing under load is told apart from a scheduling verdict', () => {
  assert.ok(isLoadFailure('Failed to post run data to all participants'));
  assert.ok(isLoadFailure('Failed to get run data from https://127.0.0.23/pscheduler/tasks/x/runs/y: 500: ...'));
  assert.ok(isLoadFailure('Failed to get lead run data: Got 0 rows of lead participant data instead of 1.'));
  assert.ok(!isLoadFailure('No times available for this run.'));
  assert.ok(!isLoadFailure('Gave up after too many scheduling conflicts.'));
  assert.ok(!isLoadFailure(null));
});

test('isoSeconds reads the durations pScheduler and pSConfig write, and refuses others', () => {
  assert.equal(isoSeconds('PT21S'), 21);
  assert.equal(isoSeconds('PT1M'), 60);
  assert.equal(isoSeconds('P1DT2H3M4S'), 93_784);
  assert.equal(isoSeconds('PT0.5S'), 0.5);
  for (const bad of ['P', 'PT', '21S', 'PT1X', '']) assert.throws(() => isoSeconds(bad), /not an ISO 8601 duration/);
});

test('the recorded runs cover every scenario of the full set', () => {
  assert.deepEqual(recorded.map((f) => f.scenario).sort(), [
    'background',
    'equal-repeat',
    'no-slip-identical',
    'refused',
    'short-no-slip',
    'slip-50s',
  ]);
});

test("time zero is the first task's until less task-min-ttl (the agent's pass start, psconfig task_manager.py add_task)", () => {
  const f = byName('no-slip-identical');
  const tasks = (f.tasks as Obj[])
    .slice()
    .sort((a, b) => Date.parse(String((a.detail as Obj).added)) - Date.parse(String((b.detail as Obj).added)));
  const until = String((tasks[0].schedule as Obj).until);
  assert.equal(view(f).t0, new Date(Date.parse(until) - f.agent.ttlSeconds * 1000).toISOString());
  // The first task has no start (the agent posts none); its successors start at the old until.
  assert.equal((tasks[0].schedule as Obj).start, undefined);
  assert.equal((tasks[1].schedule as Obj).start, until);
});

test("per task: kept and non-started runs are the answers' states; windows are added + horizon - start", () => {
  for (const f of recorded) {
    const v = view(f);
    for (const t of v.tasks) {
      const raw = f.runs[t.uuid] as Obj[];
      assert.equal(t.scheduled + t.nonstart, raw.length, `${f.scenario} ${t.uuid}`);
      assert.equal(t.nonstart, raw.filter((r) => r.state === 'nonstart').length);
      for (const r of raw) {
        const start = Date.parse(String(r['start-time']));
        const expectedWindow = (Date.parse(String(r.added)) - start) / 1000 + f.horizonSeconds;
        const seen = t.runs.find((x) => Math.abs(Date.parse(view(f).t0 as string) + x.t * 1000 - start) < 1);
        assert.ok(seen, `${f.scenario}: run at ${String(r['start-time'])} missing from the view`);
        assert.equal(seen.window, expectedWindow);
      }
    }
  }
});

test("non-starters carry pScheduler's own reasons, and every stored run has priority NULL", () => {
  const reasons = new Set<string>();
  for (const f of recorded)
    for (const runs of Object.values(f.runs))
      for (const r of runs as Obj[]) {
        if (r.state === 'nonstart') reasons.add(String(r.errors));
        // database/run.sql api_run_post: run_priority := LEAST(task.priority, run_priority) with run_priority unset.
        assert.equal(r.priority, null);
      }
  for (const r of reasons)
    assert.ok(
      ['No times available for this run.', 'Gave up after too many scheduling conflicts.'].includes(r) ||
        isLoadFailure(r),
      r,
    );
});

test('identical template tasks: one pScheduler task alive at a time, each pass adding at most one', () => {
  for (const name of ['no-slip-identical', 'slip-50s']) {
    const f = byName(name);
    assert.ok(f.agentPasses.length >= 2 && f.agentPasses.every((p) => p.added === 1), JSON.stringify(f.agentPasses));
    // Intervals [start or added, until) of the stored tasks, from the raw answers.
    const spans = (f.tasks as Obj[]).map((t) => {
      const s = t.schedule as Obj;
      return [Date.parse(String(s.start ?? (t.detail as Obj).added)), Date.parse(String(s.until))];
    });
    for (const [a, b] of spans) assert.equal(spans.filter(([c, d]) => c < b && a < d).length, 1, name);
    assert.equal(view(f).maxConcurrentTasks, 1);
  }
});

test("the refused scenario stored no task; the agent logged pScheduler's refusal", () => {
  const f = byName('refused');
  assert.deepEqual(f.tasks, []);
  assert.ok(
    f.refusals.some((r) => /None of the participants could run this test/.test(r)),
    f.refusals.join('\n'),
  );
  assert.equal(view(f).tasks.length, 0);
});

test('the agent\'s first-pass ERROR lines: up to the second "Running agent...", without time, pid and guid', () => {
  const log = [
    '2026-11-28 03:47:09,100 INFO pid=1 prog=psconfig_pscheduler_agent func=<module> line=110 guid=a msg=Running agent...',
    '2026-11-28 03:47:09,948 ERROR pid=1 prog=agent.py func=_run_handle_psconfig line=187 task=localhost,error=Error expanding test specification: Unable to create valid JSON after expanding template',
    '2026-11-28 03:48:03,068 ERROR pid=1 prog=task_manager.py func=log_error line=545 guid=b action=create msg=Problem adding test idleex',
    '',
    '127.0.0.30:',
    '    sleep',
    '      - Failed can-run; see system logs.',
    '2026-11-28 03:48:10,000 INFO pid=1 prog=psconfig_pscheduler_agent func=<module> line=110 guid=c msg=Running agent...',
    '2026-11-28 03:48:11,000 ERROR pid=1 prog=agent.py func=_run_handle_psconfig line=187 task=localhost,error=again',
  ].join('\n');
  assert.deepEqual(agentErrors(log), [
    'prog=agent.py func=_run_handle_psconfig line=187 task=localhost,error=Error expanding test specification: Unable to create valid JSON after expanding template',
    // a message's lines up to the next timestamped one are its own (pScheduler's refusal lists each participant's tools)
    'prog=task_manager.py func=log_error line=545 action=create msg=Problem adding test idleex\n\n127.0.0.30:\n    sleep\n      - Failed can-run; see system logs.',
  ]);
});

test('a successor run given up where it meets the kept last run of the task it renews is told apart', () => {
  // By hand: task A [0, 240) keeps a 21-s run at 226 (to 247); its successor B starts at 240 and gave up its run at
  // 240, which meets A's; B's run at 300 and a run given up for another reason are not counted.
  const run = (t: number, state: string, errors: string | null = null) => ({ t, state, errors, window: null });
  const task = (uuid: string, start: number | null, until: number, runs: ReturnType<typeof run>[]) => ({
    uuid,
    start,
    until,
    durationSeconds: 21,
    runs,
  });
  const gaveUp = 'Gave up after too many scheduling conflicts.';
  const view = {
    tasks: [
      task('A', null, 240, [run(166, 'finished'), run(226, 'finished')]),
      task('B', 240, 480, [run(240, 'nonstart', gaveUp), run(300, 'nonstart', 'No times available for this run.')]),
      task('C', 480, 720, [run(480, 'nonstart', gaveUp)]), // B kept nothing that meets it
    ],
  };
  assert.deepEqual(renewalOverlapGiveUps(view as never), [{ task: 'B', t: 240 }]);
});
