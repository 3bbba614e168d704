// pscheduler-client's reading of pScheduler's own answers, recorded by test/pscheduler/hosts-live.ts
// (PSCHEDULER_HOSTS_RECORD=1) in test/fixtures/pscheduler-hosts/answers.json: the task list of 127.0.0.40 and one
// run of each kind. What each field means is pScheduler's: database/run.sql `run_json` (state, errors),
// archiving.sql `archiving_json` and daemons/archiver.raw (completed + archived: succeeded; completed alone: gave up).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pschedulerHostsDir } from '../../fixtures';
import { runOf, tasksOf } from '../../../pscheduler-client';

/** A run as pScheduler answers it (the parts the test reads). */
interface RawRun {
  state?: string;
  errors?: unknown;
  'result-merged'?: { error?: unknown };
  archivings?: { completed?: boolean; archived?: boolean; archiver: { name: string }; diags: { stderr?: string }[] }[];
}
/** A task's JSON: the reference pSConfig's agent wrote. */
type TaskJson = { reference: { psconfig: Record<string, Record<string, unknown>> } };
const answers = JSON.parse(readFileSync(join(pschedulerHostsDir, 'answers.json'), 'utf8')) as {
  tasks: unknown;
  runs: Record<string, RawRun>;
};

test('the task list: every task pSConfig created, with its href and JSON', () => {
  const tasks = tasksOf('https://127.0.0.40/pscheduler/tasks', answers.tasks);
  assert.equal(tasks.length, 4); // archived and its renewal, commented (old), retired (old)
  for (const t of tasks) {
    assert.match(t.href, /^https:\/\/127\.0\.0\.40\/pscheduler\/tasks\/[0-9a-f-]{36}$/);
    assert.equal((t.json as TaskJson).reference.psconfig['created-by']['user-agent'], 'psconfig-pscheduler-agent');
  }
});

test('each recorded run: its state, its reason, its archivings as pScheduler marked them', () => {
  const runs = Object.entries(answers.runs);
  assert.ok(runs.length >= 2);
  for (const [href, raw] of runs) {
    const r = runOf(href, raw);
    assert.equal(r.state, raw.state);
    if (raw.state === 'nonstart') assert.equal(r.reason, 'No times available for this run.');
    if (raw.state === 'failed') assert.equal(r.reason, raw.errors ?? raw['result-merged']?.error);
    const archivings = raw.archivings ?? [];
    assert.equal(r.archivings.length, archivings.length);
    archivings.forEach((a, i) => {
      const expected = a.completed ? (a.archived ? 'succeeded' : 'failed') : 'pending';
      assert.equal(r.archivings[i].outcome, expected);
      assert.equal(r.archivings[i].archiver, a.archiver.name);
      if (expected === 'failed') assert.equal(r.archivings[i].message, a.diags[a.diags.length - 1].stderr);
    });
  }
  const archived = runs.map(([h, raw]) => runOf(h, raw)).find((r) => r.archivings.length === 2)!;
  assert.deepEqual(archived.archivings.map((a) => a.outcome).sort(), ['failed', 'succeeded']);
  assert.match(archived.archivings.find((a) => a.outcome === 'failed')!.message!, /this transform fails on purpose/);
});
