// Small helpers for plain JSON values (parsed text, task JSON, answers from a server), shared by every part of the
// product. Pure, no imports.

/**
 * A JSON object: not null, not an array. `T` names what the caller's JSON objects are (the expansion's
 * `JsonObject`, whose members are JSON values); the check is the same.
 */
export function isObject<T extends object = Record<string, unknown>>(v: unknown): v is T {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * A JSON value in a message: a string or a number as `String()` writes it, anything else as JSON text (`String()`
 * would print an object as "[object Object]" and an array without its brackets); `undefined` as "undefined".
 */
export function jsonText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  return JSON.stringify(v) ?? 'undefined';
}
