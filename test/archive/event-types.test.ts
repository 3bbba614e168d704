// Every event type of the seed's table, read from the local archive through the client and normalised to its
// value shape (numbers, loss fractions, histograms, statistics, traces, subintervals, streams, failures).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { closeArchiveConnections } from '../../archive-client/http';
import { searchMetadata } from '../../archive-client/search';
import { fetchSeries } from '../../archive-client/series';
import { normalisePoints, normaliseValue, valueKindOf } from '../../archive-client/values';
import { type ArchiveServerHandle, startArchiveServer } from './server/server';

const SEED_EVENT_TYPES = [
  'failures',
  'histogram-owdelay',
  'histogram-rtt',
  'histogram-ttl',
  'histogram-ttl-reverse',
  'ntp-delay',
  'ntp-dispersion',
  'ntp-jitter',
  'ntp-offset',
  'ntp-polling-interval',
  'ntp-reach',
  'ntp-stratum',
  'ntp-wander',
  'packet-duplicates',
  'packet-duplicates-bidir',
  'packet-loss-rate',
  'packet-loss-rate-bidir',
  'packet-trace',
  'packet-count-lost',
  'packet-count-lost-bidir',
  'packet-count-sent',
  'packet-reorders',
  'packet-reorders-bidir',
  'packet-retransmits',
  'packet-retransmits-subintervals',
  'path-mtu',
  'streams-packet-retransmits',
  'streams-packet-retransmits-subintervals',
  'streams-throughput',
  'streams-throughput-subintervals',
  'throughput',
  'throughput-subintervals',
  'time-error-estimates',
];

let server: ArchiveServerHandle;
before(async () => {
  server = await startArchiveServer({ seed: { fixtures: false } });
});
after(async () => {
  await closeArchiveConnections();
  await server.close();
});

test('each event type of the seed reads back in its value shape', async () => {
  const archive = { url: server.url };
  for (const et of SEED_EVENT_TYPES) {
    const found = await searchMetadata(archive, { 'event-type': et, 'time-range': 7 * 86400 });
    assert.ok(found.metadata.length > 0, `the local archive has ${et}`);
    const info = found.metadata[0]['event-types']?.find((e) => e['event-type'] === et);
    assert.ok(info?.['base-uri'], `${et} has a base-uri`);
    const series = await fetchSeries(archive, info['base-uri'], { 'time-range': 7 * 86400 });
    assert.ok(series.points.length > 0, `${et} has points`);
    const points = normalisePoints(et, 'base', series.points);
    const kinds = new Set(points.map((p) => p.val.kind));
    assert.deepEqual([...kinds], [valueKindOf(et)], `${et}: ${[...kinds].join(',')}`);
  }
});

test('summaries come back in their shapes: loss aggregation is a fraction, owdelay statistics carry the percentiles', async () => {
  const archive = { url: server.url };
  const md = (
    await searchMetadata(archive, {
      'event-type': 'histogram-owdelay',
      'summary-type': 'statistics',
      'summary-window': 3600,
    })
  ).metadata[0];
  const owd = md['event-types']?.find((e) => e['event-type'] === 'histogram-owdelay');
  const statsUri = owd?.summaries?.find(
    (s) => s['summary-type'] === 'statistics' && s['summary-window'] === '3600',
  )?.uri;
  assert.ok(statsUri);
  const stats = normalisePoints(
    'histogram-owdelay',
    'statistics',
    (await fetchSeries(archive, statsUri, { 'time-range': 86400 })).points,
  );
  assert.ok(stats.length >= 23);
  for (const p of stats) {
    assert.equal(p.val.kind, 'statistics');
    if (p.val.kind !== 'statistics') continue;
    const s = p.val.stats;
    assert.ok(
      (s.minimum ?? NaN) <= (s.median ?? NaN) &&
        (s.median ?? NaN) <= (s['percentile-95'] ?? NaN) &&
        (s['percentile-95'] ?? NaN) <= (s.maximum ?? NaN),
    );
    assert.equal(p.ts % 3600, 0, 'bins are epoch-aligned');
  }
  const loss = md['event-types']
    ?.find((e) => e['event-type'] === 'packet-loss-rate')
    ?.summaries?.find((s) => s['summary-window'] === '3600');
  assert.ok(loss?.uri);
  const lossPts = normalisePoints(
    'packet-loss-rate',
    'aggregation',
    (await fetchSeries(archive, loss.uri, { 'time-range': 86400 })).points,
  );
  assert.ok(lossPts.every((p) => p.val.kind === 'loss' && p.val.value >= 0 && p.val.value <= 1));
});

