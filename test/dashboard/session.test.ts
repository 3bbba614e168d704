// The dashboard model against the local archive's generated mesh (test/archive/server/seed-mesh.ts) and the
// matching template (test/fixtures/dashboard/mesh-20.psconfig.json): every configured direction gets the state
// the seeded scenario implies (ok, warning, critical, failed, no data), excluded pairs stay "not configured", one
// metadata search per archive, one read per measurement with data in the window, none when nothing was written
// since, and a request budget that leaves the rest for the next refresh.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fetchSeries } from '../../archive-client/series';
import { closeArchiveConnections } from '../../archive-client/http';
import type { DashboardTaskPairs } from '../../common/protocol';
import { effectiveThresholds } from '../../dashboard/metrics';
import { DashboardSession, DEFAULT_SESSION_OPTIONS, type DirState, type SessionOptions } from '../../dashboard/session';
import { dashboardPairsOf } from '../../server/src/template/expand/dashboard-pairs';
import { expandText } from '../../server/src/template/expand/from-text';
import { refusedArchiveUrl, startArchiveServer, type ArchiveServerHandle } from '../archive/server/server';
import type { MeshTest, PairKind } from '../archive/server/seed-mesh';
import { dashboardFixturePath } from '../fixtures';

const NOW = Math.floor(Date.now() / 1000);
const TEMPLATE_URL = 'http://127.0.0.1:8085/esmond/perfsonar/archive/';
let archive: ArchiveServerHandle;

before(async () => {
  archive = await startArchiveServer({ seed: { fixtures: false, generated: false, mesh: true, now: NOW } });
});
after(async () => {
  await closeArchiveConnections();
  await archive.close();
});

/** The fixture template with its archive URL pointed at this run's local archive. */
async function meshPairs(text = readFileSync(dashboardFixturePath('mesh-20.psconfig.json'), 'utf8')) {
  const t = text.split(TEMPLATE_URL).join(archive.url);
  const result = await expandText({ uri: 'file:///mesh.json', version: null, text: t });
  return dashboardPairsOf(result, JSON.parse(t), undefined).tasks;
}

function session(pairs: DashboardTaskPairs[], extra: Partial<SessionOptions> = {}): DashboardSession {
  return new DashboardSession(pairs, {
    ...DEFAULT_SESSION_OPTIONS,
    thresholds: effectiveThresholds(undefined),
    now: () => NOW,
    ...extra,
  });
}

const EXPECTED: Record<PairKind, DirState> = {
  ok: 'ok',
  warning: 'warning',
  critical: 'critical',
  failing: 'failed',
  missing: 'no-data',
  stale: 'no-data',
};

const hostIndex = (name: string): number => Number(/^mesh-(\d+)\./.exec(name)![1]) - 1;

