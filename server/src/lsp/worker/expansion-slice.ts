// An agent-filtered and/or limited expansion computed from the full one (all agents, no limit) of the same text,
// so the Tasks tree and the code lenses share one engine run per edit. Reproduces what expandTemplate
// (server/src/template/expand/engine.ts) returns for the filtered request, field for field (elapsedMs aside):
// - combinations: the full list keeps one entry per built combination in plan order, so filtering by the
//   scheduler's effective address and cutting at `limit` gives the engine's list;
// - tasks: `count` is planned combinations minus failures (pScheduler's refusals included) and duplicates
//   (`identicalTo`, always of the same agent) among the built ones, `refused` and `identical` their numbers,
//   `agents` the matching ones;
// - agents: first-seen order is preserved by filtering;
// - notes: template and task notes do not depend on the filter; `combination` notes (raised while filling a
//   combination: variable divergences, per-participant contexts) do, so they are kept when all of the task's
//   combinations are kept, dropped when none are, and otherwise the slice is refused (the caller runs the engine).
// Pure: no LSP imports.
import type { ExpandedCombination, ExpandedTaskSummary, ExpandTasksResult } from '../../../../common/protocol';

export interface SliceRequest {
  agentAddresses: string[];
  limit: number | undefined;
}

/** The engine's agent matcher (scheduling.ts agentMatcher), on the combination's `agent` field. */
function matcherOf(agentAddresses: string[]): ((agent: string | undefined) => boolean) | undefined {
  const set = new Set(agentAddresses.map((a) => a.trim().toLowerCase()).filter(Boolean));
  if (!set.size) return undefined;
  // The engine matches effectiveAddress (undefined → ''), while the combination shows 'undefined' for it.
  return (agent) => set.has(agent === undefined || agent === 'undefined' ? '' : agent.toLowerCase());
}

/**
 * Whether a filtered request can be answered from the full result of the same text at all: the requesting-agent
 * class data source makes the selected addresses themselves depend on the agent addresses.
 */
export function sliceableText(text: string, agentAddresses: string[]): boolean {
  return agentAddresses.every((a) => !a.trim()) || !text.includes('requesting-agent');
}

/** The filtered result, or undefined when it cannot be derived exactly from `full` (run the engine instead). */
export function sliceExpansion(full: ExpandTasksResult, req: SliceRequest): ExpandTasksResult | undefined {
  if (full.truncated || full.cancelled) return undefined;
  const matches = matcherOf(req.agentAddresses);
  const limit = req.limit !== undefined && req.limit >= 0 ? req.limit : Infinity;
  if (!matches && limit === Infinity) return full;
  if (full.error !== undefined) return full.combinations.length ? undefined : full;
  // A task that stopped with an error may have planned combinations it never built: the full list cannot say.
  if (full.tasks.some((t) => t.error !== undefined && t.agents.length > 0)) return undefined;

  const planned = new Map<string, number>(); // matching combinations per task (built or failed)
  const totalPerTask = new Map<string, number>();
  const kept: ExpandedCombination[] = [];
  let matching = 0;
  for (const c of full.combinations) {
    totalPerTask.set(c.task, (totalPerTask.get(c.task) ?? 0) + 1);
    if (matches && !matches(c.agent)) continue;
    matching++;
    planned.set(c.task, (planned.get(c.task) ?? 0) + 1);
    if (kept.length < limit) kept.push(c);
  }
  const keptPerTask = new Map<string, number>();
  const failed = new Map<string, number>();
  const refused = new Map<string, number>();
  const identical = new Map<string, number>();
  for (const c of kept) {
    keptPerTask.set(c.task, (keptPerTask.get(c.task) ?? 0) + 1);
    if (c.error !== undefined) failed.set(c.task, (failed.get(c.task) ?? 0) + 1);
    if (c.refused !== undefined) refused.set(c.task, (refused.get(c.task) ?? 0) + 1);
    // A duplicate names an earlier combination of its own agent, so an agent filter keeps both or neither.
    if (c.identicalTo !== undefined) identical.set(c.task, (identical.get(c.task) ?? 0) + 1);
  }

  const notes = [];
  for (const n of full.notes) {
    if (n.task === undefined || n.scope !== 'combination') {
      notes.push(n);
      continue;
    }
    const k = keptPerTask.get(n.task) ?? 0;
    if (k === 0) continue;
    if (k !== totalPerTask.get(n.task)) return undefined;
    notes.push(n);
  }

  const tasks = full.tasks.map((t): ExpandedTaskSummary => {
    if (t.disabled) return t;
    const { refused: _all, identical: _same, ...rest } = t;
    const s: ExpandedTaskSummary = {
      ...rest,
      count: (planned.get(t.task) ?? 0) - (failed.get(t.task) ?? 0) - (identical.get(t.task) ?? 0),
      agents: matches ? t.agents.filter(matches) : t.agents,
    };
    const r = refused.get(t.task);
    if (r) s.refused = r;
    const same = identical.get(t.task);
    if (same) s.identical = same;
    return s;
  });
  return {
    ...full,
    tasks,
    combinations: kept,
    truncated: matching > kept.length,
    notes,
    agents: matches ? full.agents.filter(matches) : full.agents,
  };
}

/**
 * What one limited answer may carry of combinations (characters of their JSON, task JSON and refusals): a preview
 * shows a few screens of it, and a template of long strings repeated in every combination (a 300 KB string in a
 * test of a 20-address mesh) would otherwise send hundreds of megabytes to the editor. Unlimited requests (export,
 * `psconfig.server.previewTasks`) are not cut.
 */
export const MAX_ANSWER_TASK_CHARS = 4 * 1024 * 1024;

/** `result` cut after the combinations whose task JSON fits in `maxChars`, marked truncated, with a note. */
export function capAnswer(result: ExpandTasksResult, maxChars = MAX_ANSWER_TASK_CHARS): ExpandTasksResult {
  let total = 0;
  let n = 0;
  for (const c of result.combinations) {
    total += JSON.stringify(c).length; // the task JSON, and refusals that may quote its long values
    if (total > maxChars) break;
    n++;
  }
  if (n === result.combinations.length) return result;
  const mb = Math.round(maxChars / (1024 * 1024));
  return {
    ...result,
    combinations: result.combinations.slice(0, n),
    truncated: true,
    notes: [
      ...result.notes,
      {
        scope: 'template',
        message: `The preview shows the first ${n} of ${result.combinations.length} combinations: their task JSON is over the ${mb} MB one preview answer carries. Export the tasks or run \`psconfig-tools expand\` for all of them.`,
      },
    ],
  };
}
