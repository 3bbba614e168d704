// The mesh dashboard on a 200-address mesh (39,800 configured directions) against the local archive holding a
// measurement for every pair (seed-mesh.ts, throughput): from "open the dashboard" to the grid drawn in Chromium,
// with the grids asked of the real language server (psconfig/dashboardPairs over LSP, from its worker's expansion)
// and the real host reading the archive; then every value read; then a refresh with nothing new. Requests are
// counted by the archive itself. Baseline measured in the same run: one metadata search of the same archive (all
// pages), the request the dashboard cannot do without.
import { pathToFileURL } from 'node:url';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { join } from 'node:path';
import type { DashboardPairsResult } from '../common/protocol';
import { DashboardPairsRequest } from '../common/protocol';
import { searchMetadata } from '../archive-client/search';
import { closeArchiveConnections } from '../archive-client/http';
import { startArchiveServer } from '../test/archive/server/server';
import { meshHost } from '../test/archive/server/seed-mesh';
import { LspClient } from '../test/lsp/lsp-client';
import { launchChromium } from '../test/webview/harness';
import { startDashboardHarness } from '../test/webview/dashboard-harness';

const HOSTS = Number(process.env.DASHBOARD_BENCH_HOSTS ?? 200);
const fmt = (ms: number): string => (ms >= 10000 ? `${(ms / 1000).toFixed(1)} s` : `${ms.toFixed(0)} ms`);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

