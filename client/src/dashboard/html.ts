// The dashboard webview's HTML: the explorer's page (its Content-Security-Policy: nothing remote, scripts only with
// this page's nonce, no network from the page) with the dashboard bundle. Pure: the panel passes VS Code webview
// URIs, the test harness its local server's URLs.
import { buildPageHtml } from '../explorer/html';

export interface DashboardHtmlOptions {
  /** URI of dist/webview/dashboard.js as the webview can load it. */
  scriptUri: string;
  styleUri: string;
  cspSource: string;
  title: string;
  nonce?: string;
}

export function buildDashboardHtml(opts: DashboardHtmlOptions): string {
  return buildPageHtml({ ...opts, styleUris: [opts.styleUri], what: 'the dashboard' });
}
