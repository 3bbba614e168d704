// Reading a local pScheduler's REST API (pscheduler-server/api-server/pschedulerapiserver: tasks.py, runs.py,
// schedule.py). The instances serve HTTPS with a throw-away self-signed certificate, so it is not verified; only
// loopback URLs are accepted, so nothing here can talk to another machine.
import { request } from 'node:https';

export class RestError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

function loopback(url: URL): boolean {
  return url.protocol === 'https:' && /^127\.\d+\.\d+\.\d+$/.test(url.hostname);
}

/** GET `url` and parse its JSON body; rejects on a non-2xx status, a bad body or no answer within `timeoutMs`. */
export function getJson(url: string, timeoutMs = 30_000): Promise<unknown> {
  return send('GET', url, undefined, timeoutMs);
}

/** POST `body` as JSON to `url` (pScheduler answers a task POST with the new task's URL as a JSON string). */
export function postJson(url: string, body: unknown, timeoutMs = 120_000): Promise<unknown> {
  return send('POST', url, JSON.stringify(body), timeoutMs);
}

function send(method: 'GET' | 'POST', url: string, body: string | undefined, timeoutMs: number): Promise<unknown> {
  const u = new URL(url);
  if (!loopback(u)) return Promise.reject(new RestError(`refusing a non-loopback URL: ${url}`));
  return new Promise((resolvePromise, reject) => {
    const headers =
      body === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
    const req = request(u, { method, headers, rejectUnauthorized: false, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const status = res.statusCode ?? 0;
        if (status < 200 || status > 299) {
          reject(new RestError(`${method} ${url}: HTTP ${status}: ${body.slice(0, 300)}`, status));
          return;
        }
        try {
          resolvePromise(JSON.parse(body));
        } catch {
          reject(new RestError(`${method} ${url}: not JSON: ${body.slice(0, 300)}`, status));
        }
      });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new RestError(`${method} ${url}: no answer within ${timeoutMs / 1000} s`)));
    req.on('error', (e) => reject(e instanceof RestError ? e : new RestError(`${method} ${url}: ${e.message}`)));
    req.end(body);
  });
}

/** Polls `probe` every `everyMs` until it returns a value other than undefined, or throws after `deadlineMs`. */
export async function pollUntil<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  deadlineMs: number,
  everyMs = 500,
): Promise<T> {
  const end = Date.now() + deadlineMs;
  let last = '';
  for (let attempt = 0; ; attempt++) {
    try {
      const v = await probe();
      if (v !== undefined) return v;
    } catch (e) {
      last = e instanceof Error ? e.message : String(e);
    }
    if (Date.now() >= end)
      throw new Error(`${what}: not within ${deadlineMs / 1000} s (${attempt + 1} tries)${last ? `: ${last}` : ''}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
