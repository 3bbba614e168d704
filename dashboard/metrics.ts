// What a dashboard cell shows per test type, and when it turns yellow or red. Defaults are MaDDash's, as the
// psconfig MaDDash agent configures its checks (perfsonar/psconfig psconfig/perfsonar-psconfig/plugins/checks/
// ps-nagios-{throughput,loss,owdelay,rtt,ping-loss,traceroute}.json "defaults"), read by the perfSONAR Nagios
// plugins (perfsonar/nagios bin/check_*.pl): the same thresholds, in the same units, over the same time ranges.
import { noun } from '../common/text';

export type MetricId = 'throughput' | 'loss' | 'owdelay' | 'rtt' | 'paths';
export const METRIC_IDS: readonly MetricId[] = ['throughput', 'loss', 'owdelay', 'rtt', 'paths'];

export interface Thresholds {
  warning: number;
  critical: number;
}

export interface MetricDef {
  id: MetricId;
  label: string;
  /** Unit of the thresholds and of the displayed value. */
  unit: 'Gbps' | '%' | 'ms' | 'paths';
  /** Throughput: lower values are worse; everything else: higher values are worse. */
  worse: 'below' | 'above';
  /** MaDDash's check time range (`params.time-range`), seconds: the window the value is computed over. */
  window: number;
  defaults: Thresholds;
  /** How the window's samples become one value. */
  reduction: string;
}

export const METRICS: Record<MetricId, MetricDef> = {
  // ps-nagios-throughput: warning 1, critical .5 (Gbps, `-w 1: -c .5:`), time-range 86400.
  throughput: {
    id: 'throughput',
    label: 'Throughput',
    unit: 'Gbps',
    worse: 'below',
    window: 86400,
    defaults: { warning: 1, critical: 0.5 },
    reduction: 'average',
  },
  // ps-nagios-loss / ps-nagios-ping-loss: warning 0.001, critical 0.1 (percent: check_loss.pl scales by 100), 2700.
  loss: {
    id: 'loss',
    label: 'Packet loss',
    unit: '%',
    worse: 'above',
    window: 2700,
    defaults: { warning: 0.001, critical: 0.1 },
    reduction: 'average',
  },
  // ps-nagios-owdelay: warning 25, critical 50 (ms), 2700.
  owdelay: {
    id: 'owdelay',
    label: 'One-way delay (median)',
    unit: 'ms',
    worse: 'above',
    window: 2700,
    defaults: { warning: 25, critical: 50 },
    reduction: 'median',
  },
  // ps-nagios-rtt: warning 50, critical 100 (ms), 2700.
  rtt: {
    id: 'rtt',
    label: 'Round-trip time (median)',
    unit: 'ms',
    worse: 'above',
    window: 2700,
    defaults: { warning: 50, critical: 100 },
    reduction: 'median',
  },
  // ps-nagios-traceroute: distinct paths, warning above 1, critical above 2 (`-w :1 -c :2`), 3600.
  paths: {
    id: 'paths',
    label: 'Traceroute paths',
    unit: 'paths',
    worse: 'above',
    window: 3600,
    defaults: { warning: 1, critical: 2 },
    reduction: 'distinct paths',
  },
};

/** Metrics a test type can show, the default first (MaDDash's loss grid for one-way latency, RTT for ping). */
export const METRICS_BY_TEST: Record<string, readonly MetricId[]> = {
  throughput: ['throughput'],
  'disk-to-disk': ['throughput'],
  latency: ['loss', 'owdelay'],
  latencybg: ['loss', 'owdelay'],
  rtt: ['rtt', 'loss'],
  trace: ['paths'],
};

export function metricsFor(testType: string | undefined): readonly MetricId[] {
  return (testType && METRICS_BY_TEST[testType]) || [];
}

/** The esmond event type holding a metric's values for a test type (reference esmond.md §1d). */
export function eventTypeOf(metric: MetricId, testType: string | undefined): string {
  switch (metric) {
    case 'throughput':
      return 'throughput';
    case 'loss':
      return testType === 'rtt' ? 'packet-loss-rate-bidir' : 'packet-loss-rate';
    case 'owdelay':
      return 'histogram-owdelay';
    case 'rtt':
      return 'histogram-rtt';
    case 'paths':
      return 'packet-trace';
  }
}

/** A raw value (bits/s, loss fraction, ms, path count) in the unit thresholds are given in. */
export function displayValue(metric: MetricId, raw: number): number {
  if (metric === 'throughput') return raw / 1e9;
  if (metric === 'loss') return raw * 100;
  return raw;
}

export type Severity = 'ok' | 'warning' | 'critical';

/** Nagios ranges as the checks use them: alert strictly outside the good range. */
export function classify(metric: MetricId, raw: number, t: Thresholds): Severity {
  const v = displayValue(metric, raw);
  if (METRICS[metric].worse === 'below') return v < t.critical ? 'critical' : v < t.warning ? 'warning' : 'ok';
  return v > t.critical ? 'critical' : v > t.warning ? 'warning' : 'ok';
}

/** Thresholds with the user's overrides (partial objects, any metric) on top of the defaults; bad entries ignored. */
export function effectiveThresholds(overrides: unknown): Record<MetricId, Thresholds> {
  const out = {} as Record<MetricId, Thresholds>;
  const o = typeof overrides === 'object' && overrides !== null ? (overrides as Record<string, unknown>) : {};
  for (const id of METRIC_IDS) {
    const d = METRICS[id].defaults;
    const u = typeof o[id] === 'object' && o[id] !== null ? (o[id] as Record<string, unknown>) : {};
    const num = (v: unknown, dflt: number): number => (typeof v === 'number' && Number.isFinite(v) ? v : dflt);
    out[id] = { warning: num(u.warning, d.warning), critical: num(u.critical, d.critical) };
  }
  return out;
}

function trimNumber(n: number, digits: number): string {
  return Number(n.toPrecision(digits)).toString();
}

/** A raw value as a cell's hover shows it: `9.12 Gbps`, `0.0037 %`, `20.4 ms`, `2 paths`. */
export function formatMetric(metric: MetricId, raw: number): string {
  switch (metric) {
    case 'throughput':
      return raw >= 1e9
        ? `${trimNumber(raw / 1e9, 3)} Gbps`
        : raw >= 1e6
          ? `${trimNumber(raw / 1e6, 3)} Mbps`
          : `${trimNumber(raw / 1e3, 3)} kbps`;
    case 'loss':
      return `${trimNumber(raw * 100, 3)} %`;
    case 'owdelay':
    case 'rtt':
      return `${trimNumber(raw, 3)} ms`;
    case 'paths':
      return `${raw} ${noun(raw, 'path')}`;
  }
}
