// The host timeline with the hosts' real runs (issue 28) in headless Chromium with the real host: a host whose
// pScheduler was read gets a ↳ pScheduler row under it, tinted; its runs are drawn in their template task's colour,
// a failed one in the error colour, and the hover says what pScheduler said, at the run's actual time. The read is
// written here: ps-a's runs of 2026-11-30, the day before the simulated span (2026-12-01, two days), so each lands
// by its time of day on the span's second day (moved by the span's length, two days). Screenshot in
// test-results/webview/schedule-real.png.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { HostRead, HostsResult } from '../../common/protocol';
import type { TimelineObserved } from '../../client/src/schedule/timeline-observed';
import { expandText } from '../../server/src/template/expand/from-text';
import { compareHosts } from '../../server/src/template/hosts';
import {
  buildScheduleModel,
  DEFAULT_ASSUMPTIONS,
  scheduleReport,
  simulateSchedule,
} from '../../server/src/template/schedule';
import { pschedulerHostsDir } from '../fixtures';
import { launchChromium, screenshotDir } from './harness';
import { startTimelineHarness, type TimelineHarness } from './schedule-harness';
import { HOSTS, smallReport, SPAN } from './schedule-report';

let browser: Browser;

before(async () => {
  browser = await launchChromium();
  mkdirSync(screenshotDir, { recursive: true });
});

after(async () => {
  await browser?.close();
});

const TOO_LONG = 'Process took too long to run.';
const href = (t: string): string => `https://${HOSTS.a}/pscheduler/tasks/${t}`;

/** ps-a's read: tput's runs at 03:00 (finished), 04:00 (failed), 05:00 (not started); an extra task's at 06:00. */
function observed(): TimelineObserved {
  const run = (state: string, start: string, end: string, reason?: string) => ({
    href: `${href('t1')}/runs/${state}`,
    state,
    start,
    end,
    ...(reason ? { reason } : {}),
    archivings: [],
  });
  const reads: HostRead[] = [
    {
      host: HOSTS.a,
      url: `https://${HOSTS.a}/pscheduler`,
      readAt: '2026-11-30T23:00:00Z',
      since: 'P1D',
      tasks: [
        {
          href: href('t1'),
          uuid: 't1',
          json: { test: { type: 'throughput', spec: {} } },
          runs: [
            run('finished', '2026-11-30T03:00:00Z', '2026-11-30T03:00:19Z'),
            run('failed', '2026-11-30T04:00:00Z', '2026-11-30T04:00:20Z', TOO_LONG),
            run('nonstart', '2026-11-30T05:00:00Z', '2026-11-30T05:00:19Z', 'No times available for this run.'),
          ],
        },
        {
          href: href('t2'),
          uuid: 't2',
          json: { test: { type: 'latency', spec: {} } },
          runs: [run('finished', '2026-11-30T06:00:00Z', '2026-11-30T06:00:30Z')],
        },
      ],
    },
    { host: 'ps-z.example.net', url: 'https://ps-z.example.net/pscheduler', readAt: '', since: 'P1D', tasks: [] },
  ];
  reads[1].tasks.push({
    href: 'https://ps-z.example.net/pscheduler/tasks/t9',
    uuid: 't9',
    json: {},
    runs: [run('finished', '2026-11-30T06:00:00Z', '2026-11-30T06:00:30Z')],
  });
  const result: HostsResult = {
    since: 'P1D',
    problems: true,
    hosts: [
      {
        host: HOSTS.a,
        url: `https://${HOSTS.a}/pscheduler`,
        counts: { present: 1, missing: 0, extra: 1, different: 0, expired: 0, renewing: 0 },
        entries: [
          { verdict: 'present', task: 'tput', hrefs: [href('t1')] },
          { verdict: 'extra', testType: 'latency', hrefs: [href('t2')] },
        ],
      },
    ],
  };
  return { reads, result };
}

/** Seconds from the span's start where a run of 2026-11-30 at `hh`:00 lands: one span (two days) later. */
const landed = (hh: number): number => 86400 + hh * 3600;

async function open(): Promise<TimelineHarness> {
  const h = await startTimelineHarness({
    browser,
    load: async () => ({ report: smallReport(), span: SPAN }),
    observed: observed(),
  });
  await h.loads(1);
  await h.page.waitForFunction(() => window.timelineMetrics.rows > 0);
  return h;
}

