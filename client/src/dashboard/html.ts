// The dashboard webview's HTML: the explorer's Content-Security-Policy (nothing remote, scripts only with this
// page's nonce, no network from the page) and the dashboard bundle. Pure: the panel passes VS Code webview URIs,
// the test harness its local server's URLs.
import { explorerCsp, makeNonce } from '../explorer/html';

export interface DashboardHtmlOptions {
  /** URI of dist/webview/dashboard.js as the webview can load it. */
  scriptUri: string;
  styleUri: string;
  cspSource: string;
  title: string;
  nonce?: string;
}

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function buildDashboardHtml(opts: DashboardHtmlOptions): string {
  const nonce = opts.nonce ?? makeNonce();
  if (!/^[A-Za-z0-9+/=]{16,}$/.test(nonce)) throw new Error('nonce must be at least 16 base64 characters');
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="UTF-8">
  <meta http-equiv="Content-Security-Policy" content="${escape(explorerCsp(opts.cspSource, nonce))}">
  <meta name="viewport" content="width=device-width, initial-scale=1.0">
  <link rel="stylesheet" href="${escape(opts.styleUri)}">
  <title>${escape(opts.title)}</title>
</head>
<body>
  <main id="app" aria-live="polite"><p class="boot">Loading the dashboard…</p></main>
  <noscript><p class="boot">The dashboard needs scripts enabled in this webview.</p></noscript>
  <script nonce="${nonce}" src="${escape(opts.scriptUri)}"></script>
</body>
</html>
`;
}
