// The host timeline webview in headless Chromium on a 200-host mesh's day (39,800 throughput tasks every 4 h: 238,800
// runs on 200 rows, meshReport of test/webview/schedule-report.ts), through the real pure host as the panel runs it:
// from the page's start to its first draw, from the data's arrival to the draw, and the canvas draw of the rows in
// view. Baseline measured in the same run: JSON.parse of the report's JSON text in Node (the data the page receives
// is made from it). Moved here from test/webview/schedule.test.ts, which printed these figures without judging them
// (the test keeps what it asserts: every run, every row, the last host drawn).
//   npm run bench -- schedule-timeline
import * as os from 'node:os';
import { launchChromium } from '../test/webview/harness';
import { startTimelineHarness } from '../test/webview/schedule-harness';
import { meshReport, SPAN } from '../test/webview/schedule-report';

const HOSTS = Number(process.env.TIMELINE_BENCH_HOSTS ?? 200);
const RUNS = 3;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

const fmt = (ms: number): string => `${ms.toFixed(1)} ms`;

export async function run(): Promise<void> {
  console.log(
    `${os.cpus().length} CPUs, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} (wall times grow with load)`,
  );
  const report = meshReport(HOSTS, 4, 1);
  const text = JSON.stringify(report);
  const parses: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    JSON.parse(text);
    parses.push(performance.now() - t0);
  }
  const parse = median(parses);
  console.log(
    `baseline: JSON.parse of the report (${report.runs!.length.toLocaleString('en')} runs, ${(text.length / 1e6).toFixed(1)} MB): ${fmt(parse)} (median of ${RUNS})`,
  );

  const browser = await launchChromium();
  const first: number[] = [];
  const fromData: number[] = [];
  const draws: number[] = [];
  let inView = 0;
  try {
    for (let i = 0; i < RUNS; i++) {
      const h = await startTimelineHarness({
        browser,
        load: () => Promise.resolve({ report, span: SPAN }),
        viewport: { width: 1400, height: 1000 },
      });
      try {
        await h.loads(1);
        await h.page.waitForFunction(() => window.timelineMetrics.rows > 0);
        const m = await h.page.evaluate(() => window.timelineMetrics);
        if (m.rows !== HOSTS) throw new Error(`${m.rows} rows drawn, not ${HOSTS}`);
        first.push(m.firstDrawMs ?? NaN);
        fromData.push(m.dataMs ?? NaN);
        draws.push(m.drawMs);
        inView = m.runsInView;
        if (h.problems.length) throw new Error(h.problems.join('\n'));
      } finally {
        await h.close();
      }
    }
  } finally {
    await browser.close();
  }
  const row = (what: string, ms: number): void =>
    console.log(`${what}: ${fmt(ms)} = ${(ms / parse).toFixed(1)}× the baseline (median of ${RUNS})`);
  row('page start → first draw', median(first));
  row("data's arrival → drawn", median(fromData));
  row(`canvas draw of the rows in view (${inView.toLocaleString('en')} runs)`, median(draws));
}
