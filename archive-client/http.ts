// One HTTP exchange with an archive over undici: JSON in and out, bounded by timeouts, a total deadline and a size
// limit, no silent redirects, the token only for its own origin, and every failure turned into an ArchiveError
// whose message says what happened (never containing the token).
import { Agent, request } from 'undici';
import { ArchiveError, errorTextOf, redact, snippet } from './errors';

export interface HttpOptions {
  method?: 'GET' | 'POST' | 'PUT';
  body?: unknown;
  /**
   * Sent as `Authorization: Token <token>`, only when the request URL's origin (scheme, host, port) is `origin`,
   * the origin the user configured the token for; any other URL is requested without it (`credentialsWithheld`).
   */
  credentials?: { token: string; origin: string };
  /** Connect, headers and body (between chunks) timeout, ms. */
  timeoutMs?: number;
  /** Whole exchange deadline, ms (default 3 × timeoutMs) so a slow-drip body still ends. */
  deadlineMs?: number;
  /** Largest body read, bytes (default DEFAULT_MAX_RESPONSE_BYTES); beyond it the request fails as `too-large`. */
  maxBytes?: number;
  userAgent?: string;
}

export interface HttpResult {
  status: number;
  /** Parsed JSON body; undefined when the body was empty. */
  json: unknown;
  bytes: number;
  headers: Record<string, string | string[] | undefined>;
  /** True when credentials were given but not sent, because the URL is on another origin. */
  credentialsWithheld?: boolean;
}

export const DEFAULT_TIMEOUT_MS = 20000;
/** One response: esmond's biggest pages (1500 points of histograms) are a few MB. */
export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

/** The origin (`https://host:port`) of a URL, or undefined when it is not one. */
export function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

function megabytes(n: number): string {
  return n >= 1024 * 1024 ? `${Math.round(n / 1024 / 1024)} MB` : `${Math.ceil(n / 1024)} KB`;
}

const agents = new Map<number, Agent>();
function agentFor(timeoutMs: number): Agent {
  let a = agents.get(timeoutMs);
  if (!a) {
    a = new Agent({
      connect: { timeout: timeoutMs },
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      keepAliveTimeout: 2000,
    });
    agents.set(timeoutMs, a);
  }
  return a;
}

/** Close pooled connections (the CLI calls this so the process exits promptly). */
export async function closeArchiveConnections(): Promise<void> {
  const all = [...agents.values()];
  agents.clear();
  await Promise.all(all.map((a) => a.close().catch(() => undefined)));
}

const STALE_SOCKET = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);
const TLS_CODES = /^(CERT_|ERR_TLS|ERR_SSL|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|HOSTNAME_MISMATCH|ERR_OSSL)/;

function errorCodes(err: unknown): string[] {
  const codes: string[] = [];
  const seen = new Set<unknown>();
  const visit = (e: unknown): void => {
    if (!e || typeof e !== 'object' || seen.has(e)) return;
    seen.add(e);
    const o = e as { code?: unknown; name?: unknown; cause?: unknown; errors?: unknown };
    if (typeof o.code === 'string') codes.push(o.code);
    if (typeof o.name === 'string') codes.push(o.name);
    visit(o.cause);
    if (Array.isArray(o.errors)) o.errors.forEach(visit);
  };
  visit(err);
  return codes;
}

/** Translate a transport failure (undici or socket error) into an ArchiveError. */
export function transportError(
  err: unknown,
  url: string,
  timeoutMs: number,
  secrets: (string | undefined)[],
): ArchiveError {
  const codes = errorCodes(err);
  const has = (...c: string[]): boolean => codes.some((x) => c.includes(x));
  const where = redact(url, secrets);
  const text = redact(err instanceof Error ? err.message : String(err), secrets);
  if (has('ECONNREFUSED'))
    return new ArchiveError(`connection refused by ${where}`, { kind: 'refused', url: where, cause: err });
  if (has('ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_FAIL')) {
    return new ArchiveError(
      `cannot resolve the host of ${where} (DNS: ${codes.find((c) => c.startsWith('E')) ?? text})`,
      { kind: 'dns', url: where, cause: err },
    );
  }
  if (codes.some((c) => TLS_CODES.test(c)) || /certificate|TLS|SSL/i.test(text)) {
    return new ArchiveError(`TLS problem talking to ${where}: ${text}`, { kind: 'tls', url: where, cause: err });
  }
  if (has('UND_ERR_CONNECT_TIMEOUT', 'ConnectTimeoutError')) {
    return new ArchiveError(`timed out after ${timeoutMs} ms connecting to ${where}`, {
      kind: 'timeout',
      url: where,
      cause: err,
    });
  }
  if (has('UND_ERR_HEADERS_TIMEOUT', 'HeadersTimeoutError')) {
    return new ArchiveError(`no response from ${where} within ${timeoutMs} ms`, {
      kind: 'timeout',
      url: where,
      cause: err,
    });
  }
  if (has('UND_ERR_BODY_TIMEOUT', 'BodyTimeoutError')) {
    return new ArchiveError(`the response body from ${where} stalled for ${timeoutMs} ms`, {
      kind: 'timeout',
      url: where,
      cause: err,
    });
  }
  if (has('TimeoutError', 'UND_ERR_ABORTED', 'AbortError')) {
    return new ArchiveError(`the request to ${where} did not complete in time`, {
      kind: 'timeout',
      url: where,
      cause: err,
    });
  }
  const code = codes.find((c) => /^E[A-Z]+$/.test(c) || c.startsWith('UND_ERR'));
  return new ArchiveError(`network error talking to ${where}: ${code ? `${code} ` : ''}${text}`, {
    kind: 'network',
    url: where,
    cause: err,
  });
}

