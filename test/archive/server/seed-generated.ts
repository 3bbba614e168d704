// Generated measurements ending now, dense enough to plot every explorer preset (1h … 1y): throughput with
// retransmits, subintervals and two streams; one-way delay histograms with loss; ping RTT; traceroute with a
// path change a day ago; failures sprinkled in. Deterministic (seeded PRNG) apart from the clock.
import type { ArchiveStore, MetadataRecord } from './store';
import { prng } from '../../seeded-random';

export const GENERATED_HOSTS = {
  a: { name: 'ps-a.example.net', v4: '10.10.0.1', v6: '2001:db8::a' },
  b: { name: 'ps-b.example.net', v4: '10.10.0.2', v6: '2001:db8::b' },
  c: { name: 'ps-c.example.net', v4: '10.10.0.3', v6: '2001:db8::c' },
} as const;
type Host = (typeof GENERATED_HOSTS)[keyof typeof GENERATED_HOSTS];

/** Timestamps every `step` seconds over the last `span` seconds, aligned to `step`. */
function times(now: number, spans: [span: number, step: number][]): number[] {
  const out = new Set<number>();
  for (const [span, step] of spans) for (let t = Math.floor(now / step) * step; t > now - span; t -= step) out.add(t);
  return [...out].sort((x, y) => x - y);
}

const agg = (...w: number[]) => w.map((x) => ({ 'summary-type': 'aggregation', 'summary-window': x }));
const stats = (...w: number[]) => w.map((x) => ({ 'summary-type': 'statistics', 'summary-window': x }));
const et = (name: string, summaries: object[] = []) => ({ 'event-type': name, summaries });

function register(
  store: ArchiveStore,
  src: Host,
  dst: Host,
  v6: boolean,
  tool: string,
  extra: Record<string, unknown>,
  events: object[],
): MetadataRecord {
  return store.register({
    'subject-type': 'point-to-point',
    source: v6 ? src.v6 : src.v4,
    destination: v6 ? dst.v6 : dst.v4,
    'measurement-agent': v6 ? src.v6 : src.v4,
    'input-source': src.name,
    'input-destination': dst.name,
    'tool-name': tool,
    ...extra,
    'event-types': events,
  }).record;
}

function throughput(store: ArchiveStore, now: number, src: Host, dst: Host, v6: boolean, seed: number): number {
  const r = register(
    store,
    src,
    dst,
    v6,
    'pscheduler/iperf3',
    {
      'pscheduler-test-type': 'throughput',
      'ip-transport-protocol': 'tcp',
      'bw-parallel-streams': 2,
      'time-duration': 10,
    },
    [
      et('failures'),
      et('throughput', [{ 'summary-type': 'average', 'summary-window': 86400 }, ...agg(3600, 86400)]),
      et('throughput-subintervals'),
      et('packet-retransmits', agg(3600, 86400)),
      et('packet-retransmits-subintervals'),
      et('streams-throughput'),
      et('streams-throughput-subintervals'),
      et('streams-packet-retransmits'),
      et('streams-packet-retransmits-subintervals'),
      et('pscheduler-run-href'),
    ],
  );
  const rnd = prng(seed);
  let n = 0;
  for (const ts of times(now, [
    [3 * 86400, 1800],
    [400 * 86400, 12 * 3600],
  ])) {
    const w = (e: string, v: unknown): void => {
      storeWrite(store, r, e, ts, v);
      n++;
    };
    w('pscheduler-run-href', { href: `https://${src.name}/pscheduler/tasks/gen/runs/${ts}` });
    if (rnd() < 0.04) {
      w('failures', {
        error:
          rnd() < 0.5
            ? `Unable to connect to ${dst.name}: connection refused`
            : 'iperf3 returned an error: the server is busy running a test. try again later',
      });
      continue;
    }
    const base = (v6 ? 7.5e9 : 9.1e9) * (0.75 + 0.25 * rnd()) * (Math.sin(ts / 43200) * 0.08 + 1);
    const streams = [base * (0.45 + 0.1 * rnd()), 0];
    streams[1] = base - streams[0];
    const sub = (total: number) =>
      Array.from({ length: 10 }, (_, i) => ({
        start: String(i),
        duration: '1.000000',
        val: String(Math.round(total * (i === 0 ? 0.6 : 0.95 + 0.1 * rnd()))),
      }));
    const retrans = rnd() < 0.3 ? Math.floor(rnd() * 400) : 0;
    w('throughput', Math.round(base));
    w('throughput-subintervals', sub(base));
    w('packet-retransmits', retrans);
    w(
      'packet-retransmits-subintervals',
      Array.from({ length: 10 }, (_, i) => ({ start: String(i), duration: '1.000000', val: i === 3 ? retrans : 0 })),
    );
    w('streams-throughput', streams.map(Math.round));
    w('streams-throughput-subintervals', streams.map(sub));
    const half = [Math.floor(retrans / 2), retrans - Math.floor(retrans / 2)];
    w('streams-packet-retransmits', half);
    w(
      'streams-packet-retransmits-subintervals',
      half.map((x) =>
        Array.from({ length: 10 }, (_, i) => ({ start: String(i), duration: '1.000000', val: i === 3 ? x : 0 })),
      ),
    );
  }
  return n;
}

