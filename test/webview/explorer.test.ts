// The explorer webview in headless Chromium against the local archive (test/archive/server), with the real host
// logic (client/src/explorer/host.ts) in this process. Screenshots go to test-results/webview/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startArchiveServer, type ArchiveServerHandle } from '../archive/server/server';
import { searchMetadata } from '../../archive-client/search';
import type { ExplorerState, SeriesResult } from '../../client/src/explorer/messages';
import { launchChromium, screenshotDir, startHarness, type Harness } from './harness';

let archive: ArchiveServerHandle;
let browser: Browser;

before(async () => {
  archive = await startArchiveServer({ seed: { fixtures: true, generated: true } });
  browser = await launchChromium();
  mkdirSync(screenshotDir, { recursive: true });
});

after(async () => {
  await browser?.close();
  await archive?.close();
});

async function open(extra: Partial<Parameters<typeof startHarness>[0]> = {}): Promise<Harness> {
  return startHarness({ browser, archives: [{ name: 'local', url: archive.url }], ...extra });
}

async function fill(page: Page, fields: Record<string, string>): Promise<void> {
  for (const [id, v] of Object.entries(fields)) await page.fill(`#${id}`, v);
}

async function search(page: Page): Promise<void> {
  await page.click('#search-button');
  await page.waitForFunction(() => {
    const s = document.getElementById('status');
    return !!s && !s.classList.contains('busy') && s.textContent !== '';
  });
}

function legendLabels(page: Page, panel: string): Promise<string[]> {
  return page.$$eval(`#panel-${panel} .u-legend .u-series .u-label`, (els) => els.map((e) => e.textContent ?? ''));
}

test('a search fills the virtualised table with every page of the archive', async () => {
  const h = await open();
  try {
    await page1Search(h);
    const expected = await searchMetadata({ url: archive.url }, {}, { all: true });
    const rowcount = await h.page.getAttribute('.results', 'aria-rowcount');
    assert.equal(Number(rowcount), expected.metadata.length);
    assert.match((await h.page.textContent('#status')) ?? '', new RegExp(`^${expected.metadata.length} measurements`));
    // Virtualised: far fewer DOM rows than results when there are many.
    const domRows = await h.page.$$eval('.trows .trow', (els) => els.length);
    assert.ok(domRows > 0 && domRows <= Math.max(40, expected.metadata.length));
    // Sorting by last update (descending) puts the newest write first.
    await h.page.click('[data-col="lastUpdate"]');
    const first = await h.page.textContent('.trows .trow:first-child .tcell:nth-child(4)');
    const newest = Math.max(
      ...expected.metadata.flatMap((m) => (m['event-types'] ?? []).map((e) => Number(e['time-updated'] ?? 0))),
    );
    assert.equal(
      first,
      new Date(newest * 1000)
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d+Z$/, 'Z'),
    );
    await h.page.screenshot({ path: join(screenshotDir, 'search-table.png'), fullPage: true });
    assert.deepEqual(h.problems, []);
  } finally {
    await h.close();
  }
});

async function page1Search(h: Harness): Promise<void> {
  await search(h.page);
  await h.page.waitForSelector('.trows .trow');
}

/** Fills the form, picks a time preset, searches and selects the first result row. */
async function searchAndSelectFirst(h: Harness, fields: Record<string, string>, preset: string): Promise<void> {
  await fill(h.page, fields);
  await h.page.click(`[data-preset="${preset}"]`);
  await page1Search(h);
  await h.page.click('.trows .trow:first-child');
}

async function selectThroughput(h: Harness): Promise<void> {
  await searchAndSelectFirst(
    h,
    { source: '10.10.0.1', destination: '10.10.0.2', 'tool-name': 'pscheduler/iperf3' },
    '1w',
  );
  await h.page.waitForSelector('#panel-throughput canvas');
  // Both directions and the retransmit markers have arrived when the legend lists them.
  await h.page.waitForFunction(() => {
    const labels = [...document.querySelectorAll('#panel-throughput .u-legend .u-label')].map((e) => e.textContent);
    return (
      labels.includes('throughput (rev)') &&
      labels.includes('retransmits (fwd)') &&
      !document.querySelector('#panel-throughput.loading')
    );
  });
}

