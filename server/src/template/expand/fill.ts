// Phase 3 of expandTemplate (engine.ts): fill each gathered combination's templates with its variables (jq
// results from the batch) and assemble the pScheduler task JSON; then the per-task summary and the agent list.
import type { ExpandedCombination, ExpandedTaskSummary } from '../../../../common/protocol';
import type { JqValueResult } from '../jq/batch';
import { noteVariableDivergence } from './divergence';
import { noContexts, type Built, type Gathered, type TaskEntry } from './gather';
import type { ExpansionNotes } from './notes';
import { assembleTask } from './pscheduler-task';
import { type TaskChecker } from '../pscheduler/task-check';
import type { TaskPlan } from './scheduling';
import {
  expandVar,
  fillBudget,
  fillTemplate,
  type CompiledTemplate,
  type FillBudget,
  type VarScope,
  type VarValue,
} from './template-vars';
import { AddressNode, type Json } from './template-view';
import { isObject } from '../../../../common/json';
import { refusalText } from '../../../../common/combination-text';

/** The jq batch's answer: item × script index → result. */
export type JqCell = (item: number, script: number) => JqValueResult;

export interface Filled {
  combinations: ExpandedCombination[];
  /** Failed combinations per task (pScheduler's refusals included). */
  failures: Map<TaskPlan, number>;
  /** Of those, the combinations pScheduler would refuse. */
  refusals: Map<TaskPlan, number>;
}

export function fillCombinations(g: Gathered, jqCell: JqCell, notes: ExpansionNotes, checker: TaskChecker): Filled {
  const combinations: ExpandedCombination[] = [];
  const failures = new Map<TaskPlan, number>();
  const budget = fillBudget();
  const refusals = new Map<TaskPlan, number>();
  for (const b of g.built) {
    const entry = g.entries.get(b.plan);
    if (!entry) continue;
    const { plan, combo } = b;
    const addressValues = combo.members.map((m) => m.address ?? 'undefined');
    const base: ExpandedCombination = {
      task: plan.name,
      addresses: combo.members.map((m) => m.objectName),
      addressValues,
      agent: effective(combo.scheduler),
      flip: combo.flip,
    };
    const keys: FilledParts = {};
    const error = fillOne(b, entry, g, jqCell, base, notes, budget, keys);
    if (error !== undefined) {
      failures.set(plan, (failures.get(plan) ?? 0) + 1);
      combinations.push({ ...base, error: `task=${plan.name},addresses=${addressValues.join('->')},error=${error}` });
      continue;
    }
    // What pScheduler does with the task the agent posts: a refusal keeps the JSON (to be read) but fails.
    const memo = keys.memo!;
    const refused = checker.check(base.pscheduler!, partNames(g, b), {
      test: () => templateKey(entry.test, memo),
      archive: (i) => (b.archives.ok ? templateKey(b.archives.value.compiled[i], memo) : undefined),
      context: (p, i) => {
        const k = b.contexts.ok && b.contexts.value[p] ? templateKey(b.contexts.value[p].compiled, memo) : undefined;
        return k === undefined ? undefined : `${k}\u0000${i}`;
      },
    });
    if (refused.length) {
      failures.set(plan, (failures.get(plan) ?? 0) + 1);
      refusals.set(plan, (refusals.get(plan) ?? 0) + 1);
      base.error = refusalText(refused);
      base.refused = refused;
    }
    combinations.push(base);
  }
  return { combinations, failures, refusals };
}

/** Which template objects a combination's test, archives and contexts come from (named in refusals). */
function partNames(g: Gathered, b: Built): Parameters<TaskChecker['check']>[1] {
  const test = b.plan.task.test;
  return {
    test: typeof test === 'string' ? test : undefined,
    archive: (i) => (b.archives.ok ? g.names.get(b.archives.value.raw[i]) : undefined),
    context: (p, i) => (b.contexts.ok ? g.names.get(b.contexts.value[p]?.raw[i]) : undefined),
  };
}

