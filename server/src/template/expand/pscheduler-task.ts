// The pieces of the pScheduler task JSON the agent builds per combination (psconfig.md §3.5):
// archives (task + scheduler host, de-duplicated), per-participant contexts, and the final assembly.
import { PSchedulerTask } from '../../../../common/protocol';
import { AddressNode, canonicalJson, hostOf, Json, JsonObject, strList, TemplateView } from './template-view';
import { cacheKey } from '../own-string';
import { isObject } from '../../../../common/json';

export type Sourced<T> = { ok: true; value: T } | { ok: false; error: string };

/**
 * TaskGenerator._get_archives: task archives then the scheduler host's, de-duplicated by checksum. Only the
 * scheduler's host is read (the dashboard calls it with the host alone to find where each archive came from).
 */
export function archivesFor(
  view: Pick<TemplateView, 'archives' | 'hosts'>,
  task: JsonObject,
  scheduler: Pick<AddressNode, 'hostRef'>,
): Sourced<JsonObject[]> {
  const refs = [...strList(task.archives), ...strList(hostOf(view, scheduler)?.archives)];
  const seen = new Set<string>();
  const out: JsonObject[] = [];
  for (const ref of refs) {
    const a = view.archives.get(ref);
    if (!a) return { ok: false, error: `Unable to find archive defined in task: ${ref}` };
    const sum = canonicalJson(a);
    if (seen.has(sum)) continue;
    seen.add(sum);
    out.push(a);
  }
  return { ok: true, value: out };
}

/** TaskGenerator._get_contexts for one participant (the label/remote entry's own `contexts`). */
export function contextsFor(view: TemplateView, n: AddressNode): Sourced<JsonObject[]> {
  const out: JsonObject[] = [];
  for (const ref of strList(n.data.contexts)) {
    const c = view.contexts.get(ref);
    if (!c)
      return { ok: false, error: `Unable to find context '${ref}' defined for address ${n.address ?? 'undefined'}` };
    out.push(c);
  }
  return { ok: true, value: out };
}

/** _pscheduler_prep: `_meta` removed (top level only, as pSConfig does). */
export function withoutMeta(v: Json): Json {
  if (!isObject(v) || !('_meta' in v)) return v;
  const { _meta: _drop, ...rest } = v;
  return rest;
}

export interface TaskPieces {
  test: Json;
  archives: Json[];
  /** One list per participant; `contexts` is emitted only when some participant has one. */
  contexts: Json[];
  schedule?: JsonObject;
  reference?: Json;
  /** The reference object is shared between combinations (a constant template): copy before adding psconfig. */
  referenceShared?: boolean;
  tools: string[];
  priority?: number;
  schedulerAddress: string;
}

/** The placeholder the preview puts where the agent writes its own identity (uuid, hostname). */
export function createdBy(schedulerAddress: string): JsonObject {
  return { 'user-agent': 'psconfig-pscheduler-agent', 'agent-hostname': schedulerAddress, uuid: '<preview>' };
}

const EMPTY_SCHEDULE: JsonObject = {};
const blocks = new Map<string, { psconfig: JsonObject; reference: JsonObject }>();
/** One shared (read-only) psconfig block per scheduler: a 40,000-task mesh has only a few hundred. */
function psconfigBlock(schedulerAddress: string): { psconfig: JsonObject; reference: JsonObject } {
  let b = blocks.get(schedulerAddress);
  if (!b) {
    if (blocks.size > 50_000) blocks.clear();
    const psconfig = { 'created-by': createdBy(schedulerAddress) };
    b = { psconfig, reference: { psconfig } };
    const key = cacheKey(schedulerAddress);
    if (key !== undefined) blocks.set(key, b);
  }
  return b;
}

export function assembleTask(p: TaskPieces): PSchedulerTask {
  const task: Record<string, unknown> = { test: withoutMeta(p.test) };
  // The generator adds archives/schedule only when present, but Task.checksum() inserts "archives": [] and
  // "schedule": {}, so the JSON the agent logs and submits always has both.
  for (let i = 0; i < p.archives.length; i++) p.archives[i] = withoutMeta(p.archives[i]); // a fresh list per combination
  task.archives = p.archives;
  if (p.contexts.some((c) => Array.isArray(c) && c.length > 0)) {
    task.contexts = { contexts: p.contexts.map((c) => (Array.isArray(c) ? c.map(withoutMeta) : c)) };
  }
  task.schedule = p.schedule ? withoutMeta(p.schedule) : EMPTY_SCHEDULE;
  // The agent sets reference.psconfig, overwriting a user key of that name. A reference filled for this
  // combination is ours to extend; a constant one is shared, so it is copied; none at all shares one per agent.
  const block = psconfigBlock(p.schedulerAddress);
  if (!isObject(p.reference)) task.reference = block.reference;
  else if (p.referenceShared) task.reference = { ...p.reference, psconfig: block.psconfig };
  else {
    p.reference.psconfig = block.psconfig;
    task.reference = p.reference;
  }
  if (p.tools.length) task.tools = p.tools;
  if (p.priority) task.priority = p.priority; // 5.x tests truthiness: a priority of 0 is not sent
  return task as unknown as PSchedulerTask;
}
