// The local archive's two modes where the seed (001) and deployed esmond differ: status of writes and their body,
// error bodies, default pages for metadata and series, and the statistics value shape.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'undici';
import { startArchiveServer, type ArchiveMode } from './server/server';

const TOKEN = 'modes-token-0001';
const NOW = Math.floor(Date.now() / 1000);

async function call(
  url: string,
  method: string,
  body?: unknown,
): Promise<{ status: number; text: string; json: unknown }> {
  const res = await request(url, {
    method: method as 'GET',
    headers: { authorization: `Token ${TOKEN}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.body.text();
  let json: unknown;
  try {
    json = JSON.parse(text) as unknown;
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, text, json };
}

const expected: Record<ArchiveMode, { write: number; body: string; seriesAll: number; page: number }> = {
  seed: { write: 200, body: '', seriesAll: 5000, page: 1000 },
  esmond: { write: 201, body: '""', seriesAll: 1500, page: 1500 },
};

for (const mode of ['seed', 'esmond'] as ArchiveMode[]) {
  test(`${mode} mode: writes, errors, default pages and statistics as ${mode === 'seed' ? 'the seed documents them' : 'deployed esmond answers'}`, async () => {
    const server = await startArchiveServer({
      seed: { fixtures: false, generated: true, benchPoints: 5000, now: NOW },
      tokens: [TOKEN],
      mode,
    });
    try {
      assert.equal(server.mode, mode);
      const want = expected[mode];
      const reg = await call(server.url, 'POST', {
        'subject-type': 'point-to-point',
        source: '10.30.0.1',
        destination: '10.30.0.2',
        'measurement-agent': '10.30.0.1',
        'input-source': 'm1',
        'input-destination': 'm2',
        'tool-name': 'pscheduler/powstream',
        'event-types': [{ 'event-type': 'packet-count-sent', summaries: [] }],
      });
      assert.equal(reg.status, want.write);
      const base = `${server.origin}${(reg.json as { uri: string }).uri}packet-count-sent/base`;
      const post = await call(base, 'POST', { ts: NOW - 60, val: 600 });
      assert.equal(post.status, want.write);
      assert.equal(post.text, want.body);
      const bad = await call(base, 'POST', { ts: 'soon', val: 1 });
      assert.equal(bad.status, 400);
      assert.deepEqual(
        Object.keys(bad.json as object).sort(),
        mode === 'seed' ? ['error'] : ['detail', 'error'],
        'the seed: a single `error` field',
      );

      // A series read without time filters: all of it (seed) or esmond's first page.
      const bench = (
        (await call(`${server.url}?tool-name=bench/generated`, 'GET')).json as {
          'event-types': { 'base-uri': string }[];
        }[]
      )[0];
      const all = await call(`${server.origin}${bench['event-types'][0]['base-uri']}`, 'GET');
      assert.equal((all.json as unknown[]).length, want.seriesAll);

      // Metadata: the default page.
      for (let i = 0; i < 1100; i++)
        server.store.register({
          'subject-type': 'point-to-point',
          source: `10.40.${i >> 8}.${i & 255}`,
          destination: '10.40.9.9',
          'measurement-agent': '10.40.9.9',
          'input-source': `s${i}`,
          'input-destination': 'd',
          'tool-name': 'pscheduler/iperf3',
          'event-types': [{ 'event-type': 'throughput', summaries: [] }],
        });
      const page = (await call(server.url, 'GET')).json as unknown[];
      assert.equal(page.length, Math.min(want.page, server.store.records.size));

      // Statistics: the seed says maximum and minimum are strings, mode a list of strings.
      const rtt = (
        (await call(`${server.url}?event-type=histogram-rtt&summary-type=statistics`, 'GET')).json as {
          'event-types': { 'event-type': string; summaries: { 'summary-type': string; uri: string }[] }[];
        }[]
      )[0];
      const stats = rtt['event-types']
        .find((e) => e['event-type'] === 'histogram-rtt')
        ?.summaries.find((s) => s['summary-type'] === 'statistics');
      assert.ok(stats, 'the generated data has rtt statistics');
      const points = (await call(`${server.origin}${stats.uri}?time-range=86400`, 'GET')).json as {
        val: { maximum: unknown; minimum: unknown; mode: unknown[]; mean: unknown };
      }[];
      assert.ok(points.length > 0);
      const v = points[0].val;
      const kind = mode === 'seed' ? 'string' : 'number';
      assert.equal(typeof v.maximum, kind);
      assert.equal(typeof v.minimum, kind);
      assert.ok(v.mode.every((x) => typeof x === kind));
      assert.equal(typeof v.mean, 'number');
    } finally {
      await server.close();
    }
  });
}