/** Fills one combination into base.pscheduler, or returns the pSConfig-worded reason it cannot be expanded. */
function fillOne(
  b: Built,
  entry: TaskEntry,
  g: Gathered,
  jqCell: JqCell,
  base: ExpandedCombination,
  notes: ExpansionNotes,
  budget: FillBudget,
  keys: FilledParts,
): string | undefined {
  const { plan, combo } = b;
  if (!b.archives.ok) return b.archives.error;
  if (!b.contexts.ok) return b.contexts.error;
  const set = entry.set !== undefined ? g.jqSets[entry.set] : NO_SCRIPTS;
  const item = b.jqItem;
  const scope: VarScope = {
    members: combo.members,
    scheduler: combo.scheduler,
    flip: combo.flip,
    jq: (script) => (item === undefined ? JQ_MISSING : jqCell(item, set.indexOf(script))),
  };
  const memo = new Map<string, VarValue>();
  const value = (name: string): VarValue => {
    let v = memo.get(name);
    if (!v) {
      v = expandVar(name, scope);
      memo.set(name, v);
      noteVariableDivergence(name, v, scope, entry.note);
    }
    return v;
  };
  const test = fillTemplate(entry.test, value, budget);
  if (!test.ok || !isObject(test.value) || !Object.keys(test.value).length)
    return `Error expanding test specification: ${test.ok ? '' : test.error}`;
  const archives: Json[] = [];
  for (const c of b.archives.value.compiled) {
    const r = fillTemplate(c, value, budget);
    if (!r.ok || !isObject(r.value) || !Object.keys(r.value).length)
      return `Error expanding archives: ${r.ok ? '' : r.error}`;
    archives.push(r.value);
  }
  const none = b.contexts === noContexts(combo.members.length);
  const contexts: Json[] = none ? NO_CONTEXT_VALUES : [];
  for (const c of none ? [] : b.contexts.value) {
    const r = fillTemplate(c.compiled, value, budget);
    if (!r.ok) return `Error expanding context: ${r.error}`;
    contexts.push(r.value);
  }
  let reference: Json | undefined;
  if (entry.reference) {
    const r = fillTemplate(entry.reference, value, budget);
    if (!r.ok) return `Error expanding reference: ${r.error}`;
    reference = r.value;
  }
  if (!none && contexts.some((c) => Array.isArray(c) && c.length)) {
    notes.add(
      'combination',
      plan.name,
      'Contexts are sent per participant ({"contexts": [[...], [...]]}) as Perl 4.x and pScheduler expect; pSConfig 5.x flattens them into one list.',
    );
  }
  base.pscheduler = assembleTask({
    test: test.value,
    archives,
    contexts,
    schedule: entry.schedule,
    reference,
    referenceShared: reference !== undefined && reference === entry.reference?.constant,
    tools: entry.tools,
    priority: typeof plan.task.priority === 'number' ? plan.task.priority : undefined,
    schedulerAddress: combo.scheduler.address ?? '',
  });
  keys.memo = memo;
  return undefined;
}

/** What a filled combination's parts were made of: the values of its variables (for the verdict caches' keys). */
interface FilledParts {
  memo?: Map<string, VarValue>;
}

const templateIds = new WeakMap<CompiledTemplate, number>();
let nextTemplateId = 0;

/**
 * A filled template is determined by the template and the raw text of its variables (the fill and the IPv6
 * bracketing are functions of them), so this key stands for its JSON text in the verdict caches. Undefined when
 * a variable did not expand.
 */
function templateKey(c: CompiledTemplate, memo: Map<string, VarValue>): string | undefined {
  let id = templateIds.get(c);
  if (id === undefined) templateIds.set(c, (id = nextTemplateId++));
  let key = String(id);
  for (const name of c.vars) {
    const v = memo.get(name);
    if (!v?.ok) return undefined;
    key += `\u0000${v.raw}`;
  }
  return key;
}

/** Per task: what it yields for whom; and every scheduling agent in first-seen order. */
export function summarise(
  plans: TaskPlan[],
  failures: Map<TaskPlan, number>,
  refusals: Map<TaskPlan, number> = new Map(),
  /** Per task name: combinations identical to an earlier one of their agent (identical-tasks.ts). */
  identical: Map<string, number> = new Map(),
): { tasks: ExpandedTaskSummary[]; agents: string[] } {
  const agents: string[] = [];
  const seenAgents = new Set<string>();
  const tasks = plans.map((p) => {
    const taskAgents: string[] = [];
    const seen = new Set<string>();
    for (const c of p.combos) {
      const a = effective(c.scheduler);
      if (!seen.has(a)) {
        seen.add(a);
        taskAgents.push(a);
      }
      if (!seenAgents.has(a)) {
        seenAgents.add(a);
        agents.push(a);
      }
    }
    const s: ExpandedTaskSummary = {
      task: p.name,
      testType: typeof p.test?.type === 'string' ? p.test.type : undefined,
      group: p.groupName,
      groupType: typeof p.group?.type === 'string' ? p.group.type : undefined,
      count: p.disabled ? 0 : p.combos.length - (failures.get(p) ?? 0) - (identical.get(p.name) ?? 0),
      agents: p.disabled ? [] : taskAgents,
    };
    if (p.error) s.error = p.error;
    if (p.disabled) s.disabled = true;
    const refused = refusals.get(p);
    if (refused && !p.disabled) s.refused = refused;
    const same = identical.get(p.name);
    if (same && !p.disabled) s.identical = same;
    return s;
  });
  return { tasks, agents };
}

const NO_CONTEXT_VALUES: Json[] = [];
const NO_SCRIPTS: string[] = [];
const JQ_MISSING: JqValueResult = { ok: false, error: 'jq result missing' };

function effective(n: AddressNode): string {
  return n.parentAddress ?? n.address ?? 'undefined';
}
