// The dashboard's pure host (client/src/dashboard/host.ts) as the panel runs it, without a browser: the message
// sequence of a refresh, the timer the user can turn off, template edits, hover details and the explorer arguments.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { closeArchiveConnections } from '../../archive-client/http';
import { createDashboardHost, type DashboardDefaults } from '../../client/src/dashboard/host';
import type { HostToDashboard } from '../../client/src/dashboard/messages';
import type { DashboardPairsResult, OpenArchiveExplorerArgs } from '../../common/protocol';
import { dashboardPairsOf } from '../../server/src/template/expand/dashboard-pairs';
import { expandText } from '../../server/src/template/expand/from-text';
import { startArchiveServer, type ArchiveServerHandle } from '../archive/server/server';
import { dashboardFixturePath } from '../fixtures';

const NOW = Math.floor(Date.now() / 1000);
let archive: ArchiveServerHandle;
let pairs: DashboardPairsResult;

before(async () => {
  archive = await startArchiveServer({ seed: { fixtures: false, generated: false, mesh: true, now: NOW } });
  const text = readFileSync(dashboardFixturePath('mesh-20.psconfig.json'), 'utf8')
    .split('http://127.0.0.1:8085/esmond/perfsonar/archive/')
    .join(archive.url);
  const result = await expandText({ uri: 'file:///m.json', version: null, text });
  pairs = dashboardPairsOf(result, JSON.parse(text), ['mesh-trace']);
});
after(async () => {
  await closeArchiveConnections();
  await archive.close();
});

/**
 * The host's auto-refresh clock, advanced by the test: a timer fires when the test has moved the clock past it.
 * (Not node:test's mock timers: they would also hold the HTTP client's own timeouts, which fire early under load.)
 */
function testClock() {
  let at = 0;
  let armed: { due: number; fn: () => void }[] = [];
  return {
    startTimer: (fn: () => void, ms: number) => {
      const t = { due: at + ms, fn };
      armed.push(t);
      return { cancel: () => void (armed = armed.filter((x) => x !== t)) };
    },
    advance(ms: number): void {
      at += ms;
      const due = armed.filter((t) => t.due <= at);
      armed = armed.filter((t) => t.due > at);
      for (const t of due) t.fn();
    },
    armed: () => armed.length,
  };
}

function hostWith(
  defaults: Partial<DashboardDefaults> = {},
  source: () => DashboardPairsResult = () => pairs,
  clock = testClock(),
) {
  const posted: HostToDashboard[] = [];
  const opened: OpenArchiveExplorerArgs[] = [];
  let pairCalls = 0;
  const host = createDashboardHost({
    post: (m) => {
      posted.push(m);
      heard();
    },
    pairs: async () => {
      pairCalls++;
      return source();
    },
    template: 'm.json',
    defaults: () => ({
      thresholds: {},
      window: 'auto',
      autoRefreshSeconds: 0,
      maxReads: 40000,
      archive: '',
      ...defaults,
    }),
    archives: () => [{ name: 'local', url: archive.url }],
    credentials: async () => ({ tokenOnReads: false }),
    openExplorer: (a) => {
      opened.push(a);
    },
    now: () => NOW,
    startTimer: clock.startTimer,
  });
  return { host, posted, opened, calls: () => pairCalls, clock };
}

const done = (posted: HostToDashboard[]): Extract<HostToDashboard, { type: 'status' }>[] =>
  posted.filter((m): m is Extract<HostToDashboard, { type: 'status' }> => m.type === 'status' && !m.refreshing);

/** Waiters for a condition on the posted messages, looked at again at every message a host posts. */
const waiters: { ok: () => boolean; go: () => void }[] = [];
function heard(): void {
  for (const w of waiters.splice(0)) (w.ok() ? w.go : () => waiters.push(w))();
}

/** Resolves once `ok()` holds (an event: a posted message); the test's own timeout bounds the wait (`what`). */
function until(_what: string, ok: () => boolean): Promise<void> {
  return ok() ? Promise.resolve() : new Promise((go) => waiters.push({ ok, go }));
}

/** The promise chains the last message started have run (a turn of the event loop). */
const settle = (): Promise<void> => new Promise((r) => setImmediate(r));

