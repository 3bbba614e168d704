// The explorer's pure modules (no browser): HTML/CSP, formatting, conversion of real esmond documentation
// responses, statistics from histograms, export, trace path changes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildExplorerHtml, explorerCsp, makeNonce } from '../../client/src/explorer/html';
import { bucketToMs, rowOfMetadata, seriesDataOf, statsDataOf, unitOf } from '../../client/src/explorer/archive-view';
import { exportCsv, exportJson, CSV_HEADER } from '../../client/src/explorer/export';
import { resolveTime } from '../../client/src/explorer/time';
import { summariesFor, filtersOfForm } from '../../client/src/explorer/host';
import { emptyForm, type SeriesResult, type ShownSeries } from '../../client/src/explorer/messages';
import {
  formatValue,
  formatTick,
  formatWindow,
  fromDateTimeLocal,
  toDateTimeLocal,
  siPrefix,
} from '../../client/src/webview/format';
import { pathChanges, pathSignature } from '../../client/src/webview/trace';
import { normalisePoints } from '../../archive-client/values';
import { statisticsFromHistograms, chooseSeries } from '../../archive-client/summaries';
import type { Metadata, RawPoint } from '../../archive-client/types';
import { esmondFixturesDir } from '../fixtures';

const docs = join(esmondFixturesDir, 'esmond', 'docs-rest');
const readJson = <T>(name: string): T => JSON.parse(readFileSync(join(docs, name), 'utf8')) as T;