test('selecting a row draws throughput (both directions, retransmits, failures) with the data received', async () => {
  const h = await open();
  try {
    await selectThroughput(h);
    const labels = await legendLabels(h.page, 'throughput');
    assert.deepEqual(labels.slice(0, 5), [
      'time (UTC)',
      'throughput (fwd)',
      'retransmits (fwd)',
      'throughput (rev)',
      'retransmits (rev)',
    ]);
    const series = h.answered.filter(
      (m): m is { type: 'seriesResult'; id: number; result: SeriesResult; range: { start: number; end: number } } =>
        m.type === 'seriesResult',
    );
    const thr = series.filter((m) => m.result.eventType === 'throughput');
    assert.equal(thr.length, 2);
    for (const m of thr) {
      assert.ok(m.result.received > 0, 'points were received');
      assert.equal(m.result.unit, 'bps');
      assert.equal(m.result.data.kind, 'number');
    }
    const points = Number(await h.page.getAttribute('#panel-throughput', 'data-points'));
    assert.equal(
      points,
      thr.reduce((n, m) => n + m.result.data.ts.length, 0),
    );
    // Values in SI bits/s: hover the middle of the plot and read the legend.
    const over = await h.page.$('#panel-throughput .u-over');
    const box = await over?.boundingBox();
    assert.ok(box);
    await h.page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5);
    await h.page.waitForFunction(() =>
      /b\/s$/.test(
        document.querySelector('#panel-throughput .u-legend .u-series:nth-child(2) .u-value')?.textContent ?? '',
      ),
    );
    assert.match(
      (await h.page.textContent('#panel-throughput .u-legend .u-series:nth-child(2) .u-value')) ?? '',
      /^\d+(\.\d+)? [GM]b\/s$/,
    );
    // The 1w range asks for 1-hour summaries (the graphs' rule); throughput has only a daily average, so base data
    // is read rather than a sum of rates; retransmits (a count) use their hourly aggregation.
    assert.ok(
      thr.every(
        (m) =>
          m.result.summaryType === 'base' &&
          m.result.windowReason === 'auto: 3600 s window for this range; no such summary, base data read',
      ),
      JSON.stringify(thr.map((m) => m.result.windowReason)),
    );
    const rtx = series.filter((m) => m.result.eventType === 'packet-retransmits');
    assert.ok(rtx.length === 2 && rtx.every((m) => m.result.summaryType === 'aggregation' && m.result.window === 3600));
    await h.page.screenshot({ path: join(screenshotDir, 'throughput-chart.png'), fullPage: true });
    // Overriding the window to base re-plots with base data.
    await h.page.selectOption('#summary-window', '0');
    await h.page.waitForFunction(() =>
      /forward: base/.test(document.querySelector('#panel-throughput .note')?.textContent ?? ''),
    );
    assert.deepEqual(h.problems, []);
  } finally {
    await h.close();
  }
});

test('latency shows min, median, mean and p95 from histograms; traces show hops and path changes', async () => {
  const h = await open();
  try {
    await searchAndSelectFirst(h, { 'tool-name': 'pscheduler/powstream', source: '10.10.0.1' }, '1d');
    await h.page.waitForFunction(() =>
      [...document.querySelectorAll('#panel-latency .u-legend .u-label')].some((e) => e.textContent === 'p95 (fwd)'),
    );
    const labels = await legendLabels(h.page, 'latency');
    for (const l of ['min (fwd)', 'median (fwd)', 'mean (fwd)', 'p95 (fwd)'])
      assert.ok(labels.includes(l), `${l} in ${labels.join(', ')}`);
    await h.page.waitForSelector('#panel-loss canvas');
    await h.page.screenshot({ path: join(screenshotDir, 'latency-chart.png'), fullPage: true });

    await searchAndSelectFirst(h, { 'tool-name': 'pscheduler/traceroute' }, '1w');
    await h.page.waitForSelector('#panel-trace table.hops tbody tr');
    const hops = await h.page.$$eval('#panel-trace table.hops tbody tr', (els) => els.length);
    assert.ok(hops >= 2, `hop rows: ${hops}`);
    const heading = await h.page.textContent('#panel-trace h4');
    assert.match(heading ?? '', /\d+ runs, [2-9]\d* distinct paths/, 'the generated traces change path');
    await h.page.screenshot({ path: join(screenshotDir, 'trace.png'), fullPage: true });
    assert.deepEqual(h.problems, []);
  } finally {
    await h.close();
  }
});

