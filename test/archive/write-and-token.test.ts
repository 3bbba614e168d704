// The write side and token handling, against the local archive: register (201, idempotent), post one point,
// bulk PUT, esmond's timeseries vectors (summaries, 400s, 409); the token goes on writes, on reads only when
// asked, and never appears in an error message.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ArchiveError } from '../../archive-client/errors';
import { closeArchiveConnections } from '../../archive-client/http';
import { searchMetadata } from '../../archive-client/search';
import { fetchSeries } from '../../archive-client/series';
import { histogramStatistics, mergeHistograms } from '../../archive-client/statistics';
import type { ArchiveOptions } from '../../archive-client/types';
import { type MetadataRegistration, postPoint, putBulk, registerMetadata } from '../../archive-client/write';
import { FIXTURES, json, tinyServer, trackUnhandledRejections } from './helpers';
import { loadDjango } from './server/seed-fixtures';
import { type ArchiveMode, type ArchiveServerHandle, startArchiveServer } from './server/server';

const TOKEN = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';
const vectors = JSON.parse(readFileSync(join(FIXTURES, 'esmond/derived/test_api_vectors.json'), 'utf8')) as {
  post_metadata: { request: MetadataRegistration };
  timeseries: Record<
    string,
    {
      base_url: string;
      start: number;
      interval: number;
      values: unknown[];
      invalid_values_expect_400?: unknown[];
      expected?: Record<string, { ts: number; val: unknown }[]>;
      expected_base_get?: { ts: number; val: unknown }[];
    }
  >;
};

