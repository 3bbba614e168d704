// The psconfig.openArchiveExplorer argument (common/protocol.ts OpenArchiveExplorerArgs, from the archive code lens
// or a dashboard cell) as the webview's prefill. Pure, so the Chromium tests feed the explorer exactly what VS Code would.
import type { OpenArchiveExplorerArgs } from '../../../common/protocol';
import { normaliseArchiveUrl } from '../../../archive-client/url';
import type { Prefill } from './messages';

/** The command's argument (common/protocol.ts OpenArchiveExplorerArgs) as a prefill; anything malformed is dropped. */
export function prefillOf(arg: unknown): Prefill | undefined {
  if (!arg || typeof arg !== 'object' || typeof (arg as OpenArchiveExplorerArgs).url !== 'string') return undefined;
  const a = arg as OpenArchiveExplorerArgs;
  const s = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);
  let url = a.url;
  try {
    url = normaliseArchiveUrl(a.url);
  } catch {
    /* shown as given; the search then reports the problem */
  }
  const p: Prefill = { url, run: true };
  for (const k of [
    'source',
    'destination',
    'inputSource',
    'inputDestination',
    'eventType',
    'toolName',
    'metadataKey',
  ] as const) {
    const v = s(a[k]);
    if (v) p[k] = v;
  }
  const t = a.time;
  if (t && Number.isInteger(t.start) && Number.isInteger(t.end) && t.start < t.end)
    p.time = { start: t.start, end: t.end };
  return p;
}