test('every configured direction has the state its seeded data implies; excluded pairs are not configured', async () => {
  const pairs = await meshPairs();
  const s = session(pairs);
  const before = archive.requestCount();
  const stats = await s.refresh();
  const scenario = archive.seed.mesh!;
  s.grids.forEach((g, gi) => {
    const test = g.testType as MeshTest;
    const seen: Record<string, number> = {};
    g.directions.forEach((d, di) => {
      const kind = scenario.kind(test, hostIndex(d.source), hostIndex(d.destination));
      const r = s.results[gi][di];
      assert.equal(r.state, EXPECTED[kind], `${g.task} ${d.source} → ${d.destination} (${kind}): ${r.note ?? ''}`);
      seen[kind] = (seen[kind] ?? 0) + 1;
      if (r.state === 'ok' || r.state === 'warning' || r.state === 'critical') {
        assert.ok(r.key && r.time && r.samples && r.samples > 0 && r.value !== undefined);
        assert.equal(r.inputSource, d.source);
        assert.equal(r.inputDestination, d.destination);
      }
      if (kind === 'missing') assert.match(r.note ?? '', /no .* measurement/);
      if (kind === 'stale') assert.match(r.note ?? '', /nothing written in the window/);
      if (kind === 'failing') assert.match(r.note ?? '', /latest run failed: /);
    });
    // The scenario's special pairs all fall on configured directions except those the template excludes.
    assert.ok(Object.keys(seen).length >= 4, `${g.task}: ${JSON.stringify(seen)}`);
    // Excluded: mesh-01 → mesh-02 and → mesh-03 have no direction, so their halves stay not configured
    // (the archive still holds their measurements unless the scenario left them out).
    const excluded = (a: number, b: number): boolean =>
      g.directions.some((d) => hostIndex(d.source) === a && hostIndex(d.destination) === b);
    assert.equal(excluded(0, 1), false);
    assert.equal(excluded(0, 2), false);
    assert.equal(g.halves[(0 * g.cols.length + 1) * 2 + 0], -1);
    assert.equal(g.directions[g.halves[(0 * g.cols.length + 1) * 2 + 1]].source, 'mesh-02.example.net');
  });
  // Requests: one metadata search (one page), then one series read per measurement with data in its window.
  assert.equal(stats.searches.length, 1);
  assert.equal(stats.searches[0].pages, 1);
  const withData = s.results.flat().filter((r) => ['ok', 'warning', 'critical', 'failed'].includes(r.state)).length;
  assert.equal(stats.reads, withData);
  assert.equal(stats.requests, 1 + withData);
  assert.equal(archive.requestCount() - before, stats.requests);
  assert.equal(stats.deferred, 0);
});

test('a value is the window average of what the archive holds, for both halves of a mesh cell', async () => {
  const pairs = await meshPairs();
  const s = session(pairs.filter((p) => p.task === 'mesh-throughput'));
  await s.refresh();
  const g = s.grids[0];
  // Cell (mesh-05, mesh-06): row → column in the first half, column → row in the second.
  const [r, c] = [4, 5];
  let checked = 0;
  const fwd = s.results[0][g.halves[(r * g.cols.length + c) * 2]];
  const rev = s.results[0][g.halves[(r * g.cols.length + c) * 2 + 1]];
  for (const [res, src, dst] of [
    [fwd, 'mesh-05.example.net', 'mesh-06.example.net'],
    [rev, 'mesh-06.example.net', 'mesh-05.example.net'],
  ] as const) {
    if (res.state === 'no-data' || res.state === 'failed') continue;
    assert.equal(res.inputSource, src);
    assert.equal(res.inputDestination, dst);
    const series = await fetchSeries({ url: archive.url }, `${archive.url}${res.key}/throughput/base`, {
      'time-start': NOW - 86400,
      'time-end': NOW,
    });
    const values = series.points.map((p) => Number(p.val));
    assert.ok(values.length > 0);
    assert.equal(res.value, values.reduce((a, b) => a + b, 0) / values.length);
    assert.equal(res.time, Math.max(...series.points.map((p) => Number(p.ts))));
    checked++;
  }
  assert.ok(checked > 0, 'the scenario left cell (mesh-05, mesh-06) without data in both directions');
});

test('a refresh with nothing written since reads nothing; a new point is read alone and changes the value', async () => {
  const pairs = (await meshPairs()).filter((p) => p.task === 'mesh-throughput');
  const s = session(pairs);
  const first = await s.refresh();
  const values = s.results[0].map((r) => [r.state, r.value]);
  const again = await s.refresh();
  assert.equal(again.reads, 0);
  assert.equal(again.fromCache, first.reads);
  assert.equal(again.requests, 1);
  // The second search asks only for what was written since the newest write the first one saw.
  assert.equal(first.searches[0].incremental, false);
  assert.equal(again.searches[0].incremental, true);
  assert.match(archive.requests.filter((r) => r.path.includes('time-start')).pop()?.path ?? '', /[?&]time-start=\d+/);
  assert.deepEqual(
    s.results[0].map((r) => [r.state, r.value]),
    values,
  );
  // The archive gets a new result for one ok direction: the next refresh reads that measurement only.
  const di = s.results[0].findIndex((r) => r.state === 'ok');
  const key = s.results[0][di].key!;
  const record = archive.store.records.get(key)!;
  const oldValue = s.results[0][di].value!;
  const n = s.results[0][di].samples!;
  record.events.get('throughput')!.base.set(NOW - 30, 0.2e9);
  archive.store.write(record, 'packet-retransmits', NOW - 30, 0, { at: NOW - 20 });
  record.events.get('throughput')!.timeUpdated = NOW - 20;
  const third = await s.refresh();
  assert.equal(third.reads, 1);
  assert.equal(third.searches[0].incremental, true);
  const now = s.results[0][di];
  assert.equal(now.samples, n + 1);
  assert.equal(now.value, (oldValue * n + 0.2e9) / (n + 1));
});

