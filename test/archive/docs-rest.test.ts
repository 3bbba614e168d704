// The client against the responses recorded in esmond's REST documentation (fixtures esmond/docs-rest), served
// verbatim by a tiny HTTP server: the metadata list with a duplicated key, floats for integers, loss fractions,
// bwctl-era packet traces with string fields, subintervals, string statistics, and the doc's invalid JSON.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ArchiveError } from '../../archive-client/errors';
import { closeArchiveConnections } from '../../archive-client/http';
import { searchMetadata } from '../../archive-client/search';
import { fetchSeries } from '../../archive-client/series';
import { chooseSeries } from '../../archive-client/summaries';
import { normalisePoints } from '../../archive-client/values';
import { postPoint, putBulk, registerMetadata, type MetadataRegistration } from '../../archive-client/write';
import { FIXTURES, type TinyServer, tinyServer, trackUnhandledRejections } from './helpers';

const DOCS = join(FIXTURES, 'esmond/docs-rest');
const doc = (name: string): string => readFileSync(join(DOCS, name), 'utf8');
const K = 'f6b732e9f351487a96126f0c25e5e546';

/** The statistics example's first element, made valid (the doc elides the rest with "...."). */
function firstStatistics(): string {
  const text = doc('L0511_statistics-0-response_histogram-owdelay.INVALID.txt');
  return `${text.slice(0, text.indexOf('\n    },') + 6)}\n]`;
}

const ROUTES: Partial<Record<string, () => string>> = {
  '/esmond/perfsonar/archive/': () => doc('L0026_metadata-list-response_throughput-search.json'),
  [`/esmond/perfsonar/archive/${K}/throughput/base`]: () => doc('L0086_base-data-response_throughput.json'),
  [`/esmond/perfsonar/archive/${K}/packet-loss-rate/base`]: () => doc('L0560_base-data-response_packet-loss-rate.json'),
  [`/esmond/perfsonar/archive/${K}/packet-trace/base`]: () => doc('L0593_base-data-response_packet-trace.json'),
  [`/esmond/perfsonar/archive/${K}/packet-retransmits-subintervals/base`]: () =>
    doc('L0726_base-data-response_packet-retransmits-subintervals.json'),
  [`/esmond/perfsonar/archive/${K}/histogram-owdelay/base`]: () =>
    doc('L0450_base-data-response_histogram-owdelay.INVALID.txt'),
  [`/esmond/perfsonar/archive/${K}/histogram-owdelay/statistics/0`]: firstStatistics,
};

let server: TinyServer;
const unhandled = trackUnhandledRejections();
before(async () => {
  server = await tinyServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (req.method === 'POST' && path === '/esmond/perfsonar/archive/') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(doc('L0959_post-metadata-response.json'));
    }
    if (req.method !== 'GET') {
      res.writeHead(200); // the seed's "200, no body"
      return void res.end();
    }
    const body = ROUTES[path];
    res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' });
    res.end(body ? body() : '{"detail":"Not found."}');
  });
});
after(async () => {
  await closeArchiveConnections();
  await server.close();
  unhandled.stop();
  assert.deepEqual(unhandled.list, []);
});

test('the documented metadata search response', async () => {
  const archive = { url: `${server.origin}/esmond/perfsonar/archive` };
  const res = await searchMetadata(
    archive,
    { 'event-type': 'throughput', source: 'host1.example.net', destination: 'host2.example.net' },
    { all: true },
  );
  assert.equal(res.metadata.length, 1);
  assert.equal(res.pages, 1, 'a short page without paging fields ends the search');
  const md = res.metadata[0];
  assert.equal(md.source, '10.1.1.1');
  assert.equal(md['metadata-key'], K);
  assert.equal(typeof md['time-duration'], 'string');
  const throughput = md['event-types']?.find((e) => e['event-type'] === 'throughput');
  assert.ok(throughput);
  assert.equal(throughput.summaries?.[0]['summary-window'], '86400');
  assert.equal(chooseSeries(throughput, 86400)?.uri, `/esmond/perfsonar/archive/${K}/throughput/averages/86400`);
  const sent = new URL(server.requests[server.requests.length - 1].url, 'http://x');
  assert.equal(sent.pathname, '/esmond/perfsonar/archive/');
  assert.equal(sent.searchParams.get('source'), 'host1.example.net');
  assert.equal(server.requests[server.requests.length - 1].headers.accept, 'application/json');
});

