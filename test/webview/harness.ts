// Runs the explorer webview in headless Chromium outside VS Code: a local node:http server serves the same HTML
// html.ts builds for VS Code (with this server's origin as the CSP source) and dist/webview/*; a fake
// `acquireVsCodeApi` posts to the real pure host (host.ts) in this Node process via page.exposeFunction, and the
// host's answers come back as window 'message' events — as VS Code delivers them.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve, extname } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { buildExplorerHtml } from '../../client/src/explorer/html';
import { createExplorerHost, type ExplorerHost, type ExplorerHostDeps } from '../../client/src/explorer/host';
import type { ArchiveEntry, HostToWebview, WebviewToHost } from '../../client/src/explorer/messages';

/** out/test/webview → repository root. */
export const repoRoot = resolve(__dirname, '..', '..', '..');
export const screenshotDir = join(repoRoot, 'test-results', 'webview');

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function launchChromium(): Promise<Browser> {
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(executablePath))
    throw new Error(`Chromium not found at ${executablePath}: apt-get install chromium (or set CHROMIUM_PATH)`);
  return chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true });
}

const TYPES: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.map': 'application/json' };

/** Serves the page and dist/webview; returns its origin. */
export async function serveWebview(html: (origin: string) => string): Promise<{ server: Server; origin: string }> {
  const dist = join(repoRoot, 'dist', 'webview');
  let origin = '';
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (path === '/favicon.ico') return void res.writeHead(204).end();
    if (path === '/' || path === '/index.html') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return void res.end(html(origin));
    }
    const m = /^\/dist\/webview\/([\w.-]+)$/.exec(path);
    const file = m ? join(dist, m[1]) : '';
    if (!m || !existsSync(file)) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      return void res.end('not found');
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { server, origin };
}

export interface HarnessOptions {
  browser: Browser;
  archives: ArchiveEntry[];
  /** What `getState()` returns at start (a restored view). */
  initialState?: unknown;
  credentials?: ExplorerHostDeps['credentials'];
  viewport?: { width: number; height: number };
  pageSize?: number;
  timeoutMs?: number;
}

export interface Harness {
  page: Page;
  host: ExplorerHost;
  origin: string;
  /** Every message the webview posted, in order. */
  posted: WebviewToHost[];
  /** Every message the host answered. */
  answered: HostToWebview[];
  /** Exports the host "saved" (the harness keeps the text instead of showing a save dialog). */
  saved: { name: string; text: string; format: 'csv' | 'json' }[];
  /** Last state the webview stored with setState. */
  state(): unknown;
  /** Console errors, page errors and CSP violations seen so far. */
  problems: string[];
  /** Every URL the page requested (the explorer must fetch nothing but its own files). */
  requested: string[];
  /** Host → page message deliveries (type, milliseconds until dispatched in the page, JSON size). */
  deliveries: { type: string; ms: number; bytes: number }[];
  close(): Promise<void>;
}

export async function startHarness(opts: HarnessOptions): Promise<Harness> {
  const { server, origin } = await serveWebview((o) =>
    buildExplorerHtml({
      scriptUri: `${o}/dist/webview/explorer.js`,
      styleUris: [`${o}/dist/webview/uPlot.min.css`, `${o}/dist/webview/explorer.css`],
      cspSource: o,
    }),
  );
  const context = await opts.browser.newContext({ viewport: opts.viewport ?? { width: 900, height: 1400 } });
  // Generous: the machines these run on may be busy; every wait is on an event or a condition, never a sleep.
  context.setDefaultTimeout(90000);
  const page = await context.newPage();
  const posted: WebviewToHost[] = [];
  const answered: HostToWebview[] = [];
  const saved: Harness['saved'] = [];
  const problems: string[] = [];
  const deliveries: Harness['deliveries'] = [];
  let state: unknown = opts.initialState;

  const host = createExplorerHost({
    post: (msg) => {
      answered.push(msg);
      // Sent as one JSON string (as VS Code serialises webview messages): Playwright's per-value serialisation of
      // a 100,000-point message would otherwise dominate every timing.
      const text = JSON.stringify(msg);
      const t0 = performance.now();
      page
        .evaluate((t) => window.dispatchEvent(new MessageEvent('message', { data: JSON.parse(t) as unknown })), text)
        .then(
          () => {
            deliveries.push({ type: msg.type, ms: performance.now() - t0, bytes: text.length });
          },
          (e: unknown) => {
            if (!page.isClosed()) problems.push(`delivering ${msg.type}: ${String(e)}`);
          },
        );
    },
    archives: () => opts.archives,
    credentials: opts.credentials ?? (async () => ({ tokenOnReads: false })),
    save: async (name, text, format) => {
      saved.push({ name, text, format });
      return { text };
    },
    timeoutMs: opts.timeoutMs ?? 5000,
    pageSize: opts.pageSize,
  });

  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  const requested: string[] = [];
  page.on('request', (r) => requested.push(r.url()));
  await page.exposeFunction('__psconfigHostPost', (msg: WebviewToHost) => {
    posted.push(msg);
    void host.handle(msg);
  });
  await page.exposeFunction('__psconfigSetState', (s: unknown) => {
    state = s;
  });
  await page.exposeFunction('__psconfigCsp', (what: string) => problems.push(`csp: ${what}`));
  await page.addInitScript((initial: unknown) => {
    type W = Window & {
      __psconfigHostPost(m: unknown): void;
      __psconfigSetState(s: unknown): void;
      __psconfigCsp(s: string): void;
      acquireVsCodeApi?: () => unknown;
    };
    const w = window as unknown as W;
    let st = initial;
    w.acquireVsCodeApi = () => ({
      postMessage: (m: unknown) => w.__psconfigHostPost(m),
      getState: () => st,
      setState: (s: unknown) => {
        st = s;
        w.__psconfigSetState(s);
      },
    });
    document.addEventListener('securitypolicyviolation', (e) =>
      w.__psconfigCsp(`${e.violatedDirective} blocked ${e.blockedURI}`),
    );
  }, opts.initialState ?? null);
  await page.goto(`${origin}/`);

  return {
    page,
    host,
    origin,
    posted,
    answered,
    saved,
    problems,
    deliveries,
    requested,
    state: () => state,
    close: async () => {
      await context.close();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/**
 * Opens a panel's page (the dashboard, the host timeline) with a fake `acquireVsCodeApi` whose `postMessage` calls
 * `onPost` in this process; console errors, page errors and CSP violations go to `problems`, every URL the page
 * requests to `requested`.
 */
export async function openPanelPage<ToHost>(
  page: Page,
  origin: string,
  onPost: (msg: ToHost) => void,
  problems: string[],
  requested: string[],
): Promise<void> {
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('request', (r) => requested.push(r.url()));
  await page.exposeFunction('__psconfigHostPost', onPost);
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
}

/** Delivers a host message to the page as VS Code does (a window 'message' event), sent as one JSON string. */
export function postToPage(page: Page, msg: { type: string }, problems: string[]): void {
  const text = JSON.stringify(msg);
  page
    .evaluate((t) => window.dispatchEvent(new MessageEvent('message', { data: JSON.parse(t) as unknown })), text)
    .catch((e: unknown) => {
      if (!page.isClosed()) problems.push(`delivering ${msg.type}: ${String(e)}`);
    });
}
