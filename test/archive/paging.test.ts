// Paging: metadata over all pages (esmond's 1500 default, first-element paging fields, short pages, a server that
// ignores offset) and time series until the range is complete (time-start = last ts + 1).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { closeArchiveConnections, requestJson } from '../../archive-client/http';
import { searchMetadata } from '../../archive-client/search';
import { fetchSeries } from '../../archive-client/series';
import { json, type TinyServer, tinyServer } from './helpers';
import { type ArchiveMode, type ArchiveServerHandle, startArchiveServer } from './server/server';

// The archive client runs against both modes of the local archive: the seed's interface and deployed esmond's.
for (const mode of ['seed', 'esmond'] as ArchiveMode[]) {
  describe(`${mode} archive`, () => {
    let server: ArchiveServerHandle;
    const NOW = Math.floor(Date.now() / 1000);
    before(async () => {
      server = await startArchiveServer({
        seed: { fixtures: false, generated: false, benchPoints: 5000, now: NOW },
        mode,
      });
      for (let i = 0; i < 1600; i++) {
        server.store.register({
          'subject-type': 'point-to-point',
          source: `10.1.${i >> 8}.${i & 255}`,
          destination: '10.2.0.1',
          'measurement-agent': '10.2.0.1',
          'input-source': `h${i}`,
          'input-destination': 'd',
          'tool-name': 'pscheduler/iperf3',
          'event-types': [{ 'event-type': 'throughput', summaries: [] }],
        });
      }
    });
    after(async () => {
      await closeArchiveConnections();
      await server.close();
    });

    test('an unpaged search gets the default page (seed 1000, esmond 1500) with the total on the first element', async () => {
      const page = mode === 'seed' ? 1000 : 1500;
      const one = await searchMetadata({ url: server.url });
      assert.equal(one.metadata.length, page);
      assert.equal(one.total, 1601);
      assert.match(String(one.metadata[0]['metadata-next-page']), new RegExp(`offset=${page}`));
    });

    test('all pages: every metadata once, whatever the page size', async () => {
      for (const pageSize of [1000, 333, 1601, 5000]) {
        const all = await searchMetadata({ url: server.url }, {}, { all: true, pageSize });
        assert.equal(all.metadata.length, 1601, `page size ${pageSize}`);
        assert.equal(new Set(all.metadata.map((m) => m['metadata-key'])).size, 1601);
        assert.equal(all.pages, Math.ceil(1601 / pageSize));
        assert.equal(all.warning, undefined);
      }
      const filtered = await searchMetadata(
        { url: server.url },
        { 'tool-name': 'pscheduler/iperf3', limit: 400 },
        { all: true },
      );
      assert.equal(filtered.metadata.length, 1600);
      assert.equal(filtered.pages, 4);
    });

    test('paging without paging fields stops on a short page; a server ignoring offset is caught', async () => {
      const items = Array.from({ length: 2500 }, (_, i) => ({
        'metadata-key': `k${String(i).padStart(5, '0')}`,
        source: '10.0.0.1',
      }));
      let tiny: TinyServer | undefined;
      let ignoring: TinyServer | undefined;
      try {
        // Caps every page at 1000 (the documented default) and sends no paging fields.
        tiny = await tinyServer((req, res) => {
          const q = new URL(req.url ?? '/', 'http://x').searchParams;
          const off = Number(q.get('offset') ?? 0);
          json(res, 200, items.slice(off, off + Math.min(1000, Number(q.get('limit') ?? 1000))));
        });
        const got = await searchMetadata({ url: tiny.origin }, {}, { all: true, pageSize: 1000 });
        assert.equal(got.metadata.length, 2500);
        assert.equal(tiny.requests.length, 3);
        ignoring = await tinyServer((_req, res) => json(res, 200, items.slice(0, 10)));
        const looped = await searchMetadata({ url: ignoring.origin }, {}, { all: true, pageSize: 10 });
        assert.equal(looped.metadata.length, 10);
        assert.match(looped.warning ?? '', /same page again/);
        assert.equal(ignoring.requests.length, 2);
      } finally {
        await tiny?.close();
        await ignoring?.close();
      }
    });

    test('a series pages until the range is complete', async () => {
      const md = (await searchMetadata({ url: server.url }, { 'tool-name': 'bench/generated' })).metadata[0];
      const uri = md['event-types']?.[0]['base-uri'];
      assert.ok(uri);
      // Unpaged: the seed's archive answers every point, esmond caps at 1500.
      const raw = await requestJson(new URL(uri, server.url).toString());
      assert.equal((raw.json as unknown[]).length, mode === 'seed' ? 5000 : 1500);
      const all = await fetchSeries({ url: server.url }, uri, { 'time-start': NOW - 50000, 'time-end': NOW });
      assert.equal(all.points.length, 5000);
      assert.equal(all.pages, 6);
      const ts = all.points.map((p) => Number(p.ts));
      assert.ok(
        ts.every((t, i) => i === 0 || t > ts[i - 1]),
        'strictly ascending, no duplicates',
      );
      assert.equal(ts[0], NOW - 50000);
      const part = await fetchSeries({ url: server.url }, uri, {
        'time-start': NOW - 20000,
        'time-end': NOW - 10000,
        pageSize: 300,
      });
      assert.equal(part.points.length, 1001, 'inclusive bounds');
      assert.equal(part.pages, 4);
      // time-range alone runs back from the moment of the request: between the counts at the call's start and end.
      const inLastHour = (at: number): number => Math.floor((NOW - 10 - (at - 3600)) / 10) + 1;
      const t0 = Math.floor(Date.now() / 1000);
      const recent = await fetchSeries({ url: server.url }, uri, { 'time-range': 3600 });
      const t1 = Math.ceil(Date.now() / 1000);
      assert.ok(
        recent.points.length <= inLastHour(t0) + 1 && recent.points.length >= inLastHour(t1) - 1,
        String(recent.points.length),
      );
      const at = await fetchSeries({ url: server.url }, uri, { time: NOW - 10 });
      assert.deepEqual(
        at.points.map((p) => p.ts),
        [NOW - 10],
      );
      const pasted = await fetchSeries({ url: `127.0.0.1:${server.port}` }, uri, { time: NOW - 10 });
      assert.equal(pasted.points.length, 1, 'a URI resolves against the archive URL as pasted');
      const none = await fetchSeries({ url: server.url }, uri, { 'time-start': 0, 'time-end': 100 });
      assert.deepEqual(none.points, []);
    });

    test('a series server that ignores limit and time-start does not loop', async () => {
      const pts = Array.from({ length: 1200 }, (_, i) => ({ ts: 1000 + i, val: i }));
      const tiny = await tinyServer((_req, res) => json(res, 200, pts));
      try {
        const got = await fetchSeries({ url: tiny.origin }, '/x/throughput/base', { pageSize: 1000 });
        assert.equal(got.points.length, 1200);
        assert.equal(tiny.requests.length, 2);
      } finally {
        await tiny.close();
      }
    });

    test('a series server capping pages at 1500 whatever limit is asked still gives the whole range', async () => {
      const pts = Array.from({ length: 4100 }, (_, i) => ({ ts: 1000 + i, val: i }));
      const tiny = await tinyServer((req, res) => {
        const start = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('time-start') ?? 0);
        json(res, 200, pts.filter((p) => p.ts >= start).slice(0, 1500));
      });
      try {
        const got = await fetchSeries({ url: tiny.origin }, '/x/throughput/base', { 'time-start': 0, pageSize: 10000 });
        assert.equal(got.points.length, 4100);
        assert.equal(tiny.requests.length, 3);
      } finally {
        await tiny.close();
      }
    });
  });
}
