// Two expansions of a template (old and new version) → per agent, the tasks added, removed and changed.
//
// Identity. A task is the agent that schedules it, the template's task name and the combination's address
// strings in order: how pSConfig names a combination in its messages (task_generator.py `_handle_next_error`,
// `task=T,addresses=a->b`), for the agent whose match addresses select it (`_is_matching_address`). The agent
// itself keeps or replaces what pScheduler runs by a checksum of the whole task JSON (task_manager.py
// `_need_new_task`, task.py `Task.checksum`), so:
// - a task whose JSON differs is "changed": on the host the agent deletes the running task and posts the new one;
// - a task renamed in the template with the same JSON on the same addresses is paired as "changed" with a `task`
//   part, since the agent finds the same checksum and keeps the running task;
// - renaming an address object (same address string) changes nothing, as on a host.
// A combination that fails (expansion error or a task pScheduler would refuse) creates no task: a task that
// starts failing is "removed" and listed among the new failures.
// A combination identical to an earlier one of its agent (`identicalTo`, expand/identical-tasks.ts) creates no task
// either, but is no failure: a task that becomes such a duplicate is "removed", naming what it is identical to.
// Keys repeat when a group names an address twice; the n-th occurrence on one side pairs with the n-th on the
// other. Added and changed tasks come in the new version's pSConfig order, removed ones in the old version's.
import {
  isCreated,
  type IdenticalTaskRef,
  type ExpandedCombination,
  type ExpandTasksResult,
  type TaskDiffAgent,
  type TaskDiffChanged,
  type TaskDiffDiagnostic,
  type TaskDiffDiagnosticCounts,
  type TaskDiffFailure,
  type TaskDiffHostLoad,
  type TaskDiffResult,
  type TaskDiffSide,
  type TaskDiffTask,
} from '../../../../common/protocol';
import { jsonEqual } from './json-equal';
import { taskParts } from './parts';

/** One host's load in one version, from the schedule model: the shares of its time its exclusive and normal runs
 *  take (the schedule's own per-host figures are `ScheduleHostLoad`). */
export interface LoadShares {
  exclusive: number;
  normal: number;
}

export interface DiffSideInput {
  result: Pick<ExpandTasksResult, 'error' | 'tasks' | 'combinations' | 'agents'>;
  source?: string;
  /** The version's diagnostics (absent: not computed, nothing is counted). */
  diagnostics?: TaskDiffDiagnostic[];
  /** Per host address, from the schedule model (absent: no load figures). */
  load?: Map<string, LoadShares>;
}

export const RENAME_NOTE =
  "same task JSON on the same addresses: pSConfig's agent finds the same checksum and keeps the running task";

/** A combination the agent creates a task for: built, not refused, not identical to an earlier one. */
const isTask = isCreated;

/**
 * [agent, task, addresses...] as one string, each part prefixed by its length: no address string can make two
 * combinations share a key, and it is three times cheaper than JSON text (80,000 keys per diff of a large mesh).
 */
function keyOf(c: ExpandedCombination): string {
  const agent = c.agent ?? '';
  let k = `${agent.length}:${agent}${c.task.length}:${c.task}`;
  for (const a of c.addressValues) k += `${a.length}:${a}`;
  return k;
}

const entryOf = (c: ExpandedCombination): TaskDiffTask => ({ task: c.task, addresses: c.addressValues });

interface AgentAcc {
  added: ExpandedCombination[];
  removed: ExpandedCombination[];
  changed: TaskDiffChanged[];
}