test('ready: init, then the grids with every state from the metadata, then values, then the summary', async () => {
  const { host, posted } = hostWith();
  await host.handle({ type: 'ready' });
  await until('a finished refresh', () => done(posted).length === 1);
  const types = posted.map((m) => m.type);
  assert.deepEqual(types.slice(0, 3), ['init', 'status', 'grids']);
  assert.equal(types[types.length - 1], 'status');
  const grids = posted.find((m) => m.type === 'grids') as Extract<HostToDashboard, { type: 'grids' }>;
  assert.equal(grids.grids.length, 1);
  const g = grids.grids[0];
  assert.equal(g.task, 'mesh-trace');
  assert.equal(g.halves.length, 20 * 20 * 2);
  assert.equal(g.dirEnds.length, 2 * g.states.length);
  // Values arrive for every direction that was read; the summary counts them.
  const summary = done(posted)[0].summary!;
  const updated = new Set(posted.flatMap((m) => (m.type === 'values' ? m.updates.flatMap((u) => u.dirs) : [])));
  assert.equal(updated.size, summary.reads);
  assert.equal(summary.searches, 1);
  host.dispose();
});

test('the timer refreshes until turned off; an unchanged archive costs one search per refresh', async () => {
  // The host's clock is the test's: its second passes when the test advances it, after the refresh before it ended.
  const { host, posted, clock } = hostWith({ autoRefreshSeconds: 1 });
  try {
    await host.handle({ type: 'ready' });
    await until('the first refresh', () => done(posted).length === 1);
    await settle(); // the refresh's end armed the timer
    assert.equal(clock.armed(), 1);
    clock.advance(999);
    await settle();
    assert.equal(done(posted).length, 1, 'no refresh before the second has passed');
    clock.advance(1);
    await until('the second refresh', () => done(posted).length === 2);
    await settle();
    const [first, second] = done(posted);
    assert.equal(second.summary!.requests, 1);
    assert.equal(second.summary!.fromCache, first.summary!.reads);
    assert.equal(second.nextInSeconds, 1);
    await host.handle({ type: 'setControls', controls: { autoRefreshSeconds: 0 } });
    const after = posted.length;
    assert.equal(clock.armed(), 0, 'the timer was disarmed');
    // Ten of what would have been the timer's seconds: nothing starts.
    clock.advance(10_000);
    await settle();
    assert.deepEqual(posted.slice(after), [], 'a refresh after the timer was turned off');
  } finally {
    host.dispose();
  }
});

test('a template edit re-reads the pairs; the kept samples still spare the reads', async () => {
  const { host, posted, calls } = hostWith();
  await host.handle({ type: 'ready' });
  await until('the first refresh', () => done(posted).length === 1);
  assert.equal(calls(), 1);
  host.templateChanged();
  await until('the second refresh', () => done(posted).length === 2);
  assert.equal(calls(), 2);
  assert.equal(done(posted)[1].summary!.reads, 0);
  host.dispose();
});

test('hover details and the explorer arguments of a direction; a pair without archive says so', async () => {
  const { host, posted, opened } = hostWith();
  await host.handle({ type: 'ready' });
  await until('the first refresh', () => done(posted).length === 1);
  const s = host.session()!;
  const dir = s.results[0].findIndex((r) => r.state === 'ok');
  await host.handle({ type: 'detail', id: 7, grid: 0, dirs: [dir] });
  const detail = posted.find((m) => m.type === 'detail') as Extract<HostToDashboard, { type: 'detail' }>;
  assert.equal(detail.id, 7);
  assert.equal(detail.details[0].key, s.results[0][dir].key);
  assert.equal(detail.details[0].display, '1 path');
  await host.handle({ type: 'open', grid: 0, dir });
  const d = s.grids[0].directions[dir];
  assert.deepEqual(opened, [
    {
      url: archive.url,
      inputSource: d.source,
      inputDestination: d.destination,
      task: 'mesh-trace',
      time: { start: NOW - 3600, end: NOW },
      eventType: 'packet-trace',
      toolName: 'pscheduler/traceroute',
      metadataKey: s.results[0][dir].key,
    },
  ]);
  host.dispose();
  // A task that writes to no esmond archive: nothing to open, a notice instead.
  const none = hostWith({}, () => ({
    ...pairs,
    tasks: pairs.tasks.map((t) => ({ ...t, archives: [], archiveSets: t.archiveSets.map(() => []) })),
  }));
  await none.host.handle({ type: 'ready' });
  await until('the refresh', () => done(none.posted).length === 1);
  await none.host.handle({ type: 'open', grid: 0, dir: 0 });
  assert.equal(none.opened.length, 0);
  assert.match(
    (none.posted.find((m) => m.type === 'notice') as { text: string } | undefined)?.text ?? '',
    /no archive to open/,
  );
  none.host.dispose();
});