test('new thresholds recolour the kept values without a read; a moving window drops what left it', async () => {
  const pairs = (await meshPairs()).filter((p) => p.task === 'mesh-throughput');
  let clock = NOW;
  const s = session(pairs, { now: () => clock });
  await s.refresh();
  const okBefore = s.results[0].filter((r) => r.state === 'ok').length;
  s.options = { ...s.options, thresholds: effectiveThresholds({ throughput: { warning: 100, critical: 50 } }) };
  const strict = await s.refresh();
  assert.equal(strict.reads, 0);
  assert.equal(s.results[0].filter((r) => r.state === 'ok').length, 0);
  assert.equal(
    s.results[0].filter((r) => r.state === 'critical').length,
    okBefore + 6, // the ok, warning and critical pairs are all under 50 Gbps now
  );
  // Two days later nothing seeded is in the one-day window any more: no data everywhere, still without reads.
  s.options = { ...s.options, thresholds: effectiveThresholds(undefined) };
  clock = NOW + 2 * 86400;
  const later = await s.refresh();
  assert.equal(later.reads, 0);
  assert.ok(s.results[0].every((r) => r.state === 'no-data'));
});

test('a full search again once fullSearchSeconds have passed (deleted measurements disappear then)', async () => {
  const pairs = (await meshPairs()).filter((p) => p.task === 'mesh-trace');
  const s = session(pairs, { fullSearchSeconds: 0 });
  const a = await s.refresh();
  const b = await s.refresh();
  assert.deepEqual([a.searches[0].incremental, b.searches[0].incremental], [false, false]);
  assert.equal(b.searches[0].metadata, a.searches[0].metadata);
});

test('the request budget: reads beyond it stay pending, and the next refresh continues where it stopped', async () => {
  const pairs = (await meshPairs()).filter((p) => p.task === 'mesh-trace');
  const s = session(pairs, { maxReads: 25 });
  const a = await s.refresh();
  assert.equal(a.reads, 25);
  assert.ok(a.deferred > 0);
  const pending = (): number => s.results[0].filter((r) => r.state === 'pending').length;
  assert.equal(pending(), a.deferred);
  assert.match(s.results[0].find((r) => r.state === 'pending')!.note ?? '', /budget of 25 series requests/);
  const b = await s.refresh();
  assert.equal(b.fromCache, 25);
  assert.equal(b.reads, 25);
  assert.equal(pending(), Math.max(0, a.deferred - 25));
});

test('an archive that cannot be reached: every direction is an error naming it, after one request', async () => {
  const pairs = (await meshPairs()).filter((p) => p.task === 'mesh-latencybg');
  const refused = await refusedArchiveUrl();
  const s = session(pairs, { archive: refused, archiveOptions: async () => ({ timeoutMs: 2000 }) });
  const stats = await s.refresh();
  assert.equal(stats.requests, 1);
  assert.ok(s.results[0].every((r) => r.state === 'error' && /refused/.test(r.note ?? '')));
});