export async function run(): Promise<void> {
  const t0 = performance.now();
  const archive = await startArchiveServer({
    seed: { fixtures: false, generated: false, mesh: { hosts: HOSTS, tests: ['throughput'] } },
  });
  const seeded = performance.now() - t0;
  const names = Array.from({ length: HOSTS }, (_, i) => meshHost(i).name);
  const template = JSON.stringify({
    archives: { central: { archiver: 'esmond', data: { url: archive.url } } },
    addresses: Object.fromEntries(names.map((n) => [n, { address: n }])),
    groups: { all: { type: 'mesh', addresses: names.map((name) => ({ name })) } },
    tests: { tput: { type: 'throughput', spec: { source: '{% address[0] %}', dest: '{% address[1] %}' } } },
    tasks: { 'mesh-throughput': { group: 'all', test: 'tput', archives: ['central'] } },
  });
  const dir = mkdtempSync(join(tmpdir(), 'psconfig-dashboard-bench-'));
  const file = join(dir, 'mesh.psconfig.json');
  writeFileSync(file, template);
  const uri = pathToFileURL(file).toString();
  console.log(
    `${HOSTS} addresses, ${archive.seed.records} measurements in the archive (seeded in ${fmt(seeded)}); load average ${loadavg()[0].toFixed(1)}`,
  );

  // Baseline: one metadata search, every page, as the dashboard asks it.
  const searches: number[] = [];
  let pages = 0;
  let found = 0;
  for (let i = 0; i < 3; i++) {
    const s0 = performance.now();
    const r = await searchMetadata({ url: archive.url }, { 'event-type': 'throughput' }, { all: true, pageSize: 5000 });
    searches.push(performance.now() - s0);
    pages = r.pages;
    found = r.metadata.length;
  }
  const search = median(searches);
  console.log(
    `baseline: one metadata search (${found} metadata, ${pages} pages of 5,000): ${fmt(search)} (median of 3)`,
  );

  const lsp = await LspClient.start();
  const browser = await launchChromium();
  try {
    await lsp.open(uri, template);
    let pairsMs = 0;
    let pairsBytes = 0;
    const pairs = async (): Promise<DashboardPairsResult> => {
      const p0 = performance.now();
      const r = await lsp.connection.sendRequest<DashboardPairsResult>(DashboardPairsRequest.method, { uri });
      pairsMs = performance.now() - p0;
      pairsBytes = JSON.stringify(r).length;
      return r;
    };
    const before = archive.requestCount();
    const start = performance.now();
    const h = await startDashboardHarness({ browser, template, pairs, viewport: { width: 1100, height: 1300 } });
    try {
      await h.page.waitForFunction(() => window.dashboardMetrics.grids > 0, undefined, { timeout: 600_000 });
      const drawn = performance.now() - start;
      const atDraw = archive.requestCount() - before;
      const drawMs = await h.page.evaluate(() => window.dashboardMetrics.drawMs);
      await h.refreshes(1);
      const all = performance.now() - start;
      const first = h.host.session()!;
      const requests = archive.requestCount() - before;
      const states: Record<string, number> = {};
      for (const r of first.results[0]) states[r.state] = (states[r.state] ?? 0) + 1;
      console.log(
        `grids over LSP (psconfig/dashboardPairs, ${first.grids[0].directions.length} directions, ${(pairsBytes / 1e6).toFixed(2)} MB): ${fmt(pairsMs)}`,
      );
      console.log(
        `open → grid drawn (states from the metadata): ${fmt(drawn)} = ${(drawn / search).toFixed(1)}× one search; ${atDraw} HTTP request(s) by then; canvas draw ${drawMs.toFixed(0)} ms`,
      );
      console.log(
        `open → every value read: ${fmt(all)}; ${requests} HTTP requests (${pages} search page(s) + ${requests - pages} series reads, one per measurement written in the window); states ${JSON.stringify(states)}`,
      );
      // Nothing written since: the values come from the kept samples.
      const r0 = archive.requestCount();
      const a0 = performance.now();
      const again = await h.host.refresh();
      console.log(
        `refresh with nothing new: ${fmt(performance.now() - a0)} = ${((performance.now() - a0) / search).toFixed(2)}× one search; ${archive.requestCount() - r0} HTTP request(s) (${again?.searches.map((x) => `${x.incremental ? 'incremental' : 'full'} search: ${x.metadata} metadata`).join(', ')}; ${again?.fromCache ?? 0} values from kept samples; search ${fmt(again?.searches[0]?.ms ?? 0)}, matched at ${fmt(again?.matchedMs ?? 0)})`,
      );
      // One new result in the archive: the next refresh reads that measurement alone.
      const ok = first.results[0].find((r) => r.state === 'ok' && r.key);
      const record = ok?.key ? archive.store.records.get(ok.key) : undefined;
      if (record) {
        const now = Math.floor(Date.now() / 1000);
        archive.store.write(record, 'throughput', now - 5, 9.4e9, { at: now });
        const n0 = archive.requestCount();
        const b0 = performance.now();
        const one = await h.host.refresh();
        console.log(
          `refresh after one new result: ${fmt(performance.now() - b0)}; ${archive.requestCount() - n0} HTTP request(s) (${one?.searches.map((x) => `${x.incremental ? 'incremental' : 'full'} search: ${x.metadata} metadata`).join(', ')}; ${one?.reads} series read)`,
        );
      }
      // Hover and zoom on the drawn grid.
      const at = await h.page.evaluate(() => window.dashboardTest.halfCenter(150, 30, 0));
      if (at) {
        const m0 = performance.now();
        await h.page.mouse.move(at.x, at.y);
        await h.page.waitForFunction(() => window.dashboardMetrics.hoverText !== '');
        const hover = performance.now() - m0;
        const w0 = performance.now();
        await h.page.mouse.wheel(0, -300);
        await h.page.waitForFunction(() => window.dashboardTest.visible().r1 - window.dashboardTest.visible().r0 < 200);
        const zoom = performance.now() - w0;
        const s0 = performance.now();
        await h.page.selectOption('#sort', 'worst');
        const sort = performance.now() - s0;
        console.log(
          `hover → tooltip ${fmt(hover)}; wheel zoom ${fmt(zoom)}; sort worst first ${fmt(sort)} (from Playwright)`,
        );
      }
    } finally {
      await h.close();
    }
  } finally {
    await browser.close();
    await lsp.stop();
    await closeArchiveConnections();
    await archive.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