test("failures show the archive's error text inline, never a blank view", async () => {
  const cases: [string, RegExp][] = [
    [archive.faultUrl('500-json'), /HTTP 500 .*Cassandra timeout/],
    [archive.faultUrl('500-html'), /HTTP 500 .*non-JSON body/],
    [archive.faultUrl('malformed-json'), /not JSON/],
    ['http://127.0.0.1:9/esmond/perfsonar/archive/', /connection refused/],
  ];
  for (const [url, re] of cases) {
    const h = await startHarness({ browser, archives: [{ name: 'broken', url }] });
    try {
      await search(h.page);
      const text = await h.page.textContent('#status');
      assert.match(text ?? '', re);
      assert.ok(await h.page.$eval('#status', (e) => e.classList.contains('error')));
      if (url.includes('500-json'))
        await h.page.screenshot({ path: join(screenshotDir, 'error-500.png'), fullPage: true });
    } finally {
      await h.close();
    }
  }
  // A series request failing after a good search shows its error in the chart panel.
  const h = await open();
  try {
    await fill(h.page, { source: '10.10.0.1', destination: '10.10.0.2', 'tool-name': 'pscheduler/iperf3' });
    await page1Search(h);
    archive.setFault('500-json');
    await h.page.click('.trows .trow:first-child');
    await h.page.waitForSelector('#panel-throughput.has-error');
    assert.match(
      (await h.page.textContent('#panel-throughput .status')) ?? '',
      /forward throughput: HTTP 500 .*Cassandra timeout/,
    );
    await h.page.screenshot({ path: join(screenshotDir, 'error-series.png'), fullPage: true });
  } finally {
    archive.setFault(undefined);
    await h.close();
  }
});

test('state is restored: form, range, window and selection come back and the chart is re-fetched', async () => {
  const h = await open();
  let saved: ExplorerState;
  try {
    await selectThroughput(h);
    saved = h.state() as ExplorerState;
    assert.equal(saved.form.source, '10.10.0.1');
    assert.deepEqual(saved.time, { preset: '1w' });
    assert.ok(saved.selectedKey);
  } finally {
    await h.close();
  }
  const h2 = await open({ initialState: saved });
  try {
    await h2.page.waitForSelector('#panel-throughput canvas');
    assert.equal(await h2.page.inputValue('#source'), '10.10.0.1');
    assert.equal(await h2.page.inputValue('#tool-name'), 'pscheduler/iperf3');
    assert.equal(await h2.page.getAttribute('[data-preset="1w"]', 'aria-checked'), 'true');
    assert.equal(await h2.page.getAttribute('.trows .trow.selected', 'data-key'), saved.selectedKey);
  } finally {
    await h2.close();
  }
});

test('export produces CSV (and JSON) of what is shown', async () => {
  const h = await open();
  try {
    await selectThroughput(h);
    await h.page.click('#export-csv');
    await h.page.waitForFunction(() => /Exported \d+ bytes/.test(document.getElementById('status')?.textContent ?? ''));
    assert.equal(h.saved.length, 1);
    const csv = h.saved[0].text.trim().split('\n');
    assert.equal(
      csv[0],
      'direction,source,destination,event_type,summary_type,summary_window,unit,ts,time_utc,field,value',
    );
    const thr = csv.filter((l) => l.includes(',throughput,'));
    assert.ok(thr.some((l) => l.startsWith('forward,10.10.0.1,10.10.0.2,throughput,')));
    assert.ok(thr.some((l) => l.startsWith('reverse,10.10.0.2,10.10.0.1,throughput,')));
    assert.match(h.saved[0].name, /\.csv$/);
    await h.page.click('#export-json');
    await h.page.waitForFunction(
      () => (window as unknown as { explorerMetrics: { exports: number } }).explorerMetrics.exports === 2,
    );
    const json = JSON.parse(h.saved[1].text) as { series: { 'event-type': string; points: unknown[] }[] };
    assert.ok(json.series.some((s) => s['event-type'] === 'throughput' && s.points.length > 0));
  } finally {
    await h.close();
  }
});