/** A few device pixels' mean RGBA around a point of the timeline canvas. */
function colourAt(page: Page, x: number, y: number): Promise<number[]> {
  return page.evaluate(
    ([px, py]) => {
      const c = document.querySelector('.timeline-base') as HTMLCanvasElement;
      const r = c.getBoundingClientRect();
      const dpr = window.devicePixelRatio || 1;
      const data = c
        .getContext('2d')!
        .getImageData(Math.round((px - r.left) * dpr) - 1, Math.round((py - r.top) * dpr) - 1, 3, 3).data;
      const sum = [0, 0, 0, 0];
      for (let i = 0; i < data.length; i += 4) for (let k = 0; k < 4; k++) sum[k] += data[i + k];
      return sum.map((v) => Math.round(v / (data.length / 4)));
    },
    [x, y] as const,
  );
}

const near = (a: number[], b: number[]): boolean =>
  Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) + Math.abs(a[2] - b[2]) < 30;

async function swatchRgb(page: Page, task: string): Promise<number[]> {
  const css = await page.$eval(
    `#legend .item[data-task="${task}"] .swatch`,
    (e) => getComputedStyle(e).backgroundColor,
  );
  return (/\d+, \d+, \d+/.exec(css)?.[0] ?? '').split(', ').map(Number);
}

