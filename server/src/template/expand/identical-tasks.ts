// Identical tasks, once per agent, as pSConfig's agent creates them (perfsonar/psconfig 5.2.4 @ 3ba99274,
// psconfig/client/pscheduler/): agent.py:196 calls TaskManager.add_task for every combination of every task of the
// pass; add_task (task_manager.py:171-228) sets reference.psconfig.created-by (the same for every task of the agent)
// and asks _need_new_task (task_manager.py:315-331), which skips a task whose checksum() (task.py:708-735) is already
// in duplicate_new_task_map from earlier in the pass. So the second of two identical tasks of one agent, whether it
// comes from a group naming an address twice, from two groups or from two template tasks, is never created.
//
// The equality is checksum()'s: the task JSON with `schema`, `test.spec.schema`, `tool`, `href`, `schedule.start`,
// `schedule.until` set to '' and `detail` to {}, `archives` defaulting to [] and `schedule` to {}, the values of
// private (`_`-prefixed) keys of each archive's `data` and of the spec set to '' (their keys stay), serialised with
// sorted keys and hashed. canonicalTask below writes that same blanked value with sorted keys: two tasks have equal
// canonical strings exactly when their blanked values are equal as JSON (object key order aside, list order kept),
// which is exactly when json.dumps(sort_keys=True) gives equal text, so when the md5 is equal (a collision of md5
// aside, which would merge two different tasks upstream). For speed the pass does not build nor keep those
// strings for every task: it buckets tasks by a hash of the same blanked value (hashObject) and writes and compares
// the texts only within a bucket, so a collision of that hash never merges two tasks. Not reproduced: Python keeps 1 and 1.0 apart where
// JavaScript's JSON.parse has already made them one number; and an agent's host that matches several of the
// template's addresses runs one TaskManager for all of them, while the preview groups by the scheduling address.
import type { ExpandedCombination, PSchedulerTask } from '../../../../common/protocol';
import { isObject } from '../../../../common/json';

// The one wording of a duplicate and the "created" test (common/protocol.ts), for the CLI, which imports no protocol.
export { isCreated } from '../../../../common/protocol';

/** Top-level keys checksum() always writes, whatever the task has. */
const FORCED_TOP = ['archives', 'detail', 'href', 'schedule', 'schema', 'tool'];
const FORCED_SCHEDULE = ['start', 'until'];
const FORCED_SPEC = ['schema'];
const NONE: readonly string[] = [];

/** Where the canonical text goes. */
class TextSink {
  text = '';
  put(s: string): void {
    this.text += s;
  }
}
type Sink = TextSink;

/** What a member of an object is written as (checksum()'s blanks, task.py:715-729). */
const enum As {
  Plain,
  Top,
  Schedule,
  Test,
  Spec,
  Archive,
  Data,
  Reference,
}

function put(out: Sink, v: unknown): void {
  if (v === null || typeof v !== 'object') out.put(JSON.stringify(v) ?? 'null');
  else if (Array.isArray(v)) {
    out.put('[');
    for (let i = 0; i < v.length; i++) {
      if (i) out.put(',');
      put(out, v[i]);
    }
    out.put(']');
  } else putObject(out, v as Record<string, unknown>, As.Plain);
}

/** `{"k":v,...}`, keys sorted, with the keys `as` forces and the values it blanks. */
function putObject(out: Sink, o: Record<string, unknown>, as: As): void {
  const forced =
    as === As.Top ? FORCED_TOP : as === As.Schedule ? FORCED_SCHEDULE : as === As.Spec ? FORCED_SPEC : NONE;
  const keys = Object.keys(o);
  for (const k of forced) if (o[k] === undefined && !keys.includes(k)) keys.push(k);
  keys.sort();
  out.put('{');
  let first = true;
  for (const k of keys) {
    const v = o[k];
    if (v === undefined && !forced.includes(k)) continue; // not in the JSON
    if (!first) out.put(',');
    first = false;
    out.put(JSON.stringify(k));
    out.put(':');
    putMember(out, as, k, v);
  }
  out.put('}');
}

function forcedKeys(as: As): readonly string[] {
  return as === As.Top ? FORCED_TOP : as === As.Schedule ? FORCED_SCHEDULE : as === As.Spec ? FORCED_SPEC : NONE;
}

