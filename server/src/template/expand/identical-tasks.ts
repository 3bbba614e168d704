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
// sorted keys and hashed. TaskCanonicalizer.task below writes that same blanked value with sorted keys: two tasks have equal
// canonical strings exactly when their blanked values are equal as JSON (object key order aside, list order kept),
// which is exactly when json.dumps(sort_keys=True) gives equal text, so when the md5 is equal (a collision of md5
// aside, which would merge two different tasks upstream). Not reproduced: Python keeps 1 and 1.0 apart where
// JavaScript's JSON.parse has already made them one number; and an agent's host that matches several of the
// template's addresses runs one TaskManager for all of them, while the preview groups by the scheduling address.
import type { ExpandedCombination, PSchedulerTask } from '../../../../common/protocol';

// The one wording of a duplicate and the "created" test (common/protocol.ts), for the CLI, which imports no protocol.
export { identicalText, isCreated } from '../../../../common/protocol';

/** Top-level keys checksum() always writes, whatever the task has. */
const FORCED_TOP = ['archives', 'detail', 'href', 'schedule', 'schema', 'tool'];
const FORCED_SCHEDULE = ['start', 'until'];
const FORCED_SPEC = ['schema'];
const NONE: string[] = [];

/**
 * The canonical strings of task JSON by checksum()'s rule. One instance per pass: parts shared between
 * combinations (a constant schedule, archive or reference object) are written once, keyed by the object.
 */
export class TaskCanonicalizer {
  private readonly plain = new WeakMap<object, string>();
  private readonly specs = new WeakMap<object, string>();
  private readonly data = new WeakMap<object, string>();
  private readonly archives = new WeakMap<object, string>();

  /** The task's checksum text, less the psconfig block of `reference` (constant within one agent). */
  task(t: PSchedulerTask): string {
    const o = t as unknown as Record<string, unknown>;
    return this.object(o, FORCED_TOP, (k, v) => {
      switch (k) {
        case 'schema':
        case 'tool':
        case 'href':
          return '""';
        case 'detail':
          return '{}';
        case 'archives':
          return v === undefined
            ? '[]'
            : Array.isArray(v)
              ? `[${v.map((a) => this.archive(a)).join(',')}]`
              : this.value(v);
        case 'schedule':
          return this.schedule(v === undefined ? {} : v);
        case 'test':
          return this.test(v);
        case 'reference':
          return this.reference(v);
        default:
          return this.value(v);
      }
    });
  }

  /** Any JSON value with its objects' keys sorted. */
  value(v: unknown): string {
    if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
    let s = this.plain.get(v);
    if (s === undefined) {
      s = Array.isArray(v)
        ? `[${v.map((x) => this.value(x)).join(',')}]`
        : this.object(v as Record<string, unknown>, NONE, (_k, x) => this.value(x));
      this.plain.set(v, s);
    }
    return s;
  }

  /** `{"k":v,...}` with the keys of `o` and `forced` sorted; `member` writes each value (undefined: not in `o`). */
  private object(
    o: Record<string, unknown>,
    forced: readonly string[],
    member: (k: string, v: unknown) => string,
  ): string {
    const keys = Object.keys(o).filter((k) => o[k] !== undefined);
    for (const k of forced) if (o[k] === undefined) keys.push(k);
    keys.sort();
    let s = '{';
    for (let i = 0; i < keys.length; i++) {
      if (i) s += ',';
      s += `${JSON.stringify(keys[i])}:${member(keys[i], o[keys[i]])}`;
    }
    return `${s}}`;
  }

  /** A member of `spec` or archive `data`: a private key's value is '' (task.py:722-729). */
  private privateBlanked(o: unknown, forced: readonly string[], cache: WeakMap<object, string>): string {
    if (o === null || typeof o !== 'object' || Array.isArray(o)) return this.value(o);
    let s = cache.get(o);
    if (s === undefined) {
      s = this.object(o as Record<string, unknown>, forced, (k, v) =>
        k.startsWith('_') || forced.includes(k) ? '""' : this.value(v),
      );
      cache.set(o, s);
    }
    return s;
  }

  private schedule(v: unknown): string {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return this.value(v);
    return this.object(v as Record<string, unknown>, FORCED_SCHEDULE, (k, x) =>
      k === 'start' || k === 'until' ? '""' : this.value(x),
    );
  }

  private test(v: unknown): string {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return this.value(v);
    return this.object(v as Record<string, unknown>, NONE, (k, x) =>
      k === 'spec' ? this.privateBlanked(x, FORCED_SPEC, this.specs) : this.value(x),
    );
  }

  private archive(a: unknown): string {
    if (a === null || typeof a !== 'object' || Array.isArray(a)) return this.value(a);
    let s = this.archives.get(a);
    if (s === undefined) {
      s = this.object(a as Record<string, unknown>, NONE, (k, x) =>
        k === 'data' ? this.privateBlanked(x, NONE, this.data) : this.value(x),
      );
      this.archives.set(a, s);
    }
    return s;
  }

  /**
   * `reference.psconfig` is what add_task writes there (task_manager.py:190-199: created-by with the agent's uuid,
   * user-agent and hostname, no local address from agent.py:196): the same for every task of one agent, so it is
   * written as one constant. The preview's placeholder names the scheduling address instead, which may differ
   * between the addresses of one agent.
   */
  private reference(v: unknown): string {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return this.value(v);
    return this.object(v as Record<string, unknown>, NONE, (k, x) => (k === 'psconfig' ? '0' : this.value(x)));
  }
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
  const canonical = new TaskCanonicalizer();
  const firstOf = new Map<string, ExpandedCombination>();
  const counts: IdenticalCounts = { identical: new Map(), wereRefused: new Map() };
  const add = (m: Map<string, number>, task: string): void => void m.set(task, (m.get(task) ?? 0) + 1);
  for (const c of combinations) {
    if (!c.pscheduler) continue;
    const key = `${c.agent ?? ''}\u0000${canonical.task(c.pscheduler)}`;
    const first = firstOf.get(key);
    if (!first) {
      firstOf.set(key, c);
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
