// Export of what the explorer shows (pure): CSV in long form (one row per timestamp and field, which every kind of
// value fits: numbers, statistics, failures, trace hops, subintervals, streams), or JSON with one object per series.
import type { SeriesData, ShownSeries } from './messages';

type Field = [field: string, value: string | number | null];

function fieldsAt(d: SeriesData, i: number): Field[] {
  switch (d.kind) {
    case 'number':
      return [['value', d.values[i]]];
    case 'stats':
      return [
        ['min', d.min[i]],
        ['median', d.median[i]],
        ['mean', d.mean[i]],
        ['p95', d.p95[i]],
        ['max', d.max[i]],
      ];
    case 'failures':
      return [['error', d.errors[i]]];
    case 'trace':
      return d.hops[i].flatMap((h): Field[] => [
        [`hop${h.ttl}.${h.query}.ip`, h.ip],
        [`hop${h.ttl}.${h.query}.rtt`, h.rtt],
        ...(h.error ? [[`hop${h.ttl}.${h.query}.error`, h.error] as Field] : []),
      ]);
    case 'subintervals':
      return d.intervals[i].map((s): Field => [`t+${s.start}s/${s.duration}s`, s.value]);
    case 'streams':
      return d.streams[i].map((v, k): Field => [`stream${k}`, v]);
    case 'stream-subintervals':
      return d.streams[i].flatMap((subs, k) =>
        subs.map((s): Field => [`stream${k}.t+${s.start}s/${s.duration}s`, s.value]),
      );
    case 'raw':
      return [['json', JSON.stringify(d.values[i])]];
  }
}

function csvCell(v: string | number | null | undefined): string {
  if (v === null || v === undefined) return '';
  const s = String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function iso(ts: number): string {
  return new Date(ts * 1000).toISOString();
}

export const CSV_HEADER = [
  'direction',
  'source',
  'destination',
  'event_type',
  'summary_type',
  'summary_window',
  'unit',
  'ts',
  'time_utc',
  'field',
  'value',
];

export function exportCsv(shown: readonly ShownSeries[]): string {
  const lines = [CSV_HEADER.join(',')];
  for (const s of shown) {
    const r = s.result;
    const prefix = [s.direction, s.source, s.destination, r.eventType, r.summaryType, r.window, r.unit]
      .map(csvCell)
      .join(',');
    const d = r.data;
    for (let i = 0; i < d.ts.length; i++) {
      const when = `${d.ts[i]},${iso(d.ts[i])}`;
      for (const [field, value] of fieldsAt(d, i)) lines.push(`${prefix},${when},${csvCell(field)},${csvCell(value)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** JSON keeps nested values (hops, subintervals, streams) as they are; flat kinds use the CSV fields. */
function structuredPoint(d: SeriesData, ts: number, i: number): Record<string, unknown> {
  switch (d.kind) {
    case 'trace':
      return { ts, hops: d.hops[i] };
    case 'subintervals':
      return { ts, intervals: d.intervals[i] };
    case 'streams':
    case 'stream-subintervals':
      return { ts, streams: d.streams[i] };
    case 'raw':
      return { ts, value: d.values[i] };
    default:
      return Object.fromEntries([['ts', ts], ...fieldsAt(d, i)]);
  }
}

export function exportJson(shown: readonly ShownSeries[], range: { start: number; end: number }): string {
  const series = shown.map((s) => {
    const d = s.result.data;
    const points = d.ts.map((ts, i) => structuredPoint(d, ts, i));
    return {
      direction: s.direction,
      source: s.source,
      destination: s.destination,
      'event-type': s.result.eventType,
      'summary-type': s.result.summaryType,
      'summary-window': s.result.window,
      unit: s.result.unit,
      uri: s.result.uri,
      points,
    };
  });
  return `${JSON.stringify({ 'time-start': range.start, 'time-end': range.end, series }, null, 1)}\n`;
}