test('the generated traceroute changes path a day ago', async () => {
  const archive = { url: server.url };
  const md = (
    await searchMetadata(archive, { 'event-type': 'packet-trace', source: '10.10.0.1', destination: '10.10.0.2' })
  ).metadata[0];
  const uri = md['event-types']?.find((e) => e['event-type'] === 'packet-trace')?.['base-uri'];
  assert.ok(uri);
  const pts = normalisePoints(
    'packet-trace',
    'base',
    (await fetchSeries(archive, uri, { 'time-range': 3 * 86400 })).points,
  );
  const paths = new Set(
    pts.map((p) =>
      p.val.kind === 'packet-trace'
        ? p.val.hops
            .filter((h) => h.success)
            .map((h) => h.ip)
            .join('>')
        : '',
    ),
  );
  assert.ok(paths.size >= 2, 'at least two distinct paths');
});

test('odd value shapes from real archives normalise instead of failing', () => {
  assert.deepEqual(normaliseValue('throughput', 'base', '7016320000.0'), { kind: 'number', value: 7016320000 });
  assert.deepEqual(normaliseValue('packet-loss-rate', 'base', { numerator: '4', denominator: '100' }), {
    kind: 'loss',
    value: 0.04,
    numerator: 4,
    denominator: 100,
  });
  assert.equal(normaliseValue('packet-loss-rate', 'base', '0.25').kind, 'loss');
  const stats = normaliseValue('histogram-owdelay', 'statistics', {
    minimum: '0.5',
    maximum: '12',
    mode: ['1', '2'],
    mean: 3,
  });
  assert.deepEqual(stats, { kind: 'statistics', stats: { minimum: 0.5, maximum: 12, mean: 3, mode: [1, 2] } });
  const trace = normaliseValue('packet-trace', 'base', [
    { ttl: '2', query: '1', success: 0, error_message: 'requested host unreachable' },
    { ttl: '1', query: '1', success: 1, ip: '10.0.0.1', rtt: '0.246', mtu: '9000' },
  ]);
  assert.equal(trace.kind, 'packet-trace');
  if (trace.kind === 'packet-trace') {
    assert.deepEqual(
      trace.hops.map((h) => h.ttl),
      [1, 2],
    );
    assert.equal(trace.hops[0].rtt, 0.246);
    assert.equal(trace.hops[0].mtu, 9000);
    assert.equal(trace.hops[1].error, 'requested host unreachable');
  }
  assert.deepEqual(normaliseValue('failures', 'base', { error: 'boom' }), { kind: 'failure', error: 'boom' });
  assert.equal(normaliseValue('throughput', 'base', 'n/a').kind, 'invalid');
  assert.equal(normaliseValue('histogram-rtt', 'base', [1, 2]).kind, 'invalid');
  assert.equal(normaliseValue('throughput-subintervals', 'base', [{ start: 'x' }]).kind, 'invalid');
  assert.deepEqual(normaliseValue('streams-throughput', 'base', ['1', 2]), { kind: 'streams', streams: [1, 2] });
  assert.equal(valueKindOf('pscheduler-raw'), 'json');
  assert.equal(valueKindOf('histogram-rtt', 'aggregations'), 'histogram');
});
