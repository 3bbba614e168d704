// From the archive client's shapes to what the explorer shows (pure): metadata → table rows, normalised points →
// chart columns in display units (bits/s, %, ms), statistics computed from histograms when the archive has none.
import type { EventTypeInfo, Metadata } from '../../../archive-client/types';
import { jsonText } from '../../../common/json';
import type { NormalPoint } from '../../../archive-client/values';
import type { StatisticsPoint } from '../../../archive-client/summaries';
import type { EventTypeRef, MeasurementRow, SeriesData, Subinterval, TraceHop, Unit } from './messages';

const SUBJECT_FIELDS = new Set([
  'metadata-key',
  'subject-type',
  'source',
  'destination',
  'measurement-agent',
  'input-source',
  'input-destination',
  'tool-name',
  'uri',
  'url',
  'event-types',
  'metadata-count-total',
  'metadata-next-page',
  'metadata-previous-page',
]);

function str(v: unknown): string {
  return v === undefined || v === null ? '' : jsonText(v);
}

function num(v: unknown): number | null {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : null;
}

/** A metadata object as a table row; tolerant of missing fields and string numbers. */
export function rowOfMetadata(m: Metadata): MeasurementRow {
  const eventTypes: EventTypeRef[] = [];
  for (const et of Array.isArray(m['event-types']) ? m['event-types'] : []) {
    if (!et || typeof et['event-type'] !== 'string') continue;
    eventTypes.push({
      eventType: et['event-type'],
      baseUri: str(et['base-uri']),
      timeUpdated: num(et['time-updated']),
      summaries: (Array.isArray(et.summaries) ? et.summaries : [])
        .map((s) => ({ type: str(s['summary-type']), window: num(s['summary-window']) ?? 0, uri: str(s.uri) }))
        .filter((s) => s.type !== ''),
    });
  }
  const updates = eventTypes.map((e) => e.timeUpdated).filter((t): t is number => t !== null);
  const fields: Record<string, string> = {};
  for (const [k, v] of Object.entries(m)) {
    if (SUBJECT_FIELDS.has(k) || v === undefined) continue;
    fields[k] = typeof v === 'string' ? v : JSON.stringify(v);
  }
  let uri = str(m.uri);
  if (!uri && m.url) {
    try {
      uri = new URL(String(m.url)).pathname;
    } catch {
      uri = String(m.url); // a malformed url field must not sink the whole search
    }
  }
  return {
    key: str(m['metadata-key']) || uri,
    uri,
    subjectType: str(m['subject-type']),
    source: str(m.source),
    destination: str(m.destination),
    measurementAgent: str(m['measurement-agent']),
    toolName: str(m['tool-name']),
    inputSource: str(m['input-source']),
    inputDestination: str(m['input-destination']),
    eventTypes,
    lastUpdate: updates.length ? Math.max(...updates) : null,
    fields,
  };
}

/** Back to the client's shape, for `chooseSeries`. */
export function eventTypeInfoOf(et: EventTypeRef): EventTypeInfo {
  return {
    'event-type': et.eventType,
    'base-uri': et.baseUri || undefined,
    'time-updated': et.timeUpdated,
    summaries: et.summaries.map((s) => ({
      'summary-type': s.type,
      'summary-window': s.window,
      uri: s.uri || undefined,
    })),
  };
}

/** Display unit of an event type (reference esmond.md §1e). */
export function unitOf(eventType: string): Unit {
  if (
    eventType === 'throughput' ||
    eventType.startsWith('streams-throughput') ||
    eventType === 'throughput-subintervals'
  )
    return 'bps';
  if (eventType.startsWith('packet-loss-rate')) return '%';
  if (eventType.startsWith('histogram-owdelay') || eventType === 'histogram-rtt') return 'ms';
  if (
    ['ntp-delay', 'ntp-dispersion', 'ntp-jitter', 'ntp-offset', 'time-error-estimates', 'packet-rtt'].includes(
      eventType,
    )
  )
    return 'ms';
  if (eventType === 'ntp-polling-interval') return 's';
  if (eventType === 'ntp-wander') return 'ppm';
  if (
    eventType.startsWith('packet-') ||
    eventType.startsWith('histogram-ttl') ||
    eventType === 'path-mtu' ||
    eventType.includes('retransmits')
  )
    return 'count';
  return '';
}

/**
 * Factor from histogram bucket keys to ms: owdelay buckets are latency ÷ sample-bucket-width (default 0.001 s,
 * i.e. ms), so the graphs use key × width / 0.001. RTT buckets are already ms.
 */
export function bucketToMs(eventType: string, fields: Record<string, string>): number {
  if (eventType !== 'histogram-owdelay') return 1;
  const w = Number(fields['sample-bucket-width']);
  return Number.isFinite(w) && w > 0 ? w / 0.001 : 1;
}

