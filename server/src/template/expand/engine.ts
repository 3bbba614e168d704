// expandTemplate: template JSON → the pScheduler tasks each agent would create, in pSConfig order.
// Phase 1 (sync) plans every task's combinations; phase 2 runs ONE batched jq process for every `{% jq %}`
// of every combination; phase 3 fills the compiled templates and assembles the task JSON.
import {
  ExpandedCombination,
  ExpandedTaskSummary,
  ExpandTasksResult,
  ExpansionNote,
} from '../../../../common/protocol';
import { JqRunner } from '../jq';
import { runTemplateJq } from './template-jq';
import type { JqValueResult } from '../jq/batch';
import { ClassContext, prefetchClassJq } from './address-classes';
import { NodeTable } from './groups';
import { IncludeOptions, mergeIncludes } from './includes';
import { isObject, Json, JsonObject, strList, stripHashKeys, TemplateView, viewOf, AddressNode } from './template-view';
import { archivesFor, assembleTask, contextsFor, Sourced, withoutMeta } from './pscheduler-task';
import { agentMatcher, PlannedCombination, planTask, TaskPlan } from './scheduling';
import { CompiledTemplate, compileTemplate, expandVar, fillTemplate, VarScope, VarValue } from './template-vars';
import { noteVariableDivergence } from './divergence';

export interface ExpandOptions extends IncludeOptions {
  /** Agent match addresses; empty or absent = every agent (as `psconfig validate` expands). */
  agentAddresses?: string[];
  /** Build at most this many combinations (counts still cover all of them). */
  limit?: number;
  jq: JqRunner;
  /** Addresses of the `requesting-agent` class data source; default: one `{address}` per agent address. */
  requestingAgent?: Record<string, JsonObject>;
  /** Checked between phases: a cancelled expansion returns early with `error: 'cancelled'`. */
  isCancelled?: () => boolean;
}

/** The engine's answer: the protocol's result without the document identity, plus jq accounting. */
export interface ExpansionResult extends Omit<ExpandTasksResult, 'uri' | 'version'> {
  /** jq processes started for this expansion (compile checks included). */
  jqProcesses: number;
}

interface TaskEntry {
  test: CompiledTemplate;
  reference?: CompiledTemplate;
  set?: number;
  shared: number;
  schedule?: JsonObject;
  tools: string[];
  note: (message: string) => void;
}

interface Built {
  plan: TaskPlan;
  combo: PlannedCombination;
  /** Index of the combination in the jq batch, when it needs jq. */
  jqItem?: number;
  archives: Sourced<{ raw: JsonObject[]; compiled: CompiledTemplate[]; key: number }>;
  contexts: Sourced<ContextEntry[]>;
}

export function requestingAgentFrom(agentAddresses: string[] | undefined): Map<string, JsonObject> {
  return new Map((agentAddresses ?? []).filter(Boolean).map((a) => [a, { address: a }]));
}

/** The template after `#` keys are stripped and includes merged, or why it cannot be expanded at all. */
export async function prepareTemplate(
  template: unknown,
  options: IncludeOptions,
): Promise<{ view?: TemplateView; error?: string; includeErrors: string[] }> {
  const raw = stripHashKeys(template);
  if (!isObject(raw)) return { error: 'The template is not a JSON object.', includeErrors: [] };
  const inc = await mergeIncludes(raw, options);
  return { view: viewOf(inc.merged), includeErrors: inc.errors };
}