function storeWrite(store: ArchiveStore, r: MetadataRecord, event: string, ts: number, v: unknown): void {
  store.write(r, event, ts, v, { sumDuplicates: true, at: ts });
}

/** A few dozen sampled histograms to draw from: sampling every point afresh would slow start-up for no gain. */
function histogramPool(
  rnd: () => number,
  center: number,
  spread: number,
  samples: number,
  scale = 1,
): Record<string, number>[] {
  return Array.from({ length: 48 }, () => histogram(rnd, center, spread, samples, scale));
}

function histogram(
  rnd: () => number,
  center: number,
  spread: number,
  samples: number,
  scale = 1,
): Record<string, number> {
  const h: Record<string, number> = {};
  for (let i = 0; i < samples; i++) {
    const v = center + spread * -Math.log(1 - rnd() * 0.999); // long right tail, as delay has
    const key = (Math.round(v * scale) / scale).toFixed(scale > 1 ? 2 : 0);
    h[key] = (h[key] ?? 0) + 1;
  }
  return h;
}

function latency(store: ArchiveStore, now: number, src: Host, dst: Host, seed: number): number {
  const r = register(
    store,
    src,
    dst,
    false,
    'pscheduler/powstream',
    {
      'pscheduler-test-type': 'latencybg',
      'sample-bucket-width': '0.001',
      'sample-size': 600,
      'time-probe-interval': 0.1,
    },
    [
      et('failures'),
      et('histogram-owdelay', [...agg(300, 3600, 86400), ...stats(0, 300, 3600, 86400)]),
      et('histogram-ttl'),
      et('packet-duplicates'),
      et('packet-loss-rate', agg(300, 3600, 86400)),
      et('packet-count-lost', agg(300, 3600, 86400)),
      et('packet-count-sent', agg(300, 3600, 86400)),
      et('packet-reorders'),
      et('time-error-estimates'),
    ],
  );
  const rnd = prng(seed);
  const day = histogramPool(rnd, 20, 0.6, 60);
  const night = histogramPool(rnd, 22, 0.6, 60);
  let n = 0;
  for (const ts of times(now, [
    [86400, 60],
    [14 * 86400, 600],
    [400 * 86400, 86400],
  ])) {
    const lost = rnd() < 0.05 ? Math.floor(rnd() * 40) : 0;
    const sent = 600;
    const w = (e: string, v: unknown): void => {
      storeWrite(store, r, e, ts, v);
      n++;
    };
    const pool = ts % 86400 > 43200 ? night : day;
    w('histogram-owdelay', pool[Math.floor(rnd() * pool.length)]);
    w('histogram-ttl', { '7': sent - lost });
    w('packet-loss-rate', { numerator: lost, denominator: sent });
    w('packet-count-lost', lost);
    w('packet-count-sent', sent);
    w('packet-duplicates', 0);
    w('packet-reorders', rnd() < 0.02 ? 1 : 0);
    w('time-error-estimates', 0.0001 + rnd() * 0.0002);
  }
  return n;
}

function rtt(store: ArchiveStore, now: number, src: Host, dst: Host, seed: number): number {
  const r = register(
    store,
    src,
    dst,
    false,
    'pscheduler/ping',
    { 'pscheduler-test-type': 'rtt', 'sample-size': 10, 'ip-packet-size': 1000 },
    [
      et('failures'),
      et('histogram-rtt', [...stats(0, 3600, 86400), ...agg(3600, 86400)]),
      et('histogram-ttl-reverse'),
      et('packet-count-sent'),
      et('packet-count-lost-bidir'),
      et('packet-duplicates-bidir'),
      et('packet-loss-rate-bidir', agg(3600, 86400)),
      et('packet-reorders-bidir'),
    ],
  );
  const rnd = prng(seed);
  const pool = histogramPool(rnd, 41, 0.3, 10, 100);
  let n = 0;
  for (const ts of times(now, [
    [7 * 86400, 300],
    [400 * 86400, 12 * 3600],
  ])) {
    const w = (e: string, v: unknown): void => {
      storeWrite(store, r, e, ts, v);
      n++;
    };
    if (rnd() < 0.01) {
      w('failures', { error: `ping: ${dst.name}: Name or service not known` });
      continue;
    }
    const lost = rnd() < 0.03 ? 1 : 0;
    const h = { ...pool[Math.floor(rnd() * pool.length)] };
    if (lost) delete h[Object.keys(h)[0]]; // fewer replies than probes
    w('histogram-rtt', h);
    w('histogram-ttl-reverse', { '54': 10 - lost });
    w('packet-count-sent', 10);
    w('packet-count-lost-bidir', lost);
    w('packet-duplicates-bidir', 0);
    w('packet-loss-rate-bidir', { numerator: lost, denominator: 10 });
    w('packet-reorders-bidir', 0);
  }
  return n;
}

