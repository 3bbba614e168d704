// The host timeline's pure parts in Node: a report as the page's arrays (client/src/schedule/timeline-data.ts: every
// run kept or counted, bounds, unreadable input), the rows (timeline-rows.ts: per host, per class as plot-schedule
// draws a host, orders, runs under a point in time, totals per task) and the host's message handling (host.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { STOPPED, type ScheduleReport } from '../../common/protocol';
import { createScheduleHost, STOPPED_MESSAGE, type TimelineSource } from '../../client/src/schedule/host';
import { buildTimelineHtml } from '../../client/src/schedule/html';
import { CLASS_CODES, RUN_NONSTART, type HostToTimeline } from '../../client/src/schedule/messages';
import { isoMs, timelineOf } from '../../client/src/schedule/timeline-data';
import {
  buildRows,
  comboView,
  hostOrder,
  NONSTART_ROW,
  runsAt,
  runsPerHost,
  taskTotals,
} from '../../client/src/schedule/timeline-rows';
import { HOSTS, NO_TIMES, smallReport, SPAN } from './schedule-report';

const small = (): ReturnType<typeof timelineOf> => timelineOf({ report: smallReport(), span: SPAN, title: 't' });

test('a report becomes parallel arrays: every run, its combination, participants, times from the span start', () => {
  const d = small();
  assert.equal(d.start, Date.parse(SPAN.start));
  assert.equal(d.end, Date.parse(SPAN.end));
  assert.deepEqual(
    d.hosts.map((h) => h.address),
    [HOSTS.a, HOSTS.b, HOSTS.c],
  );
  assert.deepEqual(d.taskNames, ['tput', 'owd', 'bg', 'path']);
  assert.equal(d.comboTask.length, 9);
  assert.equal(d.runCombination.length, 6 * 48 + 288 + 2 + 288);
  assert.deepEqual(d.reasons, [NO_TIMES]);
  // The first run: a → b's throughput at 00:00:00 for 19 s, on both ends.
  const c0 = comboView(d, d.runCombination[0]);
  assert.deepEqual(
    { ...c0, start: d.runStart[0], end: d.runEnd[0] },
    {
      task: 'tput',
      addresses: [HOSTS.a, HOSTS.b],
      cls: CLASS_CODES.indexOf('exclusive'),
      participants: [HOSTS.a, HOSTS.b],
      agent: HOSTS.a,
      tool: 'iperf3',
      durationSeconds: 19,
      wanted: 48,
      scheduled: 48,
      nonstart: 0,
      start: 0,
      end: 19,
    },
  );
  // Latency occupies its source only; the far end's schedule is not pScheduler's.
  const owd = d.comboTask.findIndex((t) => d.taskNames[t] === 'owd');
  assert.deepEqual(comboView(d, owd).participants, [HOSTS.a]);
  // Non-starters keep their reason.
  const ns = d.runState.findIndex((s) => s === RUN_NONSTART);
  assert.equal(d.reasons[d.runReason[ns]], NO_TIMES);
  assert.deepEqual(d.notes, []);
});

