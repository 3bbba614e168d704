// Schedule reports for the timeline tests, written out by hand in the shape `psconfig-tools schedule --format json
// --runs` prints (common/protocol.ts ScheduleReport). These are drawing inputs, not a model: the runs are laid
// down by the rules below so every test knows where each run is and what it should show.
//
// smallReport(): three hosts over two days from 2026-12-01T00:00:00Z, four tasks.
// - `tput` (throughput, exclusive, 19 s, iperf3): the six directions of a full mesh of a, b, c, every hour. Each hour
//   a→b, b→c and c→a run back to back from hh:00:00 (19 s each); b→a, c→b and a→c find no slot: non-starters
//   ("No times available for this run."), each drawn at hh:00:00 for its duration.
// - `owd` (latency, normal, 21 s, owping): a→b, a's schedule only, every 10 minutes at mm:05:00.
// - `bg` (latencybg, background-multi, 24 h, powstream): a→c, one run per day from 00:00:00.
// - `path` (trace, background, 10 s, traceroute): b→a, b's schedule only, every 10 minutes at mm:00:30.
import type { ScheduleReport, ScheduleRunRow, ScheduleTaskRow, SchedulingClassName } from '../../common/protocol';

export const SPAN = { start: '2026-12-01T00:00:00.000Z', end: '2026-12-03T00:00:00.000Z' };
const T0 = Date.parse(SPAN.start);
const DAYS = 2;
export const HOSTS = { a: 'ps-a.example.net', b: 'ps-b.example.net', c: 'ps-c.example.net' } as const;
export const NO_TIMES = 'No times available for this run.';

const iso = (ms: number): string => new Date(ms).toISOString();

interface Plan {
  task: string;
  addresses: string[];
  participants: string[];
  cls: SchedulingClassName;
  seconds: number;
  tool: string;
  /** Start times (ms) and whether each will not start. */
  runs: { at: number; nonstart?: boolean }[];
}

function report(plans: Plan[]): ScheduleReport {
  const runs: ScheduleRunRow[] = [];
  const tasks: ScheduleTaskRow[] = [];
  const load = new Map<string, { exclusiveLoad: number; normalLoad: number; tasks: number }>();
  const spanSeconds = DAYS * 86400;
  for (const p of plans) {
    let scheduled = 0;
    for (const r of p.runs) {
      runs.push({
        task: p.task,
        addresses: p.addresses,
        participants: p.participants,
        class: p.cls,
        start: iso(r.at),
        end: iso(r.at + p.seconds * 1000),
        state: r.nonstart ? 'nonstart' : 'scheduled',
        ...(r.nonstart ? { reason: NO_TIMES } : {}),
      });
      if (!r.nonstart) scheduled++;
    }
    tasks.push({
      task: p.task,
      addresses: p.addresses,
      agent: p.participants[0],
      wanted: p.runs.length,
      scheduled,
      nonstart: p.runs.length - scheduled,
      durationSeconds: p.seconds,
      tool: p.tool,
      class: p.cls,
    });
    // Load: what the repeat asks for (wanted runs × duration over the span), as the model defines it.
    for (const h of p.participants) {
      const l = load.get(h) ?? { exclusiveLoad: 0, normalLoad: 0, tasks: 0 };
      l.tasks++;
      if (p.cls === 'exclusive') l.exclusiveLoad += (p.runs.length * p.seconds) / spanSeconds;
      if (p.cls === 'normal') l.normalLoad += (p.runs.length * p.seconds) / spanSeconds;
      load.set(h, l);
    }
  }
  runs.sort((x, y) => (x.start < y.start ? -1 : x.start > y.start ? 1 : 0));
  return { hosts: [...load].map(([address, l]) => ({ address, ...l })), tasks, runs };
}

function every(stepSeconds: number, offsetSeconds: number, days = DAYS): number[] {
  const out: number[] = [];
  for (let t = offsetSeconds; t < days * 86400; t += stepSeconds) out.push(T0 + t * 1000);
  return out;
}

export function smallReport(): ScheduleReport {
  const { a, b, c } = HOSTS;
  const hours = every(3600, 0);
  const tput = (src: string, dst: string, slot: number, nonstart: boolean): Plan => ({
    task: 'tput',
    addresses: [src, dst],
    participants: [src, dst],
    cls: 'exclusive',
    seconds: 19,
    tool: 'iperf3',
    runs: hours.map((h) => ({ at: h + slot * 19_000, nonstart })),
  });
  return report([
    tput(a, b, 0, false),
    tput(b, c, 1, false),
    tput(c, a, 2, false),
    tput(b, a, 0, true),
    tput(c, b, 0, true),
    tput(a, c, 0, true),
    {
      task: 'owd',
      addresses: [a, b],
      participants: [a],
      cls: 'normal',
      seconds: 21,
      tool: 'owping',
      runs: every(600, 300).map((at) => ({ at })),
    },
    {
      task: 'bg',
      addresses: [a, c],
      participants: [a],
      cls: 'background-multi',
      seconds: 86400,
      tool: 'powstream',
      runs: every(86400, 0).map((at) => ({ at })),
    },
    {
      task: 'path',
      addresses: [b, a],
      participants: [b],
      cls: 'background',
      seconds: 10,
      tool: 'traceroute',
      runs: every(600, 30).map((at) => ({ at })),
    },
  ]);
}

/**
 * A large mesh's day: `n` hosts, a throughput task per ordered pair every `repeatHours` hours, laid down one after
 * another on a shared clock (19 s each, so no two runs on a host overlap), with every tenth pair's runs non-started.
 * For drawing many rows and hundreds of thousands of runs, not for what a scheduler would do.
 */
export function meshReport(n: number, repeatHours = 4, days = 1): ScheduleReport {
  const names = Array.from({ length: n }, (_, i) => `mesh-${String(i + 1).padStart(3, '0')}.example.net`);
  const plans: Plan[] = [];
  let k = 0;
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      if (i === j) continue;
      const slot = k++;
      const runs: { at: number; nonstart?: boolean }[] = [];
      for (let w = 0; w < (days * 24) / repeatHours; w++)
        runs.push({
          at: T0 + w * repeatHours * 3600_000 + ((slot * 19_000) % (repeatHours * 3600_000)),
          nonstart: slot % 10 === 9,
        });
      plans.push({
        task: `mesh-${i % 3 === 0 ? 'a' : i % 3 === 1 ? 'b' : 'c'}`,
        addresses: [names[i], names[j]],
        participants: [names[i], names[j]],
        cls: 'exclusive',
        seconds: 19,
        tool: 'iperf3',
        runs,
      });
    }
  return report(plans);
}
