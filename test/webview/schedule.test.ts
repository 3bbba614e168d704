// The host timeline webview in headless Chromium with the real host (client/src/schedule/host.ts): one row per host
// (and per class of each host), runs in their task's colour, non-starters hatched and outlined in the error colour,
// the hover naming task, addresses, class, start and end, state and reason, zoom (drag, Ctrl + wheel, double-click),
// a task highlighted from the legend or the host, a click that asks to open the task, hostile names shown as text,
// and a 200-host mesh's day. Screenshots in test-results/webview/.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { ScheduleReport } from '../../common/protocol';
import { launchChromium, screenshotDir } from './harness';
import { startTimelineHarness, type TimelineHarness } from './schedule-harness';
import { HOSTS, meshReport, NO_TIMES, smallReport, SPAN } from './schedule-report';

let browser: Browser;

before(async () => {
  browser = await launchChromium();
  mkdirSync(screenshotDir, { recursive: true });
});

after(async () => {
  await browser?.close();
});

async function open(
  report: ScheduleReport = smallReport(),
  extra: Partial<Parameters<typeof startTimelineHarness>[0]> = {},
): Promise<TimelineHarness> {
  const h = await startTimelineHarness({ browser, load: async () => ({ report, span: SPAN }), ...extra });
  await h.loads(1);
  await h.page.waitForFunction(() => window.timelineMetrics.rows > 0);
  return h;
}

/** Mean colour of a few device pixels around a point of the timeline canvas. */
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

/** Whether any pixel in a small box around a point is close to `rgb`. */
function hasColourNear(page: Page, x: number, y: number, rgb: number[], box = 6): Promise<boolean> {
  return page.evaluate(
    ([px, py, want, b]) => {
      const c = document.querySelector('.timeline-base') as HTMLCanvasElement;
      const r = c.getBoundingClientRect();
      const dpr = window.devicePixelRatio || 1;
      const data = c
        .getContext('2d')!
        .getImageData(
          Math.round((px - r.left - b) * dpr),
          Math.round((py - r.top - b) * dpr),
          2 * b * dpr,
          2 * b * dpr,
        ).data;
      for (let i = 0; i < data.length; i += 4)
        if (Math.abs(data[i] - want[0]) + Math.abs(data[i + 1] - want[1]) + Math.abs(data[i + 2] - want[2]) < 40)
          return true;
      return false;
    },
    [x, y, rgb, box] as const,
  );
}

/** The run index of the first run of `task` from `addresses[0]` in `state`, as the page numbers runs. */
async function runOf(
  h: TimelineHarness,
  state: 'scheduled' | 'nonstart',
  task: string,
  source?: string,
): Promise<number> {
  const r = await h.page.evaluate(([s, t, f]) => window.timelineTest.find(s, t, f), [state, task, source] as const);
  assert.ok(r !== undefined, `no ${state} run of ${task}`);
  return r;
}

