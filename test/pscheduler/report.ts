// The model-vs-pScheduler table of a live run, as docs/schedule.md shows it: per scenario the live counts over the
// compared span, the model's, the POST times and the scheduler's lag. Written by the live suite to
// test-results/pscheduler-live/comparison.md; `node out/test/pscheduler/report.js RESULTS.json` prints it again
// (after a model change, say).
import { readFileSync } from 'node:fs';
import { viewScenario } from './analysis';
import type { LiveRunResult } from './live-run';
import { compare } from './model-checks';
import { SCENARIOS } from './scenarios';

const quantiles = (xs: number[]): string => {
  if (!xs.length) return '-';
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number): number => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return `${s[0].toFixed(0)}–${s[s.length - 1].toFixed(0)} (median ${q(0.5).toFixed(0)})`;
};

export async function comparisonMarkdown(live: LiveRunResult): Promise<string> {
  const lines = [
    '| scenario | pScheduler: tasks at once, runs kept / lost (reasons) | model | lag due→decision (s) |',
    '|---|---|---|---|',
  ];
  for (const result of live.scenarios) {
    // The verdict scenarios are about which tasks exist, not their runs (verdict-checks.ts prints them).
    if (SCENARIOS.find((s) => s.name === result.scenario)?.verdicts) continue;
    const view = viewScenario(result.tasks, {
      horizonSeconds: result.horizonSeconds,
      ttlSeconds: result.agent.ttlSeconds,
      collectedAt: result.collectedAt,
    });
    const { comparison: c } = await compare({ result, view, live });
    const side = (s: typeof c.live): string =>
      `${s.tasks} task${s.tasks === 1 ? '' : 's'}, ${s.scheduled} / ${s.nonstart}${s.reasons.length ? ` (${s.reasons.map((r) => `"${r}"`).join(', ')})` : ''}` +
      (s.failed ? `; ${s.failed} more failed under load ("Failed to ... run data")` : '');
    lines.push(
      `| ${result.scenario} (0–${c.spanSeconds.toFixed(0)} s) | ${side(c.live)} | ${side(c.model)} | ${quantiles(view.lags)} |`,
    );
  }
  const posts = (phase: string): string =>
    quantiles(live.posts.filter((p) => p.phase === phase && !p.error).map((p) => p.seconds));
  const failed = live.posts.filter((p) => p.error).length;
  const loads = quantiles(live.posts.filter((p) => p.phase === 'loaded').map((p) => p.load1));
  lines.push(
    '',
    `POST /tasks: ${posts('idle')} s before the agents started, ${posts('loaded')} s while the scenarios ran ` +
      `(1-minute load ${loads}); ${failed} of ${live.posts.length} failed (HTTP 500, a plug-in program past its limit).`,
  );
  return lines.join('\n');
}

if (require.main === module) {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: node out/test/pscheduler/report.js test-results/pscheduler-live/results.json');
    process.exit(2);
  }
  comparisonMarkdown(JSON.parse(readFileSync(file, 'utf8')) as LiveRunResult).then(
    (md) => console.log(md),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
}
