// The local archive's data: metadata records with their event types, base series and summaries, in memory.
// Registration is idempotent on a checksum of subject, parameters and (event type, summary) triples, as esmond's.
import { createHash, randomUUID } from 'node:crypto';
import {
  ALLOWED_SUMMARIES,
  NETWORK_ELEMENT_FIELDS,
  P2P_FIELDS,
  SUMMARY_JSON_TO_URL,
  VALUE_CLASS,
  type ValueClass,
} from './event-types';
import { jsonText } from '../../../common/json';
import { SortedSeries } from './sorted-series';
import { SummaryRow } from './summary-bins';
import { checkValue } from './validate-value';

export const ARCHIVE_PATH = '/esmond/perfsonar/archive/';

export class EventRow {
  readonly base = new SortedSeries<unknown>();
  timeUpdated: number | null = null;
  readonly summaries: SummaryRow[] = [];
  constructor(
    readonly eventType: string,
    readonly cls: ValueClass,
  ) {}
}

export interface MetadataRecord {
  key: string;
  subjectType: string;
  /** Subject fields and free-form parameters, all strings, dashed names. */
  fields: Record<string, string>;
  events: Map<string, EventRow>;
  checksum: string;
}

export class StoreError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface RegisterResult {
  record: MetadataRecord;
  created: boolean;
}

const now = (): number => Math.floor(Date.now() / 1000);

function checksumOf(subjectType: string, fields: Record<string, string>, triples: string[]): string {
  const sorted = Object.entries(fields)
    .map(([k, v]) => `${k}=${v}`)
    .sort();
  return createHash('sha256')
    .update(JSON.stringify([subjectType.toLowerCase(), sorted, [...triples].sort()]).toLowerCase())
    .digest('hex');
}

export class ArchiveStore {
  readonly records = new Map<string, MetadataRecord>();
  private byChecksum = new Map<string, MetadataRecord>();

  /** Register metadata (POST {base_url}); esmond's checks and messages (reference §1a errors table). */
  register(body: unknown, key?: string, opts: { skipUnknownEventTypes?: boolean } = {}): RegisterResult {
    if (!body || typeof body !== 'object' || Array.isArray(body))
      throw new StoreError(400, 'Invalid JSON object in request');
    const b = body as Record<string, unknown>;
    if (b['subject-type'] === undefined) throw new StoreError(400, 'Missing subject-type field in request');
    if (b['event-types'] === undefined) throw new StoreError(400, 'Missing event-types field in request');
    const subjectType = jsonText(b['subject-type']);
    if (subjectType !== 'point-to-point' && subjectType !== 'network-element')
      throw new StoreError(400, `Invalid subject type ${subjectType}`);
    if (b['metadata-key'] !== undefined && key === undefined)
      throw new StoreError(400, 'metadata-key is not allowed to be specified');
    if (!Array.isArray(b['event-types'])) throw new StoreError(400, 'event_types must be a list');
    const required = subjectType === 'point-to-point' ? P2P_FIELDS : NETWORK_ELEMENT_FIELDS;
    const fields: Record<string, string> = {};
    for (const f of required) {
      if (b[f] === undefined || b[f] === null || b[f] === '')
        throw new StoreError(400, `Missing required field ${f} for subject-type ${subjectType}`);
    }
    for (const [k, v] of Object.entries(b)) {
      if (k === 'subject-type' || k === 'event-types' || k === 'metadata-key' || k === 'uri' || k === 'url') continue;
      fields[k.replace(/_/g, '-')] = typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : pyStr(v);
    }
    for (const f of ['source', 'destination', 'measurement-agent'] as const) {
      if (fields[f] !== undefined && !isIp(fields[f]))
        throw new StoreError(400, `${f} must be an IP address, got ${fields[f]}`);
    }
    const events = new Map<string, EventRow>();
    const triples: string[] = [];
    for (const raw of b['event-types'] as unknown[]) {
      const e = (raw ?? {}) as Record<string, unknown>;
      if (typeof e['event-type'] !== 'string') throw new StoreError(400, 'No event-type defined');
      const name = e['event-type'];
      const cls = VALUE_CLASS.get(name);
      if (!cls && opts.skipUnknownEventTypes) continue;
      if (!cls) throw new StoreError(400, `Invalid event-type ${name}`);
      const row = events.get(name) ?? new EventRow(name, cls);
      events.set(name, row);
      triples.push(`${name}/base/0`);
      for (const s of Array.isArray(e.summaries) ? (e.summaries as Record<string, unknown>[]) : []) {
        if (s['summary-type'] === undefined) throw new StoreError(400, 'Summary must contain summary-type');
        const type = jsonText(s['summary-type']);
        if (type === 'base') continue;
        if (!['aggregation', 'average', 'statistics'].includes(type))
          throw new StoreError(400, `Invalid summary type '${type}'`);
        if (!ALLOWED_SUMMARIES[cls].includes(type))
          throw new StoreError(400, `Summary type ${type} not allowed for event-type ${name}`);
        if (s['summary-window'] === undefined) throw new StoreError(400, 'Summary must contain summary-window');
        const w = Number(s['summary-window']);
        if (!Number.isInteger(w) || w < 0) throw new StoreError(400, 'Summary window must be an integer');
        if (!row.summaries.some((r) => r.type === type && r.window === w))
          row.summaries.push(new SummaryRow(type, w, cls));
        triples.push(`${name}/${type}/${w}`);
      }
    }
    for (const row of events.values()) {
      for (const s of row.summaries) {
        if (s.type !== 'statistics') continue;
        const agg = row.summaries.find((x) => x.type === 'aggregation' && x.window === s.window);
        if (agg) s.statsFrom = agg;
        else if (s.window === 0) s.statsFromBase = row.base;
      }
    }
    const checksum = checksumOf(subjectType, fields, triples);
    const existing = key === undefined ? this.byChecksum.get(checksum) : undefined;
    if (existing) return { record: existing, created: false };
    const record: MetadataRecord = {
      key: key ?? randomUUID().replace(/-/g, ''),
      subjectType,
      fields,
      events,
      checksum,
    };
    this.records.set(record.key, record);
    this.byChecksum.set(checksum, record);
    return { record, created: true };
  }

