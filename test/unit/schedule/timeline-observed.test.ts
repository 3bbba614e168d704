// The host timeline's real runs (client/src/schedule/timeline-observed.ts, issue 28): the last hosts read of a
// template turned into the page's `real` arrays and rows. Expectations are worked out by hand: from a small read
// written here, and from the runs recorded from a real pScheduler (test/fixtures/pscheduler-hosts/reads.json, listed
// in the comments below as that file holds them), each task named by its JSON (what was posted), not by the
// comparison's output.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HostRead, HostsResult, ScheduleReport } from '../../../common/protocol';
import { createScheduleHost } from '../../../client/src/schedule/host';
import type { HostToTimeline, TimelineData } from '../../../client/src/schedule/messages';
import { realRunsOf, type TimelineObserved } from '../../../client/src/schedule/timeline-observed';
import { timelineOf } from '../../../client/src/schedule/timeline-data';
import { buildRows, REAL_ROW, realRunsAt, realRunsPerHost, rowLabel } from '../../../client/src/schedule/timeline-rows';
import { expandText } from '../../../server/src/template/expand/from-text';
import { compareHosts } from '../../../server/src/template/hosts';
import { pschedulerHostsDir } from '../../fixtures';

const A = 'ps-a.example.net';
const B = 'ps-b.example.net';
const DAY = { start: '2026-12-01T00:00:00.000Z', end: '2026-12-02T00:00:00.000Z' };
const href = (host: string, t: string): string => `https://${host}/pscheduler/tasks/${t}`;

/** A simulated day of two hosts: tput a → b (exclusive, on both) at 00:00:00, owd a → b (normal, on a) at 00:10:00. */
function simulated(span = DAY): TimelineData {
  const report: ScheduleReport = {
    hosts: [
      { address: A, exclusiveLoad: 0.5, normalLoad: 0.1, tasks: 2 },
      { address: B, exclusiveLoad: 0.2, normalLoad: 0, tasks: 1 },
    ],
    tasks: [
      { task: 'tput', addresses: [A, B], class: 'exclusive' },
      { task: 'owd', addresses: [A, B], class: 'normal' },
    ],
    runs: [
      {
        task: 'tput',
        addresses: [A, B],
        participants: [A, B],
        class: 'exclusive',
        start: '2026-12-01T00:00:00.000Z',
        end: '2026-12-01T00:00:19.000Z',
        state: 'scheduled',
      },
      {
        task: 'owd',
        addresses: [A, B],
        participants: [A],
        class: 'normal',
        start: '2026-12-01T00:10:00.000Z',
        end: '2026-12-01T00:10:21.000Z',
        state: 'scheduled',
      },
    ],
  } as ScheduleReport;
  return timelineOf({ report, span, title: 't' });
}

const TOO_LONG = 'Process took too long to run.';
const NO_TIMES = 'No times available for this run.';

/** a's pScheduler read the day before the simulated one; c has no row; d could not be read. */
function handRead(): TimelineObserved {
  const read = (host: string, tasks: HostRead['tasks'], error?: string): HostRead => ({
    host,
    url: `https://${host}/pscheduler`,
    tasks,
    readAt: '2026-11-30T06:00:00Z',
    since: 'P1D',
    ...(error ? { error } : {}),
  });
  const task = (host: string, t: string, runs: HostRead['tasks'][0]['runs'], type = 'throughput') => ({
    href: href(host, t),
    uuid: t,
    json: { test: { type, spec: {} } },
    runs,
  });
  const run = (state: string, start?: string, end?: string, reason?: string) => ({
    href: `r-${state}-${start}`,
    state,
    ...(start ? { start } : {}),
    ...(end ? { end } : {}),
    ...(reason ? { reason } : {}),
    archivings: [],
  });
  const reads = [
    read(A, [
      task(A, 't1', [
        run('finished', '2026-11-29T07:00:00Z', '2026-11-29T07:00:19Z'),
        run('failed', '2026-11-30T05:30:00Z', '2026-11-30T05:30:20Z', TOO_LONG),
        // pScheduler's own form of a time.
        run('nonstart', '2026-11-30T01:00:00+00:00', '2026-11-30T01:00:19+00:00', NO_TIMES),
        run('pending'),
      ]),
      task(A, 't2', [run('missed', '2026-11-29T23:59:50Z', '2026-11-30T00:00:10Z')], 'latency'),
      task(A, 't3', [run('pending', '2026-11-30T02:00:00Z')], 'latency'),
    ]),
    read('ps-c.example.net', [
      task('ps-c.example.net', 't4', [
        run('finished', '2026-11-30T01:00:00Z', '2026-11-30T01:00:10Z'),
        run('finished', '2026-11-30T02:00:00Z', '2026-11-30T02:00:10Z'),
      ]),
    ]),
    read('ps-d.example.net', [], 'connect ECONNREFUSED'),
  ];
  const result: HostsResult = {
    since: 'P1D',
    problems: true,
    hosts: [
      {
        host: A,
        url: `https://${A}/pscheduler`,
        counts: { present: 1, missing: 0, extra: 1, different: 1, expired: 0, renewing: 0 },
        entries: [
          { verdict: 'present', task: 'tput', hrefs: [href(A, 't1')] },
          { verdict: 'different', task: 'owd', hrefs: [href(A, 't3')] },
          { verdict: 'extra', testType: 'latency', hrefs: [href(A, 't2')] },
        ],
      },
    ],
  };
  return { reads, result };
}

