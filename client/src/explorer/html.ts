// The explorer webview's HTML: a strict Content-Security-Policy (nothing remote, scripts only with this page's
// nonce, no inline styles, no network from the page: the host does every fetch) and the bundled script and CSS.
// Pure: the provider passes VS Code webview URIs, the test harness passes its local server's URLs.

export interface ExplorerHtmlOptions {
  /** URI of dist/webview/explorer.js as the webview can load it. */
  scriptUri: string;
  /** URIs of the style sheets (uPlot's, then the explorer's). */
  styleUris: string[];
  /** `webview.cspSource` in VS Code; the harness's origin in tests. */
  cspSource: string;
  /** Random per page; generated when not given. */
  nonce?: string;
}

/** 32 random alphanumerics, as the VS Code webview samples use. */
export function makeNonce(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = new Uint8Array(32);
  globalThis.crypto.getRandomValues(bytes);
  let out = '';
  for (const b of bytes) out += alphabet[b % alphabet.length];
  return out;
}

function escapeAttr(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The Content-Security-Policy of the page (exported so tests can assert it). */
export function explorerCsp(cspSource: string, nonce: string): string {
  // Space-separated source expressions only; quotes are allowed because VS Code's real value is
  // `'self' https://*.vscode-cdn.net`, but `;` (a new directive) never is.
  if (!/^[\w.:/*+'-]+( [\w.:/*+'-]+)*$/.test(cspSource)) throw new Error(`unsafe cspSource: ${cspSource}`);
  return [
    "default-src 'none'",
    `style-src ${cspSource}`,
    `img-src ${cspSource} data:`,
    `font-src ${cspSource}`,
    `script-src 'nonce-${nonce}'`,
    "connect-src 'none'",
    "frame-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
  ].join('; ');
}

export function buildExplorerHtml(opts: ExplorerHtmlOptions): string {
  return buildPageHtml({ ...opts, title: 'Archive Explorer', what: 'the archive explorer' });
}

/** What every panel's page needs (the explorer, the mesh dashboard, the schedule timeline). */
export interface PageHtmlOptions extends ExplorerHtmlOptions {
  title: string;
  /** What the page is, for its boot and no-script lines ("the mesh dashboard"). */
  what: string;
}

/** A panel's page: the CSP above, its style sheets, a boot line and its one script, with this page's nonce. */
export function buildPageHtml(opts: PageHtmlOptions): string {
  const nonce = opts.nonce ?? makeNonce();
  if (!/^[A-Za-z0-9+/=]{16,}$/.test(nonce)) throw new Error('nonce must be at least 16 base64 characters');
  const styles = opts.styleUris.map((u) => `  <link rel="stylesheet" href="${escapeAttr(u)}">`).join('\n');
  const what = escapeAttr(opts.what);
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="UTF-8">
  <meta http-equiv="Content-Security-Policy" content="${escapeAttr(explorerCsp(opts.cspSource, nonce))}">
  <meta name="viewport" content="width=device-width, initial-scale=1.0">
${styles}
  <title>${escapeAttr(opts.title)}</title>
</head>
<body>
  <main id="app" aria-live="polite"><p class="boot">Loading ${what}…</p></main>
  <noscript><p class="boot">${what.charAt(0).toUpperCase()}${what.slice(1)} needs scripts enabled in this webview.</p></noscript>
  <script nonce="${nonce}" src="${escapeAttr(opts.scriptUri)}"></script>
</body>
</html>
`;
}