test('one row per host, runs in their task colour, non-starters hatched and outlined; the summary counts them', async () => {
  const h = await open();
  try {
    const rows = await h.page.evaluate(() => window.timelineTest.rows());
    // Busiest first: a and b take part in four throughput tasks, c in four too; a's latency makes it busier.
    assert.deepEqual(rows, [HOSTS.a, HOSTS.b, HOSTS.c]);
    const summary = await h.page.textContent('#summary');
    // 3 × 48 throughput runs lost of 6 × 48 + 288 + 2 + 288 wanted.
    assert.match(summary ?? '', /144 runs of 866 will not start/);
    const legend = await h.page.$$eval('#legend .item[data-task]', (els) =>
      els.map((e) => `${e.getAttribute('data-task')}: ${e.querySelector('.count')?.textContent}`),
    );
    assert.deepEqual(legend, ['tput: 144 of 288 runs', 'owd: 288 runs', 'bg: 2 runs', 'path: 288 runs']);

    // Zoom into the first 3 minutes: the throughput runs are 19 s wide. c → a (00:00:38) shares no time with a
    // non-starter, whose hatch would cover it.
    await h.page.evaluate(() => window.timelineTest.zoomTo(0, 180));
    const tput = await runOf(h, 'scheduled', 'tput', HOSTS.c);
    const at = await h.page.evaluate((r) => window.timelineTest.locate(r), tput);
    assert.ok(at);
    const swatch = await h.page.$eval(
      '#legend .item[data-task="tput"] .swatch',
      (e) => getComputedStyle(e).backgroundColor,
    );
    const want = (/\d+, \d+, \d+/.exec(swatch)?.[0] ?? '').split(', ').map(Number);
    const got = await colourAt(h.page, at.x, at.y);
    assert.ok(
      Math.abs(got[0] - want[0]) + Math.abs(got[1] - want[1]) + Math.abs(got[2] - want[2]) < 30,
      `scheduled run drawn ${got.join(',')} not in the task colour ${want.join(',')}`,
    );
    // A non-starter: its outline in the error colour (#e51400 in the harness's theme).
    const ns = await runOf(h, 'nonstart', 'tput');
    const nat = await h.page.evaluate((r) => window.timelineTest.locate(r, 'ps-b.example.net'), ns);
    assert.ok(nat);
    assert.ok(await hasColourNear(h.page, nat.x, nat.y, [0xe5, 0x14, 0x00], 14), 'no error outline at a non-starter');
    const nonstartList = await h.page.$$eval('#nonstarts li', (els) => els.map((e) => e.textContent));
    assert.equal(nonstartList.length, 3);
    assert.ok(
      nonstartList.every((t) => t?.includes(`48 runs of 48 will not start: ${NO_TIMES}`)),
      nonstartList.join('\n'),
    );
    await h.page.screenshot({ path: join(screenshotDir, 'schedule-timeline.png'), fullPage: true });
    assert.deepEqual(h.problems, []);
    const origin = new URL(h.requested[0]).origin;
    assert.ok(
      h.requested.every((u) => u.startsWith(origin)),
      h.requested.join(' '),
    );
  } finally {
    await h.close();
  }
});

test("hover names the run: task, addresses, class, start and end, state and pScheduler's reason", async () => {
  const h = await open();
  try {
    await h.page.evaluate(() => window.timelineTest.zoomTo(0, 240));
    const ns = await runOf(h, 'nonstart', 'tput');
    const at = await h.page.evaluate((r) => window.timelineTest.locate(r, 'ps-b.example.net'), ns);
    assert.ok(at);
    await h.page.mouse.move(at.x, at.y);
    await h.page.waitForFunction(() => window.timelineMetrics.hoverText.includes('non-starter'));
    const text = await h.page.evaluate(() => window.timelineMetrics.hoverText);
    // The first non-starter is b → a's at 00:00:00 (runs are numbered by start, then as listed); on b's row it
    // lies under a → b's scheduled run and c → b's non-starter, which the hover lists too.
    assert.ok(text.includes(`tput: ${HOSTS.b} → ${HOSTS.a}`), text);
    assert.ok(text.includes(`tput: ${HOSTS.c} → ${HOSTS.b}`), text);
    assert.ok(text.includes('2026-12-01 00:00:00Z – 2026-12-01 00:00:19Z (19 s)'), text);
    assert.ok(text.includes('exclusive · will not start (non-starter)'), text);
    assert.ok(text.includes(NO_TIMES), text);
    assert.ok(text.includes('0 of 48 runs scheduled'), text);
    assert.equal(await h.page.isVisible('#tooltip'), true);
    await h.page.screenshot({ path: join(screenshotDir, 'schedule-hover.png') });

    const ok = await runOf(h, 'scheduled', 'owd');
    const oat = await h.page.evaluate((r) => window.timelineTest.locate(r), ok);
    assert.ok(oat);
    await h.page.mouse.move(oat.x, oat.y);
    await h.page.waitForFunction(() => window.timelineMetrics.hoverText.startsWith('owd'));
    const t2 = await h.page.evaluate(() => window.timelineMetrics.hoverText);
    assert.ok(t2.includes(`owd: ${HOSTS.a} → ${HOSTS.b}`), t2);
    assert.ok(t2.includes('normal · scheduled'), t2);
    assert.ok(t2.includes('2026-12-01 00:05:00Z – 2026-12-01 00:05:21Z (21 s)'), t2);
    assert.ok(t2.includes(`on ${HOSTS.a} · owping`), t2);
    // A click asks the host to show the task in the template.
    await h.page.mouse.click(oat.x, oat.y);
    await h.firstOpened();
    assert.deepEqual(h.opened, [{ task: 'owd', addresses: [HOSTS.a, HOSTS.b] }]);
    assert.deepEqual(h.problems, []);
  } finally {
    await h.close();
  }
});