test('zoom is shared by every chart and reset returns to the range; the page loads nothing remote', async () => {
  const h = await open();
  try {
    await searchAndSelectFirst(h, { 'tool-name': 'pscheduler/powstream', source: '10.10.0.1' }, '1d');
    await h.page.waitForSelector('#panel-latency canvas');
    await h.page.waitForSelector('#panel-loss canvas');
    const xr = (): Promise<[number, number][]> => h.page.evaluate(() => window.explorerXRanges() as [number, number][]);
    await h.page.waitForFunction(() => !document.querySelector('.chart-box.loading'));
    const before = await xr();
    assert.ok(before.length >= 2);
    const box = await (await h.page.$('#panel-loss .u-over'))?.boundingBox();
    assert.ok(box);
    await h.page.mouse.move(box.x + box.width * 0.3, box.y + box.height / 2);
    await h.page.mouse.down();
    await h.page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2, { steps: 5 });
    await h.page.mouse.up();
    await h.page.waitForFunction(
      (w0) => window.explorerXRanges().every(([a, b]) => a !== undefined && b !== undefined && b - a < w0 * 0.5),
      before[0][1] - before[0][0],
    );
    // The zoomed span (~7 h) calls for base data: the latency chart is re-read from statistics/0, and the loss
    // chart from base, for that span only (perfSONAR's window rule applied to what is on screen).
    await h.page.waitForFunction(() =>
      /^forward: statistics base \(auto: base data for this range\)/.test(
        document.querySelector('#panel-latency .note')?.textContent ?? '',
      ),
    );
    await h.page.waitForFunction(() =>
      /^forward: base/.test(document.querySelector('#panel-loss .note')?.textContent ?? ''),
    );
    const zoomed = await xr();
    assert.ok(
      zoomed.every(([a, b]) => a === zoomed[0][0] && b === zoomed[0][1]),
      'every chart shows the same zoomed range',
    );
    // Wheel zoom (out) around the cursor widens the range.
    await h.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await h.page.mouse.wheel(0, 100);
    await h.page.waitForFunction(
      (w) => window.explorerXRanges().every(([a, b]) => (b ?? 0) - (a ?? 0) > w),
      zoomed[0][1] - zoomed[0][0],
    );
    // Reset re-reads the searched range (1d) at its own window (5 min).
    await h.page.click('#reset-zoom');
    await h.page.waitForFunction(
      () =>
        window.explorerXRanges().every(([a, b]) => (b ?? 0) - (a ?? 0) === 86400) &&
        /^forward: statistics 5 min/.test(document.querySelector('#panel-latency .note')?.textContent ?? ''),
    );
    // Keyboard: ↓ in the table selects the next row (here: none after the only one, so the same row stays).
    await h.page.focus('.tbody');
    await h.page.keyboard.press('Home');
    assert.equal(await h.page.getAttribute('.trows .trow.selected', 'aria-rowindex'), '2');
    assert.ok(
      h.requested.every((u) => u.startsWith(h.origin)),
      h.requested.filter((u) => !u.startsWith(h.origin)).join(', '),
    );
    assert.deepEqual(h.problems, []);
  } finally {
    await h.close();
  }
});