/** The body as text, failing as soon as it passes `maxBytes` (declared or received): an endless body ends here. */
async function readLimited(
  body: AsyncIterable<Buffer> & { destroy(): unknown },
  declared: number,
  maxBytes: number,
  where: string,
): Promise<string> {
  const tooLarge = (): ArchiveError => {
    body.destroy();
    return new ArchiveError(
      `the response from ${where} is larger than ${megabytes(maxBytes)} (response size limit; setting psconfig.archive.maxResponseMb)`,
      { kind: 'too-large', url: where },
    );
  };
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge();
  const chunks: Buffer[] = [];
  let n = 0;
  for await (const chunk of body) {
    n += chunk.length;
    if (n > maxBytes) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Perform a request and parse its JSON body; rejects only with ArchiveError. */
export async function requestJson(url: string, opts: HttpOptions = {}): Promise<HttpResult> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const deadlineMs = opts.deadlineMs ?? timeoutMs * 3;
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const token = opts.credentials?.token;
  const secrets = [token];
  const where = redact(url, secrets);
  const headers: Record<string, string> = {
    accept: 'application/json',
    'user-agent': opts.userAgent ?? 'psconfig-vscode-archive-client',
  };
  // The token belongs to one origin: a link from the archive to anywhere else gets no credentials.
  const sendToken = token !== undefined && originOf(url) === opts.credentials?.origin;
  if (sendToken) headers.authorization = `Token ${token}`;
  let body: string | undefined;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] = 'application/json';
  }
  let status = 0;
  let text = '';
  let resHeaders: HttpResult['headers'] = {};
  const method = opts.method ?? 'GET';
  for (let attempt = 0; ; attempt++) {
    try {
      const res = await request(url, {
        method,
        headers,
        body,
        dispatcher: agentFor(timeoutMs),
        signal: AbortSignal.timeout(deadlineMs),
      });
      status = res.statusCode;
      resHeaders = res.headers;
      text = await readLimited(res.body, Number(res.headers['content-length']), maxBytes, where);
      break;
    } catch (err) {
      if (err instanceof ArchiveError) throw err;
      if (errorCodes(err).includes('TimeoutError'))
        throw new ArchiveError(
          status === 0
            ? `no response from ${where} within ${deadlineMs} ms (request deadline)`
            : `the response from ${where} did not complete within ${deadlineMs} ms (request deadline)`,
          {
            kind: 'timeout',
            url: where,
            cause: err,
          },
        );
      // A kept-alive connection the server closed just as we reused it: a GET is safe to send once more.
      if (method === 'GET' && attempt === 0 && errorCodes(err).some((c) => STALE_SOCKET.has(c))) continue;
      throw transportError(err, url, timeoutMs, secrets);
    }
  }
  const bytes = Buffer.byteLength(text);
  if (status >= 300 && status < 400) {
    const loc = resHeaders.location;
    const location = Array.isArray(loc) ? loc[0] : loc;
    throw new ArchiveError(
      `${where} answered ${status} redirecting to ${location ?? '(no Location header)'}; not followed — use that URL if it is the archive`,
      {
        kind: 'redirect',
        url: where,
        status,
        location,
      },
    );
  }
  if (status < 200 || status >= 300) {
    const detail = errorTextOf(text);
    const what =
      detail !== undefined ? detail : text.trim() === '' ? '(empty body)' : `non-JSON body: ${snippet(text)}`;
    throw new ArchiveError(redact(`HTTP ${status} from ${where}: ${what}`, secrets), {
      kind: 'http',
      url: where,
      status,
      detail: redact(detail ?? snippet(text), secrets),
    });
  }
  const withheld = token !== undefined && !sendToken ? { credentialsWithheld: true } : {};
  if (text.trim() === '') return { status, json: undefined, bytes, headers: resHeaders, ...withheld };
  try {
    return { status, json: JSON.parse(text) as unknown, bytes, headers: resHeaders, ...withheld };
  } catch (err) {
    const ct = resHeaders['content-type'];
    throw new ArchiveError(
      `${where} answered ${status} with a body that is not JSON (content-type ${String(ct ?? 'none')}): ${snippet(text)}`,
      {
        kind: 'not-json',
        url: where,
        status,
        detail: snippet(text),
        cause: err,
      },
    );
  }
}