export function diffExpansions(old: DiffSideInput, next: DiffSideInput): TaskDiffResult {
  const byAgent = new Map<string, AgentAcc>();
  const acc = (agent: string | undefined): AgentAcc => {
    const a = agent ?? '';
    let hit = byAgent.get(a);
    if (!hit) byAgent.set(a, (hit = { added: [], removed: [], changed: [] }));
    return hit;
  };

  // Old combinations by key: an index, or the indexes in order when a key repeats (a number per key, not an
  // array: 39,800 small arrays were most of a large diff's garbage). `taken[i]`: paired with a new combination;
  // `kept[i]`: paired with a new task.
  const oldList = old.result.combinations;
  const oldIndex = new Map<string, number | Repeated>();
  for (let i = 0; i < oldList.length; i++) {
    const k = keyOf(oldList[i]);
    const hit = oldIndex.get(k);
    if (hit === undefined) oldIndex.set(k, i);
    else if (typeof hit === 'number') oldIndex.set(k, { list: [hit, i], next: 0 });
    else hit.list.push(i);
  }
  const taken = new Uint8Array(oldList.length);
  const kept = new Uint8Array(oldList.length);
  const newFailures: TaskDiffFailure[] = [];
  /** Old tasks whose new counterpart is a duplicate: why they are removed. */
  const nowIdentical = new Map<ExpandedCombination, IdenticalTaskRef>();

  for (const n of next.result.combinations) {
    const oi = firstFree(oldIndex.get(keyOf(n)), taken);
    if (oi !== undefined) taken[oi] = 1;
    const o = oi === undefined ? undefined : oldList[oi];
    if (n.identicalTo !== undefined && n.error === undefined) {
      if (o && isTask(o)) nowIdentical.set(o, n.identicalTo);
      continue;
    }
    if (!isTask(n)) {
      // An old task whose new counterpart fails is removed (in the old order, below).
      if (!o || o.error !== n.error) newFailures.push(failureOf(n));
      continue;
    }
    if (oi !== undefined) kept[oi] = 1;
    if (!o || !isTask(o)) {
      acc(n.agent).added.push(n);
      continue;
    }
    if (jsonEqual(o.pscheduler, n.pscheduler)) continue;
    const parts = taskParts(o.pscheduler!, n.pscheduler!);
    if (parts.length) acc(n.agent).changed.push({ ...entryOf(n), parts });
  }
  for (let i = 0; i < oldList.length; i++)
    if (!kept[i] && isTask(oldList[i])) acc(oldList[i].agent).removed.push(oldList[i]);
  for (const a of byAgent.values()) pairRenames(a);
  const removedEntry = (c: ExpandedCombination): TaskDiffTask => {
    const e = entryOf(c);
    const same = nowIdentical.get(c);
    if (same) e.identicalTo = same;
    return e;
  };
  for (const t of next.result.tasks) {
    if (!t.error) continue;
    const before = old.result.tasks.find((x) => x.task === t.task);
    if (before?.error !== t.error) newFailures.push({ task: t.task, error: t.error });
  }

  const agents = orderedAgents(byAgent, old.result.agents, next.result.agents, removedEntry);
  const summary = { added: 0, removed: 0, changed: 0, agentsAffected: agents.length };
  for (const a of agents) {
    summary.added += a.added.length;
    summary.removed += a.removed.length;
    summary.changed += a.changed.length;
  }
  const result: TaskDiffResult = {
    summary,
    agents,
    old: sideOf(old),
    new: sideOf(next),
    newFailures,
    newDiagnostics: newDiagnosticsOf(old.diagnostics, next.diagnostics),
    resolvedDiagnostics: resolvedErrorsOf(old.diagnostics, next.diagnostics),
  };
  if (old.load || next.load) result.hosts = loadChanges(old.load, next.load);
  return result;
}

/** The old combinations of a key that repeats, and how many of them new ones have paired with. */
interface Repeated {
  list: number[];
  next: number;
}

/** The first old combination of a key not yet paired: the n-th new occurrence pairs with the n-th old one. */
function firstFree(hit: number | Repeated | undefined, taken: Uint8Array): number | undefined {
  if (hit === undefined) return undefined;
  if (typeof hit === 'number') return taken[hit] ? undefined : hit;
  return hit.next < hit.list.length ? hit.list[hit.next++] : undefined;
}

/** Removed and added tasks of one agent with the same addresses and the same JSON: a renamed task. */
function pairRenames(a: AgentAcc): void {
  if (!a.added.length || !a.removed.length) return;
  const removedBy = new Map<string, ExpandedCombination[]>();
  for (const r of a.removed) {
    const k = JSON.stringify(r.addressValues);
    const l = removedBy.get(k);
    if (l) l.push(r);
    else removedBy.set(k, [r]);
  }
  const gone = new Set<ExpandedCombination>();
  const kept: ExpandedCombination[] = [];
  for (const n of a.added) {
    const candidates = removedBy.get(JSON.stringify(n.addressValues));
    const i = candidates?.findIndex((r) => !gone.has(r) && jsonEqual(r.pscheduler, n.pscheduler)) ?? -1;
    if (i < 0) {
      kept.push(n);
      continue;
    }
    const r = candidates![i];
    gone.add(r);
    a.changed.push({ ...entryOf(n), parts: [{ part: 'task', old: r.task, new: n.task, note: RENAME_NOTE }] });
  }
  if (!gone.size) return;
  a.added = kept;
  a.removed = a.removed.filter((r) => !gone.has(r));
}

function failureOf(c: ExpandedCombination): TaskDiffFailure {
  const f: TaskDiffFailure = { task: c.task, addresses: c.addressValues, error: c.error ?? 'no task JSON' };
  if (c.agent !== undefined) f.agent = c.agent;
  if (c.refused) f.refused = true;
  return f;
}

/** Affected agents in the old version's first-seen order, then the new version's, then any others. */
function orderedAgents(
  byAgent: Map<string, AgentAcc>,
  oldAgents: string[],
  newAgents: string[],
  removedEntry: (c: ExpandedCombination) => TaskDiffTask,
): TaskDiffAgent[] {
  const rank = new Map<string, number>();
  for (const a of [...oldAgents, ...newAgents]) if (!rank.has(a)) rank.set(a, rank.size);
  const out: TaskDiffAgent[] = [];
  for (const [agent, a] of byAgent) {
    if (!a.added.length && !a.removed.length && !a.changed.length) continue;
    out.push({
      agent,
      added: a.added.map(entryOf),
      removed: a.removed.map(removedEntry),
      changed: a.changed,
    });
  }
  const at = (a: string): number => rank.get(a) ?? Number.MAX_SAFE_INTEGER;
  // Array.prototype.sort is stable: agents missing from both lists keep their first-seen order.
  return out.sort((x, y) => at(x.agent) - at(y.agent));
}

