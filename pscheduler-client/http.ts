// One GET of pScheduler's REST API over undici: nothing but GET is ever sent, no redirects followed, no credentials
// of any kind (the archive explorer's tokens live elsewhere and are never read here), bounded by connect, headers and
// body timeouts plus a whole-request deadline and a size limit; TLS verified unless the host is marked insecure, or
// verified against a given CA. Every failure is a PSchedulerError.
import { Agent, request } from 'undici';
import { PSchedulerError, snippet } from './errors';

export interface TlsOptions {
  /** Accept any certificate (a self-signed host). */
  insecure?: boolean;
  /** PEM text of the CA(s) to verify the host's certificate with. */
  ca?: string;
}

export interface GetOptions extends TlsOptions {
  /** Connect, headers and between-chunks body timeout, ms. */
  timeoutMs: number;
  /** Whole exchange deadline, ms. */
  deadlineMs: number;
  /** Largest body read, bytes. */
  maxBytes: number;
}

const agents = new Map<string, Agent>();

function agentFor(o: GetOptions): Agent {
  const key = `${o.timeoutMs}|${o.insecure ? 1 : 0}|${o.ca ?? ''}`;
  let a = agents.get(key);
  if (!a) {
    a = new Agent({
      connect: {
        timeout: o.timeoutMs,
        rejectUnauthorized: !o.insecure,
        ...(o.ca !== undefined ? { ca: o.ca } : {}),
      },
      headersTimeout: o.timeoutMs,
      bodyTimeout: o.timeoutMs,
      keepAliveTimeout: 2000,
      connections: 4,
    });
    agents.set(key, a);
  }
  return a;
}

/** Close pooled connections (the CLI calls this so the process exits promptly). */
export async function closePSchedulerConnections(): Promise<void> {
  const all = [...agents.values()];
  agents.clear();
  await Promise.all(all.map((a) => a.close().catch(() => undefined)));
}

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

const TLS_CODES = /^(CERT_|ERR_TLS|ERR_SSL|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|HOSTNAME_MISMATCH|ERR_OSSL)/;

function transportError(err: unknown, url: string, o: GetOptions, gotHeaders: boolean): PSchedulerError {
  const codes = errorCodes(err);
  const has = (...c: string[]): boolean => codes.some((x) => c.includes(x));
  const text = err instanceof Error ? err.message : String(err);
  const e = (kind: PSchedulerError['kind'], message: string): PSchedulerError =>
    new PSchedulerError(message, { kind, url, cause: err });
  if (has('TimeoutError'))
    return e(
      'timeout',
      gotHeaders
        ? `the answer from ${url} did not complete within ${o.deadlineMs} ms (request deadline)`
        : `no answer from ${url} within ${o.deadlineMs} ms (request deadline)`,
    );
  if (has('ECONNREFUSED')) return e('refused', `connection refused by ${url} (is pScheduler's API running there?)`);
  if (has('ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_FAIL'))
    return e('dns', `cannot resolve the host of ${url} (DNS: ${codes.find((c) => c.startsWith('E')) ?? text})`);
  if (codes.some((c) => TLS_CODES.test(c)) || /certificate|TLS|SSL/i.test(text))
    return e('tls', `TLS problem talking to ${url}: ${text} (a self-signed host: --insecure HOST or --ca HOST=FILE)`);
  if (has('UND_ERR_CONNECT_TIMEOUT', 'ConnectTimeoutError'))
    return e('timeout', `timed out after ${o.timeoutMs} ms connecting to ${url}`);
  if (has('UND_ERR_HEADERS_TIMEOUT', 'HeadersTimeoutError'))
    return e('timeout', `no answer from ${url} within ${o.timeoutMs} ms`);
  if (has('UND_ERR_BODY_TIMEOUT', 'BodyTimeoutError'))
    return e('timeout', `the answer from ${url} stalled for ${o.timeoutMs} ms`);
  const code = codes.find((c) => /^E[A-Z]+$/.test(c) || c.startsWith('UND_ERR'));
  return e('network', `network error talking to ${url}: ${code ? `${code} ` : ''}${text}`);
}

function size(n: number): string {
  return n >= 1024 * 1024 ? `${Math.round(n / 1024 / 1024)} MB` : `${Math.ceil(n / 1024)} KB`;
}

/** GET `url` and parse its JSON body; rejects only with PSchedulerError. */
export async function getJson(url: string, o: GetOptions): Promise<unknown> {
  let status = 0;
  let text = '';
  let location: string | undefined;
  let gotHeaders = false;
  try {
    const res = await request(url, {
      method: 'GET',
      headers: { accept: 'application/json', 'user-agent': 'psconfig-tools-hosts' },
      dispatcher: agentFor(o),
      signal: AbortSignal.timeout(o.deadlineMs),
    });
    gotHeaders = true;
    status = res.statusCode;
    const loc = res.headers.location;
    location = Array.isArray(loc) ? loc[0] : loc;
    const declared = Number(res.headers['content-length']);
    const tooLarge = (): PSchedulerError => {
      res.body.destroy();
      return new PSchedulerError(`the answer from ${url} is larger than ${size(o.maxBytes)} (--max-response-mb)`, {
        kind: 'too-large',
        url,
      });
    };
    if (Number.isFinite(declared) && declared > o.maxBytes) throw tooLarge();
    const chunks: Buffer[] = [];
    let n = 0;
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      n += chunk.length;
      if (n > o.maxBytes) throw tooLarge();
      chunks.push(chunk);
    }
    text = Buffer.concat(chunks).toString('utf8');
  } catch (err) {
    if (err instanceof PSchedulerError) throw err;
    throw transportError(err, url, o, gotHeaders);
  }
  if (status >= 300 && status < 400)
    throw new PSchedulerError(`${url} answered ${status} redirecting to ${location ?? '(no Location)'}; not followed`, {
      kind: 'redirect',
      url,
      status,
    });
  if (status < 200 || status >= 300) {
    const hint = status === 404 ? ' (no pScheduler API at this URL? give it with --url HOST=URL)' : '';
    throw new PSchedulerError(`HTTP ${status} from ${url}: ${snippet(text) || '(empty body)'}${hint}`, {
      kind: 'http',
      url,
      status,
    });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new PSchedulerError(`the answer from ${url} is not JSON: ${snippet(text) || '(empty body)'}`, {
      kind: 'not-json',
      url,
    });
  }
}
