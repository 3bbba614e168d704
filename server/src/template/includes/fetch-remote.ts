// Fetching a remote include (http/https) with bounds: one deadline for the whole exchange (headers and body),
// a size limit counted while the body streams in, and redirects followed only within the same origin (scheme,
// host, port), at most a few times. Answers are cached per URL so an edit does not fetch again.
import { formatBytes } from './read-local';

export interface RemoteLimits {
  timeoutMs: number;
  maxBytes: number;
  /** Redirects followed (same origin only). */
  maxRedirects?: number;
}

export class RemoteIncludeError extends Error {}

const DEFAULT_REDIRECTS = 5;

export async function fetchBounded(url: string, limits: RemoteLimits): Promise<string> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), limits.timeoutMs);
  try {
    return await fetchWithin(url, limits, controller.signal);
  } catch (e) {
    if (controller.signal.aborted)
      throw new RemoteIncludeError(`no complete answer from ${url} within ${limits.timeoutMs / 1000} s`);
    throw e;
  } finally {
    clearTimeout(timer);
  }
}

async function fetchWithin(url: string, limits: RemoteLimits, signal: AbortSignal): Promise<string> {
  const origin = new URL(url).origin;
  let current = url;
  for (let hop = 0; ; hop++) {
    let res: Response;
    try {
      res = await fetch(current, { redirect: 'manual', signal, headers: { accept: 'application/json' } });
    } catch (e) {
      if (signal.aborted) throw e;
      const cause = (e as { cause?: { code?: string; message?: string } }).cause;
      throw new RemoteIncludeError(`cannot reach ${current}: ${cause?.code ?? cause?.message ?? (e as Error).message}`);
    }
    if (res.status >= 300 && res.status < 400) {
      await res.body?.cancel();
      const location = res.headers.get('location');
      if (!location) throw new RemoteIncludeError(`HTTP ${res.status} from ${current} without a Location`);
      const next = new URL(location, current);
      if (next.origin !== origin)
        throw new RemoteIncludeError(
          `${current} redirects to another origin (${next.origin}); remote includes follow redirects only within ${origin}`,
        );
      if (hop >= (limits.maxRedirects ?? DEFAULT_REDIRECTS))
        throw new RemoteIncludeError(`more than ${limits.maxRedirects ?? DEFAULT_REDIRECTS} redirects from ${url}`);
      current = next.toString();
      continue;
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw new RemoteIncludeError(`HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''} from ${current}`);
    }
    const declared = Number(res.headers.get('content-length') ?? NaN);
    if (declared > limits.maxBytes) {
      await res.body?.cancel();
      throw new RemoteIncludeError(tooLarge(current, limits.maxBytes));
    }
    return readBody(res, current, limits.maxBytes);
  }
}

async function readBody(res: Response, url: string, maxBytes: number): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw new RemoteIncludeError(tooLarge(url, maxBytes));
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total).toString('utf8');
}

function tooLarge(url: string, maxBytes: number): string {
  return `${url} answers more than the limit of ${formatBytes(maxBytes)}`;
}

interface CacheEntry {
  at: number;
  ttl: number;
  text: Promise<string>;
}

/**
 * Remote includes per URL: a success is kept `ttlMs`, a failure `failureTtlMs` (an unreachable host is not asked
 * again on every keystroke, and not forgotten for long either). Concurrent requests for one URL share one fetch.
 */
export class RemoteIncludeCache {
  private readonly entries = new Map<string, CacheEntry>();
  /** Fetches started (for tests). */
  fetches = 0;

  constructor(
    private readonly ttlMs = 5 * 60_000,
    private readonly failureTtlMs = 30_000,
    private readonly now: () => number = Date.now,
  ) {}

  get(url: string, limits: RemoteLimits, fetchText?: (url: string) => Promise<string>): Promise<string> {
    const hit = this.entries.get(url);
    if (hit && this.now() - hit.at < hit.ttl) return hit.text;
    this.fetches++;
    const text = fetchText ? fetchText(url) : fetchBounded(url, limits);
    const entry: CacheEntry = { at: this.now(), ttl: this.ttlMs, text };
    text.catch(() => (entry.ttl = this.failureTtlMs));
    this.entries.set(url, entry);
    // Bounded: the oldest URLs go first.
    if (this.entries.size > 256) this.entries.delete(this.entries.keys().next().value as string);
    return text;
  }

  clear(): void {
    this.entries.clear();
  }
}
