// The pure pieces of the dashboard model: thresholds (MaDDash's defaults and their direction), overrides,
// host matching (names vs IPs, IPv6 spellings), metadata choice and the window reductions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Metadata } from '../../archive-client/types';
import { canonicalIpv6, hostKey, matchDirection, MetadataIndex } from '../../dashboard/match';
import { classify, effectiveThresholds, formatMetric, METRICS } from '../../dashboard/metrics';
import { reduceSamples } from '../../dashboard/samples';

test('thresholds: throughput is worse below, everything else above; the checks alert strictly outside', () => {
  const t = effectiveThresholds(undefined);
  assert.deepEqual(t.throughput, { warning: 1, critical: 0.5 });
  assert.equal(classify('throughput', 1e9, t.throughput), 'ok');
  assert.equal(classify('throughput', 0.99e9, t.throughput), 'warning');
  assert.equal(classify('throughput', 0.5e9, t.throughput), 'warning');
  assert.equal(classify('throughput', 0.49e9, t.throughput), 'critical');
  // Loss thresholds are percent; values are fractions.
  assert.equal(classify('loss', 0, t.loss), 'ok');
  assert.equal(classify('loss', 0.00001, t.loss), 'ok');
  assert.equal(classify('loss', 0.0001, t.loss), 'warning');
  assert.equal(classify('loss', 0.002, t.loss), 'critical');
  assert.equal(classify('owdelay', 25, t.owdelay), 'ok');
  assert.equal(classify('owdelay', 26, t.owdelay), 'warning');
  assert.equal(classify('rtt', 101, t.rtt), 'critical');
  assert.equal(classify('paths', 1, t.paths), 'ok');
  assert.equal(classify('paths', 2, t.paths), 'warning');
  assert.equal(classify('paths', 3, t.paths), 'critical');
});

test('threshold overrides replace single numbers; anything malformed keeps the default', () => {
  const t = effectiveThresholds({ throughput: { warning: 9 }, loss: { critical: 'x' }, rtt: 5, bogus: {} });
  assert.deepEqual(t.throughput, { warning: 9, critical: METRICS.throughput.defaults.critical });
  assert.deepEqual(t.loss, METRICS.loss.defaults);
  assert.deepEqual(t.rtt, METRICS.rtt.defaults);
});

test('values as a hover shows them', () => {
  assert.equal(formatMetric('throughput', 9.123e9), '9.12 Gbps');
  assert.equal(formatMetric('throughput', 245e6), '245 Mbps');
  assert.equal(formatMetric('loss', 0.0138), '1.38 %');
  assert.equal(formatMetric('rtt', 41.234), '41.2 ms');
  assert.equal(formatMetric('paths', 1), '1 path');
});

test('host keys: IPv6 spellings agree, names are case-insensitive, IPv4 leading zeros dropped', () => {
  assert.equal(canonicalIpv6('2001:DB8:0:0:0:0:0:A'), '2001:db8::a');
  assert.equal(canonicalIpv6('[2001:db8::a]'), '2001:db8::a');
  assert.equal(canonicalIpv6('2001:db8:0:1:0:0:0:1'), '2001:db8:0:1::1');
  assert.equal(canonicalIpv6('::ffff:10.0.0.1'), '::ffff:a00:1');
  assert.equal(canonicalIpv6('host.example.net'), undefined);
  assert.equal(canonicalIpv6('1::2::3'), undefined);
  assert.equal(hostKey('PS-A.Example.NET.'), 'ps-a.example.net');
  assert.equal(hostKey('10.020.0.1'), '10.20.0.1');
});

function md(fields: Partial<Metadata> & Record<string, unknown>, events: Record<string, number | null>): Metadata {
  return {
    'metadata-key': String(fields['metadata-key'] ?? Math.random()),
    'subject-type': 'point-to-point',
    ...fields,
    'event-types': Object.entries(events).map(([e, t]) => ({
      'event-type': e,
      'base-uri': `/esmond/perfsonar/archive/k/${e}/base`,
      'time-updated': t,
    })),
  };
}

