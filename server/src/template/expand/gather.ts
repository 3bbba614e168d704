// Phase 2 of expandTemplate (engine.ts): for every planned combination, the compiled templates it fills (test,
// reference, archives of the scheduler's host, contexts of each member) and the jq work it needs, gathered into
// one batch so a single jq process serves the whole template.
import type { CompiledTemplate } from './template-vars';
import { compileTemplate } from './template-vars';
import { archivesFor, contextsFor, Sourced, withoutMeta } from './pscheduler-task';
import type { PlannedCombination, TaskPlan } from './scheduling';
import { type Json, JsonObject, strList, TemplateView } from './template-view';
import type { ExpansionNotes } from './notes';
import { isObject } from '../../../../common/json';

/** A task's compiled templates, shared by all its combinations. */
export interface TaskEntry {
  test: CompiledTemplate;
  reference?: CompiledTemplate;
  /** Index of the task's jq script set, when any of its templates use jq. */
  set?: number;
  /** Index of the task's row in the jq input's shared table. */
  shared: number;
  schedule?: JsonObject;
  tools: string[];
  /** A note raised while filling one of its combinations. */
  note: (message: string) => void;
}

export interface ContextEntry {
  raw: JsonObject[];
  compiled: CompiledTemplate;
}

/** One combination to fill. */
export interface Built {
  plan: TaskPlan;
  combo: PlannedCombination;
  /** Index of the combination in the jq batch, when it needs jq. */
  jqItem?: number;
  archives: Sourced<{ raw: JsonObject[]; compiled: CompiledTemplate[]; key: number }>;
  contexts: Sourced<ContextEntry[]>;
}

export interface Gathered {
  built: Built[];
  entries: Map<TaskPlan, TaskEntry>;
  /** The jq batch: script sets, items ([set, shared, archives, ...node ids]) and the tables they index. */
  jqSets: string[][];
  jqItems: number[][];
  archiveTables: JsonObject[][];
  taskShared: JsonObject[];
  /** `limit` left planned combinations out. */
  truncated: boolean;
  /** The name of each archive and context object of the template (for messages about them). */
  names: Map<JsonObject | undefined, string>;
}

export function gatherCombinations(
  view: TemplateView,
  plans: TaskPlan[],
  limit: number,
  notes: ExpansionNotes,
): Gathered {
  const g: Gathered = {
    built: [],
    entries: new Map(),
    jqSets: [],
    jqItems: [],
    archiveTables: [],
    taskShared: [],
    truncated: false,
    names: new Map(),
  };
  for (const [name, a] of view.archives) g.names.set(a, name);
  for (const [name, c] of view.contexts) g.names.set(c, name);
  const contextCache: (Sourced<ContextEntry> | undefined)[] = []; // by node id
  // One compile per template object: every scheduling host of a mesh gets the same archive objects, and a 900 KB
  // archive serialised and scanned once per host was most of the expansion of a long-strings template.
  const compiled = new Map<Json, CompiledTemplate>();
  const compileOnce = (v: Json): CompiledTemplate => {
    let c = compiled.get(v);
    if (!c) compiled.set(v, (c = compileTemplate(v)));
    return c;
  };
  let total = 0;
  for (const plan of plans) {
    if (plan.disabled || plan.error || !plan.test) continue;
    const test = compileOnce(plan.test);
    const ref = plan.task.reference;
    // `if task.reference()`: an empty or missing reference is not expanded (the psconfig block is still added).
    const reference = isObject(ref) && Object.keys(ref).length ? compileTemplate(ref) : undefined;
    const scripts = new Set<string>([...test.jqScripts.values(), ...(reference?.jqScripts.values() ?? [])]);
    const shared =
      g.taskShared.push({ task: plan.task, test: plan.test, ...(plan.schedule ? { schedule: plan.schedule } : {}) }) -
      1;
    // Shared by every combination of the task (read-only): the schedule goes out as written, minus _meta.
    const schedule = plan.schedule ? (withoutMeta(plan.schedule) as JsonObject) : undefined;
    const entry: TaskEntry = {
      test,
      reference,
      shared,
      schedule,
      tools: strList(plan.task.tools),
      note: (m) => notes.add('combination', plan.name, m),
    };
    g.entries.set(plan, entry);
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
              value: { raw: a.value, compiled: a.value.map(compileOnce), key: g.archiveTables.push(a.value) - 1 },
            }
          : a;
        archiveCache.set(hostKey, archives);
        if (archives.ok) archives.value.compiled.forEach((c) => c.jqScripts.forEach((s) => scripts.add(s)));
      }
      mine.push({ plan, combo, archives, contexts: contextsOf(view, combo, contextCache, scripts) });
    }
    if (scripts.size && mine.length) {
      entry.set = g.jqSets.push([...scripts]) - 1;
      for (const b of mine) {
        b.jqItem =
          g.jqItems.push([
            entry.set,
            shared,
            b.archives.ok ? b.archives.value.key : -1,
            ...b.combo.members.map((m) => m.id),
          ]) - 1;
      }
    }
    for (const b of mine) g.built.push(b); // (not push(...mine): a big mesh exceeds the argument limit)
  }
  g.truncated = plans.reduce((n, p) => n + p.combos.length, 0) > total;
  return g;
}

/** The compiled contexts of each member of a combination (cached per address node), or the first failure. */
function contextsOf(
  view: TemplateView,
  combo: PlannedCombination,
  cache: (Sourced<ContextEntry> | undefined)[],
  scripts: Set<string>,
): Sourced<ContextEntry[]> {
  for (const m of combo.members) {
    let c = cache[m.id];
    if (!c) {
      const r = contextsFor(view, m);
      c = r.ok
        ? { ok: true, value: r.value.length ? { raw: r.value, compiled: compileTemplate(r.value) } : NO_CONTEXTS }
        : r;
      cache[m.id] = c;
    }
    if (!c.ok) return c;
    if (c.value.compiled.jqScripts.size) c.value.compiled.jqScripts.forEach((s) => scripts.add(s));
  }
  // Most meshes have no contexts: share one list of empty entries instead of building one per combination.
  const entry = (m: PlannedCombination['members'][number]): ContextEntry =>
    (cache[m.id] as { ok: true; value: ContextEntry }).value;
  if (combo.members.every((m) => entry(m) === NO_CONTEXTS)) return noContexts(combo.members.length);
  return { ok: true, value: combo.members.map(entry) };
}

const NO_CONTEXTS: ContextEntry = { raw: [], compiled: compileTemplate([]) };
const noContextsBySize: Sourced<ContextEntry[]>[] = [];

/** The shared "no member has contexts" entry for combinations of `size` members (compare by identity). */
export function noContexts(size: number): Sourced<ContextEntry[]> {
  return (noContextsBySize[size] ??= { ok: true, value: Array.from({ length: size }, () => NO_CONTEXTS) });
}
