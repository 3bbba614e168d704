// countCombinations: how many tasks each task yields and for how many agents, synchronously and without jq
// (code lenses, hovers). Address-class jq filters are not run here: they count as not matching.
import { ClassContext } from './address-classes';
import { requestingAgentFrom } from './engine';
import { NodeTable } from './groups';
import { isObject, stripHashKeys, viewOf } from './template-view';
import { TooDeepError } from '../nesting';
import { agentMatcher, planTask } from './scheduling';

export interface TaskCount {
  task: string;
  count: number;
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
  if (!isObject(raw)) return { tasks: [], approximate: false };
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
  for (const [name, task] of view.tasks) {
    const plan = planTask(view, classes, nodes, name, task, matches);
    const agents = new Set(
      plan.combos.map((c) => (c.scheduler.parentAddress ?? c.scheduler.address ?? '').toLowerCase()),
    );
    tasks.push({
      task: name,
      count: plan.disabled ? 0 : plan.combos.length,
      agents: plan.disabled ? 0 : agents.size,
      disabled: plan.disabled,
      ...(plan.error ? { error: plan.error } : {}),
    });
  }
  return { tasks, approximate };
}