function sideOf(s: DiffSideInput): TaskDiffSide {
  const side: TaskDiffSide = { tasks: 0, failed: 0, refused: 0, taskErrors: 0 };
  if (s.source !== undefined) side.source = s.source;
  if (s.result.error !== undefined) side.error = s.result.error;
  for (const c of s.result.combinations) {
    if (isTask(c)) side.tasks++;
    else if (c.identicalTo !== undefined && c.error === undefined) side.identical = (side.identical ?? 0) + 1;
    else {
      side.failed++;
      if (c.refused) side.refused++;
    }
  }
  for (const t of s.result.tasks) if (t.error) side.taskErrors++;
  if (s.diagnostics) {
    const counts: TaskDiffDiagnosticCounts = { error: 0, warning: 0, information: 0, hint: 0 };
    for (const d of s.diagnostics) counts[d.severity]++;
    side.diagnostics = counts;
  }
  return side;
}

/**
 * A diagnostic's identity across versions: severity, code, the JSON path it is about and its wording with line and
 * column numbers left out (a duplicate-key message names lines that move when anything above them changes).
 */
export function diagnosticIdentity(d: TaskDiffDiagnostic): string {
  const words = d.message.replace(/\b(lines?|columns?) \d+(?:[-–]\d+)?/g, '$1 #');
  return `${d.severity}\u0000${d.code}\u0000${d.path ?? ''}\u0000${words}`;
}

/** Diagnostics of `next` (errors and warnings, or only errors) beyond those `old` had with the same identity. */
function beyond(
  old: TaskDiffDiagnostic[] | undefined,
  next: TaskDiffDiagnostic[],
  keep: (d: TaskDiffDiagnostic) => boolean,
): TaskDiffDiagnostic[] {
  const before = new Map<string, number>();
  for (const d of old ?? []) before.set(diagnosticIdentity(d), (before.get(diagnosticIdentity(d)) ?? 0) + 1);
  const out: TaskDiffDiagnostic[] = [];
  for (const d of next) {
    if (!keep(d)) continue;
    const k = diagnosticIdentity(d);
    const left = before.get(k) ?? 0;
    if (left > 0) before.set(k, left - 1);
    else out.push(d);
  }
  return out;
}

/** Errors and warnings of the new version the old one did not have. */
function newDiagnosticsOf(
  old: TaskDiffDiagnostic[] | undefined,
  next: TaskDiffDiagnostic[] | undefined,
): TaskDiffDiagnostic[] {
  return next ? beyond(old, next, (d) => d.severity === 'error' || d.severity === 'warning') : [];
}

/** Errors of the old version the new one does not have (only when both versions were checked). */
function resolvedErrorsOf(
  old: TaskDiffDiagnostic[] | undefined,
  next: TaskDiffDiagnostic[] | undefined,
): TaskDiffDiagnostic[] {
  return old && next ? beyond(next, old, (d) => d.severity === 'error') : [];
}

/** Hosts whose load differs by more than rounding, in the old version's host order, then new hosts. */
function loadChanges(
  old: Map<string, LoadShares> | undefined,
  next: Map<string, LoadShares> | undefined,
): TaskDiffHostLoad[] {
  const hosts = [...(old?.keys() ?? [])];
  for (const h of next?.keys() ?? []) if (!old?.has(h)) hosts.push(h);
  const out: TaskDiffHostLoad[] = [];
  const zero: LoadShares = { exclusive: 0, normal: 0 };
  for (const host of hosts) {
    const a = old?.get(host) ?? zero;
    const b = next?.get(host) ?? zero;
    if (Math.abs(a.exclusive - b.exclusive) < 1e-9 && Math.abs(a.normal - b.normal) < 1e-9) continue;
    out.push({
      host,
      exclusiveLoad: { old: a.exclusive, new: b.exclusive },
      normalLoad: { old: a.normal, new: b.normal },
    });
  }
  return out;
}

/**
 * Whether the change should fail a review (the CLI's exit status 1): it removes tasks, makes combinations or tasks
 * fail that did not, adds an error diagnostic, or leaves a template that cannot be expanded at all.
 */
export function changeLosesSomething(d: TaskDiffResult): boolean {
  return (
    d.summary.removed > 0 ||
    d.newFailures.length > 0 ||
    d.newDiagnostics.some((x) => x.severity === 'error') ||
    (d.new.error !== undefined && d.old.error === undefined)
  );
}