test('a template naming hosts by IP matches the archive on source/destination', async () => {
  const text = JSON.stringify({
    archives: { a: { archiver: 'esmond', data: { url: archive.url } } },
    addresses: Object.fromEntries(['10.20.0.4', '10.20.0.5', '10.20.0.6'].map((ip) => [ip, { address: ip }])),
    groups: { g: { type: 'mesh', addresses: ['10.20.0.4', '10.20.0.5', '10.20.0.6'].map((name) => ({ name })) } },
    tests: { t: { type: 'trace', spec: { source: '{% address[0] %}', dest: '{% address[1] %}' } } },
    tasks: { trace: { group: 'g', test: 't', archives: ['a'] } },
  });
  const result = await expandText({ uri: 'file:///ip.json', version: null, text });
  const s = session(dashboardPairsOf(result, JSON.parse(text), undefined).tasks);
  await s.refresh();
  const scenario = archive.seed.mesh!;
  assert.equal(s.grids[0].directions.length, 6);
  s.grids[0].directions.forEach((d, di) => {
    const idx = (ip: string): number => Number(ip.split('.')[3]) - 1;
    const kind = scenario.kind('trace', idx(d.source), idx(d.destination));
    assert.equal(s.results[0][di].state, EXPECTED[kind], `${d.source} → ${d.destination}`);
    if (kind !== 'missing') assert.equal(s.results[0][di].source, d.source);
  });
});

test('a task writing to no esmond archive says so; a test type without a metric is configuration only', async () => {
  const text = JSON.stringify({
    archives: { s: { archiver: 'syslog', data: {} } },
    addresses: { x: { address: 'x.example.net' }, y: { address: 'y.example.net' } },
    groups: { g: { type: 'mesh', addresses: [{ name: 'x' }, { name: 'y' }] } },
    tests: {
      t: { type: 'throughput', spec: { source: '{% address[0] %}', dest: '{% address[1] %}' } },
      d: { type: 'dns', spec: { query: 'x.example.net', record: 'a' } }, // a spec pScheduler accepts (record is required)
    },
    tasks: { tp: { group: 'g', test: 't', archives: ['s'] }, dns: { group: 'g', test: 'd', archives: ['s'] } },
  });
  const result = await expandText({ uri: 'file:///n.json', version: null, text });
  const s = session(dashboardPairsOf(result, JSON.parse(text), undefined).tasks);
  const stats = await s.refresh();
  assert.equal(stats.requests, 0);
  assert.ok(s.results[0].every((r) => r.state === 'no-data' && /no esmond archive/.test(r.note ?? '')));
  assert.ok(s.results[1].length > 0 && s.results[1].every((r) => r.state === 'unsupported'));
});

test('a direction pScheduler would refuse is drawn as refused, with the reason, and nothing is read for it', async () => {
  // `tools: ["iperf"]`: pScheduler 5.x has iperf2, not iperf, so no participant offers the tool and the lead refuses
  // the task (pschedulerapiserver/tasks.py pick_tool ~38-107, ~463-490): the agent creates nothing for either
  // direction; the other task of the same pairs is created and read as usual.
  const text = JSON.stringify({
    archives: { a: { archiver: 'esmond', data: { url: archive.url } } },
    addresses: Object.fromEntries(['10.20.0.4', '10.20.0.5'].map((ip) => [ip, { address: ip }])),
    groups: { g: { type: 'mesh', addresses: ['10.20.0.4', '10.20.0.5'].map((name) => ({ name })) } },
    tests: { t: { type: 'throughput', spec: { source: '{% address[0] %}', dest: '{% address[1] %}' } } },
    tasks: {
      old: { group: 'g', test: 't', archives: ['a'], tools: ['iperf'] },
      now: { group: 'g', test: 't', archives: ['a'] },
    },
  });
  const result = await expandText({ uri: 'file:///r.json', version: null, text });
  const pairs = dashboardPairsOf(result, JSON.parse(text), undefined).tasks;
  assert.deepEqual(pairs[0].refusedDirections, [0, 1]);
  assert.equal(pairs[1].refusedDirections, undefined);
  const s = session(pairs);
  await s.refresh();
  assert.equal(s.results[0].length, 2);
  for (const r of s.results[0]) {
    assert.equal(r.state, 'refused');
    assert.match(r.note ?? '', /^pScheduler would refuse this task: tools for the throughput test: .*no tool `iperf`/);
  }
  assert.ok(s.results[1].every((r) => r.state !== 'refused'));
});
