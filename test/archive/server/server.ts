// The local archive: a node:http server on 127.0.0.1 implementing the seed's REST interface (routes.ts), seeded
// from test/fixtures/esmond and with generated series relative to now. Used by client tests, the explorer's
// Chromium tests, the benchmark and `npm run archive`.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type AddressInfo, createServer as createTcpServer } from 'node:net';
import { answerFault, type FaultMode, isFaultMode } from './faults';
import { route, type ArchiveMode, type RouteContext } from './routes';

export type { ArchiveMode } from './routes';
import { buildHostTable, type HostTable } from './search-filters';
import { seedArchive, type SeedOptions, type SeedReport } from './seed';
import { ARCHIVE_PATH, ArchiveStore } from './store';

export interface ArchiveServerOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  seed?: SeedOptions | false;
  /** Tokens accepted for writes; default one random token (see `token` on the handle). */
  tokens?: string[];
  /** Every request answers with this fault until `setFault(undefined)`. */
  fault?: FaultMode;
  /**
   * `seed` (default): the interface as the seed documents it (200 on writes, no body; a series without time
   * filters answers every point; metadata pages of 1000; errors `{error}`; statistics' maximum, minimum and mode
   * as strings). `esmond`: as deployed esmond answers (201, pages of 1500, errors with `detail`, numbers).
   */
  mode?: ArchiveMode;
}

export interface RequestLogEntry {
  method: string;
  path: string;
  /** The Authorization header as received (tests assert it is absent on reads). */
  authorization?: string;
}

export interface ArchiveServerHandle {
  /** The archive base URL: http://127.0.0.1:PORT/esmond/perfsonar/archive/ */
  url: string;
  origin: string;
  port: number;
  /** A token the server accepts for writes. */
  token: string;
  mode: ArchiveMode;
  store: ArchiveStore;
  seed: SeedReport;
  requests: RequestLogEntry[];
  /** Requests received since start (`requests` keeps only the latest ones). */
  requestCount(): number;
  setFault(mode: FaultMode | undefined): void;
  /** The URL of an archive that always answers with `mode` (served by this server). */
  faultUrl(mode: FaultMode): string;
  close(): Promise<void>;
}

const ARCHIVE_PREFIXES = ['/esmond/perfsonar/archive', '/perfsonar/archive'];

export async function startArchiveServer(opts: ArchiveServerOptions = {}): Promise<ArchiveServerHandle> {
  const store = new ArchiveStore();
  const seed =
    opts.seed === false ? { records: 0, points: 0, sources: [], warnings: [] } : seedArchive(store, opts.seed ?? {});
  const tokens = new Set(opts.tokens ?? [randomToken()]);
  let hostTable: HostTable | undefined;
  let hostCount = -1;
  const ctx: RouteContext = {
    store,
    tokens,
    mode: opts.mode ?? 'seed',
    now: () => Math.floor(Date.now() / 1000),
    hosts: () => {
      if (!hostTable || hostCount !== store.records.size) {
        hostTable = buildHostTable(store.records.values());
        hostCount = store.records.size;
      }
      return hostTable;
    },
  };
  let fault: FaultMode | undefined = opts.fault;
  const requests: RequestLogEntry[] = [];
  let requestCount = 0;

  const handle = (req: IncomingMessage, res: ServerResponse, body: string): void => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    let path = url.pathname;
    requestCount++;
    requests.push({
      method: req.method ?? 'GET',
      path: `${path}${url.search}`,
      authorization: req.headers.authorization,
    });
    if (requests.length > 10000) requests.splice(0, 5000);
    const fm = /^\/fault\/([^/]+)(\/.*)?$/.exec(path);
    if (fault || fm) {
      if (fm && !isFaultMode(fm[1])) return send(res, 404, { error: `unknown fault mode ${fm[1]}` });
      return answerFault(fault ?? (fm?.[1] as FaultMode), req, res, fm?.[2] ?? path);
    }
    if (path === '/esmond/perfsonar/' || path === '/perfsonar/')
      return send(res, 200, { archive: `http://${req.headers.host}${ARCHIVE_PATH}` });
    const prefix = ARCHIVE_PREFIXES.find((p) => path === p || path.startsWith(`${p}/`));
    if (!prefix)
      return send(res, 404, { error: `no archive here; the archive is at ${ARCHIVE_PATH}`, detail: 'Not found.' });
    const rest = path.slice(prefix.length);
    // Django APPEND_SLASH: archive and archive/{key} need their trailing slash.
    if (rest === '' || /^\/[^/]+$/.test(rest)) {
      path += '/';
      res.writeHead(301, { location: `${path}${url.search}` });
      return void res.end();
    }
    const reply = route(ctx, req, url, rest.slice(1), body);
    send(res, reply.status, reply.body, reply.headers);
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        handle(req, res, Buffer.concat(chunks).toString('utf8'));
      } catch (e) {
        send(res, 500, { error: `internal error: ${(e as Error).message}` });
      }
    });
    req.on('error', () => res.destroy());
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const origin = `http://${opts.host ?? '127.0.0.1'}:${port}`;
  return {
    url: `${origin}${ARCHIVE_PATH}`,
    origin,
    port,
    token: [...tokens][0],
    mode: ctx.mode,
    store,
    seed,
    requests,
    requestCount: () => requestCount,
    setFault: (m) => {
      fault = m;
    },
    faultUrl: (m) => `${origin}/fault/${m}${ARCHIVE_PATH}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'access-control-allow-origin': '*', ...headers });
  res.end(text);
}

function randomToken(): string {
  const bytes = new Uint8Array(20);
  crypto.getRandomValues(bytes);
  return Buffer.from(bytes).toString('hex');
}

/** An archive URL on a 127.0.0.1 port that was just free and is closed again: connecting to it is refused. */
export async function refusedArchiveUrl(): Promise<string> {
  const probe = createTcpServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return `http://127.0.0.1:${port}${ARCHIVE_PATH}`;
}
