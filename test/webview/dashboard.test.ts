// The mesh dashboard webview in headless Chromium with the real host (client/src/dashboard/host.ts) against the
// local archive's generated mesh: one tab per task, every direction drawn in its state's colour ("configured, no
// data" and "not configured" distinct from each other and from red/green), the hover (value, time of the last
// result, metadata key), a click that opens the explorer on exactly that measurement (and the explorer showing it),
// zoom into a block and worst-first order, and a 200-address mesh (39,800 cells) on the canvas. Screenshots in
// test-results/webview/.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { prefillOf } from '../../client/src/explorer/prefill';
import { formatMetric } from '../../dashboard/metrics';
import type { DirState } from '../../dashboard/session';
import { closeArchiveConnections } from '../../archive-client/http';
import { startArchiveServer, type ArchiveServerHandle } from '../archive/server/server';
import { meshHost } from '../archive/server/seed-mesh';
import { dashboardFixturePath } from '../fixtures';
import { startDashboardHarness, type DashboardHarness } from './dashboard-harness';
import { launchChromium, screenshotDir, startHarness } from './harness';

const NOW = Math.floor(Date.now() / 1000);
const TEMPLATE_URL = 'http://127.0.0.1:8085/esmond/perfsonar/archive/';
let archive: ArchiveServerHandle;
let browser: Browser;
let template: string;

before(async () => {
  archive = await startArchiveServer({ seed: { fixtures: false, generated: false, mesh: true, now: NOW } });
  browser = await launchChromium();
  mkdirSync(screenshotDir, { recursive: true });
  template = readFileSync(dashboardFixturePath('mesh-20.psconfig.json'), 'utf8').split(TEMPLATE_URL).join(archive.url);
});

after(async () => {
  await browser?.close();
  await closeArchiveConnections();
  await archive?.close();
});

async function open(text = template, extra: Partial<Parameters<typeof startDashboardHarness>[0]> = {}) {
  const h = await startDashboardHarness({ browser, template: text, now: () => NOW, ...extra });
  await h.refreshes(1);
  await h.page.waitForFunction(() => window.dashboardMetrics.grids > 0 && !window.dashboardMetrics.refreshing);
  return h;
}

/** Where a direction of the shown grid is drawn, and its result in the host. */
async function locate(h: DashboardHarness, grid: number, want: (s: DirState) => boolean) {
  const s = h.host.session()!;
  const g = s.grids[grid];
  const dir = s.results[grid].findIndex((r) => want(r.state));
  assert.ok(dir >= 0, `no direction in a wanted state in ${g.task}`);
  const d = g.directions[dir];
  const cell = await h.page.evaluate(([a, b]) => window.dashboardTest.cellOf(a, b), [d.source, d.destination] as const);
  assert.ok(cell);
  const at = await h.page.evaluate(([r, c, half]) => window.dashboardTest.halfCenter(r, c, half), [
    cell.row,
    cell.col,
    cell.half,
  ] as const);
  assert.ok(at);
  return { dir, d, r: s.results[grid][dir], cell, at };
}

/** Mean colour of a few device pixels around a point of the grid canvas. */
function colourAt(page: Page, x: number, y: number): Promise<number[]> {
  return page.evaluate(
    ([px, py]) => {
      const c = document.querySelector('.grid-base') as HTMLCanvasElement;
      const r = c.getBoundingClientRect();
      const dpr = window.devicePixelRatio || 1;
      const data = c
        .getContext('2d')!
        .getImageData(Math.round((px - r.left) * dpr) - 2, Math.round((py - r.top) * dpr) - 1, 5, 3).data;
      const sum = [0, 0, 0, 0];
      for (let i = 0; i < data.length; i += 4) for (let k = 0; k < 4; k++) sum[k] += data[i + k];
      return sum.map((v) => Math.round(v / (data.length / 4)));
    },
    [x, y] as const,
  );
}