test('bounds and bad input: runs and hosts past the limits, unreadable runs, participants that disagree — each said', () => {
  const report = smallReport();
  const cut = timelineOf({ report, span: SPAN, title: 't', maxRuns: 100 });
  assert.equal(cut.runCombination.length, 100);
  assert.match(cut.notes.join(' '), /first 100 of 866 runs/);

  const runs = report.runs!;
  runs[0] = { ...runs[0], start: 'yesterday' };
  runs[1] = { ...runs[1], class: 'urgent' as never };
  runs[2] = { ...runs[2], participants: [HOSTS.c] };
  const bad = timelineOf({ report, span: SPAN, title: 't', maxHosts: 2 });
  assert.equal(bad.runCombination.length, 866 - 2);
  assert.ok(bad.notes.includes('2 runs left out: no readable task, class or times.'), bad.notes.join(' | '));
  assert.equal(bad.hosts.length, 2);
  assert.match(bad.notes.join(' '), /host references? beyond the first 2 hosts/);

  // A run whose participants differ from its siblings' becomes a combination of its own, not merged into theirs.
  const again = smallReport();
  const r = again.runs!.findIndex((x) => x.task === 'owd');
  again.runs![r] = { ...again.runs![r], participants: [HOSTS.b] };
  const d = timelineOf({ report: again, span: SPAN, title: 't' });
  assert.equal(d.comboTask.length, 10);
  const onB = d.comboParticipants.findIndex((p, c) => d.taskNames[d.comboTask[c]] === 'owd' && p[0] === 1);
  assert.ok(onB >= 0);
  assert.equal(d.runCombination.filter((c) => c === onB).length, 1);

  assert.throws(() => timelineOf({ report: {} as ScheduleReport, title: 't' }), /needs "hosts" and "tasks"/);
  // Without a span the runs give it.
  const free = timelineOf({ report: smallReport(), title: 't' });
  assert.equal(free.start, Date.parse(SPAN.start));
  assert.equal(free.end, Date.parse('2026-12-03T00:00:00.000Z'));
});

test('isoMs reads the CLI form from its characters and agrees with Date.parse on every other form', () => {
  const cases = [
    '2026-12-01T00:00:00Z',
    '2026-12-01T23:59:59.999Z',
    '2026-02-28T12:34:56.789Z',
    '2028-02-29T01:02:03.000Z',
    '2026-12-01T24:00:00Z',
    '2026-12-01T00:60:00Z',
    '2026-13-01T00:00:00Z',
    '2026-12-01T00:00:00+01:00',
    '2026-12-01 00:00:00Z',
    '2026-12-01T0a:00:00Z',
    '2026-12-01T00:00:00.5Z',
    '',
  ];
  // Plus random instants over four centuries, with and without milliseconds.
  let seed = 7;
  const rand = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let i = 0; i < 2000; i++) {
    const s = new Date(Math.floor(rand() * 4e12) * (rand() < 0.5 ? 1 : 3)).toISOString();
    cases.push(s, s.replace(/\.\d{3}Z$/, 'Z'));
  }
  for (const s of cases) assert.ok(Object.is(isoMs(s), Date.parse(s)), `${s}: ${isoMs(s)} vs ${Date.parse(s)}`);
  assert.ok(Number.isNaN(isoMs(42)));
});

test('rows: one per host with its runs by start; per class with non-starters apart; orders; an agent first', () => {
  const d = small();
  const per = runsPerHost(d);
  for (const list of per)
    for (let i = 1; i < list.length; i++) assert.ok(d.runStart[list[i - 1]] <= d.runStart[list[i]]);
  // a: 4 throughput tasks, owd, bg; b: 4 throughput, path; c: 4 throughput.
  assert.deepEqual(
    per.map((l) => l.length),
    [4 * 48 + 288 + 2, 4 * 48 + 288, 4 * 48],
  );
  // Runs listed out of order still give each host its runs by start.
  const shuffled = smallReport();
  shuffled.runs!.reverse();
  const ds = timelineOf({ report: shuffled, span: SPAN, title: 't' });
  for (const list of runsPerHost(ds))
    for (let i = 1; i < list.length; i++) assert.ok(ds.runStart[list[i - 1]] <= ds.runStart[list[i]]);
  const hosts = buildRows(d, 'hosts', 'load');
  assert.deepEqual(
    hosts.map((r) => [r.host, r.cls, r.first]),
    [
      [0, -1, true],
      [1, -1, true],
      [2, -1, true],
    ],
  );
  const classes = buildRows(d, 'classes', 'address');
  const ex = CLASS_CODES.indexOf('exclusive');
  assert.deepEqual(
    classes.map((r) => [d.hosts[r.host].address, r.cls, r.runs.length, r.first]),
    [
      [HOSTS.a, ex, 96, true],
      [HOSTS.a, CLASS_CODES.indexOf('normal'), 288, false],
      [HOSTS.a, CLASS_CODES.indexOf('background-multi'), 2, false],
      [HOSTS.a, NONSTART_ROW, 96, false],
      [HOSTS.b, ex, 96, true],
      [HOSTS.b, CLASS_CODES.indexOf('background'), 288, false],
      [HOSTS.b, NONSTART_ROW, 96, false],
      [HOSTS.c, ex, 96, true],
      [HOSTS.c, NONSTART_ROW, 96, false],
    ],
  );
  // Loads decide the order; ties go by address; a focused agent comes first.
  d.hosts[2].exclusiveLoad = 5;
  assert.deepEqual(hostOrder(d, 'load'), [2, 0, 1]);
  assert.deepEqual(hostOrder(d, 'address', HOSTS.b), [1, 0, 2]);
  assert.deepEqual(hostOrder(d, 'report'), [0, 1, 2]);
});