test('matching: a direction finds its metadata by spec names (input-*) or by IPs (source/destination)', () => {
  const m = md(
    {
      'metadata-key': 'tp',
      source: '10.0.0.1',
      destination: '2001:db8::2',
      'input-source': 'a.example.net',
      'input-destination': 'B.example.net',
      'pscheduler-test-type': 'throughput',
      'ip-transport-protocol': 'tcp',
    },
    { throughput: 100 },
  );
  const idx = new MetadataIndex([m]);
  const want = { eventType: 'throughput', testType: 'throughput' };
  assert.equal(matchDirection(idx, 'A.example.net', 'b.example.net', want).metadata, m);
  assert.equal(matchDirection(idx, '10.0.0.1', '2001:DB8:0::2', want).metadata, m);
  assert.equal(matchDirection(idx, 'b.example.net', 'a.example.net', want).metadata, undefined);
  // The wrong protocol, test type or event type does not match.
  assert.equal(matchDirection(idx, 'a.example.net', 'b.example.net', { ...want, udp: true }).metadata, undefined);
  assert.equal(
    matchDirection(idx, 'a.example.net', 'b.example.net', { eventType: 'throughput', testType: 'disk-to-disk' })
      .metadata,
    undefined,
  );
  assert.equal(
    matchDirection(idx, 'a.example.net', 'b.example.net', { eventType: 'packet-trace' }).metadata,
    undefined,
  );
});

test('matching: ip-version picks the family, the task tool wins, then the latest write', () => {
  const base = { 'input-source': 'a', 'input-destination': 'b', 'pscheduler-test-type': 'latencybg' };
  const v4 = md(
    { ...base, 'metadata-key': 'v4', source: '10.0.0.1', destination: '10.0.0.2', 'tool-name': 'pscheduler/powstream' },
    { 'packet-loss-rate': 50 },
  );
  const v6 = md(
    {
      ...base,
      'metadata-key': 'v6',
      source: '2001:db8::1',
      destination: '2001:db8::2',
      'tool-name': 'pscheduler/powstream',
    },
    { 'packet-loss-rate': 90 },
  );
  const owping = md(
    { ...base, 'metadata-key': 'ow', source: '10.0.0.1', destination: '10.0.0.2', 'tool-name': 'pscheduler/owping' },
    { 'packet-loss-rate': 10 },
  );
  const idx = new MetadataIndex([v4, v6, owping]);
  const want = { eventType: 'packet-loss-rate', testType: 'latencybg' };
  const latest = matchDirection(idx, 'a', 'b', want);
  assert.equal(latest.metadata?.['metadata-key'], 'v6');
  assert.equal(latest.alternatives, 2);
  assert.equal(matchDirection(idx, 'a', 'b', { ...want, ipVersion: 4 }).metadata?.['metadata-key'], 'v4');
  assert.equal(matchDirection(idx, 'a', 'b', { ...want, tools: ['owping'] }).metadata?.['metadata-key'], 'ow');
});

test('reductions: average for throughput and loss, median of medians for delay, distinct routes for traces', () => {
  const s = (vals: (number | string)[]): [number, number | string][] => vals.map((v, i) => [100 + i * 10, v]);
  assert.deepEqual(reduceSamples('throughput', s([1, 2, 6]), 0, 1000), { value: 3, count: 3, last: 120 });
  assert.equal(reduceSamples('rtt', s([5, 1, 100, 2]), 0, 1000)?.value, 3.5);
  assert.deepEqual(reduceSamples('paths', s(['x', 'y', 'x', 'x']), 0, 1000), {
    value: 2,
    count: 4,
    last: 130,
    changes: 2,
  });
  // Only the window counts.
  assert.deepEqual(reduceSamples('loss', s([0.5, 0, 0]), 105, 1000), { value: 0, count: 2, last: 120 });
  assert.equal(reduceSamples('loss', s([0.5]), 200, 1000), undefined);
});