test('one tab per task; every state in its own colour; no data and not configured stand apart from red and green', async () => {
  const h = await open();
  try {
    const tabs = await h.page.$$eval('#tabs .tab', (els) => els.map((e) => e.getAttribute('data-task')));
    assert.deepEqual(tabs, ['mesh-throughput', 'mesh-latencybg', 'mesh-trace']);
    // The legend counts what the host found, direction by direction.
    const s = h.host.session()!;
    const byState: Record<string, number> = {};
    for (const r of s.results[0]) byState[r.state] = (byState[r.state] ?? 0) + 1;
    for (const [state, n] of Object.entries(byState)) {
      const text = await h.page.textContent(`#legend [data-state="${state}"]`);
      assert.match(text ?? '', new RegExp(` ${n}$`), `${state}: ${text}`);
    }
    // Pixels of each kind of half.
    const colours: Record<string, number[]> = {};
    for (const state of ['ok', 'critical', 'failed', 'no-data', 'warning'] as DirState[]) {
      const { at } = await locate(h, 0, (x) => x === state);
      colours[state] = await colourAt(h.page, at.x, at.y);
    }
    // mesh-01 → mesh-02 is excluded by the template: the top half of cell (1, 2).
    const none = await h.page.evaluate(() => window.dashboardTest.halfCenter(0, 1, 0));
    assert.ok(none);
    colours.none = await colourAt(h.page, none.x, none.y);
    const kinds = Object.keys(colours);
    for (let i = 0; i < kinds.length; i++)
      for (let j = i + 1; j < kinds.length; j++)
        assert.notDeepEqual(colours[kinds[i]], colours[kinds[j]], `${kinds[i]} and ${kinds[j]} look the same`);
    // The problems list names every red, failed and empty pair.
    const listed = await h.page.$$eval('#problems li', (els) => els.map((e) => e.getAttribute('data-state')));
    const expected = s.results[0].filter((r) => ['critical', 'failed', 'no-data', 'error'].includes(r.state)).length;
    assert.equal(listed.length, expected);
    await h.page.screenshot({ path: join(screenshotDir, 'dashboard-grid.png'), fullPage: true });
    assert.deepEqual(h.problems, []);
    assert.ok(
      h.requested.every((u) => u.startsWith(new URL(h.requested[0]).origin)),
      h.requested.join(' '),
    );
  } finally {
    await h.close();
  }
});

test('hover shows both directions: value, time of the last result and the metadata key', async () => {
  const h = await open();
  try {
    const { at, r, d } = await locate(h, 0, (x) => x === 'critical');
    await h.page.mouse.move(at.x, at.y);
    await h.page.waitForFunction((key) => window.dashboardMetrics.hoverText.includes(key), r.key!);
    const text = await h.page.evaluate(() => window.dashboardMetrics.hoverText);
    assert.ok(text.includes(`${d.source} → ${d.destination}`), text);
    assert.ok(text.includes(formatMetric('throughput', r.value!)), text);
    assert.ok(
      text.includes(
        new Date(r.time! * 1000)
          .toISOString()
          .replace('T', ' ')
          .replace(/\.\d+Z$/, 'Z'),
      ),
      text,
    );
    assert.ok(text.includes(`metadata key ${r.key}`), text);
    // The other half of the cell is the reverse direction.
    assert.ok(text.includes(`${d.destination} → ${d.source}`), text);
    assert.equal(await h.page.isVisible('#tooltip'), true);
    await h.page.screenshot({ path: join(screenshotDir, 'dashboard-hover.png') });
  } finally {
    await h.close();
  }
});

test('a click opens the explorer on exactly that measurement and window; the explorer shows it', async () => {
  const h = await open();
  try {
    const { at, r, d } = await locate(h, 0, (x) => x === 'critical');
    await h.page.mouse.click(at.x, at.y);
    await h.firstOpened();
    assert.deepEqual(h.opened, [
      {
        url: archive.url,
        inputSource: d.source,
        inputDestination: d.destination,
        task: 'mesh-throughput',
        time: { start: NOW - 86400, end: NOW },
        eventType: 'throughput',
        toolName: 'pscheduler/iperf3',
        metadataKey: r.key,
      },
    ]);
    // The explorer, given that argument as VS Code's command would pass it, selects the measurement and plots it.
    const x = await startHarness({ browser, archives: [{ name: 'local', url: archive.url }] });
    try {
      await x.page.waitForFunction(() => document.getElementById('archive') !== null);
      x.host.prefill(prefillOf(h.opened[0])!);
      await x.page.waitForSelector(`.trows .trow.selected[data-key="${r.key}"]`);
      assert.equal(await x.page.inputValue('#input-source'), d.source);
      assert.equal(await x.page.inputValue('#input-destination'), d.destination);
      assert.equal(await x.page.inputValue('#event-type'), 'throughput');
      await x.page.waitForFunction(() => {
        const p = document.querySelector('#panel-throughput');
        return !!p && !p.classList.contains('loading') && Number(p.getAttribute('data-points')) > 0;
      });
      const ranges = await x.page.evaluate(() => window.explorerXRanges());
      assert.deepEqual(ranges[0], [NOW - 86400, NOW]);
      await x.page.screenshot({ path: join(screenshotDir, 'dashboard-click-explorer.png'), fullPage: true });
      assert.deepEqual(x.problems, []);
    } finally {
      await x.close();
    }
  } finally {
    await h.close();
  }
});

