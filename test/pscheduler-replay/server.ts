// A replay of what real pScheduler instances answered: test/fixtures/pscheduler-hosts/wire.json, recorded by
// test/pscheduler/hosts-live.ts (PSCHEDULER_HOSTS_RECORD=1) as the reader read two instances, every answer by host and
// by path and query. Each host gets a local HTTP server answering GET with the recorded JSON; the run lists, whose
// query names the span of the read, are found by path. Used where a live pScheduler is not at hand (npm test, the
// VS Code end-to-end run): the reader's requests and pScheduler's answers are the recorded ones.
// `shiftMs` moves every ISO 8601 time in the answers by that much (recorded at readAt: shift by now - readAt, and the
// runs are of the last hour again, the tasks not expired), nothing else changes.
import { createServer, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { pschedulerHostsDir } from '../fixtures';

export interface WireRecording {
  /** When the recorded read was made (ISO 8601). */
  readAt: string;
  since: string;
  /** host → path and query → the answer's JSON. */
  hosts: Record<string, Record<string, unknown>>;
}

export function loadWire(): WireRecording {
  return JSON.parse(readFileSync(join(pschedulerHostsDir, 'wire.json'), 'utf8')) as WireRecording;
}

const ISO = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(\.\d+)?(Z|[+-]\d\d:?\d\d)$/;

/** `v` with every ISO 8601 time string moved by `ms` (written back in UTC, with a fraction only if it had one). */
export function shiftTimes(v: unknown, ms: number): unknown {
  if (!ms) return v;
  if (typeof v === 'string') {
    const m = ISO.exec(v);
    if (!m) return v;
    const t = Date.parse(v);
    if (Number.isNaN(t)) return v;
    const iso = new Date(t + ms).toISOString();
    return m[2] ? iso : iso.replace(/\.\d{3}Z$/, 'Z');
  }
  if (Array.isArray(v)) return v.map((x) => shiftTimes(x, ms));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shiftTimes(x, ms)]));
  return v;
}

export interface Replay {
  /** host → the replay's pScheduler API URL (http://127.0.0.1:PORT/pscheduler). */
  urls: Record<string, string>;
  /** Requests answered, in order (path and query). */
  requests: string[];
  close(): Promise<void>;
}

/** Starts one server per recorded host. */
export async function startReplay(wire: WireRecording, options: { shiftMs?: number } = {}): Promise<Replay> {
  const servers: Server[] = [];
  const urls: Record<string, string> = {};
  const requests: string[] = [];
  for (const [host, answers] of Object.entries(wire.hosts)) {
    const byPath = new Map<string, unknown>();
    for (const [key, body] of Object.entries(answers)) byPath.set(key.replace(/\?.*$/, ''), body);
    const server = createServer((req, res) => {
      const key = req.url ?? '/';
      requests.push(key);
      const found = key in answers ? answers[key] : byPath.get(key.replace(/\?.*$/, ''));
      if (req.method !== 'GET' || found === undefined) {
        res.writeHead(req.method !== 'GET' ? 405 : 404, { 'content-type': 'text/plain' });
        res.end(req.method !== 'GET' ? 'GET only' : `not recorded: ${key}`);
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(shiftTimes(found, options.shiftMs ?? 0)));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    urls[host] = `http://127.0.0.1:${(server.address() as AddressInfo).port}/pscheduler`;
  }
  return {
    urls,
    requests,
    close: () =>
      Promise.all(
        servers.map(
          (s) =>
            new Promise<void>((resolve) => {
              s.closeAllConnections();
              s.close(() => resolve());
            }),
        ),
      ).then(() => undefined),
  };
}
