// Inside one throughput test: its subintervals (total and per stream) on a seconds-into-the-test axis, and the
// per-stream totals (streams-throughput, streams-packet-retransmits) as a table.
import type { SeriesResult, Subinterval } from '../explorer/messages';
import { clear, h } from './dom';
import { createOffsetChart } from './charts';
import { formatTime, formatValue } from './format';
import type { Palette } from './theme';

/** The value of each subinterval at the given offsets (null where a stream has none). */
function valuesAt(offsets: number[], subs: readonly Subinterval[]): (number | null)[] {
  const m = new Map(subs.map((s) => [s.start, s.value]));
  return offsets.map((o) => m.get(o) ?? null);
}

function nearestIndex(ts: readonly number[], t: number): number {
  let best = -1;
  let dist = Infinity;
  ts.forEach((x, i) => {
    const d = Math.abs(x - t);
    if (d < dist) {
      dist = d;
      best = i;
    }
  });
  return dist <= 120 ? best : -1; // runs of different event types of one test share its ts
}

/** Render the test chooser and the details of the chosen test. `series` maps event type → result. */
export function renderTestDetails(parent: HTMLElement, series: Map<string, SeriesResult>, palette: Palette): void {
  const total = series.get('throughput-subintervals');
  const perStream = series.get('streams-throughput-subintervals');
  const retrans = series.get('packet-retransmits-subintervals');
  const streamTotals = series.get('streams-throughput');
  const streamRetrans = series.get('streams-packet-retransmits');
  const anchor = [total, perStream, streamTotals, retrans].find((r) => r && r.data.ts.length > 0);
  if (!anchor) {
    parent.append(h('p', { class: 'muted' }, 'No subinterval or per-stream data in this range.'));
    return;
  }
  const runs = anchor.data.ts;
  const holder = h('div', {});
  const pick = h(
    'select',
    { 'aria-label': 'Test run' },
    ...runs.map((t, i) => h('option', { value: String(i) }, formatTime(t))).reverse(),
  );
  parent.append(h('div', { class: 'row' }, h('span', {}, 'Test run'), pick), holder);

  const show = (i: number): void => {
    clear(holder);
    const t = runs[i];
    const lines: { label: string; values: (number | null)[]; color: string }[] = [];
    const offsets = new Set<number>();
    const totalSubs =
      total && total.data.kind === 'subintervals' ? total.data.intervals[nearestIndex(total.data.ts, t)] : undefined;
    const streamSubs =
      perStream && perStream.data.kind === 'stream-subintervals'
        ? perStream.data.streams[nearestIndex(perStream.data.ts, t)]
        : undefined;
    totalSubs?.forEach((s) => offsets.add(s.start));
    streamSubs?.forEach((st) => st.forEach((s) => offsets.add(s.start)));
    const xs = [...offsets].sort((a, b) => a - b);
    if (totalSubs) lines.push({ label: 'total', values: valuesAt(xs, totalSubs), color: palette.series[0] });
    streamSubs?.forEach((st, k) =>
      lines.push({
        label: `stream ${k}`,
        values: valuesAt(xs, st),
        color: palette.series[(k + 1) % palette.series.length],
      }),
    );
    if (xs.length && lines.length) {
      const plot = h('div', { class: 'plot subintervals' });
      holder.append(plot);
      createOffsetChart(plot, `Throughput subintervals at ${formatTime(t)}`, 'bps', xs, lines, palette);
    }
    const retransSubs =
      retrans && retrans.data.kind === 'subintervals'
        ? retrans.data.intervals[nearestIndex(retrans.data.ts, t)]
        : undefined;
    if (retransSubs?.length) {
      holder.append(
        h(
          'p',
          { class: 'muted' },
          `Retransmits per subinterval: ${retransSubs.map((s) => `${s.start}s: ${s.value ?? '—'}`).join(', ')}`,
        ),
      );
    }
    const tot =
      streamTotals && streamTotals.data.kind === 'streams'
        ? streamTotals.data.streams[nearestIndex(streamTotals.data.ts, t)]
        : undefined;
    const ret =
      streamRetrans && streamRetrans.data.kind === 'streams'
        ? streamRetrans.data.streams[nearestIndex(streamRetrans.data.ts, t)]
        : undefined;
    const n = Math.max(tot?.length ?? 0, ret?.length ?? 0);
    if (n > 0) {
      const rows = Array.from({ length: n }, (_, k) =>
        h(
          'tr',
          {},
          h('td', {}, `stream ${k}`),
          h('td', {}, formatValue(tot?.[k] ?? null, 'bps')),
          h('td', {}, formatValue(ret?.[k] ?? null, 'count')),
        ),
      );
      holder.append(
        h(
          'table',
          { class: 'streams' },
          h('thead', {}, h('tr', {}, h('th', {}, 'Stream'), h('th', {}, 'Throughput'), h('th', {}, 'Retransmits'))),
          h('tbody', {}, ...rows),
        ),
      );
    }
  };
  pick.addEventListener('change', () => show(Number(pick.value)));
  show(runs.length - 1);
}
