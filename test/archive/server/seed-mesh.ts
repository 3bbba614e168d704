// A generated measurement mesh for the dashboard: N hosts (mesh-01.example.net … on 10.20.0.x) measuring each
// other as a pSConfig mesh would (throughput, latencybg, trace), written the way the pScheduler esmond archiver
// writes them (IPs in source/destination, the spec's names in input-source/input-destination). A few pairs of each
// test are missing, stale, failing or over a threshold — the scenario says which, so tests check the dashboard
// against what was written rather than against numbers copied from a run. Deterministic apart from the clock.
import type { ArchiveStore, MetadataRecord } from './store';
import { prng } from '../../seeded-random';

export type MeshTest = 'throughput' | 'latencybg' | 'trace';

export interface MeshHost {
  name: string;
  v4: string;
}

/** What each ordered pair (`i>j`, 0-based host indexes) of a test was given. */
export type PairKind = 'ok' | 'missing' | 'stale' | 'failing' | 'critical' | 'warning';

export interface MeshScenario {
  hosts: MeshHost[];
  /** Per test: the pairs that are not `ok`, keyed `i>j`. */
  special: Record<MeshTest, Map<string, PairKind>>;
  kind(test: MeshTest, i: number, j: number): PairKind;
}

export interface MeshOptions {
  hosts?: number;
  tests?: MeshTest[];
  /** Special pairs per kind and test (default: a few each, none when 0). */
  perKind?: number;
  /** Fewer points per pair (throughput: four runs over a day, no retransmits); default for 100 hosts or more. */
  light?: boolean;
}

export function meshHost(i: number): MeshHost {
  const n = i + 1;
  return { name: `mesh-${String(n).padStart(2, '0')}.example.net`, v4: `10.20.${n >> 8}.${n & 255}` };
}

const KINDS: Record<MeshTest, PairKind[]> = {
  throughput: ['missing', 'stale', 'failing', 'critical', 'warning'],
  latencybg: ['missing', 'stale', 'critical', 'warning'],
  trace: ['missing', 'failing', 'critical', 'warning'],
};

export function meshScenario(opts: MeshOptions = {}): MeshScenario {
  const n = opts.hosts ?? 20;
  const hosts = Array.from({ length: n }, (_, i) => meshHost(i));
  const special = {} as Record<MeshTest, Map<string, PairKind>>;
  (['throughput', 'latencybg', 'trace'] as const).forEach((test, ti) => {
    const m = new Map<string, PairKind>();
    const rnd = prng(1000 + ti);
    const per = opts.perKind ?? (n >= 100 ? Math.round(n / 4) : 3);
    for (const kind of KINDS[test]) {
      for (let k = 0; k < per && n > 1;) {
        const i = Math.floor(rnd() * n);
        const j = Math.floor(rnd() * n);
        const key = `${i}>${j}`;
        if (i === j || m.has(key)) continue;
        m.set(key, kind);
        k++;
      }
    }
    special[test] = m;
  });
  return { hosts, special, kind: (test, i, j) => special[test].get(`${i}>${j}`) ?? 'ok' };
}

const agg = (...w: number[]) => w.map((x) => ({ 'summary-type': 'aggregation', 'summary-window': x }));
const stats = (...w: number[]) => w.map((x) => ({ 'summary-type': 'statistics', 'summary-window': x }));
const et = (name: string, summaries: object[] = []) => ({ 'event-type': name, summaries });

function register(store: ArchiveStore, a: MeshHost, b: MeshHost, fields: Record<string, unknown>, events: object[]) {
  return store.register({
    'subject-type': 'point-to-point',
    source: a.v4,
    destination: b.v4,
    'measurement-agent': a.v4,
    'input-source': a.name,
    'input-destination': b.name,
    ...fields,
    'event-types': events,
  }).record;
}

function write(store: ArchiveStore, r: MetadataRecord, event: string, ts: number, v: unknown): void {
  store.write(r, event, ts, v, { sumDuplicates: true, at: ts });
}

/** Run times: every `step` seconds back over `span`, aligned to `step`, oldest first. */
function runs(end: number, span: number, step: number): number[] {
  const out: number[] = [];
  for (let t = Math.floor(end / step) * step; t > end - span; t -= step) out.unshift(t);
  return out;
}

function throughput(
  store: ArchiveStore,
  now: number,
  a: MeshHost,
  b: MeshHost,
  kind: PairKind,
  rnd: () => number,
  light: boolean,
): number {
  const r = register(
    store,
    a,
    b,
    {
      'tool-name': 'pscheduler/iperf3',
      'pscheduler-test-type': 'throughput',
      'ip-transport-protocol': 'tcp',
      'time-duration': 10,
    },
    [
      et('failures'),
      et('throughput', [{ 'summary-type': 'average', 'summary-window': 86400 }]),
      et('packet-retransmits'),
    ],
  );
  // Every 6 hours over two days; a stale pair stopped three days ago.
  const span = light ? 86400 : 2 * 86400;
  // Each pair's runs are shifted by up to the interval, as `sliprand` spreads them: writes arrive all day long.
  const slip = Math.floor(rnd() * 6 * 3600);
  const times = (kind === 'stale' ? runs(now - 3 * 86400, span, 6 * 3600) : runs(now - 600, span, 6 * 3600)).map(
    (t) => t - slip,
  );
  let n = 0;
  times.forEach((ts, k) => {
    if (kind === 'failing' && k === times.length - 1) {
      write(store, r, 'failures', ts + 60, { error: `Unable to connect to ${b.name}: connection refused` });
      n++;
      return;
    }
    const gbps = kind === 'critical' ? 0.1 + 0.2 * rnd() : kind === 'warning' ? 0.6 + 0.3 * rnd() : 8.5 + rnd();
    write(store, r, 'throughput', ts, Math.round(gbps * 1e9));
    n++;
    if (light) return;
    write(store, r, 'packet-retransmits', ts, Math.floor(rnd() * 20));
    n++;
  });
  return n;
}