test('a read by hand: each run with a start on its host, its task from the hrefs, its state drawn, folded by whole days', () => {
  const data = simulated();
  const { real, notes } = realRunsOf(data, handRead());
  assert.ok(real);
  // t1's three runs with a start, then t2's, then t3's; a is host 0 (the report's order).
  assert.deepEqual(real.host, [0, 0, 0, 0, 0]);
  // tput is task 0, owd task 1 (a different copy still is its template task); t2 is extra.
  assert.deepEqual(real.task, [0, 0, 0, -1, 1]);
  assert.deepEqual(
    real.label.map((l) => real.labels[l]),
    ['task tput', 'task tput', 'task tput', 'extra latency task, not from this template', 'task owd, a different copy'],
  );
  // 11-29 07:00 is a day before the span: 7 h in. 11-30 05:30 → 5.5 h; 01:00 → 1 h; 11-29 23:59:50 → 10 s before
  // the span's start, so 86,390 s (its end, 20 s later, past the span); 02:00 without an end → 2 h, zero long.
  assert.deepEqual(real.start, [25200, 19800, 3600, 86390, 7200]);
  assert.deepEqual(real.end, [25219, 19820, 3619, 86410, 7200]);
  // finished → drawn (0), failed and missed → failed (2), nonstart (1), pending → drawn.
  assert.deepEqual(real.kind, [0, 2, 1, 2, 0]);
  assert.deepEqual(
    real.state.map((s) => real.states[s]),
    ['finished', 'failed', 'nonstart', 'missed', 'pending'],
  );
  assert.deepEqual(
    real.reason.map((r) => (r < 0 ? '' : real.reasons[r])),
    ['', TOO_LONG, NO_TIMES, '', ''],
  );
  assert.deepEqual(real.at, [
    '2026-11-29T07:00:00.000Z',
    '2026-11-30T05:30:00.000Z',
    '2026-11-30T01:00:00.000Z',
    '2026-11-29T23:59:50.000Z',
    '2026-11-30T02:00:00.000Z',
  ]);
  assert.equal(real.folded, true);
  assert.equal(real.since, 'P1D');
  assert.equal(real.readAt, '2026-11-30T06:00:00.000Z');
  assert.ok(notes.includes('pScheduler on ps-d.example.net could not be read: connect ECONNREFUSED'), notes.join('\n'));
  assert.ok(
    notes.includes('1 host read that the simulation has no row for, left out: ps-c.example.net (2 runs).'),
    notes.join('\n'),
  );
  assert.ok(notes.includes('1 run read from pScheduler without a start time: left out.'), notes.join('\n'));
  assert.ok(
    notes.some((n) => n.startsWith('Real runs (↳ pScheduler rows: the last P1D read at 2026-11-30T06:00:00.000Z)')),
    notes.join('\n'),
  );
  // Nothing simulated changes.
  assert.deepEqual(data.runStart, [0, 600]);
});

test('a span that is not whole days is not folded: what falls outside it is counted; the bound is counted too', () => {
  // 2026-11-30 00:00 to 06:00: the failed (05:30), non-starting (01:00) and pending (02:00) runs are inside.
  const data = simulated({ start: '2026-11-30T00:00:00.000Z', end: '2026-11-30T06:00:00.000Z' });
  const { real, notes } = realRunsOf(data, handRead());
  assert.ok(real);
  assert.deepEqual(real.start, [19800, 3600, 7200]);
  assert.equal(real.folded, false);
  assert.ok(!notes.some((n) => n.startsWith('Real runs')), notes.join('\n'));
  assert.ok(
    notes.includes(
      '2 runs read from pScheduler fall outside the simulated span, which is not a whole number of days (so not folded onto it): left out.',
    ),
    notes.join('\n'),
  );

  const bounded = realRunsOf(simulated(), handRead(), { maxRuns: 2 });
  assert.equal(bounded.real?.host.length, 2);
  assert.ok(bounded.notes.includes('The timeline shows the first 2 of 5 runs read from pScheduler.'));

  // Without a comparison every task is one the page cannot name; nothing read, nothing to draw.
  const uncompared = realRunsOf(simulated(), { reads: handRead().reads });
  assert.deepEqual(uncompared.real?.task, [-1, -1, -1, -1, -1]);
  assert.deepEqual(uncompared.real?.labels, ['throughput task, not compared yet', 'latency task, not compared yet']);
  assert.deepEqual(realRunsOf(simulated(), { reads: [] }), { notes: [] });
  assert.deepEqual(realRunsOf(simulated(), undefined), { notes: [] });
});