test('documented series normalise to their shapes', async () => {
  const archive = { url: server.origin };
  const read = async (et: string, st = 'base', uri = `/esmond/perfsonar/archive/${K}/${et}/base`) =>
    normalisePoints(et, st, (await fetchSeries(archive, uri, { 'time-range': 86400 })).points);
  const thr = await read('throughput');
  assert.deepEqual(
    thr.map((p) => p.val),
    [7016320000, 7225480000, 7095460000, 7042540000].map((value) => ({ kind: 'number', value })),
  );
  const loss = await read('packet-loss-rate');
  assert.equal(loss.length, 4);
  assert.ok(loss.every((p) => p.val.kind === 'loss' && p.val.value >= 0 && p.val.value < 1));
  const trace = await read('packet-trace');
  assert.equal(trace[0].val.kind, 'packet-trace');
  if (trace[0].val.kind === 'packet-trace') {
    const first = trace[0].val.hops[0];
    assert.deepEqual(
      [first.ttl, first.query, first.success, first.ip, first.rtt, first.mtu],
      [1, 1, true, '198.124.238.65', 0.246, 9000],
    );
  }
  const sub = await read('packet-retransmits-subintervals');
  assert.equal(sub.length, 2);
  assert.ok(
    sub.every((p) => p.val.kind === 'subintervals' && p.val.intervals.length > 0 && p.val.intervals[1].start === 1),
  );
  const stats = await read(
    'histogram-owdelay',
    'statistics',
    `/esmond/perfsonar/archive/${K}/histogram-owdelay/statistics/0`,
  );
  assert.deepEqual(stats[0].val, {
    kind: 'statistics',
    stats: {
      minimum: 34.4,
      maximum: 34.4,
      mean: 34.4,
      median: 34.4,
      'percentile-25': 34.4,
      'percentile-75': 34.4,
      'percentile-95': 34.4,
      variance: 0,
      'standard-deviation': 0,
      mode: [34.4],
    },
  });
});

test("the doc's elided (invalid) JSON is reported as such, with a snippet", async () => {
  const e = await fetchSeries({ url: server.origin }, `/esmond/perfsonar/archive/${K}/histogram-owdelay/base`).then(
    () => undefined,
    (x: unknown) => x,
  );
  assert.ok(e instanceof ArchiveError);
  assert.equal(e.kind, 'not-json');
  assert.match(e.message, /answered 200 with a body that is not JSON .*"ts":1397504013, .*\.\.\.\.\. \]$/);
});

test('the documented write exchanges (200 as the seed says, 201 as esmond does) are success', async () => {
  const archive = { url: server.origin, token: 'doc-token-0000' };
  const body = JSON.parse(doc('L0954_curl_post-metadata-request.json')) as MetadataRegistration;
  const md = await registerMetadata(archive, body);
  assert.equal(md['metadata-key'], '2ba58a26aee64a1e94cd2b5bacbb2cc6');
  const point = JSON.parse(doc('L1006_curl_post-datapoint-request.json')) as { ts: number; val: unknown };
  assert.equal(await postPoint(archive, String(md['event-types']?.[1]['base-uri']), point.ts, point.val), 200);
  const bulk = JSON.parse(doc('L1012_curl_put-bulk-request.json')) as {
    data: { ts: number; val: { 'event-type': string; val: unknown }[] }[];
  };
  assert.equal(await putBulk(archive, String(md.uri), bulk.data), 200);
  const writes = server.requests.filter((r) => r.method !== 'GET');
  assert.equal(writes.length, 3);
  for (const w of writes) {
    assert.equal(w.headers.authorization, 'Token doc-token-0000');
    assert.equal(w.headers['content-type'], 'application/json');
  }
  assert.equal(writes[2].method, 'PUT');
  assert.equal(writes[2].url, '/esmond/perfsonar/archive/2ba58a26aee64a1e94cd2b5bacbb2cc6/');
  assert.deepEqual(JSON.parse(writes[2].body), bulk);
});
