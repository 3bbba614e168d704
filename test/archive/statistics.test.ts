// Histogram statistics against esmond's own test vectors (fixtures esmond/derived/test_api_vectors.json).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { histogramStatistics, mergeHistograms, NistPercentile } from '../../archive-client/statistics';
import { statisticsFromHistograms } from '../../archive-client/summaries';
import { normalisePoints } from '../../archive-client/values';
import { FIXTURES } from './helpers';

const vectors = JSON.parse(readFileSync(join(FIXTURES, 'esmond/derived/test_api_vectors.json'), 'utf8')) as {
  percentile_unit_cases: {
    percentile: number;
    sample_size: number;
    findvalue_calls: [number, number][];
    expected: number;
  }[];
  timeseries: {
    histogram_rtt: {
      values: Record<string, number>[];
      expected: Record<string, { ts: number; val: Record<string, unknown> }[]>;
    };
  };
};

test('NIST percentile resolves the unit cases of esmond', () => {
  for (const c of vectors.percentile_unit_cases) {
    const p = new NistPercentile(c.percentile, c.sample_size);
    for (const [count, value] of c.findvalue_calls) p.feed(count, value);
    assert.ok(p.done, `p${c.percentile} of ${c.sample_size} resolved`);
    assert.ok(Math.abs((p.value as number) - c.expected) < 1e-9, `p${c.percentile}: ${p.value} vs ${c.expected}`);
  }
});

test('statistics of the worked example {41.0:98, 41.1:98, 41.2:3, 50.0:1}', () => {
  const s = histogramStatistics({ '41.0': 98, '41.1': 98, '41.2': 3, '50.0': 1 });
  assert.ok(s);
  assert.equal(s.median, 41.1);
  assert.equal(s['percentile-25'], 41.0);
  assert.equal(s['percentile-75'], 41.1);
  assert.equal(s['percentile-95'], 41.1);
  assert.ok(Math.abs(s.mean - 41.097) < 1e-9);
  assert.ok(Math.abs(s.variance - 0.401091) < 1e-9);
  assert.ok(Math.abs(s['standard-deviation'] - 0.63332) < 1e-5);
  assert.equal(s.minimum, 41.0);
  assert.equal(s.maximum, 50.0);
  assert.deepEqual(s.mode, [41.0, 41.1]);
});

test('statistics of the esmond histogram-rtt vector (values[0] + values[2], the aggregation the test expects)', () => {
  const h = vectors.timeseries.histogram_rtt;
  const agg = mergeHistograms([h.values[0], h.values[2]]);
  const expectedAgg = Object.values(h.expected).find((v) => !('mean' in v[0].val))?.[0].val;
  assert.deepEqual(agg, expectedAgg);
  const s = histogramStatistics(agg);
  const expected = Object.entries(h.expected).find(([k]) => k.includes('statistics'))?.[1][0].val as Record<
    string,
    unknown
  >;
  assert.ok(s && expected);
  for (const k of [
    'median',
    'minimum',
    'maximum',
    'percentile-25',
    'percentile-75',
    'percentile-95',
    'mean',
    'variance',
    'standard-deviation',
  ]) {
    assert.ok(Math.abs((s as unknown as Record<string, number>)[k] - Number(expected[k])) < 1e-9, k);
  }
  assert.deepEqual([...s.mode].sort(), [...(expected.mode as number[])].sort());
});

test('a histogram with a non-numeric bucket has no statistics (esmond stores {})', () => {
  assert.equal(histogramStatistics({ test: 100 }), undefined);
  assert.equal(histogramStatistics({}), undefined);
});

test('statistics from base histograms, per point and merged into windows', () => {
  const pts = normalisePoints('histogram-owdelay', 'base', [
    { ts: 600, val: { '10': 5, '12': 5 } },
    { ts: 660, val: { '10': '5', '20': '5' } },
    { ts: 960, val: { '30': 1 } },
  ]);
  const per = statisticsFromHistograms(pts);
  assert.deepEqual(
    per.map((p) => p.stats.minimum),
    [10, 10, 30],
  );
  const binned = statisticsFromHistograms(pts, 300);
  assert.deepEqual(
    binned.map((p) => p.ts),
    [600, 900],
  );
  assert.equal(binned[0].stats.count, 20);
  assert.equal(binned[0].stats.maximum, 20);
  assert.equal(binned[0].stats.mean, (10 * 10 + 12 * 5 + 20 * 5) / 20);
});
