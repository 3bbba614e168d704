// countCombinations: how many tasks each task yields and for how many agents, synchronously and without jq
// (code lenses, hovers). Address-class jq filters are not run here: they count as not matching.
import { ClassContext } from './address-classes';
import { requestingAgentFrom } from './engine';
import { NodeTable } from './groups';
import { canonicalJson, stripHashKeys, strList, TemplateView, viewOf, type JsonObject } from './template-view';
import { TooDeepError } from '../nesting';
import { agentRejection, rejectedTaskError, schemaRejection } from './agent-acceptance';
import { agentMatcher, planTask, type TaskPlan } from './scheduling';
import { isObject } from '../../../../common/json';

export interface TaskCount {
  task: string;
  /** Combinations less those identical to an earlier one of their agent (as far as known without filling). */
  count: number;
  /** Combinations left out of `count` as identical to an earlier one (pSConfig creates the task once). */
  identical: number;
  agents: number;
  disabled: boolean;
  error?: string;
}

export interface CountResult {
  tasks: TaskCount[];
  /** True when a jq address-class filter was involved (its effect is unknown without jq). */
  approximate: boolean;
}

/** Counts for the template as written (no includes: those need I/O). */
export function countCombinations(template: unknown, agentAddresses?: string[]): CountResult {
  let raw: unknown;
  try {
    raw = stripHashKeys(template);
  } catch (e) {
    if (e instanceof TooDeepError) return { tasks: [], approximate: false }; // diagnostics say why
    throw e;
  }
  if (!isObject<JsonObject>(raw)) return { tasks: [], approximate: false };
  // What pSConfig's agent rejects creates nothing (agent-acceptance.ts). Without its includes, only the schema check
  // of the template as read is certain (the agent runs it before reading them); references may be in an include.
  const rejected = schemaRejection(raw) ?? (raw.includes === undefined ? agentRejection(raw, [], false) : undefined);
  if (rejected) {
    const error = rejectedTaskError(rejected);
    const names = isObject(raw.tasks) ? Object.keys(raw.tasks) : [];
    return {
      tasks: names.map((task) => ({ task, count: 0, identical: 0, agents: 0, disabled: false, error })),
      approximate: false,
    };
  }
  const view = viewOf(raw);
  const approximate = [...view.addressClasses.values()].some((c) => /"jq"/.test(JSON.stringify(c)));
  const classes: ClassContext = {
    view,
    requestingAgent: requestingAgentFrom(agentAddresses),
    jqResults: new Map(),
    note: () => undefined,
  };
  const nodes = new NodeTable();
  const matches = agentMatcher(agentAddresses);
  const tasks: TaskCount[] = [];
  const seen = new Set<string>();
  for (const [name, task] of view.tasks) {
    const plan = planTask(view, classes, nodes, name, task, matches);
    const agents = new Set(
      plan.combos.map((c) => (c.scheduler.parentAddress ?? c.scheduler.address ?? '').toLowerCase()),
    );
    const identical = plan.disabled ? 0 : sameInputs(view, name, plan, seen);
    tasks.push({
      task: name,
      count: plan.disabled ? 0 : plan.combos.length - identical,
      identical,
      agents: plan.disabled ? 0 : agents.size,
      disabled: plan.disabled,
      ...(plan.error ? { error: plan.error } : {}),
    });
  }
  return { tasks, approximate };
}

/**
 * The engine marks identical tasks on their filled JSON (identical-tasks.ts); without filling, a combination is
 * certainly identical to an earlier one when it is made from the same inputs: the same test, schedule, archives,
 * reference, tools and priority (by value), the same address entries in the same order, the same scheduler and
 * flip. That is the duplicate of a group naming an address twice, of two groups selecting the same pair, and of
 * two template tasks with the same test, schedule and archives. A task whose inputs use jq is only compared with
 * itself (jq may read the task's own definition). Different inputs that fill to the same JSON are found by the
 * engine only. Returns how many of this task's combinations repeat an earlier key (which `seen` collects).
 */
function sameInputs(view: TemplateView, name: string, plan: TaskPlan, seen: Set<string>): number {
  if (!plan.combos.length) return 0;
  const task = plan.task;
  const archives = strList(task.archives).map((a) => view.archives.get(a) ?? null);
  const inputs = canonicalJson({
    test: plan.test ?? null,
    schedule: plan.schedule ?? null,
    archives,
    reference: task.reference ?? null,
    tools: task.tools ?? null,
    priority: task.priority ?? null,
  });
  const key = /\{%\s*jq\b/.test(inputs) ? `task ${JSON.stringify(name)}` : inputs;
  let identical = 0;
  for (const c of plan.combos) {
    let k = `${key}\u0000${c.scheduler.id}\u0000${c.flip ? 1 : 0}`;
    for (const m of c.members) k += `\u0000${m.id}`;
    if (seen.has(k)) identical++;
    else seen.add(k);
  }
  return identical;
}
