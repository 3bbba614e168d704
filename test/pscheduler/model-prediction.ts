// The project's own schedule model on a scenario's template, with assumptions matching the live instances, seen
// the way analysis.ts sees a live run: per pScheduler task, its runs in [0, span) seconds from the agents' first
// pass (model time 0, warm-up off), scheduled or not and why.
import { expandText } from '../../server/src/template/expand/from-text';
import {
  buildScheduleModel,
  DEFAULT_ASSUMPTIONS,
  simulateSchedule,
  whyNothingRuns,
  type ScheduleAssumptions,
} from '../../server/src/template/schedule';
import { reasonText, RUN_NONSTART } from '../../server/src/template/schedule/run-log';

export interface ModelTaskView {
  index: number;
  task: string;
  tool: string | undefined;
  durationSeconds: number;
  runs: { t: number; scheduled: boolean; reason: string | undefined }[];
  scheduled: number;
  nonstart: number;
  reasons: Record<string, number>;
}

export interface ModelView {
  /** pScheduler tasks the model says the agent creates. */
  tasks: ModelTaskView[];
  /** Combinations left out (refused by pScheduler, failed to expand). */
  skipped: number;
  /** The model's sentence when no task would run (what `psconfig-tools schedule` exits non-zero with). */
  nothingRuns: string | undefined;
  assumptions: ScheduleAssumptions;
}

export async function modelPrediction(
  templateText: string,
  uri: string,
  overrides: Partial<ScheduleAssumptions>,
  spanSeconds: number,
): Promise<ModelView> {
  const expansion = await expandText({ uri, version: null, text: templateText });
  if (expansion.error) throw new Error(`${uri}: ${expansion.error}`);
  const assumptions: ScheduleAssumptions = { ...DEFAULT_ASSUMPTIONS, warmupSeconds: 0, ...overrides };
  const model = buildScheduleModel(expansion.combinations, assumptions);
  const sim = simulateSchedule(model, { days: Math.max(1, Math.ceil(spanSeconds / 86_400)), seed: 1 });
  const tasks: ModelTaskView[] = model.tasks.map((t) => ({
    index: t.index,
    task: t.task,
    tool: t.tool,
    durationSeconds: t.durationSeconds,
    runs: [],
    scheduled: 0,
    nonstart: 0,
    reasons: {},
  }));
  const log = sim.runs;
  for (let i = 0; i < log.length; i++) {
    // The grid point the run was wanted at (a non-starter's start-time in pScheduler is that point too).
    const t = log.wanted[i];
    if (t >= spanSeconds) continue;
    const view = tasks[log.task[i]];
    const nonstart = log.state[i] === RUN_NONSTART;
    const reason = nonstart ? reasonText(log.reason[i]) : undefined;
    view.runs.push({ t, scheduled: !nonstart, reason });
    if (nonstart) {
      view.nonstart++;
      const key = reason ?? '(none)';
      view.reasons[key] = (view.reasons[key] ?? 0) + 1;
    } else view.scheduled++;
  }
  for (const v of tasks) v.runs.sort((a, b) => a.t - b.t);
  return { tasks, skipped: model.skipped, nothingRuns: whyNothingRuns(expansion.combinations, model), assumptions };
}
