// psconfig-tools hosts against real pScheduler instances (docs/hosts.md): two instances on 127.0.0.40 and .41, the
// tasks posted as pSConfig's agent posts them (task_manager.py `add_task`: the combination's JSON with
// reference.psconfig.created-by {uuid, user-agent, agent-hostname, address} and schedule.until; a renewal starts at
// the old task's until), then read back with pscheduler-client/ and compared with the template by template/hosts/:
//   127.0.0.40: `archived` posted twice (the second a renewal: present, renewing), its archivings to the bit bucket
//     succeed and, through a jq transform that raises an error, fail (archiver.raw "Error during transformation");
//     `commented` posted from the older template (different: test.spec.starting-comment); `retired` from the older
//     template only (extra).
//   127.0.0.41: `lonely` never posted (missing); `busy-1` and `busy-2` present, two exclusive 21-s runs wanted every
//     30 s, so some runs cannot be placed: non-starters, "No times available for this run." when the run holding
//     their time was running at the decision, "Gave up after too many scheduling conflicts." when it was still pending
//     (the proposal does not see pending runs, the insert does: DB/schedule.sql api_proposed_times, DB/run.sql
//     run_has_conflicts; docs/schedule.md, step 4 and 6).
// Not part of `npm test` (not *.test.ts): `npm run test:pscheduler` runs it after the scenarios, or alone:
//   node scripts/build.mjs --tests && node --enable-source-maps --test out/test/pscheduler/hosts-live.js
// PSCHEDULER_HOSTS_RECORD=1 rewrites test/fixtures/pscheduler-hosts/reads.json (what the reader got), which
// test/unit/hosts/recorded.test.ts compares in `npm test`, and answers.json (pScheduler's answers as they came),
// which test/unit/hosts/reader-answers.test.ts reads.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pschedulerHostsDir } from '../fixtures';
import { expandText } from '../../server/src/template/expand/from-text';
import { compareHosts } from '../../server/src/template/hosts';
import { closePSchedulerConnections, readHosts } from '../../pscheduler-client';
import type { ExpandedCombination, HostRead, HostsResult } from '../../common/protocol';
import { prepareHarness, startInstances, type Harness, type InstanceGroup } from './harness/instances';
import { getJson, pollUntil, postJson } from './harness/rest';

const A = '127.0.0.40';
const B = '127.0.0.41';
const dir = pschedulerHostsDir;

let harness: Harness | undefined;
let group: InstanceGroup | undefined;
let reads: HostRead[] = [];
let result: HostsResult | undefined;
let failure: unknown;

async function expand(file: string): Promise<ExpandedCombination[]> {
  const r = await expandText({ uri: file, version: null, text: readFileSync(join(dir, file), 'utf8') });
  assert.equal(r.error, undefined, `${file}: ${r.error}`);
  return r.combinations;
}

const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The task as the agent posts it (task_manager.py add_task / _create_tasks). */
function asPosted(c: ExpandedCombination, start: number | undefined, until: number): unknown {
  const t = JSON.parse(JSON.stringify(c.pscheduler)) as {
    reference: { psconfig: Record<string, unknown> };
    schedule: Record<string, unknown>;
  };
  t.reference.psconfig['created-by'] = {
    address: c.agent,
    uuid: 'c0ffee00-0000-4000-8000-000000000028',
    'user-agent': 'psconfig-pscheduler-agent',
    'agent-hostname': c.agent,
  };
  if (start !== undefined) t.schedule.start = iso(start);
  t.schedule.until = iso(until);
  return t;
}

/**
 * POST a task, again when pScheduler could not ask its tools (a plug-in's can-run outran its time on a loaded
 * machine: "Failed can-run; see system logs."), as the agent's next pass would post it again; at most 4 tries.
 */
async function post(url: string, task: unknown): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await postJson(url, task);
      return;
    } catch (e) {
      if (attempt >= 4 || !/Failed can-run/.test(String(e))) throw e;
    }
  }
}

const find = (list: ExpandedCombination[], task: string): ExpandedCombination => {
  const c = list.find((x) => x.task === task);
  assert.ok(c?.pscheduler && !c.error, `${task}: not created (${c?.error})`);
  return c;
};

