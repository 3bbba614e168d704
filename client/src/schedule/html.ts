// The host timeline webview's HTML: the explorer's page (its Content-Security-Policy: nothing remote, scripts only
// with this page's nonce, no network from the page) with the timeline bundle. Pure: the panel passes VS Code
// webview URIs, the test harness its local server's URLs.
import { buildPageHtml } from '../explorer/html';

export interface TimelineHtmlOptions {
  /** URI of dist/webview/schedule.js as the webview can load it. */
  scriptUri: string;
  styleUri: string;
  cspSource: string;
  title: string;
  nonce?: string;
}

export function buildTimelineHtml(opts: TimelineHtmlOptions): string {
  return buildPageHtml({ ...opts, styleUris: [opts.styleUri], what: 'the schedule timeline' });
}
