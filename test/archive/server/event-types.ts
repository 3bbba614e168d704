// The 49 event types esmond accepts and the value class of each (reference esmond.md §1e; fixtures
// esmond/derived/types_tables.json), with the summaries each class allows.

export type ValueClass = 'integer' | 'float' | 'percentage' | 'histogram' | 'subinterval' | 'json';

const CLASSES: Record<ValueClass, string[]> = {
  integer: [
    'ntp-reach',
    'ntp-stratum',
    'packet-count-lost',
    'packet-count-lost-bidir',
    'packet-count-sent',
    'packet-duplicates',
    'packet-duplicates-bidir',
    'packet-reorders',
    'packet-reorders-bidir',
    'packet-retransmits',
    'packet-rtt',
    'path-mtu',
    'tcp-windowsize',
    'throughput',
  ],
  float: [
    'ntp-delay',
    'ntp-dispersion',
    'ntp-jitter',
    'ntp-offset',
    'ntp-polling-interval',
    'ntp-wander',
    'time-error-estimates',
  ],
  percentage: ['packet-loss-rate', 'packet-loss-rate-bidir'],
  histogram: ['histogram-owdelay', 'histogram-rtt', 'histogram-ttl', 'histogram-ttl-reverse'],
  subinterval: [
    'packet-retransmits-subintervals',
    'packet-rtt-subintervals',
    'tcp-windowsize-subintervals',
    'throughput-subintervals',
  ],
  json: [
    'failures',
    'iostat',
    'mpstat',
    'packet-trace',
    'packet-trace-multi',
    'pscheduler-raw',
    'pscheduler-run-href',
    'rusage',
    'streams-packet-retransmits',
    'streams-packet-retransmits-subintervals',
    'streams-packet-rtt',
    'streams-packet-rtt-subintervals',
    'streams-tcp-windowsize',
    'streams-tcp-windowsize-subintervals',
    'streams-tcpinfo',
    'streams-throughput',
    'streams-throughput-subintervals',
    'tcpinfo',
  ],
};

export const VALUE_CLASS = new Map<string, ValueClass>();
for (const [cls, names] of Object.entries(CLASSES) as [ValueClass, string[]][])
  for (const n of names) VALUE_CLASS.set(n, cls);

export const ALLOWED_SUMMARIES: Record<ValueClass, string[]> = {
  integer: ['aggregation', 'average'],
  float: ['aggregation', 'average'],
  percentage: ['aggregation'],
  histogram: ['aggregation', 'statistics'],
  subinterval: [],
  json: [],
};

/** URL form (plural) → JSON form (singular) of summary types. */
export const SUMMARY_URL_TO_JSON: Record<string, string> = {
  base: 'base',
  aggregations: 'aggregation',
  averages: 'average',
  statistics: 'statistics',
};
export const SUMMARY_JSON_TO_URL: Record<string, string> = {
  base: 'base',
  aggregation: 'aggregations',
  average: 'averages',
  statistics: 'statistics',
};

/** Subject fields of point-to-point metadata, in their JSON (dashed) names. */
export const P2P_FIELDS = [
  'source',
  'destination',
  'measurement-agent',
  'input-source',
  'input-destination',
  'tool-name',
] as const;
export const NETWORK_ELEMENT_FIELDS = ['source', 'measurement-agent', 'input-source', 'tool-name'] as const;