function putMember(out: Sink, as: As, k: string, v: unknown): void {
  switch (as) {
    case As.Top:
      if (k === 'schema' || k === 'tool' || k === 'href') return out.put('""');
      if (k === 'detail') return out.put('{}');
      if (k === 'archives') {
        if (v === undefined) return out.put('[]'); // task.py:711
        if (!Array.isArray(v)) return put(out, v);
        out.put('[');
        for (let i = 0; i < v.length; i++) {
          if (i) out.put(',');
          if (isObject(v[i])) putObject(out, v[i] as Record<string, unknown>, As.Archive);
          else put(out, v[i]);
        }
        return out.put(']');
      }
      if (k === 'schedule')
        return isObject(v)
          ? putObject(out, v, As.Schedule)
          : v === undefined
            ? putObject(out, {}, As.Schedule)
            : put(out, v); // task.py:712
      if (k === 'test') return isObject(v) ? putObject(out, v, As.Test) : put(out, v);
      if (k === 'reference') return isObject(v) ? putObject(out, v, As.Reference) : put(out, v);
      return put(out, v);
    case As.Schedule:
      return k === 'start' || k === 'until' ? out.put('""') : put(out, v);
    case As.Test:
      return k === 'spec' && isObject(v) ? putObject(out, v, As.Spec) : put(out, v);
    case As.Spec:
      return k === 'schema' || k.startsWith('_') ? out.put('""') : put(out, v);
    case As.Archive:
      return k === 'data' && isObject(v) ? putObject(out, v, As.Data) : put(out, v);
    case As.Data:
      return k.startsWith('_') ? out.put('""') : put(out, v);
    case As.Reference:
      // What add_task writes here (task_manager.py:190-199: created-by with the agent's uuid, user-agent and
      // hostname; no local address, agent.py:196) is the same for every task of one agent: one constant. The
      // preview's placeholder names the scheduling address instead, which may differ between an agent's addresses.
      return k === 'psconfig' ? out.put('0') : put(out, v);
    default:
      return put(out, v);
  }
}

// ---- the bucket hash -------------------------------------------------------------------------------------------
// A 32-bit hash of the same blanked value, cheaper than its text: strings hashed as they are (no escaping), an
// object's members summed (so no key sort), forced members added as checksum() writes them. Equal canonical text
// means an equal blanked value, hence an equal hash; unequal values may share a hash, which the text comparison
// in markIdenticalTasks then tells apart.

function hashString(s: string, seed: number): number {
  let h = seed;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h;
}

/** Final mixing (murmur3's), so sums of member hashes do not cancel. */
function mix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return h ^ (h >>> 16);
}

const EMPTY_STRING = hashString('', 0x5f3759df);
const NULL = 0x2c1b3c6d;

function hashValue(v: unknown): number {
  if (typeof v === 'string') return hashString(v, 0x5f3759df);
  if (typeof v === 'number') return Number.isFinite(v) ? hashString(JSON.stringify(v), 0x27d4eb2f) : NULL;
  if (typeof v === 'boolean') return v ? 0x165667b1 : 0x3c6ef372;
  if (v === null || typeof v !== 'object') return NULL;
  if (Array.isArray(v)) {
    let h = 0x61c88647 ^ v.length;
    for (let i = 0; i < v.length; i++) h = mix(Math.imul(h, 31) + hashValue(v[i]));
    return h;
  }
  return hashObject(v as Record<string, unknown>, As.Plain);
}

function hashObject(o: Record<string, unknown>, as: As): number {
  const forced = forcedKeys(as);
  let sum = 0;
  for (const k in o) {
    const v = o[k];
    if (v === undefined || (forced.length && forced.includes(k))) continue;
    sum = (sum + mix(hashString(k, 0x9e3779b9) ^ Math.imul(hashMember(as, k, v), 0x27d4eb2d))) | 0;
  }
  for (const k of forced)
    sum = (sum + mix(hashString(k, 0x9e3779b9) ^ Math.imul(hashMember(as, k, o[k]), 0x27d4eb2d))) | 0;
  return mix(sum ^ 0x7f4a7c15);
}

