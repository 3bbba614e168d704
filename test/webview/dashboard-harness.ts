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
import { openPanelPage, postToPage, serveWebview } from './harness';

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
  /** Resolves once the dashboard has asked for the explorer (at once if it already has). */
  firstOpened(): Promise<void>;
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
  let openedNow: () => void = () => undefined;
  const openedOnce = new Promise<void>((r) => (openedNow = r));
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
      postToPage(page, msg, problems);
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
      openedNow();
    },
    timeoutMs: 5000,
    now: opts.now,
  });

  await openPanelPage<DashboardToHost>(
    page,
    origin,
    (msg) => {
      posted.push(msg);
      void host.handle(msg);
    },
    problems,
    requested,
  );
  return {
    page,
    host,
    posted,
    answered,
    opened,
    firstOpened: () => openedOnce,
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
