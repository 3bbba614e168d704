// Which parts of a task's JSON differ between two versions, with the old and new value of each: the test type,
// each key of the test spec, then every other top-level member as a whole (archives, contexts, schedule, tools,
// priority, reference). The `psconfig` member of the reference is the agent's own (task_generator.py sets
// `reference.psconfig.created-by` on every task it builds): it says nothing about the template and is left out.
import type { PSchedulerTask, TaskDiffPart } from '../../../../common/protocol';
import { jsonEqual } from './json-equal';
import { isObject } from '../../../../common/json';

type Obj = Record<string, unknown>;

/**
 * pSConfig's agent blanks `_`-prefixed spec fields before it compares a task with the ones pScheduler runs
 * (task.py `Task.checksum`), so a change to one alone does not replace the running task; the agent posts the new
 * value when it renews the task near its `until` (task_manager.py `_evaluate_task`).
 */
export const PRIVATE_SPEC_NOTE =
  "pSConfig's agent ignores private (_) spec fields when it compares tasks: hosts keep the running task and get the new value when the agent renews it";

/** The reference without the agent's `psconfig` block, or undefined when nothing else is in it. */
function userReference(v: unknown): unknown {
  if (!isObject(v)) return v;
  if (!('psconfig' in v)) return v;
  const { psconfig: _agent, ...rest } = v;
  return Object.keys(rest).length ? rest : undefined;
}

function part(name: string, a: unknown, b: unknown): TaskDiffPart {
  const p: TaskDiffPart = { part: name };
  if (a !== undefined) p.old = a;
  if (b !== undefined) p.new = b;
  return p;
}

/** Keys of `a` in order, then the keys only `b` has. */
function unionKeys(a: Obj, b: Obj): string[] {
  const keys = Object.keys(a);
  for (const k of Object.keys(b)) if (!Object.prototype.hasOwnProperty.call(a, k)) keys.push(k);
  return keys;
}

function testParts(a: unknown, b: unknown, out: TaskDiffPart[]): void {
  if (!isObject(a) || !isObject(b)) {
    if (!jsonEqual(a, b)) out.push(part('test', a, b));
    return;
  }
  for (const k of unionKeys(a, b)) {
    if (k === 'spec' && isObject(a.spec) && isObject(b.spec)) {
      for (const s of unionKeys(a.spec, b.spec)) {
        if (jsonEqual(a.spec[s], b.spec[s])) continue;
        const p = part(`test.spec.${s}`, a.spec[s], b.spec[s]);
        if (s.startsWith('_')) p.note = PRIVATE_SPEC_NOTE;
        out.push(p);
      }
    } else if (!jsonEqual(a[k], b[k])) out.push(part(`test.${k}`, a[k], b[k]));
  }
}

/** The parts that differ (empty: the same task). */
export function taskParts(a: PSchedulerTask, b: PSchedulerTask): TaskDiffPart[] {
  const out: TaskDiffPart[] = [];
  const x = a as unknown as Obj;
  const y = b as unknown as Obj;
  for (const k of unionKeys(x, y)) {
    if (k === 'test') testParts(x.test, y.test, out);
    else if (k === 'reference') {
      const ra = userReference(x.reference);
      const rb = userReference(y.reference);
      if (!jsonEqual(ra, rb)) out.push(part('reference', ra, rb));
    } else if (!jsonEqual(x[k], y[k])) out.push(part(k, x[k], y[k]));
  }
  return out;
}