function trace(store: ArchiveStore, now: number, src: Host, dst: Host, seed: number): number {
  const r = register(
    store,
    src,
    dst,
    false,
    'pscheduler/traceroute',
    { 'pscheduler-test-type': 'trace', 'trace-first-ttl': 1 },
    [et('failures'), et('packet-trace'), et('path-mtu')],
  );
  const rnd = prng(seed);
  const changeAt = now - 86400;
  let n = 0;
  for (const ts of times(now, [[3 * 86400, 600]])) {
    const route =
      ts < changeAt
        ? ['192.0.2.1', '198.51.100.9', '198.51.100.17', dst.v4]
        : ['192.0.2.1', '203.0.113.5', '203.0.113.33', '198.51.100.17', dst.v4];
    const hops = route.map((ip, i) => {
      const silent = i === 1 && rnd() < 0.1;
      return silent
        ? { ttl: i + 1, query: 1, success: 0, 'error-message': 'no reply' }
        : {
            ttl: i + 1,
            query: 1,
            success: 1,
            ip,
            hostname: ip === dst.v4 ? dst.name : `hop${i + 1}.example.net`,
            rtt: 0.3 + i * 4.1 + rnd(),
            as: { number: 64496 + i, owner: `EXAMPLE-AS-${i + 1}` },
          };
    });
    storeWrite(store, r, 'packet-trace', ts, hops);
    storeWrite(store, r, 'path-mtu', ts, 9000);
    n += 2;
  }
  return n;
}

/** NTP state of a host against its reference clock, every 5 minutes for a week. */
function ntp(store: ArchiveStore, now: number, host: Host, seed: number): number {
  const r = store.register({
    'subject-type': 'point-to-point',
    source: host.v4,
    destination: '192.0.2.123',
    'measurement-agent': host.v4,
    'input-source': host.name,
    'input-destination': 'ntp.example.net',
    'tool-name': 'ntpq',
    'event-types': [
      'ntp-delay',
      'ntp-dispersion',
      'ntp-jitter',
      'ntp-offset',
      'ntp-polling-interval',
      'ntp-reach',
      'ntp-stratum',
      'ntp-wander',
    ].map((n) => et(n, n === 'ntp-offset' ? [{ 'summary-type': 'average', 'summary-window': 3600 }] : [])),
  }).record;
  const rnd = prng(seed);
  let n = 0;
  for (const ts of times(now, [[7 * 86400, 300]])) {
    const values: Record<string, unknown> = {
      'ntp-delay': 0.8 + rnd() * 0.2,
      'ntp-dispersion': 0.05 + rnd() * 0.02,
      'ntp-jitter': 0.01 + rnd() * 0.01,
      'ntp-offset': (rnd() - 0.5) * 0.2,
      'ntp-polling-interval': 64,
      'ntp-reach': 377,
      'ntp-stratum': 2,
      'ntp-wander': 0.001 + rnd() * 0.002,
    };
    for (const [e, v] of Object.entries(values)) storeWrite(store, r, e, ts, v);
    n += 8;
  }
  return n;
}

/** A dense throughput series for the benchmark: `count` points every 10 s ending now. */
export function seedBenchSeries(store: ArchiveStore, now: number, count: number): MetadataRecord {
  const r = register(
    store,
    GENERATED_HOSTS.a,
    GENERATED_HOSTS.c,
    false,
    'bench/generated',
    { 'pscheduler-test-type': 'throughput', 'bench-points': count },
    [et('throughput', [{ 'summary-type': 'average', 'summary-window': 86400 }])],
  );
  const row = r.events.get('throughput');
  const start = now - count * 10;
  for (let i = 0; i < count; i++) row?.base.set(start + i * 10, 5e9 + ((i * 7919) % 1000) * 1e6);
  if (row) row.timeUpdated = now;
  return r;
}

export function seedGenerated(store: ArchiveStore, now: number): { records: number; points: number } {
  const { a, b, c } = GENERATED_HOSTS;
  const before = store.records.size;
  let points = 0;
  points +=
    throughput(store, now, a, b, false, 1) +
    throughput(store, now, b, a, false, 2) +
    throughput(store, now, a, b, true, 3);
  points += latency(store, now, a, b, 4) + latency(store, now, b, a, 5);
  points += rtt(store, now, a, c, 6) + rtt(store, now, c, a, 7);
  points += trace(store, now, a, b, 8) + trace(store, now, b, a, 9);
  points += ntp(store, now, a, 10);
  return { records: store.records.size - before, points };
}
