// `psconfig-tools schedule` as text: what was simulated, the hosts by exclusive load, the tasks that lose runs (all
// of them, worst first, when there are few; the 50 worst otherwise), the findings, suggestions, and with --runs every
// run of the span.
import type {
  ScheduleFinding,
  ScheduleModel,
  ScheduleReport,
  ScheduleTaskRow,
  SimulationResult,
} from '../server/src/template/schedule';
import { isoTime } from '../server/src/template/schedule';
import { noun } from '../common/text';

export interface ScheduleTableInput {
  file: string;
  model: ScheduleModel;
  sim: SimulationResult;
  report: ScheduleReport;
  findings: ScheduleFinding[];
  suggestions: string[];
  startMs: number;
}

const MAX_TASK_LINES = 50;

function table(rows: string[][], rightAligned: Set<number>): string[] {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  return rows.map((r) =>
    r
      .map((cell, c) => (rightAligned.has(c) ? cell.padStart(widths[c]) : cell.padEnd(widths[c])))
      .join('  ')
      .trimEnd(),
  );
}

export function renderScheduleTable(x: ScheduleTableInput): string {
  const { report, sim } = x;
  const out: string[] = [];
  const templates = new Set(report.tasks.map((t) => t.task)).size;
  out.push(
    `${x.file}: ${report.tasks.length} pScheduler tasks (${templates} template ${noun(templates, 'task')}) on ${report.hosts.length} hosts, ` +
      `simulated ${sim.days} ${noun(sim.days, 'day')} from ${isoTime(x.startMs, sim.spanStart)} after a warm-up day (seed ${sim.seed})`,
  );
  out.push('');
  const hosts = [...report.hosts].sort(
    (a, b) => b.exclusiveLoad - a.exclusiveLoad || a.address.localeCompare(b.address),
  );
  out.push(
    ...table(
      [
        ['host', 'exclusive load', 'normal load', 'tasks'],
        ...hosts.map((h) => [
          h.address,
          `${h.exclusiveLoad.toFixed(3)}${h.exclusiveLoad > 1 ? ' !' : ''}`,
          h.normalLoad.toFixed(3),
          String(h.tasks),
        ]),
      ],
      new Set([1, 2, 3]),
    ),
  );
  out.push('');
  const losing = report.tasks
    .filter((t) => t.scheduled < t.wanted)
    .sort((a, b) => b.wanted - b.scheduled - (a.wanted - a.scheduled));
  const wanted = report.tasks.reduce((n, t) => n + t.wanted, 0);
  const scheduled = report.tasks.reduce((n, t) => n + t.scheduled, 0);
  out.push(
    `runs: ${scheduled.toLocaleString('en-US')} of ${wanted.toLocaleString('en-US')} scheduled; ` +
      `${losing.length} of ${report.tasks.length} tasks lose runs`,
  );
  if (losing.length) {
    const shown = losing.slice(0, MAX_TASK_LINES);
    out.push(
      ...table(
        [
          ['task', 'addresses', 'agent', 'tool', 'class', 'run', 'scheduled', 'non-starters'],
          ...shown.map((t: ScheduleTaskRow) => [
            t.task,
            t.addresses.join(' → '),
            t.agent ?? '',
            t.tool ?? '-',
            t.class,
            `${t.durationSeconds} s`,
            `${t.scheduled}/${t.wanted}`,
            String(t.nonstart),
          ]),
        ],
        new Set([5, 6, 7]),
      ),
    );
    if (losing.length > shown.length) out.push(`… and ${losing.length - shown.length} more (--format json lists all)`);
  }
  if (x.findings.length) {
    out.push('');
    for (const f of x.findings) out.push(`${f.severity}: ${f.message}`);
  }
  if (x.suggestions.length) {
    out.push('');
    for (const s of x.suggestions) out.push(`suggestion: ${s}`);
  }
  if (report.runs) {
    out.push('');
    out.push(
      ...table(
        [
          ['start', 'end', 'task', 'addresses', 'class', 'state'],
          ...report.runs.map((r) => [
            r.start,
            r.end,
            r.task,
            r.addresses.join(' → '),
            r.class,
            r.state === 'scheduled' ? 'scheduled' : `non-starter: ${r.reason ?? ''}`,
          ]),
        ],
        new Set(),
      ),
    );
  }
  return `${out.join('\n')}\n`;
}
