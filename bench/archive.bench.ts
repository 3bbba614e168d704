// Archive client: a 100,000-point throughput series from the local archive, fetched over every page and
// transformed (normalised values, plus a CSV export), beside baselines measured in the same run: one unpaged
// undici request + JSON.parse of the same points, and JSON.parse alone of those bytes. Also 20,000 owdelay
// histograms turned into statistics (minimum/median/mean/p95) client-side. Medians of several runs are printed.
import { request } from 'undici';
import { closeArchiveConnections } from '../archive-client/http';
import { fetchSeries } from '../archive-client/series';
import { statisticsFromHistograms } from '../archive-client/summaries';
import { toCsv } from '../archive-client/export-csv';
import { normalisePoints } from '../archive-client/values';
import { startArchiveServer } from '../test/archive/server/server';

const POINTS = 100_000;
const RUNS = 5;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function timed<T>(fn: () => Promise<T> | T): Promise<[number, T]> {
  const t0 = performance.now();
  const v = await fn();
  return [performance.now() - t0, v];
}

export async function run(): Promise<void> {
  const now = Math.floor(Date.now() / 1000);
  const archive = await startArchiveServer({ seed: { fixtures: false, generated: false, benchPoints: POINTS, now } });
  try {
    const uri = `${archive.url}${archive.seed.benchKey}/throughput/base`;
    const range = { 'time-start': now - POINTS * 10, 'time-end': now };
    const rawUrl = `${uri}?time-start=${range['time-start']}&time-end=${now}&limit=${POINTS}`;
    const rows: [string, number, string][] = [];
    const record = async (label: string, fn: () => unknown, note = ''): Promise<number> => {
      await fn(); // warm-up
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) times.push((await timed(fn))[0]);
      const m = median(times);
      rows.push([label, m, note]);
      return m;
    };

    let bytes = 0;
    const baseline = await record('baseline: one unpaged undici GET + JSON.parse', async () => {
      const res = await request(rawUrl, { headers: { accept: 'application/json' } });
      const text = await res.body.text();
      bytes = text.length;
      const pts = JSON.parse(text) as unknown[];
      if (pts.length !== POINTS) throw new Error(`baseline got ${pts.length} points`);
    });
    const text = await (await request(rawUrl, { headers: { accept: 'application/json' } })).body.text();
    const parseOnly = await record('baseline: JSON.parse of those bytes alone', (): unknown => JSON.parse(text));
    let pages = 0;
    const fetch1000 = await record(
      'client fetchSeries, pages of 1000 (esmond client size)',
      async () => {
        const r = await fetchSeries({ url: archive.url }, uri, { ...range, pageSize: 1000 });
        if (r.points.length !== POINTS) throw new Error(`paged fetch got ${r.points.length} points`);
        pages = r.pages;
      },
      '',
    );
    rows[rows.length - 1][2] = `${pages} requests`;
    const fetch10k = await record('client fetchSeries, pages of 10000', async () => {
      const r = await fetchSeries({ url: archive.url }, uri, { ...range, pageSize: 10000 });
      pages = r.pages;
    });
    rows[rows.length - 1][2] = `${pages} requests`;
    const series = await fetchSeries({ url: archive.url }, uri, { ...range, pageSize: 10000 });
    const transform = await record('transform: normalisePoints (100k numbers)', () =>
      normalisePoints('throughput', 'base', series.points),
    );
    const normal = normalisePoints('throughput', 'base', series.points);
    await record('transform: CSV export of the normalised series', () => toCsv(normal));
    const both = await record('client fetch (10000/page) + transform', async () => {
      const r = await fetchSeries({ url: archive.url }, uri, { ...range, pageSize: 10000 });
      return normalisePoints('throughput', 'base', r.points);
    });

    // Client-side statistics from base histograms (when an archive has no statistics summary).
    const hists = Array.from({ length: 20000 }, (_, i) => ({
      ts: now - i * 60,
      val: { '20': 30 + (i % 7), '21': 20, '22': 5 + (i % 3), '25': 1 },
    })).reverse();
    const normalH = normalisePoints('histogram-owdelay', 'base', hists);
    await record('statistics from 20,000 base histograms (per point)', () => statisticsFromHistograms(normalH));
    await record('statistics from 20,000 base histograms (3600 s bins)', () => statisticsFromHistograms(normalH, 3600));

    console.log(
      `${POINTS} points, ${(bytes / 1e6).toFixed(1)} MB of JSON unpaged; median of ${RUNS} runs after a warm-up`,
    );
    const w = Math.max(...rows.map((r) => r[0].length));
    for (const [label, ms, note] of rows) console.log(`  ${label.padEnd(w)}  ${ms.toFixed(1).padStart(8)} ms ${note}`);
    console.log(`  ratio paged fetch (1000/page) / unpaged baseline:   ${(fetch1000 / baseline).toFixed(2)}x`);
    console.log(`  ratio paged fetch (10000/page) / unpaged baseline:  ${(fetch10k / baseline).toFixed(2)}x`);
    console.log(`  ratio transform / JSON.parse alone:                 ${(transform / parseOnly).toFixed(2)}x`);
    console.log(`  ratio fetch + transform / unpaged baseline:         ${(both / baseline).toFixed(2)}x`);
  } finally {
    await closeArchiveConnections();
    await archive.close();
  }
}
