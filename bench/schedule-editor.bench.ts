// The editor's path to the simulated schedule of the 200-address full throughput mesh (39,800 tasks, every 4 h with
// slip and sliprand: meshTemplate of test/generated-templates.ts), in a real language server process, beside the
// expansion it is made from, both measured in this run on the same versions: after each edit, the full expansion (what
// the Tasks view waits for: psconfig/expandTasks), then psconfig/schedule (the lens's summary: the simulation made from
// that kept expansion, once per version, shared with the diagnostics pass), then the host timeline's request (the runs
// of whole hosts, up to 40,000). The worker's own figures (engine time, simulation time) come with the answers.
//   npm run bench -- schedule-editor
import * as os from 'node:os';
import type { ExpandTasksResult, ScheduleResult } from '../common/protocol';
import { LspClient } from '../test/lsp/lsp-client';
import { meshTemplate } from '../test/generated-templates';

const EDITS = 3;
const SCHEDULE_CODES = /^psconfig\/(schedule-|host-overloaded|throughput-remote-limits)/;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

export async function run(): Promise<void> {
  console.log(
    `${os.cpus().length} CPUs, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} (wall times grow with load)`,
  );
  const text = JSON.stringify(meshTemplate(200), null, 2);
  const client = await LspClient.start();
  const rows: { expandWall: number; engine: number; scheduleWall: number; simulation: number; runsWall: number }[] = [];
  try {
    const uri = 'file:///bench/schedule-mesh200.psconfig.json';
    await client.open(uri, text);
    console.log(
      'edit  expansion: answer / engine (worker)   schedule after it: answer / simulation (worker)   timeline runs: answer, runs, size',
    );
    for (let edit = 1; edit <= EDITS; edit++) {
      // A new version whose tasks are the same: every cache keyed by version starts again.
      const edited = performance.now();
      await client.change(uri, [{ text: text.replace('"Host 0"', `"Host 0 (${edit})"`) }]);
      const t0 = performance.now();
      const expanded = await client.request<ExpandTasksResult>('psconfig/expandTasks', { uri, limit: 1 });
      const expandWall = performance.now() - t0;
      const t1 = performance.now();
      const summary = await client.request<ScheduleResult>('psconfig/schedule', { uri, noTasks: true });
      const scheduleWall = performance.now() - t1;
      if (summary.error) throw new Error(`no schedule: ${summary.error}`);
      const wanted = summary.templateTasks.reduce((n, t) => n + t.wantedPerDay, 0);
      if (wanted === 0) throw new Error(`no runs simulated: ${JSON.stringify(summary.templateTasks)}`);
      const t2 = performance.now();
      const timeline = await client.request<ScheduleResult>('psconfig/schedule', { uri, runs: true, noTasks: true });
      const runsWall = performance.now() - t2;
      // The diagnostics pass simulates after the document rests (sharing this version's simulation), then looks for
      // quick fixes that fit by re-simulating (SUGGESTION_LIMIT_MS): its findings come last.
      const found = await client.diagnosticsWhere(uri, (ds) => ds.some((d) => SCHEDULE_CODES.test(String(d.code))));
      const findingsAt = performance.now() - edited;
      const codes = [...new Set(found.map((d) => String(d.code)).filter((c) => SCHEDULE_CODES.test(c)))];
      const row = {
        expandWall,
        engine: expanded.elapsedMs,
        scheduleWall,
        simulation: summary.elapsedMs,
        runsWall,
      };
      rows.push(row);
      console.log(
        `${String(edit).padStart(4)}  ${expandWall.toFixed(0).padStart(7)} / ${expanded.elapsedMs.toFixed(0).padStart(6)} ms` +
          `${''.padEnd(20)}${scheduleWall.toFixed(0).padStart(7)} / ${summary.elapsedMs.toFixed(0).padStart(6)} ms` +
          `${''.padEnd(28)}${runsWall.toFixed(0).padStart(6)} ms, ${(timeline.runs?.length ?? 0).toLocaleString('en')} runs` +
          ` (${(timeline.runsLeftOut ?? 0).toLocaleString('en')} left out), ${(JSON.stringify(timeline).length / 1e6).toFixed(1)} MB`,
      );
      console.log(
        `      schedule findings published ${(findingsAt / 1000).toFixed(1)} s after the edit: ${codes.join(', ')}`,
      );
    }
  } finally {
    await client.stop();
  }
  const m = (k: keyof (typeof rows)[number]): number => median(rows.map((r) => r[k]));
  console.log(
    `median: expansion answered in ${m('expandWall').toFixed(0)} ms (engine ${m('engine').toFixed(0)} ms); ` +
      `the schedule ${m('scheduleWall').toFixed(0)} ms after it (simulation ${m('simulation').toFixed(0)} ms) = ` +
      `${(m('scheduleWall') / m('expandWall')).toFixed(2)}× the expansion's answer (worker: simulation ÷ engine ` +
      `${(m('simulation') / m('engine')).toFixed(2)}×); lens figures after an edit: ${((m('expandWall') + m('scheduleWall')) / 1000).toFixed(1)} s; ` +
      `the timeline's runs ${m('runsWall').toFixed(0)} ms more`,
  );
}
