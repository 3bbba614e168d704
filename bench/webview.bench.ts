// Explorer webview in headless Chromium against the local archive:
//   1. a 100,000-point throughput series: fetch (paged), transform, deliver to the page, draw with uPlot;
//   2. a search returning 10,000 measurements: fetch (paged), convert, deliver, render the virtualised table.
// Baselines measured in the same run: an empty page round trip, one unpaged fetch + JSON.parse of the same series in
// Node, and JSON.parse of the same data inside the page. Each scenario runs several times; medians are printed.
import { request } from 'undici';
import { startArchiveServer } from '../test/archive/server/server';
import { launchChromium, startHarness, type Harness } from '../test/webview/harness';
import type { ChartMetric } from '../client/src/webview/detail';

const POINTS = 100_000;
const ROWS = 10_000;
const RUNS = 3;

interface PageMetrics {
  search?: { rows: number; renderMs: number; hostMs: number; pages: number; totalMs: number };
  charts: Record<string, ChartMetric>;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

const fmt = (ms: number): string => `${ms.toFixed(1)} ms`;

async function time(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

async function metrics(h: Harness): Promise<PageMetrics> {
  return h.page.evaluate(() => (window as unknown as { explorerMetrics: PageMetrics }).explorerMetrics);
}

async function runSearch(h: Harness, fields: Record<string, string>): Promise<void> {
  for (const [id, v] of Object.entries(fields)) await h.page.fill(`#${id}`, v);
  await h.page.evaluate(() => {
    delete (window as unknown as { explorerMetrics: PageMetrics }).explorerMetrics.search;
  });
  await h.page.click('#search-button');
  await h.page.waitForFunction(
    () => (window as unknown as { explorerMetrics: PageMetrics }).explorerMetrics.search !== undefined,
    undefined,
    { timeout: 120000 },
  );
}

export async function run(): Promise<void> {
  const now = Math.floor(Date.now() / 1000);
  const archive = await startArchiveServer({ seed: { fixtures: false, generated: false, benchPoints: POINTS, now } });
  for (let i = 0; i < ROWS; i++) {
    const a = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
    archive.store.register({
      'subject-type': 'point-to-point',
      source: a,
      destination: '10.255.0.1',
      'measurement-agent': a,
      'input-source': a,
      'input-destination': 'sink',
      'tool-name': 'bench/rows',
      'event-types': [
        { 'event-type': 'throughput', summaries: [] },
        { 'event-type': 'failures', summaries: [] },
      ],
    });
  }
  const browser = await launchChromium();
  const h = await startHarness({
    browser,
    archives: [{ name: 'bench', url: archive.url }],
    viewport: { width: 1000, height: 1200 },
  });
  try {
    await h.page.waitForFunction(() => document.getElementById('search-button') !== null);

    // ---- baselines
    const roundTrip = median(
      await Promise.all(
        Array.from({ length: 1 }, async () => {
          const xs: number[] = [];
          for (let i = 0; i < 20; i++) xs.push(await time(() => h.page.evaluate(() => 1)));
          return median(xs);
        }),
      ),
    );
    const key = archive.seed.benchKey;
    const seriesUrl = `${archive.url}${key}/throughput/base?time-start=${now - POINTS * 10 - 10}&time-end=${now}&limit=${POINTS + 10}`;
    let seriesText = '';
    const nodeFetchParse: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      nodeFetchParse.push(
        await time(async () => {
          const res = await request(seriesUrl, { headers: { accept: 'application/json' } });
          seriesText = await res.body.text();
          const n = (JSON.parse(seriesText) as unknown[]).length;
          if (n !== POINTS) throw new Error(`bench series has ${n} points, expected ${POINTS}`);
        }),
      );
    }
    const pageParse = await h.page.evaluate((text) => {
      const xs: number[] = [];
      for (let i = 0; i < 3; i++) {
        const t0 = performance.now();
        JSON.parse(text);
        xs.push(performance.now() - t0);
      }
      return xs.sort((a, b) => a - b)[1];
    }, seriesText);

    // ---- 100,000-point series
    await h.page.click('[data-preset="1m"]');
    await h.page.selectOption('#summary-window', '0');
    await h.page.uncheck('#show-reverse');
    await runSearch(h, { 'tool-name': 'bench/generated' });
    const chart: ChartMetric[] = [];
    for (let i = 0; i < RUNS; i++) {
      await h.page.evaluate(() => {
        (window as unknown as { explorerMetrics: PageMetrics }).explorerMetrics.charts = {};
      });
      // Re-selecting via the summary control re-runs the whole fetch → transform → draw path.
      if (i === 0) await h.page.click('.trows .trow:first-child');
      else
        await h.page
          .selectOption('#summary-window', i % 2 ? '60' : '0')
          .then(() => h.page.selectOption('#summary-window', '0'));
      await h.page.waitForFunction(
        () => {
          const c = (window as unknown as { explorerMetrics: PageMetrics }).explorerMetrics.charts.throughput;
          return c !== undefined && c.points > 0;
        },
        undefined,
        { timeout: 120000 },
      );
      const m = (await metrics(h)).charts.throughput;
      if (m.points !== POINTS) throw new Error(`chart received ${m.points} points, expected ${POINTS}`);
      chart.push(m);
    }

    // ---- 10,000-row search
    const searches: NonNullable<PageMetrics['search']>[] = [];
    for (let i = 0; i < RUNS; i++) {
      await runSearch(h, { 'tool-name': 'bench/rows' });
      const s = (await metrics(h)).search;
      if (!s || s.rows !== ROWS) throw new Error(`search rendered ${s?.rows} rows, expected ${ROWS}`);
      searches.push(s);
    }
    const listText = await (
      await request(`${archive.url}?tool-name=bench/rows&limit=${ROWS}`, { headers: { accept: 'application/json' } })
    ).body.text();
    const listParse = await h.page.evaluate((text) => {
      const t0 = performance.now();
      JSON.parse(text);
      return performance.now() - t0;
    }, listText);
    const domRows = await h.page.$$eval('.trows .trow', (els) => els.length);

    const total = median(chart.map((c) => c.totalMs));
    console.log(`baseline: empty page round trip (page.evaluate)         ${fmt(roundTrip)}`);
    console.log(`baseline: Node fetch + JSON.parse of ${POINTS} points (1 request) ${fmt(median(nodeFetchParse))}`);
    console.log(
      `baseline: in-page JSON.parse of the same ${(seriesText.length / 1e6).toFixed(1)} MB          ${fmt(pageParse)}`,
    );
    console.log(`series ${POINTS} points (median of ${RUNS}):`);
    console.log(
      `  fetch (host, paged ${Math.ceil(POINTS / 10000)} requests)            ${fmt(median(chart.map((c) => c.fetchMs)))}`,
    );
    console.log(`  transform (host: normalise → columns)          ${fmt(median(chart.map((c) => c.transformMs)))}`);
    const seriesDelivery = h.deliveries.filter((d) => d.type === 'seriesResult' && d.bytes > 1e6).map((d) => d.ms);
    const searchDelivery = h.deliveries.filter((d) => d.type === 'searchResult' && d.bytes > 1e6).map((d) => d.ms);
    console.log(`  deliver to the page (harness, JSON string)     ${fmt(median(seriesDelivery))}`);
    console.log(`  draw (uPlot construct + first paint)           ${fmt(median(chart.map((c) => c.drawMs)))}`);
    console.log(
      `  select → chart drawn, end to end               ${fmt(total)}   (${(total / median(nodeFetchParse)).toFixed(1)}× the Node fetch+parse baseline)`,
    );
    console.log(`search ${ROWS} rows (median of ${RUNS}):`);
    console.log(
      `  host fetch (paged) + convert                   ${fmt(median(searches.map((s) => s.hostMs)))} in ${searches[0].pages} pages`,
    );
    console.log(`  deliver to the page (harness, JSON string)     ${fmt(median(searchDelivery))}`);
    console.log(
      `  table render (virtualised: ${domRows} DOM rows)       ${fmt(median(searches.map((s) => s.renderMs)))}   (${(median(searches.map((s) => s.renderMs)) / listParse).toFixed(2)}× in-page JSON.parse of the list, ${fmt(listParse)})`,
    );
    console.log(`  click → table rendered, end to end             ${fmt(median(searches.map((s) => s.totalMs)))}`);
    if (h.problems.length) console.log(`page problems: ${h.problems.join('; ')}`);
  } finally {
    await h.close();
    await browser.close();
    await archive.close();
  }
}
