// Configured directions matched to archive metadata on our side (one search per archive, never one per pair).
// The pScheduler esmond archiver stores the resolved IPs in `source`/`destination` and the spec's own strings in
// `input-source`/`input-destination` (perfsonar/pscheduler pscheduler-archiver-esmond/esmond/esmond_util.py), so
// a direction is looked up by its spec strings in both: names match input-*, IP literals match either.
import type { Metadata } from '../archive-client/types';

/** IPv6 text in RFC 5952 form (lower case, longest zero run compressed), or undefined when not IPv6. */
export function canonicalIpv6(text: string): string | undefined {
  let s = text.trim().toLowerCase();
  if (s.startsWith('[') && s.endsWith(']')) s = s.slice(1, -1);
  s = s.replace(/%.*$/, '');
  if (!s.includes(':') || !/^[0-9a-f:.]+$/.test(s)) return undefined;
  let tail: number[] = [];
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(s);
  if (v4) {
    const b = v4.slice(1).map(Number);
    if (b.some((x) => x > 255)) return undefined;
    tail = [(b[0] << 8) | b[1], (b[2] << 8) | b[3]];
    s = s.slice(0, v4.index) + '0:0';
  }
  const halves = s.split('::');
  if (halves.length > 2) return undefined;
  const part = (p: string): number[] | undefined => {
    if (p === '') return [];
    const out: number[] = [];
    for (const g of p.split(':')) {
      if (!/^[0-9a-f]{1,4}$/.test(g)) return undefined;
      out.push(parseInt(g, 16));
    }
    return out;
  };
  const head = part(halves[0]);
  const rest = halves.length === 2 ? part(halves[1]) : [];
  if (!head || !rest) return undefined;
  const fill = 8 - head.length - rest.length;
  if (halves.length === 1 ? fill !== 0 : fill < 1) return undefined;
  const groups = [...head, ...new Array<number>(halves.length === 2 ? fill : 0).fill(0), ...rest];
  if (tail.length) groups.splice(6, 2, ...tail);
  // Longest run of two or more zero groups becomes "::" (the first such run on a tie).
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) {
      best = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best < 0) return hex.join(':');
  return `${hex.slice(0, best).join(':')}::${hex.slice(best + bestLen).join(':')}`;
}

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

export function isIpv4(text: string): boolean {
  const m = IPV4.exec(text.trim());
  return !!m && m.slice(1).every((x) => Number(x) <= 255);
}

const keys = new Map<string, string>();

/** A host or address as compared: IPs canonical, names lower case without a trailing dot or brackets. */
export function hostKey(text: string): string {
  let k = keys.get(text);
  if (k !== undefined) return k;
  const t = text.trim();
  k = isIpv4(t) ? t.split('.').map(Number).join('.') : (canonicalIpv6(t) ?? t.toLowerCase().replace(/\.$/, ''));
  // A mesh has a few hundred hosts; a cap keeps a hostile archive's endless names from growing the memo.
  if (keys.size > 100_000) keys.clear();
  keys.set(text, k);
  return k;
}

export function isIpLiteral(text: string): boolean {
  return isIpv4(text) || canonicalIpv6(text) !== undefined;
}

/** What the direction's task says about the measurement, beyond its endpoints. */
export interface MatchWant {
  eventType: string;
  testType?: string;
  ipVersion?: number;
  udp?: boolean;
  tools?: readonly string[];
}

/** Metadata of one archive, indexed by (input-source, input-destination) and by (source, destination). */
export class MetadataIndex {
  private readonly byPair = new Map<string, Metadata[]>();
  size: number;

  constructor(list: readonly Metadata[]) {
    this.size = list.length;
    for (const m of list) this.add(m);
  }

  /** An incremental search's answer: `m` replaces `old` (the same metadata key) or is new. */
  replace(old: Metadata | undefined, m: Metadata): void {
    if (old)
      for (const k of pairKeysOf(old)) {
        const l = this.byPair.get(k);
        const i = l ? l.indexOf(old) : -1;
        if (l && i >= 0) l.splice(i, 1);
      }
    else this.size++;
    this.add(m);
  }