function latencybg(
  store: ArchiveStore,
  now: number,
  a: MeshHost,
  b: MeshHost,
  kind: PairKind,
  delay: number,
  rnd: () => number,
): number {
  const r = register(
    store,
    a,
    b,
    {
      'tool-name': 'pscheduler/powstream',
      'pscheduler-test-type': 'latencybg',
      'sample-bucket-width': '0.001',
      'sample-size': 600,
    },
    [
      et('failures'),
      et('histogram-owdelay', [...agg(300), ...stats(0, 300)]),
      et('packet-loss-rate', agg(300)),
      et('packet-count-lost'),
      et('packet-count-sent'),
    ],
  );
  // Every 10 minutes over two hours; a stale pair stopped three hours ago.
  const end = kind === 'stale' ? now - 3 * 3600 : now - 60;
  let n = 0;
  runs(end, 2 * 3600, 600).forEach((ts, k) => {
    const lost = kind === 'critical' ? 6 + Math.floor(rnd() * 6) : kind === 'warning' && k % 3 === 0 ? 1 : 0;
    const h: Record<string, number> = {};
    for (let s = 0; s < 600 - lost; s++) {
      const key = String(Math.round(delay + rnd() * rnd() * 2));
      h[key] = (h[key] ?? 0) + 1;
    }
    write(store, r, 'histogram-owdelay', ts, h);
    write(store, r, 'packet-loss-rate', ts, { numerator: lost, denominator: 600 });
    write(store, r, 'packet-count-lost', ts, lost);
    write(store, r, 'packet-count-sent', ts, 600);
    n += 4;
  });
  return n;
}

function trace(store: ArchiveStore, now: number, a: MeshHost, b: MeshHost, kind: PairKind, rnd: () => number): number {
  const r = register(store, a, b, { 'tool-name': 'pscheduler/traceroute', 'pscheduler-test-type': 'trace' }, [
    et('failures'),
    et('packet-trace'),
    et('path-mtu'),
  ]);
  const routes = [
    ['10.20.255.1', '10.20.255.9', b.v4],
    ['10.20.255.1', '10.20.255.17', '10.20.255.9', b.v4],
    ['10.20.255.2', '10.20.255.33', b.v4],
  ];
  // Every 10 minutes over two hours: any hour holds at least five runs, so three routes fit in it.
  const times = runs(now - 120, 2 * 3600, 600);
  let n = 0;
  times.forEach((ts, k) => {
    if (kind === 'failing' && k === times.length - 1) {
      write(store, r, 'failures', ts + 30, { error: `traceroute: ${b.name}: no route to host` });
      n++;
      return;
    }
    // warning: two routes alternating; critical: three in turn.
    const which = kind === 'warning' ? k % 2 : kind === 'critical' ? k % 3 : 0;
    const hops = routes[which].map((ip, h) => ({
      ttl: h + 1,
      query: 1,
      success: 1,
      ip,
      rtt: 0.2 + h * 0.8 + rnd() * 0.1,
    }));
    write(store, r, 'packet-trace', ts, hops);
    write(store, r, 'path-mtu', ts, 9000);
    n += 2;
  });
  return n;
}

/** Writes the scenario's measurements into `store`; returns the metadata and point counts. */
export function seedMesh(
  store: ArchiveStore,
  now: number,
  opts: MeshOptions = {},
): { scenario: MeshScenario; records: number; points: number } {
  const scenario = meshScenario(opts);
  const tests = opts.tests ?? ['throughput', 'latencybg', 'trace'];
  const before = store.records.size;
  const rnd = prng(77);
  let points = 0;
  const { hosts } = scenario;
  const light = opts.light ?? hosts.length >= 100;
  for (let i = 0; i < hosts.length; i++) {
    for (let j = 0; j < hosts.length; j++) {
      if (i === j) continue;
      for (const test of tests) {
        const kind = scenario.kind(test, i, j);
        if (kind === 'missing') continue;
        if (test === 'throughput') points += throughput(store, now, hosts[i], hosts[j], kind, rnd, light);
        else if (test === 'latencybg') {
          const delay = kind === 'critical' ? 60 : 2 + Math.abs(i - j);
          points += latencybg(store, now, hosts[i], hosts[j], kind, delay, rnd);
        } else points += trace(store, now, hosts[i], hosts[j], kind, rnd);
      }
    }
  }
  return { scenario, records: store.records.size - before, points };
}