export async function expandTemplate(template: unknown, options: ExpandOptions): Promise<ExpansionResult> {
  const started = performance.now();
  const jqBefore = options.jq.processesStarted;
  const notes: ExpansionNote[] = [];
  const noteKeys = new Set<string>();
  const addNote = (task: string | undefined, message: string): void => {
    const k = `${task ?? ''}\u0000${message}`;
    if (noteKeys.has(k)) return;
    noteKeys.add(k);
    notes.push(task ? { task, message } : { message });
  };
  const done = (r: Omit<ExpansionResult, 'jqProcesses' | 'elapsedMs' | 'notes'>): ExpansionResult => ({
    ...r,
    notes,
    jqProcesses: options.jq.processesStarted - jqBefore,
    elapsedMs: performance.now() - started,
  });

  const prepared = await prepareTemplate(template, options);
  for (const e of prepared.includeErrors) addNote(undefined, e);
  const view = prepared.view;
  if (!view) return done({ error: prepared.error, tasks: [], combinations: [], truncated: false, agents: [] });

  const requestingAgent = options.requestingAgent
    ? new Map(Object.entries(options.requestingAgent))
    : requestingAgentFrom(options.agentAddresses);
  const usesRequestingAgent = [...view.addressClasses.values()].some(
    (c) => isObject(c['data-source']) && c['data-source'].type === 'requesting-agent',
  );
  if (usesRequestingAgent && !requestingAgent.size) {
    addNote(
      undefined,
      'An address class uses the requesting-agent data source: with no agent addresses set it selects nothing (set psconfig.preview.agentAddresses or pass --agent).',
    );
  }
  let currentTask: string | undefined;
  const classes: ClassContext = {
    view,
    requestingAgent,
    jqResults: await prefetchClassJq(view, requestingAgent, options.jq, (m) => addNote(undefined, m)),
    note: (m) => addNote(currentTask, m),
  };
  const nodes = new NodeTable();
  const matches = agentMatcher(options.agentAddresses);
  const limit = options.limit !== undefined && options.limit >= 0 ? options.limit : Infinity;

  // ---- phase 1: plan ---------------------------------------------------------------------------------------
  const plans: TaskPlan[] = [];
  for (const [name, task] of view.tasks) {
    currentTask = name;
    const plan = planTask(view, classes, nodes, name, task, matches);
    plan.notes.forEach((m) => addNote(name, m));
    if (task.priority === 0)
      addNote(
        name,
        'priority is 0: pSConfig 5.x skips a falsy priority, so the agent sends no priority (shown that way); Perl 4.x sent 0.',
      );
    plans.push(plan);
  }
  currentTask = undefined;

  // ---- phase 2: gather templates and jq ---------------------------------------------------------------------
  const built: Built[] = [];
  const archiveTables: JsonObject[][] = [];
  const taskShared: JsonObject[] = [];
  const jqSets: string[][] = [];
  const jqItems: number[][] = []; // [set, shared, archives, ...node ids]
  const compiledByTask = new Map<TaskPlan, TaskEntry>();
  const contextCache: (Sourced<ContextEntry> | undefined)[] = []; // by node id
  let total = 0;
  for (const plan of plans) {
    if (plan.disabled || plan.error || !plan.test) continue;
    const test = compileTemplate(plan.test);
    const ref = plan.task.reference;
    // `if task.reference()`: an empty or missing reference is not expanded (the psconfig block is still added).
    const reference = isObject(ref) && Object.keys(ref).length ? compileTemplate(ref) : undefined;
    const scripts = new Set<string>([...test.jqScripts.values(), ...(reference?.jqScripts.values() ?? [])]);
    const shared =
      taskShared.push({ task: plan.task, test: plan.test, ...(plan.schedule ? { schedule: plan.schedule } : {}) }) - 1;
    // Shared by every combination of the task (read-only): the schedule goes out as written, minus _meta.
    const schedule = plan.schedule ? (withoutMeta(plan.schedule) as JsonObject) : undefined;
    const entry: TaskEntry = {
      test,
      reference,
      shared,
      schedule,
      tools: strList(plan.task.tools),
      note: (m) => addNote(plan.name, m),
    };
    compiledByTask.set(plan, entry);
    const mine: Built[] = [];
    const archiveCache = new Map<string, Built['archives']>(); // by the scheduler's host
    for (const combo of plan.combos) {
      if (total >= limit) break;
      total++;
      const hostKey = combo.scheduler.hostRef ?? '';
      let archives = archiveCache.get(hostKey);
      if (!archives) {
        const a = archivesFor(view, plan.task, combo.scheduler);
        archives = a.ok
          ? {
              ok: true,
              value: { raw: a.value, compiled: a.value.map(compileTemplate), key: archiveTables.push(a.value) - 1 },
            }
          : a;
        archiveCache.set(hostKey, archives);
        if (archives.ok) archives.value.compiled.forEach((c) => c.jqScripts.forEach((s) => scripts.add(s)));
      }
      let contexts: Built['contexts'] | undefined;
      for (const m of combo.members) {
        let c = contextCache[m.id];
        if (!c) {
          const r = contextsFor(view, m);
          c = r.ok
            ? { ok: true, value: r.value.length ? { raw: r.value, compiled: compileTemplate(r.value) } : NO_CONTEXTS }
            : r;
          contextCache[m.id] = c;
        }
        if (!c.ok) {
          contexts = c;
          break;
        }
        if (c.value.compiled.jqScripts.size) c.value.compiled.jqScripts.forEach((s) => scripts.add(s));
      }
      if (!contexts) {
        // Most meshes have no contexts: share one list of empty entries instead of building one per combination.
        let any = false;
        for (const m of combo.members)
          if ((contextCache[m.id] as { ok: true; value: ContextEntry }).value !== NO_CONTEXTS) any = true;
        contexts = any
          ? {
              ok: true,
              value: combo.members.map((m) => (contextCache[m.id] as { ok: true; value: ContextEntry }).value),
            }
          : noContexts(combo.members.length);
      }
      mine.push({ plan, combo, archives, contexts });
    }
    if (scripts.size && mine.length) {
      entry.set = jqSets.push([...scripts]) - 1;
      for (const b of mine) {
        b.jqItem =
          jqItems.push([
            entry.set,
            shared,
            b.archives.ok ? b.archives.value.key : -1,
            ...b.combo.members.map((m) => m.id),
          ]) - 1;
      }
    }
    for (const b of mine) built.push(b); // (not push(...mine): a big mesh exceeds the argument limit)
  }
  const truncated = plans.reduce((n, p) => n + p.combos.length, 0) > total;
  if (options.isCancelled?.())
    return done({ error: 'cancelled', tasks: [], combinations: [], truncated: false, agents: [] });

  const jqCell = await runTemplateJq(options.jq, jqSets, jqItems, nodes.list, view, archiveTables, taskShared);

  // ---- phase 3: fill and assemble ------------------------------------------------------------------------------
  const combinations: ExpandedCombination[] = [];
  const failures = new Map<TaskPlan, number>();
  for (const b of built) {
    const { plan, combo } = b;
    const entry = compiledByTask.get(plan);
    if (!entry) continue;
    const addressValues = combo.members.map((m) => m.address ?? 'undefined');
    const base: ExpandedCombination = {
      task: plan.name,
      addresses: combo.members.map((m) => m.objectName),
      addressValues,
      agent: effective(combo.scheduler),
      flip: combo.flip,
    };
    const fail = (error: string): void => {
      failures.set(plan, (failures.get(plan) ?? 0) + 1);
      combinations.push({ ...base, error: `task=${plan.name},addresses=${addressValues.join('->')},error=${error}` });
    };
    if (!b.archives.ok) {
      fail(b.archives.error);
      continue;
    }
    if (!b.contexts.ok) {
      fail(b.contexts.error);
      continue;
    }
    const set = entry.set !== undefined ? jqSets[entry.set] : NO_SCRIPTS;
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
    const test = fillTemplate(entry.test, value);
    if (!test.ok || !isObject(test.value) || !Object.keys(test.value).length) {
      fail(`Error expanding test specification: ${test.ok ? '' : test.error}`);
      continue;
    }
    const archives: Json[] = [];
    let archiveError: string | undefined;
    for (const c of b.archives.value.compiled) {
      const r = fillTemplate(c, value);
      if (!r.ok || !isObject(r.value) || !Object.keys(r.value).length) {
        archiveError = `Error expanding archives: ${r.ok ? '' : r.error}`;
        break;
      }
      archives.push(r.value);
    }
    if (archiveError) {
      fail(archiveError);
      continue;
    }
    const none = b.contexts === noContexts(combo.members.length);
    const contexts: Json[] = none ? NO_CONTEXT_VALUES : [];
    let contextError: string | undefined;
    for (const c of none ? [] : b.contexts.value) {
      const r = fillTemplate(c.compiled, value);
      if (!r.ok) {
        contextError = `Error expanding context: ${r.error}`;
        break;
      }
      contexts.push(r.value);
    }
    if (contextError) {
      fail(contextError);
      continue;
    }
    let reference: Json | undefined;
    if (entry.reference) {
      const r = fillTemplate(entry.reference, value);
      if (!r.ok) {
        fail(`Error expanding reference: ${r.error}`);
        continue;
      }
      reference = r.value;
    }
    if (!none && contexts.some((c) => Array.isArray(c) && c.length)) {
      addNote(
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
    combinations.push(base);
  }

  const agents: string[] = [];
  const seenAgents = new Set<string>();
  const tasks: ExpandedTaskSummary[] = plans.map((p) => {
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
      count: p.disabled ? 0 : p.combos.length - (failures.get(p) ?? 0),
      agents: p.disabled ? [] : taskAgents,
    };
    if (p.error) s.error = p.error;
    if (p.disabled) s.disabled = true;
    return s;
  });
  return done({ tasks, combinations, truncated, agents });
}

interface ContextEntry {
  raw: JsonObject[];
  compiled: CompiledTemplate;
}
const NO_CONTEXTS: ContextEntry = { raw: [], compiled: compileTemplate([]) };
const noContextsBySize: Sourced<ContextEntry[]>[] = [];
const NO_CONTEXT_VALUES: Json[] = [];
function noContexts(size: number): Sourced<ContextEntry[]> {
  return (noContextsBySize[size] ??= { ok: true, value: Array.from({ length: size }, () => NO_CONTEXTS) });
}
const NO_SCRIPTS: string[] = [];
const JQ_MISSING: JqValueResult = { ok: false, error: 'jq result missing' };

function effective(n: AddressNode): string {
  return n.parentAddress ?? n.address ?? 'undefined';
}
