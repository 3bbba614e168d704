// Faults below HTTP, which the archive's fault modes cannot play: a socket that accepts and never says anything,
// and a TLS server whose certificate nobody trusts (a self-signed one from test/fixtures/tls).
import { readFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import { type AddressInfo, createServer as createTcpServer, type Socket } from 'node:net';
import { selfSignedTls } from '../../fixtures';
import { ARCHIVE_PATH } from './store';

export interface FaultServer {
  url: string;
  close(): Promise<void>;
}

/** Accepts connections and never writes a byte (not even a TLS or HTTP greeting). */
export async function startSilentSocket(): Promise<FaultServer> {
  const sockets = new Set<Socket>();
  const server = createTcpServer((s) => {
    sockets.add(s);
    s.on('error', () => undefined);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}${ARCHIVE_PATH}`,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

/** An https archive answering `[]`, with a self-signed certificate: a client must refuse it. */
export async function startBadCertServer(): Promise<FaultServer & { requests: number }> {
  const handle = { requests: 0 };
  const server = createHttpsServer(
    { cert: readFileSync(selfSignedTls.cert), key: readFileSync(selfSignedTls.key) },
    (_req, res) => {
      handle.requests++;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('[]');
    },
  );
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(handle, {
    url: `https://127.0.0.1:${port}${ARCHIVE_PATH}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  });
}
