// Where the engine runs (the background worker, or in-process without one): the simulated schedule of a document,
// once per version and settings, made from the full expansion kept there (expansion-shared.ts) and shared by the
// diagnostics pass, the psconfig/schedule request (the host timeline, the Tasks view's loads) and the task lenses.
// The simulation polls its cancellation: a newer version of the document, the edit that makes a diagnostics pass
// stale, and a time limit all stop it; only small answers cross to the main thread (runs are bounded).
// The simulation and the quick-fix search run in slices and yield to requests between them (job-priority.ts); their
// time limits count the time they ran, not the time they waited.
import { emptyScheduleResult, STOPPED, type ScheduleParams, type ScheduleResult } from '../../../../common/protocol';
import { analyseTemplate } from '../../template/model';
import type { TemplateDiagnostic } from '../../template/rules/diagnostic';
import {
  buildScheduleModel,
  ScheduleCancelled,
  scheduleFindings,
  simulateScheduleInSlices,
  suggestScheduleFixesInSlices,
  type ScheduleFinding,
  type ScheduleModel,
  type ScheduleSuggestion,
  type SimulationResult,
} from '../../template/schedule';
import {
  notSimulated,
  scheduleAnswer,
  scheduleDiagnostics,
  tasksSharingSchedule,
  type ScheduleAnswer,
} from '../../template/schedule-view';
import type { EngineInput } from '../jobs/engine-input';
import type { ScheduleDiagnosticsOutcome } from '../jobs/jobs';
import type { SharedExpansions } from './expansion-shared';

/** Days simulated after the warm-up day, and the seed of `sliprand`'s choices (the CLI's defaults). */
export const SCHEDULE_DAYS = 2;
export const SCHEDULE_SEED = 1;
/** A simulation stops after this long (the CLI has no limit): the editor says so instead of waiting. */
export const SCHEDULE_LIMIT_MS = 25_000;
/** Time the diagnostics pass may spend re-simulating schedule changes for its quick fixes. */
export const SUGGESTION_LIMIT_MS = 8_000;

export interface ScheduleAnalysis {
  model: ScheduleModel;
  sim: SimulationResult;
  /** UNIX ms of the simulation's time 0 (the warm-up's start): the span begins today at 00:00 UTC. */
  epochMs: number;
  elapsedMs: number;
  findings?: ScheduleFinding[];
  /** Per template task, the schedule changes found to fit (computed once, by the first diagnostics pass). */
  suggestions?: Map<string, ScheduleSuggestion[]>;
  /** The answer without runs or per-task rows (lenses, hovers, the Tasks view ask it often). */
  summary?: ScheduleAnswer;
}

/**
 * A simulation's end: done; stopped by its cancel flag or a newer version (nothing to show); the template could not
 * be expanded; or stopped at SCHEDULE_LIMIT_MS (the editor says so, on the template, and names the CLI).
 */
export type ScheduleOutcome =
  | { kind: 'simulated'; analysis: ScheduleAnalysis }
  | { kind: 'cancelled' }
  | { kind: 'unexpandable'; message: string }
  | { kind: 'time-limit'; message: string };

/** What the schedule's answer says for an outcome that is not a simulation (a stopped one: protocol.ts Stoppable). */
function notSimulatedAnswer(uri: string, o: Exclude<ScheduleOutcome, { kind: 'simulated' }>): ScheduleResult {
  return o.kind === 'cancelled'
    ? { ...emptyScheduleResult(uri, STOPPED.error), cancelled: true }
    : emptyScheduleResult(uri, o.message);
}

interface Run {
  version: number | null;
  key: string;
  outcome: Promise<ScheduleOutcome>;
  cancelled: boolean;
}

const DAY_MS = 86_400_000;

const CANCELLED: ScheduleDiagnosticsOutcome = { kind: 'cancelled' };
const found = (diagnostics: TemplateDiagnostic[]): ScheduleDiagnosticsOutcome => ({ kind: 'found', diagnostics });

/** A clock of the time background work ran: it stops while the work is paused for requests. */
class RunningClock {
  private waited = 0;
  private readonly started = Date.now();
  constructor(private readonly pause: () => Promise<void>) {}
  readonly pauseCounted = async (): Promise<void> => {
    const t = Date.now();
    await this.pause();
    this.waited += Date.now() - t;
  };
  get ms(): number {
    return Date.now() - this.started - this.waited;
  }
}

export class SharedSchedules {
  private readonly runs = new Map<string, Run>();
  /** Simulations started (for tests). */
  simulations = 0;

  /** `pause`: what the slices await (JobPriority.pause where requests run in the same thread). */
  constructor(
    private readonly expansions: SharedExpansions,
    private readonly pause: () => Promise<void> = () => new Promise((resolve) => setImmediate(resolve)),
  ) {}

  /**
   * The simulated schedule of this version (shared while the version and settings are the same). `isCancelled`
   * (a diagnostics pass's edit flag) stops the simulation it starts, as a newer version does.
   */
  analysis(input: EngineInput, isCancelled?: () => boolean): Promise<ScheduleOutcome> {
    const key = this.expansions.keyOf(input);
    const hit = this.runs.get(input.uri);
    if (hit && !hit.cancelled && input.version !== null && hit.version === input.version && hit.key === key)
      return hit.outcome;
    if (hit) hit.cancelled = true;
    const run: Run = { version: input.version, key, cancelled: false, outcome: Promise.resolve({ kind: 'cancelled' }) };
    run.outcome = this.simulate(input, () => run.cancelled || (isCancelled?.() ?? false));
    if (input.version !== null) this.runs.set(input.uri, run);
    void run.outcome.then((o) => {
      // A stopped simulation is not kept: the next request starts again.
      if (o.kind !== 'simulated' && this.runs.get(input.uri) === run) this.runs.delete(input.uri);
    });
    return run.outcome;
  }