before(
  async () => {
    try {
      const log = (l: string): void => console.log(`# ${new Date().toISOString()} ${l}`);
      harness = await prepareHarness(log);
      group = await startInstances({
        instances: [
          { name: 'hosts-a', host: 40 },
          { name: 'hosts-b', host: 41 },
        ],
        horizon: 'PT3M',
        archiver: true,
      });
      const [a, b] = group.instances;
      const next = await expand('template-new.json');
      const old = await expand('template-old.json');
      const now = Date.now();
      const until = now + 10 * 60_000;
      await post(`${a.url}/tasks`, asPosted(find(next, 'archived'), undefined, until));
      await post(`${a.url}/tasks`, asPosted(find(next, 'archived'), until, until + 10 * 60_000));
      await post(`${a.url}/tasks`, asPosted(find(old, 'commented'), undefined, until));
      await post(`${a.url}/tasks`, asPosted(find(old, 'retired'), undefined, until));
      await post(`${b.url}/tasks`, asPosted(find(next, 'busy-1'), undefined, until));
      await post(`${b.url}/tasks`, asPosted(find(next, 'busy-2'), undefined, until));
      log('tasks posted; waiting for an archived run and a non-starter');
      // Every answer of a read, by host and by path and query (wire.json: the replays of test/pscheduler-replay.ts).
      let wire: Record<string, Record<string, unknown>> = {};
      const recorder = (host: string) => (url: string, body: unknown) => {
        const u = new URL(url);
        (wire[host] ??= {})[u.pathname + u.search] = body;
      };
      const read = (): Promise<HostRead[]> => {
        wire = {};
        return readHosts([
          { host: A, url: a.url, insecure: true, since: 'PT1H', onAnswer: recorder(A) },
          { host: B, url: b.url, insecure: true, since: 'PT1H', onAnswer: recorder(B) },
        ]);
      };
      reads = await pollUntil(
        'a run of `archived` with both archivings done and a non-starter on 127.0.0.41',
        async () => {
          const r = await read();
          const runsA = r[0].tasks.flatMap((t) => t.runs);
          const runsB = r[1].tasks.flatMap((t) => t.runs);
          const archived = runsA.some(
            (x) => x.archivings.length === 2 && x.archivings.every((y) => y.outcome !== 'pending'),
          );
          const nonstart = runsB.some((x) => x.state === 'nonstart');
          return archived && nonstart ? r : undefined;
        },
        6 * 60_000,
        5_000,
      );
      result = compareHosts({
        combinations: next,
        agents: [A, B],
        reads,
        template: 'template-new.json',
        since: 'PT1H',
      });
      if (process.env.PSCHEDULER_HOSTS_RECORD === '1') {
        writeFileSync(join(dir, 'reads.json'), `${JSON.stringify(reads, null, 1)}\n`);
        // pScheduler's own answers, as they came: 127.0.0.40's task list and one run of each kind the reader
        // interprets (an archived run, a non-starter, a failed run when there was one), for reader-answers.test.ts.
        const runs = [...reads[0].tasks, ...reads[1].tasks].flatMap((t) => t.runs);
        const pick = [
          runs.find((x) => x.archivings.some((y) => y.outcome === 'failed')),
          runs.find((x) => x.state === 'nonstart'),
          runs.find((x) => x.state === 'failed'),
        ].filter((x) => x !== undefined);
        const filter = JSON.stringify({
          reference: { psconfig: { 'created-by': { 'user-agent': 'psconfig-pscheduler-agent' } } },
        });
        const answers = {
          tasks: await getJson(`${a.url}/tasks?expanded=true&detail=true&json=${encodeURIComponent(filter)}`),
          runs: Object.fromEntries(
            await Promise.all(pick.map(async (x): Promise<[string, unknown]> => [x.href, await getJson(x.href)])),
          ),
        };
        writeFileSync(join(dir, 'answers.json'), `${JSON.stringify(answers, null, 1)}\n`);
        const recorded = { readAt: reads[0].readAt, since: 'PT1H', hosts: wire };
        writeFileSync(join(dir, 'wire.json'), `${JSON.stringify(recorded)}\n`);
      }
    } catch (e) {
      failure = e;
    }
  },
  { timeout: 15 * 60_000 },
);

after(async () => {
  await closePSchedulerConnections();
  await group?.stop();
  await harness?.stop();
});

const host = (h: string) => {
  // eslint-disable-next-line @typescript-eslint/only-throw-error -- the error before() caught, rethrown as it was
  if (failure) throw failure;
  const r = result!.hosts.find((x) => x.host === h);
  assert.ok(r, `no report for ${h}`);
  assert.equal(r.error, undefined);
  return r;
};

test('127.0.0.40: archived is present and renewing, its archivings succeed and fail with the transform error', () => {
  const e = host(A).entries.find((x) => x.task === 'archived');
  assert.equal(e?.verdict, 'present');
  assert.equal(e.lifetime, 'renewing');
  assert.equal(e.hrefs?.length, 2);
  assert.ok(e.runs!.finished >= 1);
  assert.ok(e.runs!.archivingsSucceeded >= 1);
  assert.ok(e.runs!.archivingsFailed >= 1);
  const p = e.runs!.problems.find((x) => x.kind === 'archiving-failed');
  assert.equal(p?.archiver, 'bitbucket');
  assert.match(p?.reason ?? '', /this transform fails on purpose/);
});

test('127.0.0.40: commented differs in test.spec.starting-comment, retired is extra', () => {
  const r = host(A);
  const d = r.entries.find((x) => x.task === 'commented');
  assert.equal(d?.verdict, 'different');
  assert.deepEqual(d.parts, [{ part: 'test.spec.starting-comment', old: 'old comment', new: 'new comment' }]);
  const extra = r.entries.filter((x) => x.verdict === 'extra');
  assert.equal(extra.length, 1);
  assert.equal(extra[0].testType, 'idle');
  assert.equal(extra[0].createdBy?.['agent-hostname'], A);
  assert.deepEqual(r.counts, { present: 1, missing: 0, extra: 1, different: 1, expired: 0, renewing: 1 });
});

test('127.0.0.41: lonely is missing with the usual causes, busy-1 and busy-2 present with non-starters', () => {
  const r = host(B);
  const m = r.entries.find((x) => x.task === 'lonely');
  assert.equal(m?.verdict, 'missing');
  assert.ok(m.hints?.some((h) => /match addresses/.test(h)));
  const busy = r.entries.filter((x) => x.task?.startsWith('busy-'));
  assert.deepEqual(
    busy.map((x) => x.verdict),
    ['present', 'present'],
  );
  const nonStarters = busy.flatMap((x) => x.runs!.problems.filter((p) => p.kind === 'nonstart'));
  assert.ok(nonStarters.length >= 1);
  const scheduling = ['No times available for this run.', 'Gave up after too many scheduling conflicts.'];
  assert.ok(
    nonStarters.every((p) => scheduling.includes(p.reason ?? '')),
    JSON.stringify(nonStarters),
  );
  assert.equal(result!.problems, true);
});
