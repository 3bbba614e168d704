// expandTemplate: template JSON → the pScheduler tasks each agent would create, in pSConfig order, in phases:
//   prepare  strip `#` keys, merge includes, evaluate address-class jq filters (one jq run)      (this file)
//   plan     each task's combinations, scheduler and flip; synchronous and jq-free           (scheduling.ts)
//   gather   compiled templates per combination and ONE batched jq run for every `{% jq %}`    (gather.ts)
//   fill     variables into the templates, task JSON assembled and checked as pScheduler checks it
//            (pscheduler/task-check.ts); per-task summary                                    (fill.ts)
//   identical  per agent, a task identical to an earlier one is marked: pSConfig creates it once
//                                                                                (identical-tasks.ts)
import { STOPPED, type ExpandTasksResult } from '../../../../common/protocol';
import { JqRunner } from '../jq';
import { runTemplateJq } from './template-jq';
import { ClassContext, prefetchClassJq } from './address-classes';
import { NodeTable } from './groups';
import { IncludeOptions, mergeIncludes } from './includes';
import { Json, JsonObject, stripHashKeys, TemplateView, viewOf } from './template-view';
import { TooDeepError } from '../nesting';
import { agentMatcher, planTask, TaskPlan } from './scheduling';
import { gatherCombinations } from './gather';
import { fillCombinations, summarise } from './fill';
import { markIdenticalTasks } from './identical-tasks';
import { agentRejection, rejectedTaskError, schemaRejection } from './agent-acceptance';
import { ExpansionNotes } from './notes';
import { TaskChecker } from '../pscheduler/task-check';
import { isObject } from '../../../../common/json';

export interface ExpandOptions extends IncludeOptions {
  /** Agent match addresses; empty or absent = every agent (as `psconfig validate` expands). */
  agentAddresses?: string[];
  /** Build at most this many combinations (counts still cover all of them). */
  limit?: number;
  jq: JqRunner;
  /** Addresses of the `requesting-agent` class data source; default: one `{address}` per agent address. */
  requestingAgent?: Record<string, JsonObject>;
  /** Checked between phases: a cancelled expansion returns early, `cancelled` set (protocol.ts Stoppable). */
  isCancelled?: () => boolean;
}

/** The engine's answer: the protocol's result without the document identity, plus jq accounting. */
export interface ExpansionResult extends Omit<ExpandTasksResult, 'uri' | 'version'> {
  /** jq processes started for this expansion (compile checks included). */
  jqProcesses: number;
}

export function requestingAgentFrom(agentAddresses: string[] | undefined): Map<string, JsonObject> {
  return new Map((agentAddresses ?? []).filter(Boolean).map((a) => [a, { address: a }]));
}

/**
 * The template after `#` keys are stripped and includes merged, or why it cannot be expanded at all: not JSON
 * that pSConfig reads, or a template pSConfig's agent rejects whole (agent-acceptance.ts).
 */
export async function prepareTemplate(
  template: unknown,
  options: IncludeOptions,
): Promise<{
  view?: TemplateView;
  error?: string;
  /** Set with `error` when pSConfig's agent rejects the template: the names of its tasks, none of which is created. */
  rejected?: { tasks: string[] };
  includeErrors: string[];
}> {
  let raw: Json;
  try {
    raw = stripHashKeys(template);
  } catch (e) {
    if (e instanceof TooDeepError) return { error: e.message, includeErrors: [] };
    throw e;
  }
  if (!isObject(raw)) return { error: 'The template is not a JSON object.', includeErrors: [] };
  // The agent checks the template as read, then again with its includes merged (base_agent.py ~354-386).
  const before = schemaRejection(raw);
  if (before) return { error: before, rejected: { tasks: taskNames(raw) }, includeErrors: [] };
  const inc = await mergeIncludes(raw, options);
  const rejected = agentRejection(inc.merged, inc.agentErrors, inc.merged !== raw);
  if (rejected) return { error: rejected, rejected: { tasks: taskNames(inc.merged) }, includeErrors: inc.errors };
  return { view: viewOf(inc.merged), includeErrors: inc.errors };
}