test('the HTML has a strict CSP with the nonce on its only script, and no remote resource', () => {
  const nonce = makeNonce();
  assert.match(nonce, /^[A-Za-z0-9]{32}$/);
  assert.notEqual(makeNonce(), nonce);
  const html = buildExplorerHtml({
    scriptUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview/explorer.js',
    styleUris: ['https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview/uPlot.min.css'],
    cspSource: 'https://*.vscode-cdn.net',
    nonce,
  });
  const csp = explorerCsp('https://*.vscode-cdn.net', nonce);
  assert.ok(html.includes(`content="${csp.replace(/'/g, "'")}"`));
  assert.match(csp, /^default-src 'none'; /);
  assert.match(csp, new RegExp(`script-src 'nonce-${nonce}'`));
  assert.match(csp, /connect-src 'none'/);
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
  assert.equal((html.match(/<script/g) ?? []).length, 1);
  assert.ok(html.includes(`<script nonce="${nonce}" src=`));
  assert.doesNotMatch(html, /style="/, 'no inline style attributes');
  assert.throws(
    () => buildExplorerHtml({ scriptUri: 'x', styleUris: [], cspSource: "x'; script-src *" }),
    /unsafe cspSource/,
  );
  // VS Code's own webview.cspSource (desktop and web) quotes 'self'.
  assert.match(
    buildExplorerHtml({ scriptUri: 'x', styleUris: [], cspSource: "'self' https://*.vscode-cdn.net" }),
    /style-src 'self' https:\/\/\*\.vscode-cdn\.net;/,
  );
  assert.ok(
    buildExplorerHtml({ scriptUri: 'a"b', styleUris: [], cspSource: 'http://127.0.0.1:1' }).includes('src="a&quot;b"'),
  );
});

test('formatting: SI bits/s, percent, ms, windows, UTC date inputs', () => {
  assert.equal(formatValue(9.41e9, 'bps'), '9.41 Gb/s');
  assert.equal(formatValue(7016320000, 'bps'), '7.02 Gb/s');
  assert.equal(formatValue(950e6, 'bps'), '950 Mb/s');
  assert.equal(formatValue(512, 'bps'), '512 b/s');
  assert.equal(formatValue(100, 'count'), '100');
  assert.equal(formatTick(2e9, 'bps'), '2 Gb/s');
  assert.equal(formatValue(10.5e6, 'bps'), '10.5 Mb/s');
  assert.equal(formatValue(4.666666, '%'), '4.67 %');
  assert.equal(formatValue(0.0015, '%'), '0.0015 %');
  assert.equal(formatValue(null, 'ms'), '—');
  assert.equal(formatValue(0.246, 'ms'), '0.246 ms');
  assert.equal(formatTick(1e10, 'bps'), '10 Gb/s');
  assert.equal(siPrefix(1500), '1.5 k');
  assert.equal(formatWindow(0), 'base');
  assert.equal(formatWindow(300), '5 min');
  assert.equal(formatWindow(86400), '1 d');
  assert.equal(fromDateTimeLocal(toDateTimeLocal(1391558400)), 1391558400);
  assert.deepEqual(resolveTime({ preset: '1w' }, 1000000), { start: 1000000 - 604800, end: 1000000 });
  assert.deepEqual(resolveTime({ start: 20, end: 10 }, 0), { start: 10, end: 20 });
});

test('a documented metadata list becomes table rows (string windows, free-form fields as strings)', () => {
  const list = readJson<Metadata[]>('L0026_metadata-list-response_throughput-search.json');
  const row = rowOfMetadata(list[0]);
  assert.equal(row.source, '10.1.1.1');
  assert.equal(row.destination, '10.1.1.2');
  assert.equal(row.key, 'f6b732e9f351487a96126f0c25e5e546');
  assert.deepEqual(row.eventTypes.map((e) => e.eventType).sort(), [
    'failures',
    'packet-retransmits',
    'throughput',
    'throughput-subintervals',
  ]);
  const thr = row.eventTypes.find((e) => e.eventType === 'throughput');
  assert.deepEqual(thr?.summaries, [
    {
      type: 'average',
      window: 86400,
      uri: '/esmond/perfsonar/archive/f6b732e9f351487a96126f0c25e5e546/throughput/averages/86400',
    },
  ]);
  assert.equal(row.lastUpdate, 1397482735);
  assert.equal(typeof row.fields['time-duration'], 'string');
  assert.ok(!('event-types' in row.fields) && !('source' in row.fields));
  // Garbage never throws: a metadata object with nothing usable still yields a row.
  const bare = rowOfMetadata({
    'event-types': [{ 'event-type': 'throughput' }, null] as unknown as Metadata['event-types'],
  });
  assert.equal(bare.eventTypes.length, 1);
  assert.equal(bare.lastUpdate, null);
  assert.equal(rowOfMetadata({ url: 'not a url' }).uri, 'not a url');
});

test('throughput reads its average (never a sum of rates) or base; counts keep their aggregation', () => {
  const et = {
    'event-type': 'throughput',
    'base-uri': '/a/throughput/base',
    summaries: [
      { 'summary-type': 'aggregation', 'summary-window': '3600', uri: '/a/throughput/aggregations/3600' },
      { 'summary-type': 'average', 'summary-window': '86400', uri: '/a/throughput/averages/86400' },
    ],
  };
  assert.equal(chooseSeries(summariesFor(et, 3600), 3600)?.summaryType, 'base');
  assert.equal(chooseSeries(summariesFor(et, 86400), 86400)?.uri, '/a/throughput/averages/86400');
  const rtx = { ...et, 'event-type': 'packet-retransmits' };
  assert.equal(chooseSeries(summariesFor(rtx, 3600), 3600)?.uri, '/a/throughput/aggregations/3600');
});

test('documented series convert to chart columns: throughput floats, loss fractions → %, string traces', () => {
  const thr = readJson<RawPoint[]>('L0086_base-data-response_throughput.json');
  const d = seriesDataOf(normalisePoints('throughput', 'base', thr), 'number').data;
  assert.equal(d.kind, 'number');
  assert.equal(d.ts.length, thr.length);
  assert.equal(unitOf('throughput'), 'bps');
  const loss = readJson<RawPoint[]>('L0560_base-data-response_packet-loss-rate.json');
  const l = seriesDataOf(normalisePoints('packet-loss-rate', 'base', loss), 'number', 100).data;
  assert.ok(l.kind === 'number' && Math.abs((l.values[0] ?? 0) - Number(loss[0].val) * 100) < 1e-9);
  const trace = readJson<RawPoint[]>('L0593_base-data-response_packet-trace.json');
  const t = seriesDataOf(normalisePoints('packet-trace', 'base', trace), 'trace').data;
  assert.ok(t.kind === 'trace');
  assert.equal(t.hops[0][0].ttl, 1);
  assert.equal(t.hops[0][0].rtt, 0.246);
  assert.equal(t.hops[0][0].mtu, 9000);
  const subs = readJson<RawPoint[]>('L0726_base-data-response_packet-retransmits-subintervals.json');
  const s = seriesDataOf(normalisePoints('packet-retransmits-subintervals', 'base', subs), 'subintervals').data;
  assert.ok(s.kind === 'subintervals' && s.intervals[0].length > 0 && typeof s.intervals[0][0].start === 'number');
  // A point of the wrong shape is counted as skipped, not thrown.
  const bad = seriesDataOf(
    normalisePoints('throughput', 'base', [
      { ts: 1, val: 'fast' },
      { ts: 2, val: '7' },
    ]),
    'number',
  );
  assert.equal(bad.skipped, 1);
  assert.deepEqual(bad.data.ts, [2]);
});

test('latency statistics computed from base histograms match esmond (worked example) and scale by bucket width', () => {
  const pts = normalisePoints('histogram-owdelay', 'base', [
    { ts: 100, val: { '41.0': 98, '41.1': 98, '41.2': 3, '50.0': 1 } },
  ]);
  const d = statsDataOf(statisticsFromHistograms(pts, 0));
  assert.ok(d.kind === 'stats' && d.computed);
  assert.equal(d.median[0], 41.1);
  assert.equal(d.min[0], 41.0);
  assert.equal(d.p95[0], 41.1);
  assert.ok(Math.abs((d.mean[0] ?? 0) - 41.097) < 1e-9);
  assert.equal(bucketToMs('histogram-owdelay', { 'sample-bucket-width': '0.0001' }), 0.1);
  assert.equal(bucketToMs('histogram-owdelay', {}), 1);
  assert.equal(bucketToMs('histogram-rtt', { 'sample-bucket-width': '0.0001' }), 1);
});

test('export: CSV long form with quoting, JSON with nested values', () => {
  const result = (data: SeriesResult['data'], eventType: string): SeriesResult => ({
    eventType,
    summaryType: 'base',
    window: 0,
    windowReason: 'auto',
    uri: '/x',
    unit: 'bps',
    data,
    received: data.ts.length,
    pages: 1,
    fetchMs: 0,
    transformMs: 0,
    skipped: 0,
  });
  const shown: ShownSeries[] = [
    {
      direction: 'forward',
      source: 'a',
      destination: 'b',
      result: result({ kind: 'number', ts: [10, 20], values: [1e9, null] }, 'throughput'),
    },
    {
      direction: 'reverse',
      source: 'b',
      destination: 'a',
      result: result({ kind: 'failures', ts: [30], errors: ['refused, "busy"\nretry'] }, 'failures'),
    },
    {
      direction: 'forward',
      source: 'a',
      destination: 'b',
      result: result(
        {
          kind: 'trace',
          ts: [40],
          hops: [[{ ttl: 1, query: 1, success: true, ip: '192.0.2.1', rtt: 1.5, mtu: null }]],
        },
        'packet-trace',
      ),
    },
  ];
  const csv = exportCsv(shown);
  const lines = csv.trimEnd().split('\n');
  assert.equal(lines[0], CSV_HEADER.join(','));
  assert.equal(lines[1], 'forward,a,b,throughput,base,0,bps,10,1970-01-01T00:00:10.000Z,value,1000000000');
  assert.equal(lines[2], 'forward,a,b,throughput,base,0,bps,20,1970-01-01T00:00:20.000Z,value,');
  assert.ok(csv.includes('"refused, ""busy""\nretry"'));
  assert.ok(csv.includes(',hop1.1.ip,192.0.2.1'));
  const json = JSON.parse(exportJson(shown, { start: 0, end: 50 })) as {
    'time-start': number;
    series: { points: Record<string, unknown>[] }[];
  };
  assert.equal(json['time-start'], 0);
  assert.deepEqual(json.series[0].points[0], { ts: 10, value: 1e9 });
  assert.deepEqual((json.series[2].points[0].hops as { ip: string }[])[0].ip, '192.0.2.1');
});

test('trace path changes: signature per TTL, distinct paths in order, change count', () => {
  const hop = (ttl: number, ip: string, success = true) => ({ ttl, query: 1, success, ip, rtt: 1, mtu: null });
  const p1 = [hop(1, 'a'), hop(2, 'b')];
  const p2 = [hop(1, 'a'), hop(2, 'c')];
  const p3 = [hop(1, 'a'), hop(2, '', false)];
  assert.equal(pathSignature(p3), 'a *');
  const r = pathChanges([1, 2, 3, 4], [p1, p1, p2, p1]);
  assert.equal(r.paths.length, 2);
  assert.deepEqual(r.index, [0, 0, 1, 0]);
  assert.equal(r.changes, 2);
  assert.deepEqual([r.paths[0].first, r.paths[0].last, r.paths[0].runs], [1, 4, 3]);
});

test('the search form becomes archive filters (blank is no filter, extras verbatim, time only when asked)', () => {
  const f = filtersOfForm(
    { ...emptyForm(), source: ' 10.0.0.1 ', toolName: 'pscheduler/iperf3', fields: [['ip-transport-protocol', 'tcp']] },
    { start: 1, end: 2 },
  );
  assert.deepEqual(f, {
    source: '10.0.0.1',
    'tool-name': 'pscheduler/iperf3',
    fields: { 'ip-transport-protocol': 'tcp' },
  });
  const g = filtersOfForm({ ...emptyForm(), timeFilterMetadata: true }, { start: 1, end: 2 });
  assert.deepEqual(g, { 'time-start': 1, 'time-end': 2 });
});