/** putMember's blanks, as a hash. */
function hashMember(as: As, k: string, v: unknown): number {
  switch (as) {
    case As.Top:
      if (k === 'schema' || k === 'tool' || k === 'href') return EMPTY_STRING;
      if (k === 'detail') return hashObject({}, As.Plain);
      if (k === 'archives') {
        if (v === undefined) return hashValue([]);
        if (!Array.isArray(v)) return hashValue(v);
        let h = 0x61c88647 ^ v.length;
        for (let i = 0; i < v.length; i++) {
          const a: unknown = v[i];
          h = mix(Math.imul(h, 31) + (isObject(a) ? hashObject(a, As.Archive) : hashValue(a)));
        }
        return h;
      }
      if (k === 'schedule')
        return isObject(v) ? hashObject(v, As.Schedule) : v === undefined ? hashObject({}, As.Schedule) : hashValue(v);
      if (k === 'test') return isObject(v) ? hashObject(v, As.Test) : hashValue(v);
      if (k === 'reference') return isObject(v) ? hashObject(v, As.Reference) : hashValue(v);
      return hashValue(v);
    case As.Schedule:
      return k === 'start' || k === 'until' ? EMPTY_STRING : hashValue(v);
    case As.Test:
      return k === 'spec' && isObject(v) ? hashObject(v, As.Spec) : hashValue(v);
    case As.Spec:
      return k === 'schema' || k.startsWith('_') ? EMPTY_STRING : hashValue(v);
    case As.Archive:
      return k === 'data' && isObject(v) ? hashObject(v, As.Data) : hashValue(v);
    case As.Data:
      return k.startsWith('_') ? EMPTY_STRING : hashValue(v);
    case As.Reference:
      return k === 'psconfig' ? NULL : hashValue(v);
    default:
      return hashValue(v);
  }
}

/** The task JSON as checksum() serialises it before hashing (less the agent's constant `reference.psconfig`). */
export function canonicalTask(t: PSchedulerTask): string {
  const out = new TextSink();
  putObject(out, t as unknown as Record<string, unknown>, As.Top);
  return out.text;
}

/** Per template task: the combinations marked identical, and of those, how many had been refused. */
export interface IdenticalCounts {
  identical: Map<string, number>;
  wereRefused: Map<string, number>;
}

/**
 * Marks every combination whose task the agent would skip as identical to an earlier one of the same agent
 * (`identicalTo`), in pSConfig order (the list's order: tasks in template order, each task's combinations in
 * the group's order). Every built task JSON enters the map, refused or not: add_task sees each before anything is
 * posted (commit() posts later), so a duplicate is skipped even when the first is refused, and a duplicate is
 * never posted, so never refused itself: its `error` and `refused` are dropped (the first one carries the
 * refusal; the two differ at most in private values). So a marked combination never has `error`.
 */
export function markIdenticalTasks(combinations: readonly ExpandedCombination[]): IdenticalCounts {
  /** By hash of agent + blanked task: the first combinations with that hash (more than one only on a collision). */
  const buckets = new Map<number, ExpandedCombination[]>();
  const texts = new Map<ExpandedCombination, string>(); // canonical text, made only for combinations in a shared bucket
  const textOf = (c: ExpandedCombination): string => {
    let t = texts.get(c);
    if (t === undefined) texts.set(c, (t = canonicalTask(c.pscheduler!)));
    return t;
  };
  const counts: IdenticalCounts = { identical: new Map(), wereRefused: new Map() };
  const add = (m: Map<string, number>, task: string): void => void m.set(task, (m.get(task) ?? 0) + 1);
  for (const c of combinations) {
    if (!c.pscheduler) continue;
    const h = mix(
      hashString(c.agent ?? '', 0x1b873593) ^ hashObject(c.pscheduler as unknown as Record<string, unknown>, As.Top),
    );
    const bucket = buckets.get(h);
    if (!bucket) {
      buckets.set(h, [c]);
      continue;
    }
    const first = bucket.find((f) => (f.agent ?? '') === (c.agent ?? '') && textOf(f) === textOf(c));
    if (!first) {
      bucket.push(c); // a collision of the hash: a different task
      continue;
    }
    c.identicalTo = { task: first.task, addresses: first.addresses, addressValues: first.addressValues };
    add(counts.identical, c.task);
    if (c.refused) {
      delete c.error;
      delete c.refused;
      add(counts.wereRefused, c.task);
    }
  }
  return counts;
}