export async function expandTemplate(template: unknown, options: ExpandOptions): Promise<ExpansionResult> {
  const started = performance.now();
  const jqBefore = options.jq.processesStarted;
  const notes = new ExpansionNotes();
  const done = (
    r: Pick<ExpansionResult, 'tasks' | 'combinations' | 'truncated' | 'agents' | 'error'>,
  ): ExpansionResult => ({
    ...r,
    notes: notes.list,
    jqProcesses: options.jq.processesStarted - jqBefore,
    elapsedMs: performance.now() - started,
  });
  const nothing = (error: string | undefined): ExpansionResult =>
    done({ error, tasks: [], combinations: [], truncated: false, agents: [] });

  // ---- prepare ---------------------------------------------------------------------------------------------------
  const prepared = await prepareTemplate(template, options);
  for (const e of prepared.includeErrors) notes.add('template', undefined, e);
  const view = prepared.view;
  if (!view) {
    if (!prepared.rejected) return nothing(prepared.error);
    // Every task of a rejected template says so (its lens, hover and the Tasks view), with the reason cut short:
    // the whole reason is the expansion's `error` and a diagnostic where it is written.
    const short = rejectedTaskError(prepared.error!);
    const tasks = prepared.rejected.tasks.map((task) => ({ task, count: 0, agents: [], error: short }));
    return { ...nothing(prepared.error), tasks, rejected: true };
  }
  const classes = await classContext(view, options, notes);

  // ---- plan --------------------------------------------------------------------------------------------------------
  const plans = planTasks(view, classes, options, notes);

  // ---- gather (one jq batch) -----------------------------------------------------------------------------------
  const limit = options.limit !== undefined && options.limit >= 0 ? options.limit : Infinity;
  const gathered = gatherCombinations(view, plans.list, limit, notes);
  if (options.isCancelled?.()) return { ...nothing(STOPPED.error), cancelled: true };
  const jqCell = await runTemplateJq(
    options.jq,
    gathered.jqSets,
    gathered.jqItems,
    plans.nodes.list,
    view,
    gathered.archiveTables,
    gathered.taskShared,
  );

  // ---- fill --------------------------------------------------------------------------------------------------------
  const { combinations, failures, refusals } = fillCombinations(gathered, jqCell, notes, new TaskChecker());
  // ---- identical tasks: what the agent skips as a duplicate of an earlier task of its own ---------------------
  const same = markIdenticalTasks(combinations);
  for (const plan of plans.list) {
    // A refused duplicate is never posted: it moves from the failures to the identical ones.
    const n = same.wereRefused.get(plan.name);
    if (!n) continue;
    failures.set(plan, (failures.get(plan) ?? 0) - n);
    refusals.set(plan, (refusals.get(plan) ?? 0) - n);
  }
  const { tasks, agents } = summarise(plans.list, failures, refusals, same.identical);
  return done({ tasks, combinations, truncated: gathered.truncated, agents });
}

/** The template's task names, in its order. */
function taskNames(t: JsonObject): string[] {
  return isObject(t.tasks) ? Object.keys(t.tasks) : [];
}

/** Address classes: the requesting agent's addresses and every class jq filter evaluated up front. */
async function classContext(
  view: TemplateView,
  options: ExpandOptions,
  notes: ExpansionNotes,
): Promise<ClassContext & { task: string | undefined }> {
  const requestingAgent = options.requestingAgent
    ? new Map(Object.entries(options.requestingAgent))
    : requestingAgentFrom(options.agentAddresses);
  const usesRequestingAgent = [...view.addressClasses.values()].some(
    (c) => isObject(c['data-source']) && c['data-source'].type === 'requesting-agent',
  );
  if (usesRequestingAgent && !requestingAgent.size) {
    notes.add(
      'template',
      undefined,
      'An address class uses the requesting-agent data source: with no agent addresses set it selects nothing (set psconfig.preview.agentAddresses or pass --agent).',
    );
  }
  const ctx: ClassContext & { task: string | undefined } = {
    view,
    requestingAgent,
    jqResults: await prefetchClassJq(view, requestingAgent, options.jq, (m) => notes.add('template', undefined, m)),
    // Class notes raised while a task is planned belong to that task.
    note: (m) => notes.add(ctx.task === undefined ? 'template' : 'task', ctx.task, m),
    task: undefined,
  };
  return ctx;
}

/** Every task's combinations, scheduler and flip, in template order (synchronous, no jq). */
function planTasks(
  view: TemplateView,
  classes: ClassContext & { task: string | undefined },
  options: ExpandOptions,
  notes: ExpansionNotes,
): { list: TaskPlan[]; nodes: NodeTable } {
  const nodes = new NodeTable();
  const matches = agentMatcher(options.agentAddresses);
  const list: TaskPlan[] = [];
  for (const [name, task] of view.tasks) {
    classes.task = name;
    const plan = planTask(view, classes, nodes, name, task, matches);
    plan.notes.forEach((m) => notes.add('task', name, m));
    if (task.priority === 0)
      notes.add(
        'task',
        name,
        'priority is 0: pSConfig 5.x skips a falsy priority, so the agent sends no priority (shown that way); Perl 4.x sent 0.',
      );
    list.push(plan);
  }
  classes.task = undefined;
  return { list, nodes };
}