test('subintervals and per-stream data of one test; the VS Code theme colours the charts', async () => {
  const h = await open();
  try {
    await selectThroughput(h);
    await h.page.click('#section-tests > summary');
    await h.page.waitForSelector('#panel-tests .subintervals canvas');
    const labels = await h.page.$$eval('#panel-tests .u-legend .u-label', (els) => els.map((e) => e.textContent));
    assert.deepEqual(labels, ['offset (s)', 'total', 'stream 0', 'stream 1']);
    const streams = await h.page.$$eval('#panel-tests table.streams tbody tr', (els) => els.map((e) => e.textContent));
    assert.equal(streams.length, 2);
    assert.match(streams[0] ?? '', /^stream 0.*b\/s/);
    await h.page.screenshot({ path: join(screenshotDir, 'subintervals.png'), fullPage: true });
    // A theme switch (VS Code sets body class and --vscode-* variables) re-reads the palette.
    await h.page.evaluate(() => {
      const root = document.documentElement.style; // where VS Code puts its theme variables
      root.setProperty('--vscode-charts-blue', 'rgb(255, 0, 255)');
      root.setProperty('--vscode-charts-green', '#89d185');
      root.setProperty('--vscode-sideBar-background', '#1e1e1e');
      root.setProperty('--vscode-foreground', '#cccccc');
      root.setProperty('--vscode-descriptionForeground', '#9d9d9d');
      root.setProperty('--vscode-input-background', '#3c3c3c');
      root.setProperty('--vscode-input-foreground', '#cccccc');
      root.setProperty('--vscode-button-secondaryBackground', '#3a3d41');
      root.setProperty('--vscode-button-secondaryForeground', '#cccccc');
      document.body.className = 'vscode-dark';
    });
    await h.page.waitForFunction(() => {
      const m = document.querySelector<HTMLElement>('#panel-throughput .u-legend .u-series:nth-child(2) .u-marker');
      return !!m && getComputedStyle(m).borderColor === 'rgb(255, 0, 255)';
    });
    await h.page.screenshot({ path: join(screenshotDir, 'dark-theme.png'), fullPage: true });
    assert.deepEqual(h.problems, []);
  } finally {
    await h.close();
  }
});

test('openArchiveExplorer prefill (code lens): fills source and destination and runs the search', async () => {
  const h = await open();
  try {
    await h.page.waitForFunction(() => document.getElementById('archive') !== null);
    h.host.prefill({ url: archive.url, source: '10.10.0.2', destination: '10.10.0.1', run: true });
    await h.page.waitForSelector('.trows .trow');
    assert.equal(await h.page.inputValue('#source'), '10.10.0.2');
    assert.equal(await h.page.inputValue('#destination'), '10.10.0.1');
    const pairs = await h.page.$$eval('.trows .trow .tcell:first-child', (els) => els.map((e) => e.textContent));
    assert.ok(pairs.length >= 3 && pairs.every((p) => p === '10.10.0.2 → 10.10.0.1'), pairs.join(' | '));
  } finally {
    await h.close();
  }
});

test('a narrow sidebar (360 px) still shows the table and charts without horizontal overflow', async () => {
  const h = await open({ viewport: { width: 360, height: 1300 } });
  try {
    await selectThroughput(h);
    const overflow = await h.page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    assert.ok(overflow <= 0, `horizontal overflow ${overflow}px`);
    const canvasWidth = await h.page.$eval('#panel-throughput canvas', (c) => c.getBoundingClientRect().width);
    assert.ok(canvasWidth > 200 && canvasWidth <= 360, `canvas ${canvasWidth}px`);
    await h.page.screenshot({ path: join(screenshotDir, 'narrow-sidebar.png'), fullPage: true });
  } finally {
    await h.close();
  }
});

test('unreadable points in a series are skipped and counted; the chart still draws the rest', async () => {
  const now = Math.floor(Date.now() / 1000);
  const { record } = archive.store.register({
    'subject-type': 'point-to-point',
    source: '10.20.0.1',
    destination: '10.20.0.2',
    'measurement-agent': '10.20.0.1',
    'input-source': 'odd-a',
    'input-destination': 'odd-b',
    'tool-name': 'test/malformed',
    'event-types': [{ 'event-type': 'throughput', summaries: [] }],
  });
  const row = record.events.get('throughput');
  assert.ok(row);
  // Written behind the server's validation, as a misbehaving archive would return them.
  const values: unknown[] = [9.4e9, '9.3e9', 'fast', null, { bits: 1 }, 9.1e9];
  values.forEach((v, i) => row.base.set(now - 3000 + i * 300, v));
  row.timeUpdated = now;
  const h = await open();
  try {
    await searchAndSelectFirst(h, { 'tool-name': 'test/malformed' }, '1h');
    await h.page.waitForFunction(() =>
      /3 unreadable points skipped/.test(document.querySelector('#panel-throughput .note')?.textContent ?? ''),
    );
    assert.equal(await h.page.getAttribute('#panel-throughput', 'data-points'), '3');
    assert.ok(await h.page.$('#panel-throughput canvas'));
  } finally {
    await h.close();
  }
});
