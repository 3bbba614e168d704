// TaskGenerator.next without the expansion: for each combination of a task's group, skip disabled ones, pick the
// scheduler (scheduled-by, no-agent fallback and flip), keep those whose scheduler matches the agent.
// Synchronous and jq-free, so code lenses can count tasks cheaply (psconfig.md §3.4).
import { jsonText } from '../../../../common/json';
import { ClassContext } from './address-classes';
import { GroupContext, iterateGroup, NodeTable } from './groups';
import {
  AddressNode,
  effectiveAddress,
  isDisabled,
  isNoAgent,
  JsonObject,
  str,
  TemplateView,
  truthy,
} from './template-view';

export interface PlannedCombination {
  members: AddressNode[];
  scheduler: AddressNode;
  flip: boolean;
}

export interface TaskPlan {
  name: string;
  task: JsonObject;
  group?: JsonObject;
  groupName?: string;
  test?: JsonObject;
  schedule?: JsonObject;
  disabled: boolean;
  /** Task-level error that stopped the iteration (pSConfig wording). */
  error?: string;
  combos: PlannedCombination[];
  notes: string[];
}

/** Case-insensitive exact match of the scheduler's effective address; no addresses = every agent. */
export function agentMatcher(agentAddresses: string[] | undefined): (n: AddressNode) => boolean {
  const set = new Set((agentAddresses ?? []).map((a) => a.trim().toLowerCase()).filter(Boolean));
  if (!set.size) return () => true;
  return (n) => set.has((effectiveAddress(n) ?? '').toLowerCase());
}

export function planTask(
  view: TemplateView,
  classes: ClassContext,
  nodes: NodeTable,
  name: string,
  task: JsonObject,
  matches: (n: AddressNode) => boolean,
  /** Stop after this many combinations (a check that only asks whether there is one). */
  limit = Infinity,
): TaskPlan {
  const notes: string[] = [];
  const note = (m: string): void => {
    if (!notes.includes(m)) notes.push(m);
  };
  const plan: TaskPlan = { name, task, disabled: truthy(task.disabled), combos: [], notes };
  const groupName = str(task.group);
  plan.groupName = groupName;
  plan.group = groupName ? view.groups.get(groupName) : undefined;
  plan.test = str(task.test) ? view.tests.get(task.test as string) : undefined;
  if (task.schedule !== undefined) {
    plan.schedule = str(task.schedule) ? view.schedules.get(task.schedule as string) : undefined;
    if (!plan.schedule)
      note(
        `Task ${name} references a schedule ${jsonText(task.schedule)} that does not exist; the agent creates the task without a schedule.`,
      );
  }
  if (plan.disabled) return plan;
  if (!plan.group) {
    plan.error = `Unable to find a group with name ${jsonText(task.group)}`;
    return plan;
  }
  if (!plan.test) {
    plan.error = `Unable to find a test with name ${jsonText(task.test)}`;
    return plan;
  }
  if (plan.group.type !== 'mesh' && plan.group.type !== 'disjoint' && plan.group.type !== 'list') {
    plan.error = `Group ${groupName} has an unknown type ${JSON.stringify(plan.group.type)} (expected mesh, disjoint or list)`;
    return plan;
  }
  const selectorLists = [plan.group.addresses, plan.group['a-addresses'], plan.group['b-addresses']];
  if (
    selectorLists.some(
      (l) =>
        Array.isArray(l) && l.some((s) => typeof s === 'object' && s !== null && (s as JsonObject).disabled === true),
    )
  ) {
    note(
      `Group ${groupName} has selectors with "disabled": true. The docs say they are skipped, and the preview skips them; neither pSConfig implementation reads that field, so a real agent still creates their tasks.`,
    );
  }
  if (
    selectorLists.some((l) => Array.isArray(l) && l.some((s) => typeof s === 'object' && s !== null && 'class' in s))
  ) {
    note(
      `Group ${groupName} uses address-class selectors: shown with Perl 4.x semantics (one combination per address pair, in template order). pSConfig 5.x (Python) fails on them (KeyError 'label' in select_addresses) and flattens their combinations.`,
    );
  }
  const scheduledBy = typeof task['scheduled-by'] === 'number' && task['scheduled-by'] > 0 ? task['scheduled-by'] : 0;
  const gctx: GroupContext = { classes, nodes, note };
  for (const members of iterateGroup(gctx, groupName as string, plan.group)) {
    if (scheduledBy >= members.length) {
      plan.error = `The scheduled-by property for task ${name} is too big. It is set to ${scheduledBy} but must not be bigger than ${members.length}`;
      break;
    }
    if (members.some((m) => isDisabled(view, m))) continue;
    let scheduler: AddressNode | undefined = members[scheduledBy];
    let flip = false;
    if (isNoAgent(view, scheduler)) {
      flip = true;
      // Code (both versions) scans from index 0; the docs say "after scheduled-by, wrapping" (same for pairs).
      scheduler = members.find((m) => !isNoAgent(view, m));
    }
    if (!scheduler || !matches(scheduler)) continue;
    plan.combos.push({ members, scheduler, flip });
    if (plan.combos.length >= limit) break;
  }
  return plan;
}