test('rows: a host with real runs gets a ↳ pScheduler row right under it (hosts mode) or after its class rows', () => {
  const data = simulated();
  data.real = realRunsOf(data, handRead()).real;
  const label = (rows: ReturnType<typeof buildRows>) =>
    rows.map((r) => `${data.hosts[r.host].address} ${r.cls === REAL_ROW ? rowLabel(data, r) : r.cls}`);
  const hosts = buildRows(data, 'hosts', 'report');
  assert.deepEqual(label(hosts), [`${A} -1`, `${A} ↳ pScheduler`, `${B} -1`]);
  // a's real runs by start: 01:00 (2), 02:00 (4), 05:30 (1), 07:00 (0), 23:59:50 (3).
  assert.deepEqual([...hosts[1].runs], [2, 4, 1, 0, 3]);
  assert.deepEqual(
    realRunsPerHost(data).map((l) => l.length),
    [5, 0],
  );
  // Class rows: a has an exclusive (0) and a normal (1) run, b the exclusive one.
  assert.deepEqual(label(buildRows(data, 'classes', 'report')), [`${A} 0`, `${A} 1`, `${A} ↳ pScheduler`, `${B} 0`]);
  // What overlaps a moment: 02:00 (zero long) and 05:30 to 05:30:20.
  assert.deepEqual(realRunsAt(data, hosts[1], 7199, 7201), [4]);
  assert.deepEqual(realRunsAt(data, hosts[1], 19810, 19811), [1]);
  assert.deepEqual(realRunsAt(data, hosts[1], 10000, 11000), []);
  // Without real runs, the rows are what they were.
  delete data.real;
  assert.deepEqual(label(buildRows(data, 'hosts', 'report')), [`${A} -1`, `${B} -1`]);
});

test('the host adds the source’s observed reads to the page’s data, with their notes, and replaces them when read again', async () => {
  const sent: HostToTimeline[] = [];
  const data = simulated();
  const host = createScheduleHost({
    post: (m) => sent.push(m),
    load: async () => ({
      report: {
        hosts: data.hosts.map((h) => ({ ...h })),
        tasks: [{ task: 'tput', addresses: [A, B] }],
        runs: [],
      } as unknown as ScheduleReport,
      span: DAY,
      observed: handRead(),
    }),
    title: 't',
  });
  const shown = await host.refresh();
  assert.equal(shown?.real?.host.length, 5);
  // owd is not among this report's tasks: its real run keeps its name in the hover, not a colour.
  assert.deepEqual(shown?.real?.task, [0, 0, 0, -1, -1]);
  assert.ok(shown?.notes.some((n) => n.startsWith('Real runs')));
  assert.ok(sent.some((m) => m.type === 'data' && m.data.real === shown?.real));
  // The simulation's own note: this report has no runs.
  const simulatedNotes = ['The report lists no runs (the CLI prints them with --runs).'];

  // Read again: the real runs replaced on the same simulation (no load), their notes too; then removed.
  const loadsBefore = sent.filter((m) => m.type === 'status' && m.loading).length;
  const fewer = handRead();
  fewer.reads[0].tasks = fewer.reads[0].tasks.slice(1);
  fewer.reads = fewer.reads.slice(0, 1);
  const again = host.setObserved(fewer);
  assert.deepEqual(
    again?.real?.state.map((x) => again.real!.states[x]),
    ['missed', 'pending'],
  );
  assert.equal(again?.runCombination, shown?.runCombination);
  assert.ok(!again?.notes.some((n) => n.includes('ps-d.example.net')), again?.notes.join('\n'));
  assert.equal(again?.notes.filter((n) => n.startsWith('Real runs')).length, 1);
  assert.deepEqual(sent.at(-1), { type: 'data', data: again });
  const none = host.setObserved(undefined);
  assert.equal(none?.real, undefined);
  assert.deepEqual(none?.notes, simulatedNotes);
  assert.equal(sent.filter((m) => m.type === 'status' && m.loading).length, loadsBefore);
});

