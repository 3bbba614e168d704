// Each way an archive can fail gives an ArchiveError that says what happened — never a hang past the timeout,
// never an unhandled rejection.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ArchiveError, type ArchiveErrorKind } from '../../archive-client/errors';
import { closeArchiveConnections } from '../../archive-client/http';
import { searchMetadata } from '../../archive-client/search';
import { fetchSeries } from '../../archive-client/series';
import { tinyServer, trackUnhandledRejections } from './helpers';
import type { FaultMode } from './server/faults';
import { type ArchiveServerHandle, refusedArchiveUrl, startArchiveServer } from './server/server';

let server: ArchiveServerHandle;
const unhandled = trackUnhandledRejections();
before(async () => {
  server = await startArchiveServer({ seed: { fixtures: false, generated: false } });
});
after(async () => {
  await closeArchiveConnections();
  await server.close();
  unhandled.stop();
  assert.deepEqual(unhandled.list, [], 'no unhandled rejections');
});

async function failure(p: Promise<unknown>): Promise<ArchiveError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  assert.ok(e instanceof ArchiveError, `an ArchiveError, got ${String(e)}`);
  return e;
}

const cases: [FaultMode, ArchiveErrorKind, RegExp, number?][] = [
  [
    '404',
    'http',
    /^HTTP 404 from http:\/\/127\.0\.0\.1:\d+\/fault\/404\/esmond\/perfsonar\/archive\/.*: Not found\.$/,
    404,
  ],
  ['401', 'http', /^HTTP 401 from .*: Invalid token\.$/, 401],
  ['500-json', 'http', /^HTTP 500 from .*: Cassandra timeout while reading ps_metadata \(simulated\)$/, 500],
  ['500-html', 'http', /^HTTP 500 from .*: non-JSON body: <!DOCTYPE html>.*Internal Server Error/, 500],
  [
    'malformed-json',
    'not-json',
    /answered 200 with a body that is not JSON \(content-type application\/json\): \[\{"metadata-key": "abc"/,
    200,
  ],
  ['not-a-list', 'not-json', /did not return a list of metadata \(got an object\)/],
  [
    'redirect',
    'redirect',
    /answered 301 redirecting to http:\/\/127\.0\.0\.1:\d+\/esmond\/perfsonar\/archive\/.*not followed/,
    301,
  ],
  ['hang', 'timeout', /no response from .* within (300|900) ms/],
  ['slow-body', 'timeout', /(stalled for 300 ms|did not complete within 900 ms \(request deadline\))/],
];

for (const [mode, kind, message, status] of cases) {
  test(`metadata search against an archive answering ${mode}`, async () => {
    const e = await failure(
      searchMetadata({ url: server.faultUrl(mode), timeoutMs: 300 }, { source: '10.0.0.1' }, { all: true }),
    );
    assert.equal(e.kind, kind);
    assert.match(e.message, message);
    if (status !== undefined) assert.equal(e.status, status);
    if (mode === 'redirect')
      assert.match(String(e.location), /^http:\/\/127\.0\.0\.1:\d+\/esmond\/perfsonar\/archive\//);
  });
}

test('a series read fails the same way (500 with a JSON body) and a series that is an object is reported', async () => {
  const e = await failure(
    fetchSeries({ url: server.origin }, `/fault/500-json/esmond/perfsonar/archive/k/throughput/base`),
  );
  assert.equal(e.kind, 'http');
  assert.equal(e.detail, 'Cassandra timeout while reading ps_metadata (simulated)');
  const e2 = await failure(
    fetchSeries({ url: server.origin }, `/fault/not-a-list/esmond/perfsonar/archive/k/throughput/base`),
  );
  assert.match(e2.message, /did not return a list of points \(got object\)/);
});

test('setFault switches the whole archive into a failure and back', async () => {
  server.setFault('500-html');
  try {
    assert.equal((await failure(searchMetadata({ url: server.url }))).status, 500);
  } finally {
    server.setFault(undefined);
  }
  assert.deepEqual((await searchMetadata({ url: server.url })).metadata, []);
});

test('a refused connection', async () => {
  const url = await refusedArchiveUrl();
  const e = await failure(searchMetadata({ url }));
  assert.equal(e.kind, 'refused');
  assert.equal(e.message, `connection refused by ${url}`);
  assert.equal((await failure(fetchSeries({ url }, 'k/throughput/base'))).kind, 'refused');
});

test('a host that does not resolve, and TLS spoken to a plain HTTP port', async () => {
  const dns = await failure(searchMetadata({ url: 'https://archive.does-not-exist.invalid', timeoutMs: 5000 }));
  assert.ok(dns.kind === 'dns' || dns.kind === 'timeout', dns.message);
  assert.match(dns.message, /archive\.does-not-exist\.invalid/);
  const tls = await failure(searchMetadata({ url: `https://127.0.0.1:${server.port}` }));
  assert.equal(tls.kind, 'tls');
  assert.match(tls.message, /^TLS problem talking to https:\/\/127\.0\.0\.1:\d+\/esmond\/perfsonar\/archive\//);
});

test('bad input is refused before any request', async () => {
  assert.equal((await failure(searchMetadata({ url: 'ftp://x' }))).kind, 'bad-url');
  assert.equal((await failure(searchMetadata({ url: server.url }, { 'time-start': 1.5 }))).kind, 'bad-input');
  assert.equal(
    (await failure(fetchSeries({ url: server.url }, '/k/throughput/base', { 'time-start': 9, 'time-end': 1 }))).kind,
    'bad-input',
  );
});

test('a GET whose kept-alive connection is reset is sent once more; a second reset is reported', async () => {
  let resets = 1;
  const tiny = await tinyServer((req, res) => {
    if (resets-- > 0) return void req.socket.destroy();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('[]');
  });
  try {
    assert.deepEqual((await searchMetadata({ url: tiny.origin })).metadata, []);
    assert.equal(tiny.requests.length, 2);
    resets = 2;
    const e = await failure(searchMetadata({ url: tiny.origin }));
    assert.equal(e.kind, 'network');
    assert.match(
      e.message,
      /^network error talking to http:\/\/127\.0\.0\.1:\d+\/esmond\/perfsonar\/archive\/: (ECONNRESET|UND_ERR_SOCKET) /,
    );
  } finally {
    await tiny.close();
  }
});
