// Flattening normalised points into CSV rows, one layout per value shape (the columns esmond-ps-get prints,
// reference esmond.md §1f). Used by `psconfig-tools archive get --format csv` and the explorer's CSV export.
import type { NormalPoint, NormalValue } from './values';

type Cell = string | number | boolean | undefined | null;

/** Header of the CSV for a value kind. */
export function csvHeader(kind: NormalValue['kind']): string[] {
  switch (kind) {
    case 'number':
      return ['ts', 'value'];
    case 'loss':
      return ['ts', 'loss_fraction', 'lost', 'sent'];
    case 'histogram':
      return ['ts', 'bucket', 'count'];
    case 'statistics':
      return [
        'ts',
        'minimum',
        'median',
        'maximum',
        'mean',
        'mode',
        'standard_deviation',
        'variance',
        'percentile_25',
        'percentile_75',
        'percentile_95',
      ];
    case 'packet-trace':
      return ['ts', 'ttl', 'query', 'success', 'ip', 'hostname', 'rtt', 'mtu', 'as_number', 'error_message'];
    case 'subintervals':
      return ['ts', 'start', 'duration', 'value'];
    case 'streams':
      return ['ts', 'stream_num', 'value'];
    case 'stream-subintervals':
      return ['ts', 'stream_num', 'start', 'duration', 'value'];
    case 'failure':
      return ['ts', 'error'];
    case 'json':
      return ['ts', 'json'];
    case 'invalid':
      return ['ts', 'invalid_reason', 'raw'];
  }
}

export function csvRows(p: NormalPoint): Cell[][] {
  const v = p.val;
  const ts = p.ts;
  switch (v.kind) {
    case 'number':
      return [[ts, v.value]];
    case 'loss':
      return [[ts, v.value, v.numerator, v.denominator]];
    case 'histogram':
      return v.buckets.map(([b, c]) => [ts, b, c]);
    case 'statistics': {
      const s = v.stats;
      return [
        [
          ts,
          s.minimum,
          s.median,
          s.maximum,
          s.mean,
          (s.mode ?? []).join(' '),
          s['standard-deviation'],
          s.variance,
          s['percentile-25'],
          s['percentile-75'],
          s['percentile-95'],
        ],
      ];
    }
    case 'packet-trace':
      return v.hops.map((h) => [
        ts,
        h.ttl,
        h.query,
        h.success ? 1 : 0,
        h.ip,
        h.hostname,
        h.rtt,
        h.mtu,
        h.as?.number,
        h.error,
      ]);
    case 'subintervals':
      return v.intervals.map((s) => [ts, s.start, s.duration, s.value]);
    case 'streams':
      return v.streams.map((x, i) => [ts, i, x]);
    case 'stream-subintervals':
      return v.streams.flatMap((st, i) => st.map((s) => [ts, i, s.start, s.duration, s.value]));
    case 'failure':
      return [[ts, v.error]];
    case 'json':
      return [[ts, JSON.stringify(v.value)]];
    case 'invalid':
      return [[ts, v.reason, JSON.stringify(v.raw)]];
  }
}

function cell(c: Cell): string {
  if (c === undefined || c === null) return '';
  const s = String(c);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** CSV text of a series: header from the first valid point's kind; invalid points get their own rows at the end. */
export function toCsv(points: readonly NormalPoint[]): string {
  const kind = points.find((p) => p.val.kind !== 'invalid')?.val.kind ?? 'number';
  const lines = [csvHeader(kind).join(',')];
  const odd: NormalPoint[] = [];
  for (const p of points) {
    if (p.val.kind !== kind) odd.push(p);
    else for (const r of csvRows(p)) lines.push(r.map(cell).join(','));
  }
  if (odd.length) {
    lines.push('', csvHeader('invalid').join(','));
    for (const p of odd)
      for (const r of csvRows(
        p.val.kind === 'invalid'
          ? p
          : { ts: p.ts, val: { kind: 'invalid', reason: `unexpected ${p.val.kind} value`, raw: p.val } },
      ))
        lines.push(r.map(cell).join(','));
  }
  return `${lines.join('\n')}\n`;
}
