// URL normalising, time parsing, time windows and the choice of summary series (reference esmond.md §1g).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ArchiveError, redact } from '../../archive-client/errors';
import { resolveTimeWindow } from '../../archive-client/series';
import { chooseSeries, parseSeriesUri, selectWindow, summaryWindowForRange } from '../../archive-client/summaries';
import type { EventTypeInfo } from '../../archive-client/types';
import {
  normaliseArchiveUrl,
  parseDuration,
  readDuration,
  parseTimestamp,
  resolveArchiveUri,
  searchParams,
} from '../../archive-client/url';

test('what users paste becomes the archive list URL', () => {
  const want = 'https://ps.example.net/esmond/perfsonar/archive/';
  for (const input of [
    'ps.example.net',
    'https://ps.example.net',
    'https://ps.example.net/',
    'https://ps.example.net/esmond',
    'https://ps.example.net/esmond/perfsonar',
    'https://ps.example.net/esmond/perfsonar/archive',
    'https://ps.example.net/esmond/perfsonar/archive/',
    ' https://ps.example.net/esmond/perfsonar/archive/?format=json#x ',
    'ps.example.net/esmond/perfsonar/archive',
    'https://ps.example.net/esmond/perfsonar/archive.json',
  ]) {
    assert.equal(normaliseArchiveUrl(input), want, input);
  }
  assert.equal(normaliseArchiveUrl('127.0.0.1:8085'), 'http://127.0.0.1:8085/esmond/perfsonar/archive/');
  assert.equal(normaliseArchiveUrl('http://dev:8000/perfsonar/archive'), 'http://dev:8000/perfsonar/archive/');
  assert.equal(
    normaliseArchiveUrl('https://proxy.example.org/ma/esmond/perfsonar/archive'),
    'https://proxy.example.org/ma/esmond/perfsonar/archive/',
  );
  for (const bad of ['', 'ftp://x/', 'http://']) {
    assert.throws(
      () => normaliseArchiveUrl(bad),
      (e: unknown) => e instanceof ArchiveError && e.kind === 'bad-url',
    );
  }
  assert.equal(
    resolveArchiveUri(want, '/esmond/perfsonar/archive/k/throughput/base'),
    'https://ps.example.net/esmond/perfsonar/archive/k/throughput/base',
  );
});

test('search parameters carry every filter and reject non-integer times', () => {
  const p = searchParams({
    source: 'a',
    destination: 'b',
    'measurement-agent': 'm',
    'input-source': 'is',
    'input-destination': 'id',
    'tool-name': 't',
    'event-type': 'throughput',
    'summary-type': 'average',
    'summary-window': 86400,
    'dns-match-rule': 'only-v4',
    time: 5,
    'time-start': 1,
    'time-end': 9,
    'time-range': 60,
    limit: 10,
    offset: 20,
    fields: { 'ip-transport-protocol': 'tcp' },
  });
  assert.deepEqual(
    Object.keys(p)
      .filter((k) => p[k] !== undefined)
      .sort(),
    [
      'destination',
      'dns-match-rule',
      'event-type',
      'input-destination',
      'input-source',
      'ip-transport-protocol',
      'limit',
      'measurement-agent',
      'offset',
      'source',
      'summary-type',
      'summary-window',
      'time',
      'time-end',
      'time-range',
      'time-start',
      'tool-name',
    ].sort(),
  );
  assert.throws(() => searchParams({ 'time-start': 1.5 }), /time-start must be an integer/);
});

test('times and durations as users type them', () => {
  assert.equal(parseTimestamp('1398965989'), 1398965989);
  assert.equal(parseTimestamp('2014-05-01T17:39:49Z'), 1398965989);
  assert.equal(parseTimestamp('yesterday'), undefined);
  assert.equal(parseDuration('3600'), 3600);
  assert.equal(parseDuration('12h'), 43200);
  assert.equal(parseDuration('1w'), 604800);
  assert.equal(parseDuration('1y'), undefined, 'years have no fixed length');
  assert.equal(parseDuration('soon'), undefined);
});