test('zoom: drag a stretch of time, Ctrl + wheel around the cursor, double-click for the whole span', async () => {
  const h = await open();
  try {
    const whole = await h.page.evaluate(() => window.timelineTest.visible());
    assert.deepEqual(whole, { t0: 0, t1: 2 * 86400 });
    const box = (await h.page.$('.timeline-overlay'))!.boundingBox();
    const b = (await box)!;
    const y = b.y + 60;
    await h.page.mouse.move(b.x + b.width * 0.5, y);
    await h.page.mouse.down();
    await h.page.mouse.move(b.x + b.width * 0.6, y, { steps: 5 });
    await h.page.mouse.move(b.x + b.width * 0.7, y, { steps: 5 });
    await h.page.mouse.up();
    const dragged = await h.page.evaluate(() => window.timelineTest.visible());
    assert.ok(dragged.t1 - dragged.t0 < whole.t1 / 3, JSON.stringify(dragged));
    assert.ok(dragged.t0 > 0, JSON.stringify(dragged));
    assert.equal(await h.page.isEnabled('#reset-zoom'), true);
    await h.page.keyboard.down('Control');
    await h.page.mouse.move(b.x + b.width * 0.6, y);
    await h.page.mouse.wheel(0, -100);
    await h.page.keyboard.up('Control');
    const wheeled = await h.page.evaluate(() => window.timelineTest.visible());
    assert.ok(wheeled.t1 - wheeled.t0 < dragged.t1 - dragged.t0, JSON.stringify(wheeled));
    await h.page.mouse.dblclick(b.x + b.width * 0.6, y);
    assert.deepEqual(await h.page.evaluate(() => window.timelineTest.visible()), whole);
    assert.equal(await h.page.isEnabled('#reset-zoom'), false);
    assert.deepEqual(h.problems, []);
  } finally {
    await h.close();
  }
});

test('one row per class of each host, as plot-schedule draws a host, with the non-starters in a row of their own', async () => {
  const h = await open();
  try {
    await h.page.selectOption('#mode', 'classes');
    await h.page.waitForFunction(() => window.timelineTest.rows().length > 3);
    const rows = await h.page.evaluate(() => window.timelineTest.rows());
    // Class codes: 0 exclusive, 1 normal, 2 background, 3 background-multi, 4 non-starting.
    assert.deepEqual(rows, [
      `${HOSTS.a} · 0`,
      `${HOSTS.a} · 1`,
      `${HOSTS.a} · 3`,
      `${HOSTS.a} · 4`,
      `${HOSTS.b} · 0`,
      `${HOSTS.b} · 2`,
      `${HOSTS.b} · 4`,
      `${HOSTS.c} · 0`,
      `${HOSTS.c} · 4`,
    ]);
    await h.page.evaluate(() => window.timelineTest.zoomTo(0, 900));
    await h.page.screenshot({ path: join(screenshotDir, 'schedule-classes.png'), fullPage: true });
    assert.deepEqual(h.problems, []);
  } finally {
    await h.close();
  }
});

