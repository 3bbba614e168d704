// Runs the host timeline webview in headless Chromium outside VS Code, as dashboard-harness.ts does for the
// dashboard: the page from html.ts and dist/webview/schedule.*, a fake `acquireVsCodeApi` posting to the real pure
// host (client/src/schedule/host.ts) in this process, whose answers come back as window 'message' events. The
// report is whatever the test loads; runs the page asks to open in the template are recorded.
import type { Browser, Page } from 'playwright-core';
import { buildTimelineHtml } from '../../client/src/schedule/html';
import { createScheduleHost, type ScheduleHost, type TimelineSource } from '../../client/src/schedule/host';
import type { TimelineObserved } from '../../client/src/schedule/timeline-observed';
import type { HostToTimeline, TimelineFocus, TimelineToHost } from '../../client/src/schedule/messages';
import { openPanelPage, postToPage, serveWebview } from './harness';

export interface TimelineHarnessOptions {
  browser: Browser;
  load: () => Promise<TimelineSource>;
  focus?: TimelineFocus;
  viewport?: { width: number; height: number };
  title?: string;
  /** The hosts read (as the panel's `observed` gives them), added to every load's source. */
  observed?: TimelineObserved;
}

export interface TimelineHarness {
  page: Page;
  host: ScheduleHost;
  posted: TimelineToHost[];
  answered: HostToTimeline[];
  opened: { task: string; addresses: string[] }[];
  /** Resolves once the host has been asked to open a task (at once if it already was). */
  firstOpened(): Promise<void>;
  problems: string[];
  requested: string[];
  /** Resolves when the page has drawn `n` loads in total. */
  loads(n: number): Promise<void>;
  close(): Promise<void>;
}

export async function startTimelineHarness(opts: TimelineHarnessOptions): Promise<TimelineHarness> {
  const { server, origin } = await serveWebview((o) =>
    buildTimelineHtml({
      scriptUri: `${o}/dist/webview/schedule.js`,
      styleUri: `${o}/dist/webview/schedule.css`,
      cspSource: o,
      title: 'Host timeline',
    }),
  );
  const context = await opts.browser.newContext({ viewport: opts.viewport ?? { width: 1200, height: 900 } });
  context.setDefaultTimeout(90000);
  const page = await context.newPage();
  const posted: TimelineToHost[] = [];
  const answered: HostToTimeline[] = [];
  const opened: TimelineHarness['opened'] = [];
  let openedNow: () => void = () => undefined;
  const openedOnce = new Promise<void>((r) => (openedNow = r));
  const problems: string[] = [];
  const requested: string[] = [];

  const host = createScheduleHost({
    post: (msg) => {
      answered.push(msg);
      postToPage(page, msg, problems);
    },
    load: opts.observed ? async () => ({ ...(await opts.load()), observed: opts.observed }) : opts.load,
    title: opts.title ?? 'schedule.psconfig.json',
    focus: opts.focus,
    open: (task, addresses) => {
      opened.push({ task, addresses });
      openedNow();
    },
    log: (level, text) => {
      if (level === 'error') problems.push(`host log: ${text}`);
    },
  });

  await openPanelPage<TimelineToHost>(
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
    loads: (n) => page.waitForFunction((k) => window.timelineMetrics.loads >= k, n).then(() => undefined),
    close: async () => {
      host.dispose();
      await context.close();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