test('runsAt finds what overlaps a moment, long background runs included; totals per task', () => {
  const d = small();
  const rows = buildRows(d, 'hosts', 'report');
  const names = (rs: number[]): string[] =>
    rs.map((r) => {
      const c = comboView(d, d.runCombination[r]);
      return `${c.task} ${c.addresses.join('>')} ${d.runState[r] === RUN_NONSTART ? 'ns' : 'ok'}`;
    });
  const { a, b, c } = HOSTS;
  // On a at 00:00:10: a→b's run, the two non-starters on a, and the day-long latencybg.
  assert.deepEqual(names(runsAt(d, rows[0], 10, 10.5)), [
    `tput ${a}>${b} ok`,
    `tput ${b}>${a} ns`,
    `tput ${a}>${c} ns`,
    `bg ${a}>${c} ok`,
  ]);
  // At 12:01:40 only the latencybg is there (the hour's throughput ended at 12:00:57, owd comes at 12:05).
  assert.deepEqual(names(runsAt(d, rows[0], 43300, 43301)), [`bg ${a}>${c} ok`]);
  // Half-open: a run ending at t is not under t.
  assert.deepEqual(names(runsAt(d, rows[2], 57, 57.5)), []);
  assert.deepEqual(names(runsAt(d, rows[2], 56.5, 57)), [`tput ${c}>${a} ok`]);
  assert.deepEqual(taskTotals(d), [
    { wanted: 288, scheduled: 144, nonstart: 144 },
    { wanted: 288, scheduled: 288, nonstart: 0 },
    { wanted: 2, scheduled: 2, nonstart: 0 },
    { wanted: 288, scheduled: 288, nonstart: 0 },
  ]);
  // Without the tasks' counts, the runs are counted.
  const bare = timelineOf({ report: { ...smallReport(), tasks: [] }, span: SPAN, title: 't' });
  assert.deepEqual(taskTotals(bare)[0], { wanted: 288, scheduled: 144, nonstart: 144 });
});