function hopOf(h: import('../../../archive-client/values').TraceHop): TraceHop {
  return {
    ttl: h.ttl,
    query: h.query,
    success: h.success,
    ip: h.ip ?? '',
    hostname: h.hostname,
    asn: h.as?.number,
    asOwner: h.as?.owner,
    rtt: h.rtt ?? null,
    mtu: h.mtu ?? null,
    error: h.error,
  };
}

function subOf(s: import('../../../archive-client/values').Subinterval): Subinterval {
  return { start: s.start, duration: s.duration, value: s.value ?? null };
}

export interface Converted {
  data: SeriesData;
  skipped: number;
}

/** Chart columns of normalised points. `scale` multiplies numbers (loss fraction → %, buckets → ms). */
export function seriesDataOf(points: readonly NormalPoint[], kind: SeriesData['kind'], scale = 1): Converted {
  let skipped = 0;
  const ts: number[] = [];
  switch (kind) {
    case 'number': {
      const values: (number | null)[] = [];
      for (const p of points) {
        if (p.val.kind === 'number' || p.val.kind === 'loss') {
          ts.push(p.ts);
          values.push(p.val.value * scale);
        } else skipped++;
      }
      return { data: { kind, ts, values }, skipped };
    }
    case 'stats': {
      const cols = {
        min: [] as (number | null)[],
        median: [] as (number | null)[],
        mean: [] as (number | null)[],
        p95: [] as (number | null)[],
        max: [] as (number | null)[],
      };
      const s = (v: number | undefined): number | null => (v === undefined ? null : v * scale);
      for (const p of points) {
        if (p.val.kind !== 'statistics') {
          skipped++;
          continue;
        }
        const st = p.val.stats;
        ts.push(p.ts);
        cols.min.push(s(st.minimum));
        cols.median.push(s(st.median));
        cols.mean.push(s(st.mean));
        cols.p95.push(s(st['percentile-95']));
        cols.max.push(s(st.maximum));
      }
      return { data: { kind, ts, ...cols, computed: false }, skipped };
    }
    case 'failures': {
      const errors: string[] = [];
      for (const p of points) {
        if (p.val.kind === 'failure') {
          ts.push(p.ts);
          errors.push(p.val.error);
        } else skipped++;
      }
      return { data: { kind, ts, errors }, skipped };
    }
    case 'trace': {
      const hops: TraceHop[][] = [];
      for (const p of points) {
        if (p.val.kind === 'packet-trace') {
          ts.push(p.ts);
          hops.push(p.val.hops.map(hopOf));
        } else skipped++;
      }
      return { data: { kind, ts, hops }, skipped };
    }
    case 'subintervals': {
      const intervals: Subinterval[][] = [];
      for (const p of points) {
        if (p.val.kind === 'subintervals') {
          ts.push(p.ts);
          intervals.push(p.val.intervals.map(subOf));
        } else skipped++;
      }
      return { data: { kind, ts, intervals }, skipped };
    }
    case 'streams': {
      const streams: (number | null)[][] = [];
      for (const p of points) {
        if (p.val.kind === 'streams') {
          ts.push(p.ts);
          streams.push(p.val.streams.map((v) => (v === undefined ? null : v)));
        } else skipped++;
      }
      return { data: { kind, ts, streams }, skipped };
    }
    case 'stream-subintervals': {
      const streams: Subinterval[][][] = [];
      for (const p of points) {
        if (p.val.kind === 'stream-subintervals') {
          ts.push(p.ts);
          streams.push(p.val.streams.map((s) => s.map(subOf)));
        } else skipped++;
      }
      return { data: { kind, ts, streams }, skipped };
    }
    case 'raw': {
      const values: unknown[] = [];
      for (const p of points) {
        if (p.val.kind === 'invalid') skipped++;
        else {
          ts.push(p.ts);
          values.push(p.val.kind === 'json' ? p.val.value : p.val);
        }
      }
      return { data: { kind, ts, values }, skipped };
    }
  }
}

/** Statistics computed from histograms (base or aggregation) as chart columns. */
export function statsDataOf(points: readonly StatisticsPoint[], scale = 1): SeriesData {
  const s = (v: number | undefined): number | null => (v === undefined ? null : v * scale);
  return {
    kind: 'stats',
    ts: points.map((p) => p.ts),
    min: points.map((p) => s(p.stats.minimum)),
    median: points.map((p) => s(p.stats.median)),
    mean: points.map((p) => s(p.stats.mean)),
    p95: points.map((p) => s(p.stats['percentile-95'])),
    max: points.map((p) => s(p.stats.maximum)),
    computed: true,
  };
}
