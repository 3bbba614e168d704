// psconfig-tools schedule TEMPLATE [--days N] [--seed S] [--host ADDRESS]... [--format table|json] [--runs] ...
// Will the mesh run? pScheduler's scheduler simulated over the tasks the template's agents would create
// (server/src/template/schedule/, docs/schedule.md): per host the exclusive and normal load, per task the runs
// wanted, scheduled and non-started, and with --runs every run of the span. Exit 0: every run fits and no host's
// exclusive load exceeds 1; 1: some task loses runs or some host is over 1 (of those shown with --host), or no task
// would run at all; 2: the template cannot be read or expanded, or bad usage.
import { expandText } from '../server/src/template/expand/from-text';
import {
  buildScheduleModel,
  DEFAULT_ASSUMPTIONS,
  whyNothingRuns,
  scheduleFindings,
  scheduleReport,
  simulateSchedule,
  suggestScheduleFixes,
  type ScheduleAssumptions,
  type ScheduleFinding,
  type ScheduleModel,
  type SimulationResult,
} from '../server/src/template/schedule';
import { hostFilter } from '../server/src/template/schedule/report';
import { DEFAULT_INPUT_LIMITS, readTemplateArg, unexpandedExit, type InputLimits } from './inputs';
import { renderScheduleTable } from './schedule-table';
import { applyAssumption } from './schedule-assume';
import {
  commandArgs,
  expandingOptions,
  flag,
  formatOption,
  listOption,
  onePositional,
  type CommandOptions,
  type JqArgs,
} from './options';
import { noun } from '../common/text';

const USAGE = `usage: psconfig-tools schedule TEMPLATE [--days N] [--seed S] [--host ADDRESS]... [--format table|json] [--runs]
                               [--start YYYY-MM-DD] [--suggest] [--assume NAME=VALUE]... [--jq PATH]
                               [--allow-remote-includes] [--timeout SECONDS]

  TEMPLATE           a template file, - for standard input, or an http(s) URL
  --days N           days simulated after a warm-up day (default 2, at most 31)
  --seed S           seed of the random choices sliprand makes (default 1): the same seed, the same schedule
  --host ADDRESS     only this host and the tasks it takes part in (repeatable; as the tasks' participants name it)
  --format table     (default) hosts by exclusive load, tasks that lose runs, findings; json: {"hosts", "tasks", "runs"}
                     as docs/schedule.md describes (findings then go to stderr)
  --runs             every simulated run of the span (json: the "runs" array; table: one line per run)
  --start DATE       the warm-up day (UTC; default today): run times are printed from the day after
  --suggest          for each task that loses runs, re-simulate schedule changes (slip/sliprand, a longer repeat)
                     and print those that make it fit
  --assume NAME=VALUE  change one of the model's assumptions (repeatable; docs/schedule.md), e.g. horizonSeconds=180,
                     agentRenewal=false, postSeconds=10, nullPriorityDefect=false
  --jq PATH          jq binary for {% jq %} variables (default: JQ_PATH, node-jq's binary, then jq on PATH)
  --allow-remote-includes  fetch http(s) URLs listed in \`includes\`
  --timeout SECONDS  for a URL TEMPLATE and remote includes (default 10)
Exit 0: every run fits and no host's exclusive load exceeds 1; 1: some task loses runs, some host's exclusive
load exceeds 1, or no task would run at all; 2: usage, or the template cannot be read or expanded.
`;

const MAX_DAYS = 31;

interface Args extends JqArgs {
  file?: string;
  days: number;
  seed: number;
  hosts: string[];
  format: 'table' | 'json';
  runs: boolean;
  startMs: number;
  suggest: boolean;
  assumptions: Partial<ScheduleAssumptions>;
  limits: InputLimits;
}

function todayUtc(): number {
  const now = new Date();
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
}

const OPTIONS: CommandOptions<Args> = {
  options: {
    '--days': {
      value: (a, v) => {
        if (!v || !/^\d+$/.test(v) || Number(v) < 1 || Number(v) > MAX_DAYS)
          return `--days needs a whole number of days from 1 to ${MAX_DAYS} (got ${v ?? 'nothing'})`;
        a.days = Number(v);
      },
    },
    '--seed': {
      value: (a, v) => {
        if (!v || !/^\d+$/.test(v) || Number(v) > 0xffffffff)
          return `--seed needs a whole number from 0 to 4294967295 (got ${v ?? 'nothing'})`;
        a.seed = Number(v);
      },
    },
    '--host': listOption((a) => a.hosts, '--host needs an address'),
    '--format': formatOption(['table', 'json'], (a, f) => (a.format = f)),
    '--start': {
      value: (a, given) => {
        const v = given ?? '';
        const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
        const ms = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : NaN;
        if (!m || Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== v)
          return `--start needs a date as YYYY-MM-DD (got ${v || 'nothing'})`;
        a.startMs = ms;
      },
    },
    '--runs': flag((a) => (a.runs = true)),
    '--suggest': flag((a) => (a.suggest = true)),
    '--assume': { value: (a, v) => applyAssumption(a.assumptions, v) },
    ...expandingOptions(),
  },
  positional: onePositional((first, second) => `only one TEMPLATE (got ${first} and ${second})`),
  done: (a) => (a.file ? undefined : 'missing TEMPLATE'),
};

