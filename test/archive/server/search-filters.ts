// Metadata search as esmond's ArchiveViewset.get_queryset (reference esmond.md §1b): address filters resolve names
// through a local host table under a dns-match-rule; event-type, summary-type, summary-window and time filters are
// ANDed within one event-type row; any other parameter is an exact match on a field; results ordered by key.
import { isIp, type MetadataRecord, StoreError } from './store';
import { timeWindow } from './time-filters';

const RESERVED = new Set([
  'format',
  'limit',
  'offset',
  'dns-match-rule',
  'time',
  'time-start',
  'time-end',
  'time-range',
  'event-type',
  'summary-type',
  'summary-window',
  'subject-type',
  'metadata-key',
]);
const ADDRESS_FIELDS = ['source', 'destination', 'measurement-agent'];
const RULES = ['v4v6', 'only-v4', 'only-v6', 'prefer-v4', 'prefer-v6'];

/** Names the local archive can "resolve": each name maps to the IPv4 and IPv6 addresses seen with it. */
export type HostTable = Map<string, { v4: string[]; v6: string[] }>;

export function buildHostTable(records: Iterable<MetadataRecord>, extra: Record<string, string[]> = {}): HostTable {
  const t: HostTable = new Map();
  const add = (name: string | undefined, ip: string | undefined): void => {
    if (!name || !ip || isIp(name) || !isIp(ip)) return;
    const e = t.get(name.toLowerCase()) ?? { v4: [], v6: [] };
    const list = ip.includes(':') ? e.v6 : e.v4;
    if (!list.includes(ip)) list.push(ip);
    t.set(name.toLowerCase(), e);
  };
  for (const r of records) {
    add(r.fields['input-source'], r.fields.source);
    add(r.fields['input-destination'], r.fields.destination);
  }
  for (const [name, ips] of Object.entries(extra)) for (const ip of ips) add(name, ip);
  add('localhost', '127.0.0.1');
  add('localhost', '::1');
  return t;
}

function normIp(ip: string): string {
  return ip.toLowerCase();
}

function resolve(value: string, rule: string, hosts: HostTable): Set<string> {
  if (isIp(value)) return new Set([normIp(value)]);
  const e = hosts.get(value.toLowerCase());
  // esmond uses only the first address per family getaddrinfo returns.
  const v4 = e?.v4.slice(0, 1) ?? [];
  const v6 = e?.v6.slice(0, 1) ?? [];
  let ips: string[];
  switch (rule) {
    case 'only-v4':
      ips = v4;
      break;
    case 'only-v6':
      ips = v6;
      break;
    case 'prefer-v4':
      ips = v4.length ? v4 : v6;
      break;
    case 'prefer-v6':
      ips = v6.length ? v6 : v4;
      break;
    default:
      ips = [...v6, ...v4];
  }
  if (ips.length === 0) throw new StoreError(400, `Unable to find address for host ${value}`);
  return new Set(ips.map(normIp));
}

export function searchRecords(
  records: Iterable<MetadataRecord>,
  q: URLSearchParams,
  hosts: HostTable,
  now: number,
): MetadataRecord[] {
  const addressSets: [string, Set<string>][] = [];
  const rule = q.get('dns-match-rule') ?? 'v4v6';
  for (const f of ADDRESS_FIELDS) {
    const v = q.get(f);
    if (v === null) continue;
    if (!RULES.includes(rule)) throw new StoreError(400, `Invalid dns-match-rule parameter ${rule}`);
    addressSets.push([f, resolve(v, rule, hosts)]);
  }
  const time = timeWindow(q, 'metadata', now);
  const eventType = q.get('event-type');
  const summaryType = q.get('summary-type');
  const summaryWindow = q.get('summary-window');
  const exact: [string, string][] = [];
  for (const [k, v] of q) if (!RESERVED.has(k) && !ADDRESS_FIELDS.includes(k)) exact.push([k, q.get(k) ?? v]);
  const subjectType = q.get('subject-type');
  const key = q.get('metadata-key');
  const rowFilter = eventType !== null || summaryType !== null || summaryWindow !== null || !time.none;

  const inTime = (t: number | null): boolean => time.none || (t !== null && t >= time.start && t <= time.end);
  const out: MetadataRecord[] = [];
  for (const r of records) {
    if (subjectType !== null && r.subjectType !== subjectType) continue;
    if (key !== null && r.key.toLowerCase() !== key.toLowerCase()) continue;
    if (!addressSets.every(([f, ips]) => r.fields[f] !== undefined && ips.has(normIp(r.fields[f])))) continue;
    // Free-form keys are stored as posted; accept the dashed form of an underscored name too.
    if (!exact.every(([k, v]) => (r.fields[k] ?? r.fields[k.replace(/_/g, '-')]) === v)) continue;
    if (rowFilter) {
      let hit = false;
      for (const e of r.events.values()) {
        if (eventType !== null && e.eventType !== eventType) continue;
        const rows: { type: string; window: number; t: number | null }[] = [
          { type: 'base', window: 0, t: e.timeUpdated },
        ];
        for (const s of e.summaries) rows.push({ type: s.type, window: s.window, t: s.timeUpdated });
        hit = rows.some(
          (row) =>
            (summaryType === null || summaryType === 'base'
              ? summaryType === null || row.type === 'base'
              : row.type === summaryType) &&
            (summaryWindow === null || String(row.window) === summaryWindow.trim()) &&
            inTime(row.t),
        );
        if (hit) break;
      }
      if (!hit) continue;
    }
    out.push(r);
  }
  return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}
