// Schedule changes that make a template task's runs fit, found by re-simulating the template with each candidate,
// never by a formula: the smallest repeat (from a ladder of usual values) at which none of its runs is lost, and,
// where a fixed start collides, a slip and `sliprand` that let the scheduler move the runs. A candidate is offered
// only when the re-simulated template fits: the task loses no run, and no other template task loses more runs than
// it did before.
import { ScheduleCancelled, simulateSchedule, simulateScheduleInSlices } from './simulate';
import type { ScheduleOverride, SimulationOptions, SimulationResult } from './simulate';
import { taskTotals } from './report';
import type { ScheduleModel } from './task-model';
import { isoSeconds } from '../pscheduler/tools';

/** Repeats and slips tried, as a template would write them (ascending). */
const LADDER = [
  'PT1M',
  'PT2M',
  'PT5M',
  'PT10M',
  'PT15M',
  'PT20M',
  'PT30M',
  'PT1H',
  'PT2H',
  'PT3H',
  'PT4H',
  'PT6H',
  'PT8H',
  'PT12H',
  'P1D',
];

export interface SuggestOptions {
  /** The template task whose runs are lost. */
  task: string;
  /**
   * The template tasks the change applies to: those sharing the schedule object it edits (default: the task alone;
   * a quick fix that edits a shared schedule must re-simulate every task using it).
   */
  sharing?: readonly string[];
  /** As the simulation being fixed was made (default 2 days, seed 1). */
  days?: number;
  seed?: number;
  /** Re-simulations allowed (default 12). */
  budget?: number;
  isCancelled?: () => boolean;
}

export interface ScheduleSuggestion {
  task: string;
  /** The template tasks simulated with the change (`sharing`). */
  appliesTo: string[];
  /** The schedule fields to set (ISO 8601 durations, as the template writes them). */
  change: { repeat?: string; slip?: string; sliprand?: true };
  /** The task's runs over the span, before and after (summed over its pScheduler tasks). */
  before: { wanted: number; scheduled: number };
  after: { wanted: number; scheduled: number };
  message: string;
}

/**
 * At most two suggestions: a slip/sliprand change when the task's start is fixed or nearly (tried first: it keeps
 * the number of runs), then the smallest repeat that fits. Empty when the task loses no run, or nothing tried fits
 * within the budget. Throws ScheduleCancelled when `isCancelled` says so.
 */
export function suggestScheduleFixes(
  model: ScheduleModel,
  base: SimulationResult,
  options: SuggestOptions,
): ScheduleSuggestion[] {
  const search = candidateSearch(model, base, options);
  let step = search.next();
  while (!step.done) step = search.next(simulateSchedule(model, step.value));
  return step.value;
}

/** The same search, each re-simulation in slices with `pause` between them (simulateScheduleInSlices). */
export async function suggestScheduleFixesInSlices(
  model: ScheduleModel,
  base: SimulationResult,
  options: SuggestOptions,
  pause: () => Promise<void>,
): Promise<ScheduleSuggestion[]> {
  const search = candidateSearch(model, base, options);
  let step = search.next();
  while (!step.done) step = search.next(await simulateScheduleInSlices(model, step.value, pause));
  return step.value;
}

/**
 * The search itself, written once for both drivers: it yields each re-simulation it needs (the options) and is
 * resumed with its result.
 */