test('a read host gets a tinted ↳ pScheduler row: its runs by time of day, a failed one in the error colour, the hover says what pScheduler said', async () => {
  const h = await open();
  try {
    assert.deepEqual(await h.page.evaluate(() => window.timelineTest.rows()), [
      HOSTS.a,
      `${HOSTS.a} · real`,
      HOSTS.b,
      HOSTS.c,
    ]);
    assert.match(
      (await h.page.textContent('#summary')) ?? '',
      /4 real runs read from pScheduler \(1 failed or missed, 1 not started\)/,
    );
    assert.ok(await h.page.isVisible('#legend-real'));
    assert.ok(await h.page.isVisible('#legend-folded'));
    const notes = (await h.page.textContent('#notes')) ?? '';
    assert.ok(notes.includes('placed by their time of day'), notes);
    assert.ok(notes.includes('left out: ps-z.example.net (1 run)'), notes);

    const zoom = (t0: number, t1: number) =>
      h.page.evaluate(([a, b]) => window.timelineTest.zoomTo(a, b), [t0, t1] as const);
    const finished = await h.page.evaluate(() => window.timelineTest.findReal('finished'));
    const failed = await h.page.evaluate(() => window.timelineTest.findReal('failed'));
    assert.equal(finished, 0);
    assert.equal(failed, 1);
    // tput's real run in tput's colour, the failed one in the error colour (#e51400 in the harness's theme), each
    // seen 90 s wide.
    await zoom(landed(3) - 30, landed(3) + 60);
    const at = await h.page.evaluate((r) => window.timelineTest.locateReal(r), finished);
    assert.ok(at);
    const full = await colourAt(h.page, at.x, at.y);
    assert.ok(near(full, await swatchRgb(h.page, 'tput')), `real run drawn ${full.join(',')}, not in its task colour`);
    await zoom(landed(4) - 30, landed(4) + 60);
    const fat = await h.page.evaluate((r) => window.timelineTest.locateReal(r), failed);
    assert.ok(fat);
    const red = await colourAt(h.page, fat.x, fat.y);
    assert.ok(near(red, [0xe5, 0x14, 0x00]), `failed real run drawn ${red.join(',')}, not in the error colour`);

    // From 02:30 to 06:30 of the second day: the real row is tinted where nothing runs; the simulated row above it
    // (22 px rows, its upper band's middle 26 px above the real band's) is not: the canvas is transparent there. At
    // 03:20, a third of the way from the 03:00 run to the 04:00 one, neither row has a run (owd runs at 03:15 and
    // 03:25) nor a grid line (every 30 min).
    await zoom(landed(2.5), landed(6.5));
    const wideAt = await h.page.evaluate((r) => window.timelineTest.locateReal(r), finished);
    const wideFailed = await h.page.evaluate((r) => window.timelineTest.locateReal(r), failed);
    assert.ok(wideAt && wideFailed);
    const qx = wideAt.x + (wideFailed.x - wideAt.x) / 3;
    const realPixel = await colourAt(h.page, qx, wideAt.y);
    const simulatedPixel = await colourAt(h.page, qx, wideAt.y - 26);
    assert.ok(
      realPixel[3] > 0 && simulatedPixel[3] === 0,
      `real ${realPixel.join(',')}, simulated ${simulatedPixel.join(',')}`,
    );

    await h.page.mouse.move(wideFailed.x, wideFailed.y);
    await h.page.waitForFunction(() => window.timelineMetrics.hoverText.startsWith('pScheduler on'));
    assert.equal(
      await h.page.evaluate(() => window.timelineMetrics.hoverText),
      `pScheduler on ${HOSTS.a}: failed at 2026-11-30 04:00:00Z, 20 s (task tput) — ${TOO_LONG}`,
    );
    const extra = await h.page.evaluate(() => window.timelineTest.locateReal(3));
    assert.ok(extra);
    await h.page.mouse.move(extra.x, extra.y);
    await h.page.waitForFunction(() => window.timelineMetrics.hoverText.includes('extra'));
    assert.equal(
      await h.page.evaluate(() => window.timelineMetrics.hoverText),
      `pScheduler on ${HOSTS.a}: finished at 2026-11-30 06:00:00Z, 30 s (extra latency task, not from this template)`,
    );
    await h.page.screenshot({ path: join(screenshotDir, 'schedule-real.png'), fullPage: true });

    // Highlighting another task fades the real tput run too.
    await zoom(landed(3) - 30, landed(3) + 60);
    await h.page.click('#legend .item[data-task="owd"]');
    await h.page.waitForFunction(() => window.timelineMetrics.focusTask === 'owd');
    const faded = await colourAt(h.page, at.x, at.y);
    assert.ok(full[3] === 255 && faded[3] < 100, `${full.join(',')} vs ${faded.join(',')}`);

    // A click on a real run of a template task shows that task.
    await h.page.mouse.click(at.x, at.y);
    for (let i = 0; i < 50 && !h.opened.length; i++) await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(h.opened, [{ task: 'tput', addresses: [] }]);

    // Classes mode: the real row after the host's class rows.
    await h.page.selectOption('#mode', 'classes');
    await h.page.waitForFunction(() => window.timelineTest.rows().length > 4);
    assert.deepEqual(await h.page.evaluate(() => window.timelineTest.rows()), [
      `${HOSTS.a} · 0`,
      `${HOSTS.a} · 1`,
      `${HOSTS.a} · 3`,
      `${HOSTS.a} · 4`,
      `${HOSTS.a} · real`,
      `${HOSTS.b} · 0`,
      `${HOSTS.b} · 2`,
      `${HOSTS.b} · 4`,
      `${HOSTS.c} · 0`,
      `${HOSTS.c} · 4`,
    ]);
    await h.page.screenshot({ path: join(screenshotDir, 'schedule-real-classes.png'), fullPage: true });
    assert.deepEqual(h.problems, []);
  } finally {
    await h.close();
  }
});