// reads.json as recorded (two pScheduler instances, read at 2026-11-28T06:55:58Z, the last PT1H):
// 127.0.0.40
//   fcbc6357 idle PT2S, both archives (template-new `archived`): finished 06:54:29–32, 06:54:49–53, 06:55:09–13,
//            failed 06:55:29–36 (Process took too long to run.), finished 06:55:49–55
//   e416d126 the same JSON (its renewal): no runs
//   76132467 idle PT2S starting-comment "old comment" (`commented`, different): missed 06:55:03–06,
//            failed 06:55:23–33 (Process took too long to run.), failed 06:55:43–52 (Tool snooze failed to merge
//            results: Process took too long to run.)
//   8c736f0f idle PT2S parting-comment "from an old mesh" (template-old only: extra): missed 06:55:03–06,
//            failed 06:55:23–33 (Process took too long to run.), finished 06:55:43–51
// 127.0.0.41
//   b654dcec idleex PT20S parting-comment "one" (`busy-1`): pending 06:55:30–51
//   2541885f idleex PT20S parting-comment "two" (`busy-2`): nonstart 06:55:35–56 (No times available for this run.)
test("a real pScheduler's recorded runs with compareHosts' answer: every run on its host and task, at its time of day", async () => {
  const text = readFileSync(join(pschedulerHostsDir, 'template-new.json'), 'utf8');
  const expansion = await expandText({ uri: 'template-new.json', version: null, text });
  assert.equal(expansion.error, undefined);
  const reads = JSON.parse(readFileSync(join(pschedulerHostsDir, 'reads.json'), 'utf8')) as HostRead[];
  const result = compareHosts({ combinations: expansion.combinations, agents: expansion.agents, reads, since: 'PT1H' });
  // The simulated day, as the editor simulates it: from a later day's 00:00 UTC; 127.0.0.41 listed first.
  const report = {
    hosts: ['127.0.0.41', '127.0.0.40'].map((address) => ({ address, exclusiveLoad: 0, normalLoad: 0, tasks: 0 })),
    tasks: ['archived', 'commented', 'lonely', 'busy-1', 'busy-2'].map((task) => ({ task, addresses: [] })),
    runs: [],
  } as unknown as ScheduleReport;
  const data = timelineOf({ report, span: DAY, title: 'template-new.json' });
  const { real, notes } = realRunsOf(data, { reads, result });
  assert.ok(real);
  const hms = (h: number, m: number, s: number): number => (h * 60 + m) * 60 + s;
  assert.deepEqual(real.host, [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0]);
  assert.deepEqual(real.task, [0, 0, 0, 0, 0, 1, 1, 1, -1, -1, -1, 3, 4]);
  assert.deepEqual(
    [...new Set(real.label.map((l) => real.labels[l]))],
    [
      'task archived',
      'task commented, a different copy',
      'extra idle task, not from this template',
      'task busy-1',
      'task busy-2',
    ],
  );
  assert.deepEqual(real.start, [
    hms(6, 54, 29),
    hms(6, 54, 49),
    hms(6, 55, 9),
    hms(6, 55, 29),
    hms(6, 55, 49),
    hms(6, 55, 3),
    hms(6, 55, 23),
    hms(6, 55, 43),
    hms(6, 55, 3),
    hms(6, 55, 23),
    hms(6, 55, 43),
    hms(6, 55, 30),
    hms(6, 55, 35),
  ]);
  assert.deepEqual(
    real.end.map((e, i) => e - real.start[i]),
    [3, 4, 4, 7, 6, 3, 10, 9, 3, 10, 8, 21, 21],
  );
  assert.deepEqual(real.kind, [0, 0, 0, 2, 0, 2, 2, 2, 2, 2, 0, 0, 1]);
  assert.deepEqual(
    real.reason.map((r) => (r < 0 ? '' : real.reasons[r])),
    [
      '',
      '',
      '',
      TOO_LONG,
      '',
      '',
      TOO_LONG,
      `Tool snooze failed to merge results: ${TOO_LONG}`,
      '',
      TOO_LONG,
      '',
      '',
      NO_TIMES,
    ],
  );
  assert.equal(real.at[0], '2026-11-28T06:54:29.000Z');
  assert.equal(real.readAt, '2026-11-28T06:55:58.000Z');
  assert.equal(real.since, 'PT1H');
  assert.equal(real.folded, true);
  assert.ok(
    notes.some((n) => n.includes('the last PT1H read at 2026-11-28T06:55:58.000Z')),
    notes.join('\n'),
  );
  // Rows: .41 (report order first) and its real row, then .40 and its real row.
  data.real = real;
  const rows = buildRows(data, 'hosts', 'report');
  assert.deepEqual(
    rows.map((r) => `${data.hosts[r.host].address}${r.cls === REAL_ROW ? ' real' : ''}`),
    ['127.0.0.41', '127.0.0.41 real', '127.0.0.40', '127.0.0.40 real'],
  );
});