export async function runScheduleCommand(argv: string[]): Promise<number> {
  const initial: Args = {
    days: 2,
    seed: 1,
    hosts: [],
    format: 'table',
    runs: false,
    startMs: todayUtc(),
    suggest: false,
    assumptions: {},
    allowRemote: false,
    limits: { ...DEFAULT_INPUT_LIMITS },
  };
  const args = commandArgs('schedule', USAGE, argv, initial, OPTIONS);
  if (typeof args === 'number') return args;
  const read = await readTemplateArg('schedule', args.file as string, args.limits, args.allowRemote);
  if (!read) return 2;
  const { input, uri, includes } = read;
  const expansion = await expandText({ uri, version: null, text: input.text, includes, jq: { path: args.jq } });
  const failed = unexpandedExit(args.file as string, expansion); // rejected: no task would run, as below
  if (failed !== undefined) return failed;
  for (const n of expansion.notes) process.stderr.write(`note: ${n.task ? `task ${n.task}: ` : ''}${n.message}\n`);
  const model = buildScheduleModel(expansion.combinations, { ...DEFAULT_ASSUMPTIONS, ...args.assumptions });
  const nothing = whyNothingRuns(expansion.combinations, model);
  if (nothing) {
    // Exit 1, not a report of "0 of 0 tasks lose runs": a template that makes no task is what CI must catch.
    process.stderr.write(`${args.file}: ${nothing}\n`);
    return 1;
  }
  if (model.identical > 0)
    process.stderr.write(
      `note: ${model.identical} ${noun(model.identical, 'combination')} left out: identical to another task of the same agent, which pSConfig creates once (psconfig-tools expand names it)\n`,
    );
  if (model.skipped > 0)
    process.stderr.write(
      `note: ${model.skipped} ${noun(model.skipped, 'combination')} left out: not created by the agents (failed to expand or refused by pScheduler; psconfig-tools expand says why)\n`,
    );
  for (const t of new Set(model.tasks.filter((x) => x.unmodelledFields.length).map((x) => x.task)))
    process.stderr.write(
      `note: task ${t}: its schedule's ${model.tasks.find((x) => x.task === t)!.unmodelledFields.join(', ')} are not modelled (docs/schedule.md)\n`,
    );
  const unknown = args.hosts.filter((h) => !model.hosts.some((m) => m.toLowerCase() === h.trim().toLowerCase()));
  if (unknown.length) {
    const shown = model.hosts.slice(0, 20).join(', ');
    const more = model.hosts.length > 20 ? ` and ${model.hosts.length - 20} more` : '';
    process.stderr.write(
      `psconfig-tools schedule: --host ${unknown.join(', ')} takes part in no task of ${args.file}. Hosts (${model.hosts.length}): ${shown}${more}.\n`,
    );
    return 2;
  }
  const sim = simulateSchedule(model, { days: args.days, seed: args.seed });
  const report = scheduleReport(model, sim, { epochMs: args.startMs, hosts: args.hosts, runs: args.runs });
  const findings = shownFindings(model, sim, args.hosts);
  const suggestions = args.suggest ? suggest(model, sim, findings, input.text, args) : [];
  if (args.format === 'json') {
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    for (const f of findings) process.stderr.write(`${f.severity}: ${f.message}\n`);
    for (const s of suggestions) process.stderr.write(`suggestion: ${s}\n`);
  } else {
    process.stdout.write(
      renderScheduleTable({
        file: args.file as string,
        model,
        sim,
        report,
        findings,
        suggestions,
        startMs: args.startMs,
      }),
    );
  }
  const lost = report.tasks.some((t) => t.scheduled < t.wanted);
  const overloaded = report.hosts.some((h) => h.exclusiveLoad > 1);
  return lost || overloaded ? 1 : 0;
}

/** The findings about what is shown: with --host, those concerning the hosts named or their tasks. */
function shownFindings(model: ScheduleModel, sim: SimulationResult, hosts: string[]): ScheduleFinding[] {
  const keepHost = hostFilter(model, hosts);
  return scheduleFindings(model, sim).filter((f) =>
    f.host !== undefined
      ? keepHost(model.hosts.indexOf(f.host))
      : f.combinations.some((i) => model.tasks[i].participants.some(keepHost)),
  );
}

/** Suggestions for each task that loses runs, as lines; the tasks sharing its schedule are re-simulated with it. */
function suggest(
  model: ScheduleModel,
  sim: SimulationResult,
  findings: ScheduleFinding[],
  text: string,
  args: Args,
): string[] {
  const sharing = scheduleSharing(text);
  const out: string[] = [];
  for (const f of findings) {
    if (f.kind !== 'lost-runs' || !f.task) continue;
    const fixes = suggestScheduleFixes(model, sim, {
      task: f.task,
      sharing: sharing.get(f.task) ?? [],
      days: args.days,
      seed: args.seed,
    });
    if (fixes.length === 0) out.push(`${f.task}: no change tried makes it fit (slip, sliprand, repeat up to P1D)`);
    for (const s of fixes) out.push(`${f.task}: ${s.message}`);
  }
  return out;
}

/** Template task → the other tasks naming the same schedule object (a fix edits that object for all of them). */
function scheduleSharing(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let tasks: unknown;
  try {
    tasks = (JSON.parse(text) as { tasks?: unknown }).tasks;
  } catch {
    return out;
  }
  if (typeof tasks !== 'object' || tasks === null) return out;
  const bySchedule = new Map<string, string[]>();
  for (const [name, t] of Object.entries(tasks as Record<string, unknown>)) {
    const s = (t as { schedule?: unknown } | null)?.schedule;
    if (typeof s !== 'string') continue;
    bySchedule.set(s, [...(bySchedule.get(s) ?? []), name]);
  }
  for (const names of bySchedule.values())
    for (const n of names)
      out.set(
        n,
        names.filter((x) => x !== n),
      );
  return out;
}