// The runs a real pScheduler gave (test/fixtures/pscheduler-hosts/reads.json, read 2026-11-28T06:55:58Z, the last
// PT1H) beside the simulation of the template they were compared with (template-new.json), simulated for that day.
// On 127.0.0.40 around 06:55:30: `commented`'s copy failed 06:55:23–33 (Process took too long to run.), the extra
// task's too, and `archived` failed 06:55:29–36 (the same reason); 127.0.0.41's `busy-2` did not start at 06:55:35
// (No times available for this run.).
test("a real pScheduler's recorded runs beside the simulation of their template, at their time of day", async () => {
  const text = readFileSync(join(pschedulerHostsDir, 'template-new.json'), 'utf8');
  const expansion = await expandText({ uri: 'template-new.json', version: null, text });
  assert.equal(expansion.error, undefined);
  const reads = JSON.parse(readFileSync(join(pschedulerHostsDir, 'reads.json'), 'utf8')) as HostRead[];
  const result = compareHosts({ combinations: expansion.combinations, agents: expansion.agents, reads, since: 'PT1H' });
  const model = buildScheduleModel(expansion.combinations, DEFAULT_ASSUMPTIONS);
  // The simulation's time 0 is its warm-up's start: the span (one day) is placed at 2026-11-28 00:00 UTC.
  const sim = simulateSchedule(model, { days: 1, seed: 1 });
  const start = Date.parse('2026-11-28T00:00:00.000Z');
  const span = { start: new Date(start).toISOString(), end: new Date(start + 86_400_000).toISOString() };
  assert.equal(sim.spanEnd - sim.spanStart, 86400);
  const report = scheduleReport(model, sim, { epochMs: start - sim.spanStart * 1000, hosts: [], runs: true });
  const h = await startTimelineHarness({
    browser,
    load: async () => ({ report, span }),
    observed: { reads, result },
    title: 'template-new.json',
  });
  try {
    await h.loads(1);
    await h.page.waitForFunction(() => window.timelineMetrics.rows > 0);
    const rows = await h.page.evaluate(() => window.timelineTest.rows());
    assert.deepEqual([...rows].sort(), ['127.0.0.40', '127.0.0.40 · real', '127.0.0.41', '127.0.0.41 · real']);
    assert.equal(rows[rows.indexOf('127.0.0.40') + 1], '127.0.0.40 · real');
    // 13 runs read with a start (11 on .40, 2 on .41): failed or missed 1 (archived) + 3 (commented) + 2 (the
    // extra task) on .40; not started 1 (busy-2).
    assert.match(
      (await h.page.textContent('#summary')) ?? '',
      /13 real runs read from pScheduler \(6 failed or missed, 1 not started\)/,
    );
    // Inside the simulated day: nothing folded.
    assert.equal(await h.page.isVisible('#legend-folded'), false);
    const hms = (hh: number, mm: number, ss: number): number => (hh * 60 + mm) * 60 + ss;
    await h.page.evaluate(([a, b]) => window.timelineTest.zoomTo(a, b), [hms(6, 54, 20), hms(6, 56, 10)] as const);
    const archivedFailed = await h.page.evaluate(() => window.timelineTest.findReal('failed', '127.0.0.40'));
    assert.equal(archivedFailed, 3);
    const at = await h.page.evaluate((r) => window.timelineTest.locateReal(r), archivedFailed);
    assert.ok(at);
    await h.page.mouse.move(at.x, at.y);
    await h.page.waitForFunction(() => window.timelineMetrics.hoverText.startsWith('pScheduler on'));
    const hover = await h.page.evaluate(() => window.timelineMetrics.hoverText);
    assert.deepEqual(hover.split('\n'), [
      `pScheduler on 127.0.0.40: failed at 2026-11-28 06:55:23Z, 10 s (task commented, a different copy) — ${TOO_LONG}`,
      `pScheduler on 127.0.0.40: failed at 2026-11-28 06:55:23Z, 10 s (extra idle task, not from this template) — ${TOO_LONG}`,
      `pScheduler on 127.0.0.40: failed at 2026-11-28 06:55:29Z, 7 s (task archived) — ${TOO_LONG}`,
    ]);
    const nonstart = await h.page.evaluate(() => window.timelineTest.findReal('nonstart', '127.0.0.41'));
    assert.ok(nonstart !== undefined);
    const nat = await h.page.evaluate((r) => window.timelineTest.locateReal(r), nonstart);
    assert.ok(nat);
    await h.page.mouse.move(nat.x, nat.y);
    await h.page.waitForFunction(() => window.timelineMetrics.hoverText.includes('nonstart'));
    assert.equal(
      await h.page.evaluate(() => window.timelineMetrics.hoverText),
      // busy-1's run (06:55:30–51, still pending when read) held the time busy-2 wanted: both under the cursor.
      'pScheduler on 127.0.0.41: pending at 2026-11-28 06:55:30Z, 21 s (task busy-1)\n' +
        'pScheduler on 127.0.0.41: nonstart at 2026-11-28 06:55:35Z, 21 s (task busy-2) — No times available for this run.',
    );
    await h.page.screenshot({ path: join(screenshotDir, 'schedule-real-recorded.png'), fullPage: true });
    assert.deepEqual(h.problems, []);
  } finally {
    await h.close();
  }
});
