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
  'huge-body',
  'endless-body',
  'slow-drip',
  'wrong-shapes',
  'endless-pages',
  'repeating-pages',
] as const;
export type FaultMode = (typeof FAULT_MODES)[number];

export function isFaultMode(s: string): s is FaultMode {
  return (FAULT_MODES as readonly string[]).includes(s);
}

/** A series path (…/<key>/<event-type>/base or a summary) rather than the metadata list. */
function isSeriesPath(rest: string): boolean {
  return /\/archive\/[^/]+\/[^/]+\/[^/]+/.test(rest);
}

/** Streams `[item, item, …` in 1 MB chunks as fast as the client reads, until `maxBytes` (then `]`) or it leaves. */
function stream(res: ServerResponse, maxBytes: number): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  const item = '{"ts": 1700000000, "val": 1},';
  const chunk = Buffer.from(item.repeat(Math.floor((1024 * 1024) / item.length)));
  let sent = 0;
  res.write('[');
  const pump = (): void => {
    while (!res.destroyed) {
      if (sent >= maxBytes) return void res.end('{"ts": 1700000001, "val": 1}]');
      sent += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
  };
  res.on('close', () => res.removeAllListeners('drain'));
  pump();
}

/** One page of `limit` fresh metadata objects starting at `offset` (endless paging: a next page always exists). */
function metadataPage(origin: string, offset: number, limit: number, fixedKeys: boolean): unknown[] {
  return Array.from({ length: limit }, (_, i) => {
    const key = `page-${fixedKeys ? i : offset + i}`;
    const m: Record<string, unknown> = {
      'metadata-key': key,
      'subject-type': 'point-to-point',
      source: '10.0.0.1',
      destination: '10.0.0.2',
      'tool-name': 'pscheduler/iperf3',
      uri: `/esmond/perfsonar/archive/${key}/`,
      'event-types': [
        { 'event-type': 'throughput', 'base-uri': `/esmond/perfsonar/archive/${key}/throughput/base`, summaries: [] },
      ],
    };
    if (i === 0) m['metadata-next-page'] = `${origin}/esmond/perfsonar/archive/?offset=${offset + limit}`;
    return m;
  });
}

/** Answer a request with a fault; returns true if it handled the response. */
export function answerFault(mode: FaultMode, req: IncomingMessage, res: ServerResponse, rest: string): void {
  const query = new URL(req.url ?? '/', 'http://x').searchParams;
  const limit = Math.min(Number(query.get('limit')) || 1000, 10_000);
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
    case 'huge-body':
      return stream(res, 1024 * 1024 * 1024); // 1 GB of valid JSON, sent as fast as it is read
    case 'endless-body':
      return stream(res, Infinity);
    case 'slow-drip': {
      // One byte every 100 ms, for ever: each chunk resets a per-chunk body timeout.
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[');
      const t = setInterval(() => (res.destroyed ? clearInterval(t) : res.write(' ')), 100);
      res.on('close', () => clearInterval(t));
      return;
    }
    case 'wrong-shapes':
      if (isSeriesPath(rest))
        return json(200, [{ ts: 'yesterday', val: 1 }, { val: 2 }, null, { ts: 1700000000, val: 3 }]);
      return json(200, [
        { ...(metadataPage(`http://${req.headers.host}`, 0, 1, false)[0] as object), 'metadata-next-page': null },
        { 'metadata-key': 'bad-1', 'event-types': 'throughput' },
        { 'metadata-key': 'bad-2', 'event-types': [{ 'event-type': 5 }] },
        { 'metadata-key': 'bad-3', 'event-types': [{ 'event-type': 'throughput', summaries: 'none' }] },
        'not an object',
      ]);
    case 'endless-pages': {
      if (isSeriesPath(rest)) {
        // Always a full page of points after time-start: the range never completes.
        const start = Number(query.get('time-start')) || 1_600_000_000;
        return json(
          200,
          Array.from({ length: limit }, (_, i) => ({ ts: start + i, val: i })),
        );
      }
      return json(200, metadataPage(`http://${req.headers.host}`, Number(query.get('offset')) || 0, limit, false));
    }
    case 'repeating-pages':
      if (isSeriesPath(rest))
        return json(
          200,
          Array.from({ length: limit }, (_, i) => ({ ts: 1_600_000_000 + i, val: i })),
        );
      return json(200, metadataPage(`http://${req.headers.host}`, 0, limit, true));
  }
}
