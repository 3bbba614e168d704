// Equality of two JSON values as pSConfig's agent compares tasks: by canonical JSON with sorted keys
// (perfsonar/psconfig psconfig/perfsonar-psconfig/psconfig/client/pscheduler/task.py `Task.checksum`,
// `json.dumps(..., sort_keys=True)`), so the order of an object's keys never makes two tasks differ. Walked
// directly instead of serialising both sides: a 39,800-task mesh compares every task once per diff.

export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const arrayA = Array.isArray(a);
  if (arrayA !== Array.isArray(b)) return false;
  if (arrayA) {
    const x = a as unknown[];
    const y = b as unknown[];
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (!jsonEqual(x[i], y[i])) return false;
    return true;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let count = 0;
  for (const k in x) {
    if (!Object.prototype.hasOwnProperty.call(x, k)) continue;
    count++;
    if (!Object.prototype.hasOwnProperty.call(y, k) || !jsonEqual(x[k], y[k])) return false;
  }
  for (const k in y) if (Object.prototype.hasOwnProperty.call(y, k)) count--;
  return count === 0;
}