test('opened from a task and from an agent: the task highlighted, the agent first; the legend changes the highlight', async () => {
  const h = await open(smallReport(), { focus: { task: 'owd', host: HOSTS.c } });
  try {
    await h.page.waitForFunction(() => window.timelineMetrics.focusTask === 'owd');
    const rows = await h.page.evaluate(() => window.timelineTest.rows());
    assert.equal(rows[0], HOSTS.c);
    assert.equal(await h.page.$eval('#task', (e) => (e as HTMLSelectElement).selectedOptions[0].textContent), 'owd');
    assert.equal(await h.page.getAttribute('#legend .item[data-task="owd"]', 'class'), 'item focused');
    // Another task's run is faded: its pixel is lighter than its task's colour.
    await h.page.evaluate(() => window.timelineTest.zoomTo(0, 180));
    const tput = await runOf(h, 'scheduled', 'tput', HOSTS.c);
    const at = await h.page.evaluate((r) => window.timelineTest.locate(r, 'ps-a.example.net'), tput);
    assert.ok(at);
    // (The canvas is transparent where nothing is drawn: a faded run is its colour with a low alpha.)
    const faded = await colourAt(h.page, at.x, at.y);
    await h.page.click('#legend .item[data-task="tput"]');
    await h.page.waitForFunction(() => window.timelineMetrics.focusTask === 'tput');
    const full = await colourAt(h.page, at.x, at.y);
    assert.ok(faded[3] < 100 && full[3] === 255, `${faded.join(',')} vs ${full.join(',')}`);
    // The host changes the focus without loading again.
    h.host.setFocus({ task: 'path' });
    await h.page.waitForFunction(() => window.timelineMetrics.focusTask === 'path');
    assert.equal((await h.page.evaluate(() => window.timelineTest.rows()))[0], HOSTS.a);
    assert.equal(h.posted.filter((m) => m.type === 'refresh').length, 0);
    assert.deepEqual(h.problems, []);
  } finally {
    await h.close();
  }
});

test('hostile names are text, a failed simulation says why, a report without runs says how to get them', async () => {
  const evil = '<img src=x onerror=alert(1)>'.repeat(3);
  const report = smallReport();
  for (const r of report.runs!) if (r.task === 'owd') r.task = evil;
  for (const t of report.tasks) if (t.task === 'owd') t.task = evil;
  const h = await open(report);
  try {
    assert.equal(await h.page.$$eval('img', (els) => els.length), 0);
    assert.ok((await h.page.textContent('#legend'))?.includes(evil));
    assert.deepEqual(h.problems, []);
  } finally {
    await h.close();
  }
  const failed = await startTimelineHarness({
    browser,
    load: async () => ({ error: 'The template has a JSON syntax error at line 3.' }),
  });
  try {
    await failed.loads(1);
    assert.equal(await failed.page.textContent('#status'), 'The template has a JSON syntax error at line 3.');
  } finally {
    await failed.close();
  }
  const bare = smallReport();
  delete bare.runs;
  const noRuns = await open(bare);
  try {
    assert.ok((await noRuns.page.textContent('#notes'))?.includes('--runs'));
  } finally {
    await noRuns.close();
  }
});

test("a 200-host mesh's day: 39,800 throughput tasks every 4 h on 200 rows", async () => {
  const report = meshReport(200, 4, 1);
  assert.equal(report.runs!.length, 39800 * 6);
  const h = await open(report, { viewport: { width: 1400, height: 1000 } });
  try {
    const m = await h.page.evaluate(() => window.timelineMetrics);
    assert.equal(m.runs, 39800 * 6);
    assert.equal(m.rows, 200);
    // The rows in view are drawn, with every run they hold (each host takes part in 398 tasks × 6 runs).
    assert.ok(m.runsInView >= 398 * 6 * 10, `${m.runsInView} runs in view`);
    // (How long the draws take: npm run bench -- schedule-timeline.)
    // Scroll to the last host: its row is drawn.
    await h.page.$eval('.timeline', (e) => (e.scrollTop = e.scrollHeight));
    const last = await h.page.evaluate(() => window.timelineTest.rows().at(-1));
    assert.match(last ?? '', /^mesh-\d{3}\.example\.net$/);
    await h.page.screenshot({ path: join(screenshotDir, 'schedule-mesh-200.png') });
    assert.deepEqual(h.problems, []);
  } finally {
    await h.close();
  }
});