  /** Simulations kept (one per open document at most). */
  entryCounts(): Record<string, number> {
    return { schedules: this.runs.size };
  }

  forget(uri: string): void {
    const run = this.runs.get(uri);
    if (run) run.cancelled = true;
    this.runs.delete(uri);
  }

  private async simulate(input: EngineInput, isCancelled: () => boolean): Promise<ScheduleOutcome> {
    const full = await this.expansions.expand({ ...input, agentAddresses: [], limit: undefined }, isCancelled);
    if (isCancelled() || full.cancelled) return { kind: 'cancelled' };
    if (full.error) return { kind: 'unexpandable', message: `The template cannot be expanded: ${full.error}` };
    const clock = new RunningClock(this.pause);
    this.simulations++;
    try {
      await clock.pauseCounted();
      if (isCancelled()) return { kind: 'cancelled' };
      const model = buildScheduleModel(full.combinations);
      const sim = await simulateScheduleInSlices(
        model,
        {
          days: SCHEDULE_DAYS,
          seed: SCHEDULE_SEED,
          isCancelled: () => isCancelled() || clock.ms > SCHEDULE_LIMIT_MS,
        },
        clock.pauseCounted,
      );
      const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
      return {
        kind: 'simulated',
        analysis: { model, sim, epochMs: today - sim.spanStart * 1000, elapsedMs: clock.ms },
      };
    } catch (err) {
      if (!(err instanceof ScheduleCancelled)) throw err;
      if (isCancelled()) return { kind: 'cancelled' };
      return {
        kind: 'time-limit',
        message: `The simulation of ${full.combinations.length.toLocaleString('en')} tasks was stopped after ${SCHEDULE_LIMIT_MS / 1000} s; psconfig-tools schedule simulates it without a time limit.`,
      };
    }
  }

  /** The psconfig/schedule answer: loads, per-task counts and, when asked, the runs of as many hosts as fit. */
  async answer(input: EngineInput, params: ScheduleParams, isCancelled?: () => boolean): Promise<ScheduleResult> {
    const asked = Date.now();
    const o = await this.analysis(input, isCancelled);
    const base = { uri: input.uri, version: input.version };
    if (o.kind !== 'simulated') return { ...notSimulatedAnswer(input.uri, o), ...base, elapsedMs: Date.now() - asked };
    const a = o.analysis;
    // The simulation's own time plus this answer's (not the wait for the simulation: that is the simulation).
    const t0 = Date.now();
    const summary = !params.runs && params.noTasks && !params.hosts?.length;
    const answer = summary
      ? (a.summary ??= scheduleAnswer(a.model, a.sim, a.epochMs, { noTasks: true }))
      : scheduleAnswer(a.model, a.sim, a.epochMs, params);
    return { ...base, ...answer, elapsedMs: a.elapsedMs + (Date.now() - t0) };
  }

  /**
   * The schedule's findings as diagnostics of `input.text`, with quick fixes the re-simulation showed to fit (worked
   * out once per version, within SUGGESTION_LIMIT_MS, the tasks losing most runs first).
   */
  async diagnostics(input: EngineInput, isCancelled: () => boolean): Promise<ScheduleDiagnosticsOutcome> {
    const o = await this.analysis(input, isCancelled);
    if (o.kind === 'cancelled') return CANCELLED;
    // A template that cannot be expanded has its own diagnostics; a simulation stopped at its limit says so.
    if (o.kind === 'unexpandable') return found([]);
    if (o.kind === 'time-limit') return found([notSimulated(analyseTemplate(input.text), o.message)]);
    const a = o.analysis;
    const template = analyseTemplate(input.text);
    if (!a.findings) {
      // The findings are one step (who held each lost run's window: a second on an overloaded mesh of 870 tasks
      // every minute); requests already waiting go first.
      await this.pause();
      if (isCancelled()) return CANCELLED;
      a.findings ??= scheduleFindings(a.model, a.sim);
    }
    if (!a.suggestions) {
      const suggestions = new Map<string, ScheduleSuggestion[]>();
      const clock = new RunningClock(this.pause);
      const stop = (): boolean => isCancelled() || clock.ms > SUGGESTION_LIMIT_MS;
      const losing = a.findings
        .filter((f) => f.kind === 'lost-runs' && f.task !== undefined)
        .sort((x, y) => (y.runs?.nonstart ?? 0) - (x.runs?.nonstart ?? 0));
      try {
        for (const f of losing) {
          if (stop()) break;
          const task = f.task!;
          const found = await suggestScheduleFixesInSlices(
            a.model,
            a.sim,
            { task, sharing: tasksSharingSchedule(template, task), isCancelled: stop },
            clock.pauseCounted,
          );
          if (found.length) suggestions.set(task, found);
        }
      } catch (err) {
        if (!(err instanceof ScheduleCancelled)) throw err;
      }
      if (isCancelled()) return CANCELLED;
      a.suggestions = suggestions;
    }
    const names = a.model.tasks;
    return found(
      scheduleDiagnostics(template, a.findings, a.suggestions, (f) => [
        ...new Set(f.combinations.map((i) => names[i].task)),
      ]),
    );
  }
}