function* candidateSearch(
  model: ScheduleModel,
  base: SimulationResult,
  options: SuggestOptions,
): Generator<SimulationOptions, ScheduleSuggestion[], SimulationResult> {
  const mine = model.tasks.filter((t) => t.task === options.task);
  if (mine.length === 0) return [];
  const before = sum(
    base,
    mine.map((t) => t.index),
  );
  if (before.scheduled >= before.wanted) return [];
  const appliesTo = [...new Set([options.task, ...(options.sharing ?? [])])];
  const affected = model.tasks.filter((t) => appliesTo.includes(t.task));
  const lostBefore = lostPerTemplateTask(model, base);
  let budget = options.budget ?? 12;
  const first = mine[0];
  const repeat = base.repeatSeconds[first.index];
  const slip = base.slipSeconds[first.index];
  const sliprand = base.sliprand[first.index];

  function* attempt(
    change: ScheduleSuggestion['change'],
  ): Generator<SimulationOptions, ScheduleSuggestion | undefined, SimulationResult> {
    if (budget-- <= 0) return undefined;
    if (options.isCancelled?.()) throw new ScheduleCancelled();
    const o: ScheduleOverride = {};
    if (change.repeat) o.repeatSeconds = isoSeconds(change.repeat);
    if (change.slip) o.slipSeconds = isoSeconds(change.slip);
    if (change.sliprand) o.sliprand = true;
    const overrides = new Map(affected.map((t) => [t.index, o]));
    const sim = yield {
      days: options.days ?? base.days,
      seed: options.seed ?? base.seed,
      isCancelled: options.isCancelled,
      overrides,
    };
    const after = sum(
      sim,
      mine.map((t) => t.index),
    );
    if (after.scheduled < after.wanted) return undefined;
    const lostAfter = lostPerTemplateTask(model, sim);
    for (const [name, lost] of lostAfter)
      if (name !== options.task && lost > (lostBefore.get(name) ?? 0)) return undefined;
    return {
      task: options.task,
      appliesTo,
      change,
      before,
      after,
      message: describe(options.task, change, before, after, appliesTo),
    };
  }

  const out: ScheduleSuggestion[] = [];
  // A fixed (or nearly fixed) start: more slip, and sliprand, let the runs move to free time.
  if (repeat !== undefined && (slip < repeat / 4 || !sliprand)) {
    const candidates: ScheduleSuggestion['change'][] = [];
    if (!sliprand && slip >= first.durationSeconds) candidates.push({ sliprand: true });
    for (const s of LADDER) {
      const secs = isoSeconds(s)!;
      if (secs <= slip || secs < first.durationSeconds || secs > repeat) continue;
      candidates.push(sliprand ? { slip: s } : { slip: s, sliprand: true });
    }
    for (const c of candidates) {
      const found = yield* attempt(c);
      if (found) {
        out.push(found);
        break;
      }
      if (budget <= 0) break;
    }
  }
  // The smallest repeat from the ladder at which the task fits. A slip that the repeat cut (slip + duration reaching
  // the repeat: "anywhere in the interval") grows with the repeat, or the longer repeat would leave the runs as
  // crowded as before: their grids stay anchored where the first runs went.
  // Without sliprand the runs of one agent's tasks keep colliding at any repeat: their successors start at the same
  // second (the agent gives a pass's tasks one until) and, with pScheduler's NULL-priority defect, every retry is
  // offered the same taken start; so a task with room to move gets sliprand with its new repeat.
  const slipFillsRepeat = repeat !== undefined && slip + first.durationSeconds >= repeat;
  const addRand: { sliprand?: true } = !sliprand && slip >= first.durationSeconds ? { sliprand: true } : {};
  if (repeat !== undefined)
    for (const r of LADDER) {
      if (isoSeconds(r)! <= repeat) continue;
      const found = yield* attempt(slipFillsRepeat ? { repeat: r, slip: r, ...addRand } : { repeat: r, ...addRand });
      if (found) {
        out.push(found);
        break;
      }
      if (budget <= 0) break;
    }
  return out;
}

function sum(sim: SimulationResult, tasks: number[]): { wanted: number; scheduled: number } {
  let wanted = 0;
  let scheduled = 0;
  for (const i of tasks) {
    const r = taskTotals(sim, i);
    wanted += r.wanted;
    scheduled += r.scheduled;
  }
  return { wanted, scheduled };
}

/** Runs lost (wanted - scheduled) per template task. */
function lostPerTemplateTask(model: ScheduleModel, sim: SimulationResult): Map<string, number> {
  const out = new Map<string, number>();
  for (const t of model.tasks) {
    const r = taskTotals(sim, t.index);
    out.set(t.task, (out.get(t.task) ?? 0) + r.wanted - r.scheduled);
  }
  return out;
}

function describe(
  task: string,
  change: ScheduleSuggestion['change'],
  before: { wanted: number; scheduled: number },
  after: { wanted: number; scheduled: number },
  appliesTo: string[],
): string {
  const what = [
    change.repeat ? `repeat ${change.repeat}` : undefined,
    change.slip ? `slip ${change.slip}` : undefined,
    change.sliprand ? 'sliprand true' : undefined,
  ]
    .filter(Boolean)
    .join(', ');
  const shared =
    appliesTo.length > 1
      ? ` (the schedule is shared with ${appliesTo
          .filter((t) => t !== task)
          .map((t) => `'${t}'`)
          .join(', ')})`
      : '';
  return `With ${what}${shared}, all ${after.wanted.toLocaleString('en-US')} runs of '${task}' fit in the re-simulated template (now ${before.scheduled.toLocaleString('en-US')} of ${before.wanted.toLocaleString('en-US')}), and no other task loses more runs.`;
}