test('zoom into a block by dragging, worst rows and columns first, show all again', async () => {
  const h = await open();
  try {
    const a = await h.page.evaluate(() => window.dashboardTest.halfCenter(2, 3, 0));
    const b = await h.page.evaluate(() => window.dashboardTest.halfCenter(6, 9, 1));
    assert.ok(a && b);
    await h.page.mouse.move(a.x, a.y);
    await h.page.mouse.down();
    await h.page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 4 });
    await h.page.mouse.move(b.x, b.y, { steps: 4 });
    await h.page.mouse.up();
    assert.deepEqual(await h.page.evaluate(() => window.dashboardTest.visible()), { r0: 2, r1: 7, c0: 3, c1: 10 });
    assert.equal(h.opened.length, 0, 'a drag is not a click');
    await h.page.screenshot({ path: join(screenshotDir, 'dashboard-zoomed.png') });
    await h.page.click('#reset-zoom');
    assert.deepEqual(await h.page.evaluate(() => window.dashboardTest.visible()), { r0: 0, r1: 20, c0: 0, c1: 20 });
    // Worst first: rows in descending order of their problems (red and failed weigh most, then no data).
    await h.page.selectOption('#sort', 'worst');
    const order = await h.page.evaluate(() => window.dashboardTest.order());
    const s = h.host.session()!;
    const g = s.grids[0];
    const weight: Record<string, number> = {
      critical: 1000,
      failed: 1000,
      'no-data': 300,
      error: 100,
      warning: 10,
      pending: 1,
    };
    const score = new Array<number>(g.rows.length).fill(0);
    g.halves.forEach((d, i) => {
      if (d >= 0) score[Math.floor((i >> 1) / g.cols.length)] += weight[s.results[0][d].state] ?? 0;
    });
    const scores = order.rows.map((r) => score[r]);
    assert.deepEqual(
      scores,
      [...scores].sort((x, y) => y - x),
    );
    assert.ok(scores[0] >= 1000);
    await h.page.screenshot({ path: join(screenshotDir, 'dashboard-worst-first.png') });
  } finally {
    await h.close();
  }
});

test('a 200-address mesh: 39,800 cells on one canvas; hover, zoom and order stay interactive', async () => {
  const names = Array.from({ length: 200 }, (_, i) => meshHost(i).name);
  const big = JSON.stringify({
    archives: { a: { archiver: 'esmond', data: { url: archive.url } } },
    addresses: Object.fromEntries(names.map((n) => [n, { address: n }])),
    groups: { g: { type: 'mesh', addresses: names.map((name) => ({ name })) } },
    tests: { t: { type: 'throughput', spec: { source: '{% address[0] %}', dest: '{% address[1] %}' } } },
    tasks: { 'mesh-200': { group: 'g', test: 't', archives: ['a'] } },
  });
  const h = await open(big, { viewport: { width: 1000, height: 1200 } });
  try {
    const s = h.host.session()!;
    assert.equal(s.grids[0].directions.length, 39800);
    // (How long the grid takes to draw: npm run bench -- dashboard.)
    // Hosts 21–200 have no data in this archive; the 20-host mesh inside has values.
    const counts = await h.page.textContent('#legend');
    assert.match(counts ?? '', /configured, no data \d{5}/);
    const at = await h.page.evaluate(() => window.dashboardTest.halfCenter(150, 30, 0));
    assert.ok(at);
    await h.page.mouse.move(at.x, at.y);
    await h.page.waitForFunction(() =>
      window.dashboardMetrics.hoverText.includes('mesh-151.example.net → mesh-31.example.net'),
    );
    await h.page.mouse.wheel(0, -300);
    const v = await h.page.evaluate(() => window.dashboardTest.visible());
    assert.ok(v.r1 - v.r0 < 200 && v.c1 - v.c0 < 200, JSON.stringify(v));
    await h.page.screenshot({ path: join(screenshotDir, 'dashboard-200-zoomed.png') });
    await h.page.click('#reset-zoom');
    await h.page.selectOption('#sort', 'worst');
    const order = await h.page.evaluate(() => window.dashboardTest.order());
    assert.equal(order.rows.length, 200);
    await h.page.screenshot({ path: join(screenshotDir, 'dashboard-200.png'), fullPage: true });
    assert.deepEqual(h.problems, []);
  } finally {
    await h.close();
  }
});
