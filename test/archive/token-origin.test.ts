// The archive's token goes only to the origin (scheme, host, port) it was configured for: a metadata `base-uri` or
// `uri` naming another origin is read without it (and the explorer says so); a write there is refused.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ArchiveError } from '../../archive-client/errors';
import { closeArchiveConnections, requestJson } from '../../archive-client/http';
import { getMetadata } from '../../archive-client/search';
import { fetchSeries } from '../../archive-client/series';
import { postPoint } from '../../archive-client/write';
import { createExplorerHost } from '../../client/src/explorer/host';
import { emptyForm, type HostToWebview } from '../../client/src/explorer/messages';
import { json, tinyServer, type TinyServer } from './helpers';

const TOKEN = 'secret-token-0123456789';
let archive: TinyServer;
let other: TinyServer;

before(async () => {
  // Another origin: same host, another port. It answers any series read with two points.
  other = await tinyServer((req, res) =>
    json(
      res,
      200,
      req.url?.includes('/base')
        ? [
            { ts: 1_700_000_000, val: 1 },
            { ts: 1_700_000_060, val: 2 },
          ]
        : {},
    ),
  );
  // The archive: one metadata object whose throughput lives on the other origin, its own series local.
  archive = await tinyServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/esmond/perfsonar/archive/')
      return json(res, 200, [
        {
          'metadata-key': 'm1',
          source: '10.0.0.1',
          destination: '10.0.0.2',
          'tool-name': 'pscheduler/iperf3',
          uri: '/esmond/perfsonar/archive/m1/',
          'event-types': [
            {
              'event-type': 'throughput',
              'base-uri': `${other.origin}/esmond/perfsonar/archive/m1/throughput/base`,
              summaries: [],
            },
            {
              'event-type': 'packet-retransmits',
              'base-uri': '/esmond/perfsonar/archive/m1/packet-retransmits/base',
              summaries: [],
            },
          ],
        },
      ]);
    if (path.endsWith('/base')) return json(res, 200, [{ ts: 1_700_000_000, val: 3 }]);
    return json(res, 200, {});
  });
});
after(async () => {
  await closeArchiveConnections();
  await Promise.all([archive.close(), other.close()]);
});

const options = () => ({ url: archive.origin, token: TOKEN, tokenOnReads: true, timeoutMs: 3000 });

test('a series on another origin is read without the token; the archive itself gets it', async () => {
  const before = other.requests.length;
  const away = await fetchSeries(options(), `${other.origin}/esmond/perfsonar/archive/m1/throughput/base`, {
    'time-start': 1,
  });
  assert.equal(away.points.length, 2);
  assert.equal(away.otherOrigin, other.origin);
  assert.equal(away.credentialsWithheld, true);
  const seen = other.requests.slice(before);
  assert.ok(seen.length > 0);
  for (const r of seen) assert.equal(r.headers.authorization, undefined, 'the token went to another origin');
  const home = await fetchSeries(options(), '/esmond/perfsonar/archive/m1/packet-retransmits/base', {
    'time-start': 1,
  });
  assert.equal(home.otherOrigin, undefined);
  assert.equal(archive.requests.at(-1)?.headers.authorization, `Token ${TOKEN}`);
});

test('origin means scheme, host and port: the same host on another port or scheme gets no token', async () => {
  const credentials = { token: TOKEN, origin: archive.origin };
  const r = await requestJson(`${other.origin}/esmond/perfsonar/archive/x/`, { credentials });
  assert.equal(r.credentialsWithheld, true);
  assert.equal(other.requests.at(-1)?.headers.authorization, undefined);
  const https = await requestJson(`${archive.origin}/esmond/perfsonar/archive/x/`, {
    credentials: { token: TOKEN, origin: archive.origin.replace('http:', 'https:') },
  });
  assert.equal(https.credentialsWithheld, true);
  assert.equal(archive.requests.at(-1)?.headers.authorization, undefined);
});

test('a metadata uri on another origin is read without the token; a write there is refused', async () => {
  const before = other.requests.length;
  await getMetadata(options(), `${other.origin}/esmond/perfsonar/archive/m1/`).catch(() => undefined);
  assert.equal(other.requests.at(-1)?.headers.authorization, undefined);
  const e = await postPoint(options(), `${other.origin}/esmond/perfsonar/archive/m1/throughput/base`, 1, 1).then(
    () => undefined,
    (x: unknown) => x,
  );
  assert.ok(e instanceof ArchiveError);
  assert.equal(e.kind, 'other-origin');
  assert.match(e.message, /refusing to write to .*not on the archive's origin/);
  assert.equal(other.requests.length, before + 1, 'the refused write sent nothing');
});

test('the explorer reads the other origin without the token and says so beside the chart', async () => {
  const out: HostToWebview[] = [];
  const host = createExplorerHost({
    post: (m) => out.push(m),
    archives: () => [{ name: 'a', url: archive.origin }],
    credentials: async () => ({ token: TOKEN, tokenOnReads: true }),
    save: async () => undefined,
    timeoutMs: 3000,
  });
  await host.handle({ type: 'search', id: 1, archive: archive.origin, form: emptyForm(), time: { preset: '1d' } });
  const found = out.at(-1);
  assert.ok(found?.type === 'searchResult');
  const before = other.requests.length;
  await host.handle({
    type: 'series',
    id: 2,
    archive: archive.origin,
    row: found.rows[0],
    eventType: 'throughput',
    time: { preset: '1d' },
    window: 0,
  });
  const reply = out.at(-1);
  assert.ok(reply?.type === 'seriesResult', JSON.stringify(reply));
  assert.equal(
    reply.result.note,
    `read from ${other.origin}, another origin than the archive's, without the archive's token`,
  );
  for (const r of other.requests.slice(before)) assert.equal(r.headers.authorization, undefined);
});