test('the host: loads on ready, says why a load failed, loads again after an edit stopped one, one load at a time, forwards open, silent once disposed', async () => {
  const posted: HostToTimeline[] = [];
  let calls = 0;
  let answer: TimelineSource = { report: smallReport(), span: SPAN };
  let release: (() => void) | undefined;
  /** Called when a load starts waiting for `release` (an event, not a sleep). */
  let loadWaits: (() => void) | undefined;
  const nextLoadWaits = (): Promise<void> => new Promise((r) => (loadWaits = r));
  const opened: unknown[] = [];
  const host = createScheduleHost({
    post: (m) => posted.push(m),
    load: async () => {
      calls++;
      if (release === undefined) return answer;
      const released = new Promise<void>((r) => (release = r));
      loadWaits?.();
      await released;
      return answer;
    },
    title: 'x.json',
    focus: { task: 'owd' },
    open: (task, addresses) => void opened.push({ task, addresses }),
  });
  await host.handle({ type: 'ready' });
  assert.deepEqual(
    posted.map((m) => m.type),
    ['status', 'data', 'status'],
  );
  const data = posted[1].type === 'data' ? posted[1].data : undefined;
  assert.equal(data?.focus?.task, 'owd');
  assert.equal(data?.title, 'x.json');
  // A page reloaded by VS Code gets what it showed, without a new simulation.
  await host.handle({ type: 'ready' });
  assert.equal(calls, 1);

  answer = { error: 'The template is not valid JSON.' };
  posted.length = 0;
  await host.refresh();
  assert.deepEqual(posted, [
    { type: 'status', loading: true },
    { type: 'status', loading: false, error: 'The template is not valid JSON.' },
  ]);
  // The page keeps showing the last good schedule.
  assert.equal(host.current(), data);

  // Requests while one runs share one more load after it.
  answer = { report: smallReport(), span: SPAN };
  release = () => undefined;
  calls = 0;
  let waiting = nextLoadWaits();
  const first = host.refresh();
  const second = host.refresh();
  const third = host.refresh();
  await waiting; // the first load
  assert.equal(calls, 1);
  waiting = nextLoadWaits();
  release();
  await waiting; // one more load after it, for the second and third
  release();
  await Promise.all([first, second, third]);
  assert.equal(calls, 2);
  loadWaits = undefined;

  // A load an edit stopped (`cancelled`) is no error of the template: the page keeps loading and the same refresh
  // asks again; after three stopped loads in a row it says why it stopped.
  const answers: TimelineSource[] = [{ ...STOPPED }, { ...STOPPED }, { report: smallReport(), span: SPAN }];
  release = undefined;
  calls = 0;
  posted.length = 0;
  const loaded = answers.slice();
  answer = { error: 'unused' };
  const reloading = createScheduleHost({
    post: (m) => posted.push(m),
    load: () => Promise.resolve((calls++, loaded.shift() ?? answer)),
    title: 'x.json',
  });
  const shown = await reloading.refresh();
  assert.equal(calls, 3);
  assert.ok(shown && shown.hosts.length === 3, 'the third load is drawn');
  assert.ok(!posted.some((m) => m.type === 'status' && m.error), JSON.stringify(posted));
  loaded.push({ ...STOPPED }, { ...STOPPED }, { ...STOPPED }, { ...STOPPED });
  posted.length = 0;
  await reloading.refresh();
  assert.equal(reloading.current(), shown, 'the last good schedule stays');
  assert.deepEqual(posted.at(-1), { type: 'status', loading: false, error: STOPPED_MESSAGE });
  assert.equal(loaded.length, 0, 'four loads: the first and three more, then it stops asking');

  await host.handle({ type: 'open', task: 'owd', addresses: [HOSTS.a, HOSTS.b] });
  assert.deepEqual(opened, [{ task: 'owd', addresses: [HOSTS.a, HOSTS.b] }]);
  host.dispose();
  posted.length = 0;
  host.setFocus({ task: 'tput' });
  await host.refresh();
  assert.deepEqual(posted, []);
});

test("the page: the explorer's CSP, its own bundle, the title escaped", () => {
  const html = buildTimelineHtml({
    scriptUri: 'https://x/schedule.js',
    styleUri: 'https://x/schedule.css',
    cspSource: 'https://x',
    title: '<b>t</b>',
    nonce: 'abcdefghijklmnop1234',
  });
  assert.ok(html.includes("script-src 'nonce-abcdefghijklmnop1234'"));
  assert.ok(html.includes("connect-src 'none'"));
  assert.ok(html.includes('src="https://x/schedule.js"'));
  assert.ok(html.includes('<title>&lt;b&gt;t&lt;/b&gt;</title>'));
  assert.ok(html.includes('Loading the schedule timeline…'));
});
