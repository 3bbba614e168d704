// How long pScheduler books for every run of a task: the duration program of the tool it picked
// (pscheduler-tool-<name>/<name>/duration), stored by DB/task.sql task_alter() as
// `interval_round_up(duration)`: whole seconds, any fraction rounded up (DB/utilities.sql:345).
//
// The programs print the duration three ways, and the rounding differs with the way:
// - `'PT%dS' % x` (iperf3, iperf2, nuttcp, owping, twping): Python truncates x to an integer;
// - `timedelta_as_iso8601(...)` (ping, powstream, traceroute, ...): the exact value, microseconds kept, rounded up
//   by the database;
// - `f'PT{x}S'` (ethr): the float as written, rounded up by the database.
import { isIPv4, isIPv6 } from '../pscheduler/formats';
import { isoSeconds } from '../pscheduler/tools';
import { pyTruthy } from './participants';

export interface ToolDuration {
  /** Whole seconds, as pScheduler stores them on the task. */
  seconds: number;
  /** False when the tool's duration program is not modelled and the estimate of SIMPLIFICATIONS 'durations' applies. */
  modelled: boolean;
}

type Spec = Record<string, unknown>;

/** An ISO 8601 duration of the spec in seconds (pscheduler.iso8601_as_timedelta + timedelta_as_seconds). */
function iso(v: unknown, fallback: string): number {
  const s = typeof v === 'string' ? isoSeconds(v) : undefined;
  return s ?? (isoSeconds(fallback) as number);
}

/** A number of the spec (packet-interval, packet-count, ...), or the tool's default. */
function num(v: unknown, fallback: number): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : fallback;
}

/** `'PT%dS' % x`: Python's %d truncates toward zero. */
const percentD = (x: number): number => Math.trunc(x);

/** interval_round_up of an exact value, after PostgreSQL keeps microseconds. */
function roundUp(x: number): number {
  const us = Math.round(x * 1e6);
  return Math.ceil(us / 1e6);
}

/** iperf3_utils.py / iperf2_utils.py / ethr_utils.py setup_time: "every 50 ms of latency adds about one second". */
function setupTime(spec: Spec): number {
  const rtt = iso(pyTruthy(spec['link-rtt']) ? spec['link-rtt'] : undefined, 'PT0.200S');
  return Math.max((rtt * 1000.0) / 50.0, 1.0);
}

/** `duration = json.get('duration'); if duration: int(seconds) else DEFAULT_DURATION (10)`. */
function throughputSeconds(spec: Spec): number {
  return pyTruthy(spec.duration) ? Math.trunc(iso(spec.duration, 'PT10S')) : 10;
}

/** Python's truthiness of an optional flag that defaults to True (`spec['hostnames']` with KeyError → True). */
function flagDefaultTrue(spec: Spec, key: string): boolean {
  return key in spec ? pyTruthy(spec[key]) : true;
}

function isIpLiteral(v: unknown): boolean {
  const s = String(v);
  return isIPv4(s) || isIPv6(s);
}