  private add(m: Metadata): void {
    for (const k of pairKeysOf(m)) {
      const l = this.byPair.get(k);
      if (l) l.push(m);
      else this.byPair.set(k, [m]);
    }
  }

  candidates(source: string, destination: string): readonly Metadata[] {
    return this.byPair.get(pairKey(source, destination)) ?? [];
  }
}

/** The key a direction is looked up by. */
export function pairKey(source: string, destination: string): string {
  return `${hostKey(source)}\u0000${hostKey(destination)}`;
}

/** The pairs a metadata object answers for: its input-source/-destination and its source/destination. */
export function pairKeysOf(m: Metadata): Set<string> {
  const keys = new Set<string>();
  const add = (s: unknown, d: unknown): void => {
    if (typeof s === 'string' && typeof d === 'string' && s && d) keys.add(pairKey(s, d));
  };
  add(m['input-source'], m['input-destination']);
  add(m.source, m.destination);
  return keys;
}

export function eventTypeInfo(
  m: Metadata,
  eventType: string,
): NonNullable<Metadata['event-types']>[number] | undefined {
  return (m['event-types'] ?? []).find((e) => e['event-type'] === eventType);
}

export function timeUpdated(m: Metadata, eventType: string): number | undefined {
  const t = eventTypeInfo(m, eventType)?.['time-updated'];
  const n = typeof t === 'number' ? t : typeof t === 'string' ? Number(t) : NaN;
  return Number.isFinite(n) ? n : undefined;
}

function family(ip: unknown): 4 | 6 | undefined {
  if (typeof ip !== 'string') return undefined;
  return isIpv4(ip) ? 4 : canonicalIpv6(ip) !== undefined ? 6 : undefined;
}

/** Test types that write the same event types under another name are not interchangeable: latency ≠ latencybg. */
function compatible(m: Metadata, want: MatchWant): boolean {
  if (!eventTypeInfo(m, want.eventType)) return false;
  const tt = m['pscheduler-test-type'];
  if (want.testType && typeof tt === 'string' && tt !== want.testType) {
    // disk-to-disk and throughput both write `throughput`, but each under its own test type.
    return false;
  }
  if (want.ipVersion === 4 || want.ipVersion === 6) {
    const f = family(m.source);
    if (f !== undefined && f !== want.ipVersion) return false;
  }
  const proto = m['ip-transport-protocol'];
  if (want.testType === 'throughput' && typeof proto === 'string' && proto !== (want.udp ? 'udp' : 'tcp')) return false;
  return true;
}

export interface MatchResult {
  metadata?: Metadata;
  /** Other metadata that fit as well (another tool, IP version or agent): the hover says so. */
  alternatives: number;
}

/**
 * The archive's measurement of `source → destination` for this task: compatible test type, IP version and
 * protocol; a tool the task asks for first; then the most recently written.
 */
export function matchDirection(
  index: MetadataIndex,
  source: string,
  destination: string,
  want: MatchWant,
): MatchResult {
  const fits = index.candidates(source, destination).filter((m) => compatible(m, want));
  if (!fits.length) return { alternatives: 0 };
  const toolScore = (m: Metadata): number => {
    const tool = typeof m['tool-name'] === 'string' ? m['tool-name'].replace(/^[^/]*\//, '') : '';
    return want.tools?.length && want.tools.includes(tool) ? 1 : 0;
  };
  const latest = (m: Metadata): number =>
    Math.max(timeUpdated(m, want.eventType) ?? -1, timeUpdated(m, 'failures') ?? -1);
  let best = fits[0];
  for (const m of fits.slice(1)) {
    const d = toolScore(m) - toolScore(best) || latest(m) - latest(best);
    if (d > 0) best = m;
  }
  return { metadata: best, alternatives: fits.length - 1 };
}
