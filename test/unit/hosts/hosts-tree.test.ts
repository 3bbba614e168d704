// The Hosts view's tree (client/src/hosts/hosts-tree.ts) on what two real pScheduler instances answered
// (test/fixtures/pscheduler-hosts/reads.json) compared with the live suite's template; the expectations are what the
// live suite posted (test/pscheduler/hosts-live.ts's header) and the recorded runs themselves, sorted here by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pschedulerHostsDir } from '../../fixtures';
import { expandText } from '../../../server/src/template/expand/from-text';
import { compareHosts } from '../../../server/src/template/hosts';
import type { HostRead } from '../../../common/protocol';
import { HostsTreeModel, MAX_RUNS_LISTED, snapshotHosts } from '../../../client/src/hosts/hosts-tree';
import { hostsSettingsOf, DEFAULT_HOSTS_SETTINGS } from '../../../client/src/hosts/hosts-settings';
import { planReads } from '../../../client/src/hosts/read-hosts';

async function model(): Promise<{ m: HostsTreeModel; reads: HostRead[] }> {
  const text = readFileSync(join(pschedulerHostsDir, 'template-new.json'), 'utf8');
  const reads = JSON.parse(readFileSync(join(pschedulerHostsDir, 'reads.json'), 'utf8')) as HostRead[];
  const e = await expandText({ uri: 't', version: null, text });
  const result = compareHosts({ combinations: e.combinations, agents: e.agents, reads, since: 'PT1H' });
  return { m: new HostsTreeModel({ kind: 'read', template: 't', result, reads, at: reads[0].readAt }), reads };
}

test('hosts, then their tasks with the verdicts posted for them, missing in error', async () => {
  const { m } = await model();
  const tree = snapshotHosts(m, 2);
  assert.deepEqual(
    tree.map((h) => h.label),
    ['127.0.0.40', '127.0.0.41'],
  );
  const a = tree[0].children!;
  assert.deepEqual(
    a.map((n) => [n.label.split(' ')[0], n.icon]),
    [
      ['archived', 'sync'], // posted twice: the renewal waits
      ['commented', 'diff'],
      ['idle', 'question'], // `retired` of the older template: extra, named by its test type
    ],
  );
  const lonely = tree[1].children!.find((n) => n.label.startsWith('lonely'))!;
  assert.equal(lonely.icon, 'error');
  assert.match(lonely.description!, /^missing/);
});

test('under a task: why, then its runs newest first, as recorded', async () => {
  const { m, reads } = await model();
  const host = m.roots()[0];
  const archived = m.children(host)[0];
  assert.equal(archived.kind, 'entry');
  const runs = m.children(archived).filter((n) => n.kind === 'run');
  // By hand: every run of both `archived` tasks on .40 that has a start, newest first.
  const hrefs = archived.kind === 'entry' ? new Set(archived.entry.hrefs) : new Set<string>();
  const starts = reads[0].tasks
    .filter((t) => hrefs.has(t.href))
    .flatMap((t) => t.runs.map((r) => r.start))
    .filter((s): s is string => !!s)
    .sort()
    .reverse()
    .slice(0, MAX_RUNS_LISTED);
  assert.ok(starts.length > 0);
  assert.deepEqual(
    runs.map((r) => (r.kind === 'run' ? r.run.start : '')),
    starts,
  );
  // A run whose archiving to the broken bucket failed says so.
  const failedArchiving = runs.map((r) => m.item(r)).find((v) => /bitbucket failed/.test(v.description ?? ''));
  assert.ok(failedArchiving, 'a run with a failed archiving');
});

test('a host that could not be read is one item with the reason; reading and errors are one line', () => {
  const failed = new HostsTreeModel({
    kind: 'read',
    template: 't',
    reads: [],
    at: '2026-11-28T00:00:00Z',
    result: {
      since: 'P1D',
      problems: true,
      hosts: [
        {
          host: 'ps.example.net',
          url: 'https://ps.example.net/pscheduler',
          error: 'connect ECONNREFUSED',
          errorKind: 'unreachable',
          entries: [],
          counts: { present: 0, missing: 0, different: 0, extra: 0, expired: 0, renewing: 0 },
        },
      ],
    },
  });
  assert.deepEqual(snapshotHosts(failed, 2), [
    {
      label: 'ps.example.net',
      description: 'cannot read: unreachable',
      icon: 'error',
      children: [{ label: 'connect ECONNREFUSED', icon: 'error' }],
    },
  ]);
  assert.deepEqual(snapshotHosts(new HostsTreeModel({ kind: 'reading', template: 't', hosts: ['a', 'b'] }), 1), [
    { label: 'Reading 2 host(s): a, b…', icon: 'loading~spin' },
  ]);
});

test('settings of the wrong type are named and replaced by the defaults; the plan reads each host as told', () => {
  const raw: Record<string, unknown> = {
    addresses: 'ps1',
    since: 'PT6H',
    urls: { ps1: 'http://127.0.0.1:1/pscheduler', ps2: 'ftp://x' },
    insecure: ['*'],
    caFiles: { ps1: '/nonexistent/ca.pem' },
    requestTimeoutSeconds: 0,
  };
  const { settings, problems } = hostsSettingsOf((k) => raw[k]);
  assert.deepEqual(settings.addresses, DEFAULT_HOSTS_SETTINGS.addresses);
  assert.equal(settings.since, 'PT6H');
  assert.equal(settings.requestTimeoutSeconds, 10);
  assert.deepEqual(problems, [
    'psconfig.hosts.addresses is ignored: it must be a list of host names or addresses',
    'psconfig.hosts.requestTimeoutSeconds is ignored: it must be a whole number from 1 to 600',
  ]);
  const plan = planReads(['ps1', 'ps2'], settings, (f) => {
    throw new Error(`cannot read ${f}`);
  });
  assert.deepEqual(
    plan.options.map((o) => [o.host, o.url, o.since, o.insecure, o.timeoutMs, o.deadlineMs]),
    [
      ['ps1', 'http://127.0.0.1:1/pscheduler', 'PT6H', true, 10_000, 30_000],
      ['ps2', 'https://ps2/pscheduler', 'PT6H', true, 10_000, 30_000],
    ],
  );
  assert.deepEqual(plan.problems, [
    'psconfig.hosts.caFiles: ps1: cannot read /nonexistent/ca.pem',
    'psconfig.hosts.urls: ps2 → ftp://x is not an http(s) URL; https://ps2/pscheduler is read',
  ]);
  const longSpan = planReads(['ps1'], { ...settings, since: 'P2M' }, () => '');
  assert.equal(longSpan.options[0].since, 'P1D');
  assert.match(longSpan.problems[0], /not an ISO 8601 duration up to P31D/);
});
