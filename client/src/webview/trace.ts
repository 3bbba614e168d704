// Packet traces: the hop table of one run (latest by default, any run from the list), and path changes over
// time — each distinct route gets a number, plotted as a step chart, with when each route was first and last seen.
import uPlot from 'uplot';
import type { SeriesResult, TraceHop } from '../explorer/messages';
import { clear, h } from './dom';
import { formatTime, formatValue } from './format';
import type { Palette } from './theme';
import type { ChartGroup } from './charts';
import { noun } from '../../../common/text';

/** A route's identity: the responding address per TTL (`*` for no answer). */
export function pathSignature(hops: readonly TraceHop[]): string {
  const byTtl = new Map<number, string>();
  for (const hop of hops) {
    const cur = byTtl.get(hop.ttl);
    const ip = hop.success && hop.ip ? hop.ip : '*';
    if (cur === undefined || cur === '*') byTtl.set(hop.ttl, ip);
  }
  return [...byTtl.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([, ip]) => ip)
    .join(' ');
}

export interface PathSummary {
  signature: string;
  first: number;
  last: number;
  runs: number;
}

/** Distinct paths in order of first appearance, and the path number of each run. */
export function pathChanges(
  ts: readonly number[],
  hops: readonly TraceHop[][],
): { paths: PathSummary[]; index: number[]; changes: number } {
  const ids = new Map<string, number>();
  const paths: PathSummary[] = [];
  const index: number[] = [];
  let changes = 0;
  for (let i = 0; i < ts.length; i++) {
    const sig = pathSignature(hops[i]);
    let id = ids.get(sig);
    if (id === undefined) {
      id = paths.length;
      ids.set(sig, id);
      paths.push({ signature: sig, first: ts[i], last: ts[i], runs: 0 });
    }
    const p = paths[id];
    p.last = ts[i];
    p.runs++;
    if (i > 0 && index[i - 1] !== id) changes++;
    index.push(id);
  }
  return { paths, index, changes };
}

function hopTable(hops: readonly TraceHop[]): HTMLElement {
  const head = h('tr', {}, ...['TTL', 'Address', 'Host', 'AS', 'RTT', 'MTU', 'Error'].map((c) => h('th', {}, c)));
  const body = h('tbody', {});
  for (const hop of hops) {
    body.append(
      h(
        'tr',
        { class: hop.success ? '' : 'failed' },
        h('td', {}, hop.ttl + (hop.query > 1 ? `.${hop.query}` : '')),
        h('td', {}, hop.success ? hop.ip || '—' : '*'),
        h('td', {}, hop.hostname ?? ''),
        h('td', {}, hop.asn !== undefined ? `AS${hop.asn}${hop.asOwner ? ` ${hop.asOwner}` : ''}` : ''),
        h('td', {}, formatValue(hop.rtt, 'ms')),
        h('td', {}, hop.mtu ?? ''),
        h('td', {}, hop.error ?? ''),
      ),
    );
  }
  return h('table', { class: 'hops' }, h('thead', {}, head), body);
}

/** Render one direction's traces into `parent`. */
export function renderTraces(
  parent: HTMLElement,
  label: string,
  result: SeriesResult,
  palette: Palette,
  group: ChartGroup,
  range: { start: number; end: number },
): void {
  const d = result.data;
  if (d.kind !== 'trace' || d.ts.length === 0) {
    parent.append(h('p', { class: 'muted' }, `${label}: no traces in this range.`));
    return;
  }
  const { paths, index, changes } = pathChanges(d.ts, d.hops);
  const tableHolder = h('div', { class: 'hop-table' });
  const pick = h(
    'select',
    { 'aria-label': `${label} trace run` },
    ...d.ts.map((t, i) => h('option', { value: String(i) }, `${formatTime(t)} — path ${index[i] + 1}`)).reverse(),
  );
  const showRun = (i: number): void => {
    clear(tableHolder);
    tableHolder.append(hopTable(d.hops[i]));
  };
  pick.addEventListener('change', () => showRun(Number(pick.value)));
  showRun(d.ts.length - 1);

  const chartHolder = h('div', { class: 'plot' });
  const list = h(
    'ol',
    { class: 'paths' },
    ...paths.map((p) =>
      h(
        'li',
        {},
        h('code', {}, p.signature),
        h(
          'span',
          { class: 'muted' },
          ` — ${p.runs} ${noun(p.runs, 'run')}, ${formatTime(p.first)} … ${formatTime(p.last)}`,
        ),
      ),
    ),
  );
  parent.append(
    h(
      'h4',
      {},
      `${label}: ${d.ts.length} runs, ${paths.length} distinct ${noun(paths.length, 'path')}, ${changes} ${noun(changes, 'change')}`,
    ),
    h('div', { class: 'row' }, h('span', {}, 'Run'), pick),
    tableHolder,
    chartHolder,
    list,
  );
  const axis = {
    stroke: palette.fg,
    grid: { stroke: palette.grid, width: 1 },
    ticks: { stroke: palette.grid, width: 1 },
  };
  const u = new uPlot(
    {
      title: `${label}: path over time`,
      width: Math.max(240, parent.clientWidth || 600),
      height: 140,
      series: [
        { label: 'time (UTC)', value: (_u, v) => formatTime(v) },
        {
          label: 'path',
          stroke: palette.series[0],
          width: 1.5,
          paths: uPlot.paths.stepped?.({ align: 1 }),
          points: { show: true, size: 5, fill: palette.series[0] },
          value: (_u, v) => (v === null ? '—' : `path ${v}`),
        },
      ],
      scales: { x: { time: true }, y: { range: () => [0.5, paths.length + 0.5] } },
      axes: [
        axis,
        {
          ...axis,
          size: 50,
          splits: () => paths.map((_p, i) => i + 1),
          values: (_u, ticks) => ticks.map((t) => `#${t}`),
        },
      ],
      cursor: { drag: { x: true, y: false }, sync: { key: 'psconfig-explorer' } },
    },
    [d.ts.slice(), index.map((i) => i + 1)],
    chartHolder,
  );
  group.add(u);
  group.quietly(() => u.setScale('x', { min: range.start, max: range.end }));
}