// The archive client runs against both modes of the local archive: the seed's interface and deployed esmond's.
for (const mode of ['seed', 'esmond'] as ArchiveMode[]) {
  describe(`${mode} archive`, () => {
    let server: ArchiveServerHandle;
    let writer: ArchiveOptions;
    /** A write's success status: the seed's 200, esmond's 201. */
    const written = mode === 'seed' ? 200 : 201;
    const unhandled = trackUnhandledRejections();
    before(async () => {
      server = await startArchiveServer({ seed: false, tokens: [TOKEN], mode });
      loadDjango(server.store, join(FIXTURES, 'esmond/api-fixtures/perfsonar_api_metadata.json'), {
        records: 0,
        points: 0,
        warnings: [],
      });
      writer = { url: server.origin, token: TOKEN };
    });
    after(async () => {
      await closeArchiveConnections();
      await server.close();
      unhandled.stop();
      assert.deepEqual(unhandled.list, []);
    });

    /** esmond's test paths have no /esmond prefix; the local archive serves both. */
    const path = (p: string): string => p.replace(/^\/perfsonar\/archive\//, '/esmond/perfsonar/archive/');

    test('registration needs the token, answers 200 (seed) or 201 (esmond) and is idempotent', async () => {
      const body = vectors.post_metadata.request;
      await assert.rejects(
        registerMetadata({ url: server.origin }, body),
        (e: unknown) =>
          e instanceof ArchiveError &&
          e.status === 401 &&
          /Authentication credentials were not provided/.test(e.message),
      );
      const md = await registerMetadata(writer, body);
      assert.match(String(md['metadata-key']), /^[0-9a-f]{32}$/);
      assert.equal(md['event-types']?.length, 2);
      for (const [k, v] of Object.entries(body)) if (k !== 'event-types') assert.equal(md[k], String(v), k);
      const again = await registerMetadata(writer, body);
      assert.equal(again['metadata-key'], md['metadata-key']);
      assert.equal(again.uri, md.uri);
      await assert.rejects(
        registerMetadata(writer, { ...body, 'event-types': [{ 'event-type': 'bogus', summaries: [] }] }),
        /HTTP 400 .*Invalid event-type bogus/,
      );
    });

    test('esmond timeseries vectors: integer, float, percentage, histogram, subinterval, failures', async () => {
      for (const [name, v] of Object.entries(vectors.timeseries)) {
        if (!v.base_url) continue;
        const base = path(v.base_url);
        for (const bad of v.invalid_values_expect_400 ?? ['bad input']) {
          if (name === 'json_failures') break;
          await assert.rejects(
            postPoint(writer, base, v.start, bad),
            (e: unknown) => e instanceof ArchiveError && e.status === 400,
            `${name} rejects ${JSON.stringify(bad)}`,
          );
        }
        assert.equal(await postPoint(writer, base, v.start, v.values[0]), written);
        const counter = !['json_failures', 'histogram_rtt', 'subinterval_throughput_subintervals'].includes(name);
        if (counter)
          await assert.rejects(
            postPoint(writer, base, v.start, v.values[0]),
            (e: unknown) => e instanceof ArchiveError && e.status === 409 && /already exists/.test(e.message),
          );
        const metadataUri = base.replace(/[^/]+\/base\/?$/, '');
        const eventType = base.split('/').filter(Boolean).slice(-2)[0];
        const rest = v.values
          .slice(1)
          .map((val, i) => ({ ts: v.start + (i + 1) * v.interval, val: [{ 'event-type': eventType, val }] }));
        assert.equal(await putBulk(writer, metadataUri, rest), written);
        const read = await fetchSeries({ url: server.origin }, base, {
          'time-start': v.start,
          'time-end': v.start + v.values.length * v.interval,
        });
        assert.equal(read.points.length, v.values.length, `${name}: all points back`);
        if (v.expected_base_get) assert.deepEqual(read.points, v.expected_base_get);
        for (const [url, expected] of Object.entries(v.expected ?? {})) {
          const got = (
            await fetchSeries({ url: server.origin }, path(url), {
              'time-start': expected[0].ts,
              'time-end': expected[0].ts,
            })
          ).points;
          if (name === 'histogram_rtt') {
            // esmond's test enshrines a bulk-PUT quirk (values[0] + values[2]); the local archive sums all three.
            const sum = mergeHistograms(v.values as Record<string, number>[]);
            const want = url.includes('statistics') ? histogramStatistics(sum) : sum;
            assert.ok(want);
            if (url.includes('statistics')) {
              const { count: _c, ...stats } = want as Record<string, unknown>;
              // The seed's shape: maximum and minimum as strings, mode a list of strings (esmond: numbers).
              const shaped =
                mode === 'seed'
                  ? {
                      ...stats,
                      maximum: String(stats.maximum),
                      minimum: String(stats.minimum),
                      mode: (stats.mode as unknown[]).map(String),
                    }
                  : stats;
              assert.deepEqual(got, [{ ts: expected[0].ts, val: shaped }]);
            } else assert.deepEqual(got, [{ ts: expected[0].ts, val: want }]);
          } else assert.deepEqual(got, expected, `${name} ${url}`);
        }
      }
    });

    test('the token is sent on writes, and on reads only when asked', async () => {
      server.requests.length = 0;
      await searchMetadata({ url: server.url, token: TOKEN }, { limit: 1 });
      await fetchSeries(
        { url: server.origin, token: TOKEN },
        '/esmond/perfsonar/archive/f6b732e9f351487a96126f0c25e5e546/throughput/base',
      );
      assert.ok(server.requests.length >= 2);
      assert.ok(
        server.requests.every((r) => r.authorization === undefined),
        'no Authorization on reads by default',
      );
      server.requests.length = 0;
      await searchMetadata({ url: server.url, token: TOKEN, tokenOnReads: true }, { limit: 1 });
      assert.equal(server.requests[0].authorization, `Token ${TOKEN}`);
      server.requests.length = 0;
      await postPoint(writer, '/esmond/perfsonar/archive/f6b732e9f351487a96126f0c25e5e546/failures/base', 1500000000, {
        error: 'x',
      });
      assert.equal(server.requests[0].method, 'POST');
      assert.equal(server.requests[0].authorization, `Token ${TOKEN}`);
    });

    test("a wrong token fails with the archive's message and the token appears nowhere in it", async () => {
      const wrong = 'ffffeeeeddddccccbbbbaaaa9999888877776666';
      const err = await registerMetadata({ url: server.url, token: wrong }, vectors.post_metadata.request).then(
        () => undefined,
        (e: unknown) => e,
      );
      assert.ok(err instanceof ArchiveError);
      assert.equal(err.status, 401);
      assert.match(err.message, /Invalid token\./);
      assert.ok(!JSON.stringify({ m: err.message, d: err.detail, u: err.url, s: err.stack }).includes(wrong));
      // With the token on reads, an invalid token breaks reads too (DRF authenticates every request).
      await assert.rejects(
        searchMetadata({ url: server.url, token: wrong, tokenOnReads: true }),
        /HTTP 401 .*Invalid token/,
      );
      // A server that echoes the header back in its error body still does not leak it.
      const echo = await tinyServer((req, res) =>
        json(res, 403, { detail: `refused ${String(req.headers.authorization)} for ${req.url}` }),
      );
      try {
        const e2 = await postPoint({ url: echo.origin, token: wrong }, '/x/throughput/base', 1, 1).then(
          () => undefined,
          (e: unknown) => e,
        );
        assert.ok(e2 instanceof ArchiveError);
        assert.ok(!`${e2.message} ${e2.detail}`.includes(wrong), e2.message);
        assert.match(e2.message, /HTTP 403 .*refused Token <redacted>/);
      } finally {
        await echo.close();
      }
    });
  });
}