  /**
   * Write one value. Counter-backed types (integer, float, percentage) refuse a timestamp already stored (409);
   * `sumDuplicates` adds it instead (esmond's behaviour within one bulk PUT). Other types overwrite.
   */
  write(
    record: MetadataRecord,
    eventType: string,
    ts: number,
    val: unknown,
    opts: { sumDuplicates?: boolean; at?: number } = {},
  ): void {
    const cls = VALUE_CLASS.get(eventType);
    if (!cls) throw new StoreError(400, `Invalid event type ${eventType}`);
    const checked = checkValue(cls, val);
    if (!checked.ok) throw new StoreError(400, checked.error);
    const row = record.events.get(eventType);
    if (!row) return; // esmond: valid type not registered on this metadata → 201, nothing stored
    let value = checked.value;
    const old = row.base.get(ts);
    const counter = cls === 'integer' || cls === 'float' || cls === 'percentage';
    if (old !== undefined) {
      if (counter && !opts.sumDuplicates)
        throw new StoreError(409, `Time series value already exists with event type ${eventType} at time ${ts}`);
      for (const s of row.summaries) s.apply(ts, old, -1);
      if (counter) value = addCounter(cls, old, value);
    }
    row.base.set(ts, value);
    for (const s of row.summaries) s.apply(ts, value, 1);
    const t = opts.at ?? now();
    row.timeUpdated = t;
    for (const s of row.summaries) s.timeUpdated = t;
  }

  /** Base value of a point as esmond returns it (percentages as fractions). */
  static output(row: EventRow, v: unknown): unknown {
    if (row.cls === 'percentage' && v && typeof v === 'object') {
      const p = v as { numerator: number; denominator: number };
      return p.numerator / p.denominator;
    }
    return v;
  }

  /** The metadata object as the REST interface shows it. */
  toJson(r: MetadataRecord, origin: string): Record<string, unknown> {
    const uri = `${ARCHIVE_PATH}${r.key}/`;
    const events = [...r.events.values()]
      .sort((a, b) => a.eventType.localeCompare(b.eventType))
      .map((e) => ({
        'base-uri': `${uri}${e.eventType}/base`,
        'event-type': e.eventType,
        summaries: [...e.summaries]
          .sort((a, b) => a.type.localeCompare(b.type) || a.window - b.window)
          .map((s) => ({
            'summary-type': s.type,
            'summary-window': String(s.window),
            'time-updated': s.timeUpdated,
            uri: `${uri}${e.eventType}/${SUMMARY_JSON_TO_URL[s.type]}/${s.window}`,
          })),
        'time-updated': e.timeUpdated,
      }));
    return {
      ...r.fields,
      'event-types': events,
      'metadata-key': r.key,
      'subject-type': r.subjectType,
      uri,
      url: `${origin}${uri}`,
    };
  }
}

function addCounter(cls: ValueClass, a: unknown, b: unknown): unknown {
  if (cls === 'percentage') {
    const x = a as { numerator: number; denominator: number };
    const y = b as { numerator: number; denominator: number };
    return { numerator: x.numerator + y.numerator, denominator: x.denominator + y.denominator };
  }
  return (a as number) + (b as number);
}

/** Python str() of a scalar, as Django's TextField stores free-form values (True → "True"). */
function pyStr(v: unknown): string {
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (v === null) return 'None';
  return jsonText(v);
}

export function isIp(s: string): boolean {
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(s)) return s.split('.').every((o) => Number(o) <= 255);
  return s.includes(':') && /^[0-9a-f:.]+$/i.test(s);
}