/** Tool name → its duration program, in seconds as the program computes them (before the database rounds). */
const FORMULAS: Record<string, (spec: Spec) => number> = {
  // pscheduler-tool-iperf3/iperf3/duration:41 and iperf3_defaults.py (wait 3 s, server shutdown 2 s)
  iperf3: (s) => percentD(setupTime(s) + iso(s.omit, 'P0D') + throughputSeconds(s) + 3 + 2),
  // pscheduler-tool-iperf2/iperf2/duration and iperf2_defaults.py (wait 1 s, server shutdown 1 s); no omit
  iperf2: (s) => percentD(setupTime(s) + throughputSeconds(s) + 1 + 1),
  // pscheduler-tool-nuttcp/nuttcp/duration and nuttcp_defaults.py (fudge 4 s, wait 2 s); no omit, no rtt
  nuttcp: (s) => throughputSeconds(s) + 4 + 2,
  // pscheduler-tool-ethr/ethr/duration and ethr_defaults.py (wait 3 s, shutdown 2 s): printed with an f-string
  ethr: (s) => setupTime(s) + throughputSeconds(s) + 3 + 2,
  // pscheduler-tool-owping/owping/duration and owping_defaults.py (interval .1, count 100, timeout 0, fudge 10,
  // client sleep 1)
  owping: (s) => {
    const interval = num(s['packet-interval'], 0.1);
    const count = num(s['packet-count'], 100);
    return percentD(interval * count * 1.1 + count / 50000 + num(s['packet-timeout'], 0) + 10 + 1);
  },
  // pscheduler-tool-twping/twping/duration and twping_defaults.py (the same defaults, no 10 % margin); an rtt spec
  // has none of these keys, so the defaults apply to it
  twping: (s) =>
    percentD(num(s['packet-interval'], 0.1) * num(s['packet-count'], 100) + num(s['packet-timeout'], 0) + 10 + 1),
  // pscheduler-tool-halfping/halfping/duration: 2 s, (count - 1) intervals, a 2 s timeout, 1 s
  halfping: (s) => {
    const count = Math.trunc(num(s['packet-count'], 5));
    return 2 + (count > 1 ? (count - 1) * num(s['packet-interval'], 1) : 0) + 2 + 1;
  },
  // pscheduler-tool-powstream/powstream/duration and powstream_defaults.py (PT24H, client shutdown 2 s)
  powstream: (s) => iso(s.duration, 'PT24H') + 2,
  // pscheduler-tool-ping/ping/ping_utils.py ping_tool_duration + ping_test_duration
  ping: (s) => {
    const count = Math.trunc(num(Number(s.count ?? 5), 5));
    let total = count > 1 ? (count - 1) * iso(s.interval, 'PT1S') : 0;
    total += iso(s.timeout, 'PT2S');
    if ('deadline' in s) total = iso(s.deadline, 'PT0S');
    total += 1;
    if (flagDefaultTrue(s, 'hostnames')) total += 2;
    return total + 1;
  },
  // pscheduler-tool-tcpping/tcpping/duration: 2 s, 2 s per further packet (hard-wired), DNS 2 s, 1 s (the timeout
  // it reads is never added)
  tcpping: (s) => {
    const count = Math.trunc(num(s.count, 5));
    return 2 + (count > 1 ? (count - 1) * 2 : 0) + (flagDefaultTrue(s, 'hostnames') ? 2 : 0) + 1;
  },
  // pscheduler-tool-traceroute/traceroute/duration: sendwait x hops, wait (0 when absent: the program sets an unused
  // variable instead), DNS 2 s, AS 4 s, 2 s
  traceroute: (s) => {
    const hops = num(s.hops, 30);
    let total = 'sendwait' in s ? iso(s.sendwait, 'P0D') * hops : 0;
    if ('wait' in s) total += iso(s.wait, 'P0D');
    if (flagDefaultTrue(s, 'hostnames')) total += 2;
    if (flagDefaultTrue(s, 'as')) total += 4;
    return total + 2;
  },
  // pscheduler-tool-tracepath/tracepath/duration: 93 s, DNS 2 s, AS 4 s, 2 s
  tracepath: (s) => 93 + (flagDefaultTrue(s, 'hostnames') ? 2 : 0) + (flagDefaultTrue(s, 'as') ? 4 : 0) + 2,
  // pscheduler-tool-paris-traceroute/paris-traceroute/duration: DNS 2 s unless dest is an IP, sendwait x hops,
  // wait, 3 x the send wait (5 s unless sendwait was given and wait too), DNS 2 s, AS 4 s, 2 s
  'paris-traceroute': (s) => {
    let total = isIpLiteral(s.dest) ? 0 : 2;
    const hops = num(s.hops, 30);
    let sendWait = 0;
    if ('sendwait' in s) {
      sendWait = iso(s.sendwait, 'P0D');
      total += sendWait * hops;
    }
    if ('wait' in s) total += iso(s.wait, 'P0D');
    else sendWait = 5;
    total += 3 * sendWait;
    if (flagDefaultTrue(s, 'hostnames')) total += 2;
    if (flagDefaultTrue(s, 'as')) total += 4;
    return total + 2;
  },
  // pscheduler-tool-dublin-traceroute/dublin-traceroute/duration: DNS 2 s unless dest is an IP, 0.1 s per hop twice,
  // sendwait x hops, AS 4 s, 2 s
  'dublin-traceroute': (s) => {
    const hops = num(s.hops, 30);
    let total = isIpLiteral(s.dest) ? 0 : 2;
    total += hops * 0.1 + iso(s.sendwait, 'P0D') * hops + hops * 0.1;
    if (!('as' in s) || pyTruthy(s.as)) total += 4;
    return total + 2;
  },
  // pscheduler-tool-s3-benchmark/s3-benchmark/duration: three times the duration (default PT30S) unless a timeout
  // of its own is given
  's3-benchmark': (s) => {
    const auto = typeof s.duration === 'string' ? s.duration : 'PT30S';
    const timeout = typeof s.timeout === 'string' ? s.timeout : auto;
    return timeout === auto ? iso(timeout, 'PT30S') * 3 : iso(timeout, 'PT30S');
  },
  // pscheduler-tool-sleep/sleep/duration and snooze/duration: the spec's duration + 1 s
  sleep: (s) => iso(s.duration, 'P0D') + 1,
  snooze: (s) => iso(s.duration, 'P0D') + 1,
  // pscheduler-tool-sleepbgm/sleepbgm/duration: the spec's duration
  sleepbgm: (s) => iso(s.duration, 'P0D'),
  // pscheduler-tool-passthrough/passthrough/duration, fwmtu/duration: constants
  passthrough: () => 1,
  fwmtu: () => 5,
};

/** Tools whose program prints with `'PT%dS'` already return whole seconds; the others are rounded up as stored. */
export function toolDuration(tool: string | undefined, spec: Spec): ToolDuration {
  const f = tool !== undefined ? FORMULAS[tool] : undefined;
  if (!f) return { seconds: Math.max(1, roundUp(iso(spec.timeout, 'PT10S'))), modelled: false };
  return { seconds: Math.max(0, roundUp(f(spec))), modelled: true };
}

/** The tools whose duration programs are modelled (for tests and docs). */
export function modelledTools(): string[] {
  return Object.keys(FORMULAS);
}

/**
 * The perfSONAR toolkit's default limits rewrite (pscheduler_limits.conf "Make some tests run a minimum of 5
 * seconds"): applied by the lead before the tool and its duration are chosen (pschedulerapiserver/tasks.py ~315-355).
 */
export function toolkitRewrite(testType: string, spec: Spec): Spec {
  if (!MIN_FIVE_SECONDS.has(testType) || spec.duration === undefined || spec.duration === null) return spec;
  const s = typeof spec.duration === 'string' ? isoSeconds(spec.duration) : undefined;
  return s !== undefined && s < 5 ? { ...spec, duration: 'PT5S' } : spec;
}
const MIN_FIVE_SECONDS = new Set(['idle', 'idlebgm', 'latency', 'latencybg', 'throughput']);
