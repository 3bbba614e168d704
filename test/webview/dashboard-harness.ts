// Runs the dashboard webview in headless Chromium outside VS Code, as harness.ts does for the explorer: the page
// from html.ts and dist/webview/dashboard.*, a fake `acquireVsCodeApi` posting to the real pure host
// (client/src/dashboard/host.ts) in this process, whose answers come back as window 'message' events. The grids
// come from the real expansion engine; clicks that would open the explorer are recorded.
import type { Browser, Page } from 'playwright-core';
import type { DashboardPairsResult, OpenArchiveExplorerArgs } from '../../common/protocol';
import { buildDashboardHtml } from '../../client/src/dashboard/html';
import { createDashboardHost, type DashboardDefaults, type DashboardHost } from '../../client/src/dashboard/host';
import type { DashboardToHost, HostToDashboard } from '../../client/src/dashboard/messages';
import { dashboardPairsOf } from '../../server/src/template/expand/dashboard-pairs';
import { expandText } from '../../server/src/template/expand/from-text';
import { serveWebview } from './harness';

export interface DashboardHarnessOptions {
  browser: Browser;
  /** Template text (its archive URLs already pointing where the test wants). */
  template: string;
  archives?: { name: string; url: string }[];
  defaults?: Partial<DashboardDefaults>;
  viewport?: { width: number; height: number };
  now?: () => number;
  /** Where the grids come from (default: the engine on `template` in this process; the bench asks a server). */
  pairs?: () => Promise<DashboardPairsResult>;
}

export interface DashboardHarness {
  page: Page;
  host: DashboardHost;
  posted: DashboardToHost[];
  answered: HostToDashboard[];
  /** Every openArchiveExplorer the dashboard asked for. */
  opened: OpenArchiveExplorerArgs[];
  problems: string[];
  requested: string[];
  /** Resolves when the host has answered `n` refreshes in total. */
  refreshes(n: number): Promise<void>;
  close(): Promise<void>;
}

export async function pairsOfText(text: string): Promise<DashboardPairsResult> {
  const result = await expandText({ uri: 'file:///dashboard.psconfig.json', version: null, text });
  return dashboardPairsOf(result, JSON.parse(text) as unknown, undefined);
}

export async function startDashboardHarness(opts: DashboardHarnessOptions): Promise<DashboardHarness> {
  const { server, origin } = await serveWebview((o) =>
    buildDashboardHtml({
      scriptUri: `${o}/dist/webview/dashboard.js`,
      styleUri: `${o}/dist/webview/dashboard.css`,
      cspSource: o,
      title: 'Dashboard',
    }),
  );
  const context = await opts.browser.newContext({ viewport: opts.viewport ?? { width: 1200, height: 1000 } });
  context.setDefaultTimeout(90000);
  const page = await context.newPage();
  const posted: DashboardToHost[] = [];
  const answered: HostToDashboard[] = [];
  const opened: OpenArchiveExplorerArgs[] = [];
  const problems: string[] = [];
  const requested: string[] = [];
  let done = 0;
  const waiters: { n: number; resolve: () => void }[] = [];

  const host = createDashboardHost({
    post: (msg) => {
      answered.push(msg);
      if (msg.type === 'status' && !msg.refreshing) {
        done++;
        for (const w of waiters.filter((x) => done >= x.n)) w.resolve();
      }
      const text = JSON.stringify(msg);
      page
        .evaluate((t) => window.dispatchEvent(new MessageEvent('message', { data: JSON.parse(t) as unknown })), text)
        .catch((e: unknown) => {
          if (!page.isClosed()) problems.push(`delivering ${msg.type}: ${String(e)}`);
        });
    },
    pairs: opts.pairs ?? (() => pairsOfText(opts.template)),
    template: 'dashboard.psconfig.json',
    defaults: () => ({
      thresholds: {},
      window: 'auto',
      autoRefreshSeconds: 0,
      maxReads: 40000,
      archive: '',
      ...opts.defaults,
    }),
    archives: () => opts.archives ?? [],
    credentials: async () => ({ tokenOnReads: false }),
    openExplorer: (args) => {
      opened.push(args);
    },
    timeoutMs: 5000,
    now: opts.now,
  });

  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('request', (r) => requested.push(r.url()));
  await page.exposeFunction('__psconfigHostPost', (msg: DashboardToHost) => {
    posted.push(msg);
    void host.handle(msg);
  });
  await page.exposeFunction('__psconfigCsp', (what: string) => problems.push(`csp: ${what}`));
  await page.addInitScript(() => {
    type W = Window & {
      __psconfigHostPost(m: unknown): void;
      __psconfigCsp(s: string): void;
      acquireVsCodeApi?: () => unknown;
    };
    const w = window as unknown as W;
    let st: unknown = null;
    w.acquireVsCodeApi = () => ({
      postMessage: (m: unknown) => w.__psconfigHostPost(m),
      getState: () => st,
      setState: (s: unknown) => (st = s),
    });
    document.addEventListener('securitypolicyviolation', (e) =>
      w.__psconfigCsp(`${e.violatedDirective} blocked ${e.blockedURI}`),
    );
  });
  await page.goto(`${origin}/`);
  return {
    page,
    host,
    posted,
    answered,
    opened,
    problems,
    requested,
    refreshes: (n) => (done >= n ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ n, resolve }))),
    close: async () => {
      host.dispose();
      await context.close();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
