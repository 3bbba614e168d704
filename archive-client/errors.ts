// Typed failures of archive requests. Every message says what happened and where, and never contains a token.

export type ArchiveErrorKind =
  | 'http' // non-2xx status
  | 'redirect' // 3xx: we do not follow redirects silently
  | 'not-json' // 2xx body that is not JSON (or not the shape expected)
  | 'refused' // ECONNREFUSED
  | 'dns' // ENOTFOUND / EAI_AGAIN
  | 'tls' // certificate or handshake problem
  | 'timeout' // connect, headers or body timeout
  | 'network' // any other socket failure
  | 'too-large' // a response, or a paged read in all, passed its size or count budget
  | 'bad-shape' // JSON of the wrong shape where the interface fixes one (a field that must be a list, ...)
  | 'other-origin' // a write to a URL outside the archive's origin (the token is never sent there)
  | 'bad-url' // the archive URL itself is unusable
  | 'bad-input'; // a caller argument is invalid (e.g. a non-integer time)

export interface ArchiveErrorInit {
  kind: ArchiveErrorKind;
  url?: string;
  status?: number;
  /** The body's `error` or `detail` text, or a snippet of a non-JSON body. */
  detail?: string;
  /** Location header of a redirect. */
  location?: string;
  cause?: unknown;
}

export class ArchiveError extends Error {
  readonly kind: ArchiveErrorKind;
  readonly url?: string;
  readonly status?: number;
  readonly detail?: string;
  readonly location?: string;

  constructor(message: string, init: ArchiveErrorInit) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'ArchiveError';
    this.kind = init.kind;
    this.url = init.url;
    this.status = init.status;
    this.detail = init.detail;
    this.location = init.location;
  }
}

/** Replace every occurrence of a secret (and any `Token xyz` text or URL user:password) with a marker. */
export function redact(text: string, secrets: readonly (string | undefined)[] = []): string {
  let out = text
    .replace(/(Token\s+)[^\s"',;]+/gi, '$1<redacted>')
    .replace(/(\/\/)[^/@\s:]+:[^/@\s]+@/g, '$1<redacted>@');
  for (const s of secrets) if (s && s.length >= 4) out = out.split(s).join('<redacted>');
  return out;
}

/** A short, single-line excerpt of a body for error messages. */
export function snippet(body: string, max = 200): string {
  const flat = body.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/** The `error` or `detail` text of an error body, if the body is JSON with one of them. */
export function errorTextOf(body: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      const o = parsed as Record<string, unknown>;
      for (const k of ['error', 'detail', 'message']) {
        const v = o[k];
        if (typeof v === 'string') return v;
        if (v !== undefined) return JSON.stringify(v);
      }
    }
  } catch {
    /* not JSON */
  }
  return undefined;
}
