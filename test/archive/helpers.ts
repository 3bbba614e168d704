// Shared pieces of the archive tests: the fixtures directory, a guard that fails a test file on any unhandled
// rejection, and tiny one-purpose HTTP servers.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { repoRoot } from '../fixtures';

export const ROOT = repoRoot();
export { esmondFixturesDir as FIXTURES } from '../fixtures';

/** Records unhandled rejections from now on; call the returned function in `after` to assert there were none. */
export function trackUnhandledRejections(): { list: unknown[]; stop(): void } {
  const list: unknown[] = [];
  const onRej = (r: unknown): void => {
    list.push(r);
  };
  process.on('unhandledRejection', onRej);
  return { list, stop: () => process.off('unhandledRejection', onRej) };
}

export interface TinyServer {
  origin: string;
  port: number;
  requests: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[];
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 answering with `handler`. */
export async function tinyServer(
  handler: (req: IncomingMessage, res: ServerResponse, body: string) => void,
): Promise<TinyServer> {
  const requests: TinyServer['requests'] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body });
      handler(req, res, body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}