test('durations: unambiguous units and ISO 8601 accepted, `m`, months and years refused with the reason', () => {
  const ok: [string, number][] = [
    ['90', 90],
    ['30s', 30],
    ['10min', 600],
    ['10 min', 600],
    ['10minutes', 600],
    ['2h', 7200],
    ['1.5h', 5400],
    ['7d', 604800],
    ['2w', 1209600],
    ['PT10M', 600],
    ['pt30s', 30],
    ['P7D', 604800],
    ['P1W', 604800],
    ['P1DT12H', 129600],
    ['PT0.5S', 1],
  ];
  for (const [text, seconds] of ok) assert.deepEqual(readDuration(text), { seconds }, text);
  const refused: [string, RegExp][] = [
    ['10m', /"10m" is ambiguous \(minutes or months\?\): write 10min for minutes/],
    ['10M', /ambiguous/],
    ['1mo', /months and years have no fixed length/],
    ['1y', /months and years have no fixed length/],
    ['P1M', /months and years have no fixed length; give days \(e\.g\. P30D/],
    ['P1Y', /no fixed length/],
    ['P', /not a duration/],
    ['PT', /not a duration/],
    ['3 fortnights', /unknown unit "fortnights"/],
    ['soon', /not a duration/],
  ];
  for (const [text, re] of refused) {
    const r = readDuration(text);
    assert.ok('error' in r, text);
    assert.match(r.error, re, text);
  }
});

test('time windows resolve as esmond handle_time_filters', () => {
  assert.deepEqual(resolveTimeWindow({ time: 5 }), { start: 5, end: 5 });
  assert.deepEqual(resolveTimeWindow({ 'time-start': 10, 'time-end': 20, 'time-range': 999 }), { start: 10, end: 20 });
  assert.deepEqual(resolveTimeWindow({ 'time-start': 10, 'time-range': 5 }), { start: 10, end: 15 });
  assert.deepEqual(resolveTimeWindow({ 'time-end': 10, 'time-range': 5 }), { start: 5, end: 10 });
  assert.deepEqual(resolveTimeWindow({ 'time-range': 60 }, 1000), { start: 940 });
  assert.deepEqual(resolveTimeWindow({}), {});
  assert.throws(() => resolveTimeWindow({ 'time-start': 20, 'time-end': 10 }), /after/);
});

test('summary window follows the range as perfSONAR graphs choose it', () => {
  const h = 3600;
  const d = 86400;
  assert.deepEqual(
    [h, 4 * h, 12 * h, d, 3 * d, 7 * d, 30 * d, 365 * d].map(summaryWindowForRange),
    [0, 0, 0, 300, 300, 3600, 3600, 86400],
  );
  assert.equal(selectWindow(300, [0, 3600, 86400]), 0);
  assert.equal(selectWindow(300, [3600, 86400]), 3600);
  assert.equal(selectWindow(3600, [300, 3600]), 3600);
});

test('series choice: statistics for histograms, aggregation for numbers, base otherwise', () => {
  const k = '/esmond/perfsonar/archive/k/';
  const owd: EventTypeInfo = {
    'event-type': 'histogram-owdelay',
    'base-uri': `${k}histogram-owdelay/base`,
    summaries: [
      { 'summary-type': 'aggregation', 'summary-window': '3600', uri: `${k}histogram-owdelay/aggregations/3600` },
      { 'summary-type': 'statistics', 'summary-window': '0', uri: `${k}histogram-owdelay/statistics/0` },
      { 'summary-type': 'statistics', 'summary-window': '3600', uri: `${k}histogram-owdelay/statistics/3600` },
    ],
  };
  assert.equal(chooseSeries(owd, 3600)?.uri, `${k}histogram-owdelay/statistics/3600`);
  assert.equal(chooseSeries(owd, 300)?.uri, `${k}histogram-owdelay/statistics/0`);
  const rttNoStats: EventTypeInfo = {
    'event-type': 'histogram-rtt',
    'base-uri': `${k}histogram-rtt/base`,
    summaries: [],
  };
  assert.deepEqual(chooseSeries(rttNoStats, 300), {
    uri: `${k}histogram-rtt/base`,
    summaryType: 'base',
    window: 0,
    computeStatistics: true,
  });
  const loss: EventTypeInfo = {
    'event-type': 'packet-loss-rate',
    'base-uri': `${k}packet-loss-rate/base`,
    summaries: [{ 'summary-type': 'aggregation', 'summary-window': 300 }],
  };
  assert.equal(chooseSeries(loss, 300)?.uri, `${k}packet-loss-rate/aggregations/300`);
  assert.equal(chooseSeries(loss, 0)?.uri, `${k}packet-loss-rate/base`);
  const thr: EventTypeInfo = {
    'event-type': 'throughput',
    'base-uri': `${k}throughput/base`,
    summaries: [{ 'summary-type': 'average', 'summary-window': '86400', uri: `${k}throughput/averages/86400` }],
  };
  assert.equal(chooseSeries(thr, 86400)?.summaryType, 'average');
  assert.equal(chooseSeries(thr, 300)?.summaryType, 'base');
  const thrAgg: EventTypeInfo = { ...thr, summaries: [{ 'summary-type': 'aggregation', 'summary-window': '3600' }] };
  assert.equal(chooseSeries(thrAgg, 3600)?.summaryType, 'base', 'a sum of rates is not a rate');
  const retrans: EventTypeInfo = {
    'event-type': 'packet-retransmits',
    'base-uri': `${k}packet-retransmits/base`,
    summaries: [{ 'summary-type': 'aggregation', 'summary-window': '3600' }],
  };
  assert.equal(chooseSeries(retrans, 3600)?.uri, `${k}packet-retransmits/aggregations/3600`);
});

test('series URLs name their event type and summary', () => {
  assert.deepEqual(parseSeriesUri('http://h/esmond/perfsonar/archive/k/throughput/base'), {
    eventType: 'throughput',
    summaryType: 'base',
    window: 0,
  });
  assert.deepEqual(parseSeriesUri('/esmond/perfsonar/archive/k/histogram-owdelay/statistics/300/?time-range=5'), {
    eventType: 'histogram-owdelay',
    summaryType: 'statistics',
    window: 300,
  });
  assert.deepEqual(parseSeriesUri('/a/k/packet-loss-rate/aggregations/3600'), {
    eventType: 'packet-loss-rate',
    summaryType: 'aggregation',
    window: 3600,
  });
  assert.equal(parseSeriesUri('/a/k/'), undefined);
});

test('secrets are redacted from any text that reaches a message', () => {
  assert.equal(
    redact('refused Token abc123def for https://u:pw@h/x', ['abc123def']),
    'refused Token <redacted> for https://<redacted>@h/x',
  );
  assert.equal(redact('key s3cr3t-value in body', ['s3cr3t-value']), 'key <redacted> in body');
  assert.equal(redact('nothing to hide'), 'nothing to hide');
});
