// Failure modes the local archive can simulate, for client tests and the explorer's error display:
// either for every request (`handle.setFault(mode)`) or under a URL prefix `/fault/<mode>/…`.
import type { IncomingMessage, ServerResponse } from 'node:http';

export const FAULT_MODES = [
  '404',
  '401',
  '500-json',
  '500-html',
  'malformed-json',
  'hang',
  'redirect',
  'not-a-list',
  'slow-body',
] as const;
export type FaultMode = (typeof FAULT_MODES)[number];

export function isFaultMode(s: string): s is FaultMode {
  return (FAULT_MODES as readonly string[]).includes(s);
}

/** Answer a request with a fault; returns true if it handled the response. */
export function answerFault(mode: FaultMode, req: IncomingMessage, res: ServerResponse, rest: string): void {
  const json = (status: number, body: unknown, headers: Record<string, string> = {}): void => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
  switch (mode) {
    case '404':
      return json(404, { detail: 'Not found.' });
    case '401':
      return json(401, { detail: 'Invalid token.' }, { 'www-authenticate': 'Token' });
    case '500-json':
      return json(500, { error: 'Cassandra timeout while reading ps_metadata (simulated)' });
    case '500-html':
      res.writeHead(500, { 'content-type': 'text/html' });
      res.end(
        '<!DOCTYPE html><html><head><title>500 Internal Server Error</title></head><body><h1>Internal Server Error</h1><p>The server encountered an internal error (simulated).</p></body></html>',
      );
      return;
    case 'malformed-json':
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('[{"metadata-key": "abc", "source": "10.0.0.1", ');
      return;
    case 'not-a-list':
      return json(200, { archive: 'this is not a list' });
    case 'redirect':
      res.writeHead(301, { location: `http://${req.headers.host ?? '127.0.0.1'}${rest}` });
      res.end();
      return;
    case 'slow-body':
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[');
      return; // never finishes the body
    case 'hang':
      return; // never answers; the socket is destroyed when the server closes
  }
}
