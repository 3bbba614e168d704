// Shape checks on what an archive returns, where the interface fixes a shape (seed 001, reference esmond.md §1a):
// a metadata object's `event-types` is a list of objects with a string `event-type`, and so on. An object that fails
// is dropped with a warning naming the archive URL, the object and the field, instead of crashing whatever reads it
// later (`map is not a function`). Fields the interface leaves free (parameters) are not checked.
import { isObject } from '../common/json';
import { pluralPlain } from '../common/text';

function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'string') return 'a string';
  return `a ${typeof v}`;
}

/** Subject and identity fields other code reads as text. */
const STRING_FIELDS = [
  'metadata-key',
  'subject-type',
  'source',
  'destination',
  'measurement-agent',
  'input-source',
  'input-destination',
  'tool-name',
  'uri',
  'url',
];

/** What is wrong with one metadata object (field and what it was), or undefined when its shape is right. */
export function metadataProblem(m: unknown): string | undefined {
  if (!isObject(m)) return `is ${kindOf(m)}, not a metadata object`;
  for (const f of STRING_FIELDS)
    if (m[f] !== undefined && typeof m[f] !== 'string') return `\`${f}\` is ${kindOf(m[f])}, not a string`;
  const total = m['metadata-count-total'];
  if (total !== undefined && typeof total !== 'number')
    return `\`metadata-count-total\` is ${kindOf(total)}, not a number`;
  const next = m['metadata-next-page'];
  if (next !== undefined && next !== null && typeof next !== 'string')
    return `\`metadata-next-page\` is ${kindOf(next)}, not a string or null`;
  const ets = m['event-types'];
  if (ets === undefined) return undefined;
  if (!Array.isArray(ets)) return `\`event-types\` is ${kindOf(ets)}, not a list`;
  for (let i = 0; i < ets.length; i++) {
    const et: unknown = ets[i];
    const at = `\`event-types[${i}]\``;
    if (!isObject(et)) return `${at} is ${kindOf(et)}, not an object`;
    if (typeof et['event-type'] !== 'string')
      return `${at}.\`event-type\` is ${kindOf(et['event-type'])}, not a string`;
    if (et['base-uri'] !== undefined && typeof et['base-uri'] !== 'string')
      return `${at}.\`base-uri\` is ${kindOf(et['base-uri'])}, not a string`;
    const t = et['time-updated'];
    if (t !== undefined && t !== null && typeof t !== 'number' && typeof t !== 'string')
      return `${at}.\`time-updated\` is ${kindOf(t)}, not a number`;
    const sums = et.summaries;
    if (sums === undefined || sums === null) continue;
    if (!Array.isArray(sums)) return `${at}.\`summaries\` is ${kindOf(sums)}, not a list`;
    for (let j = 0; j < sums.length; j++) {
      const s: unknown = sums[j];
      const sat = `${at}.\`summaries[${j}]\``;
      if (!isObject(s)) return `${sat} is ${kindOf(s)}, not an object`;
      if (typeof s['summary-type'] !== 'string')
        return `${sat}.\`summary-type\` is ${kindOf(s['summary-type'])}, not a string`;
      const w = s['summary-window'];
      if (typeof w !== 'string' && typeof w !== 'number')
        return `${sat}.\`summary-window\` is ${kindOf(w)}, not a number`;
      if (s.uri !== undefined && typeof s.uri !== 'string') return `${sat}.\`uri\` is ${kindOf(s.uri)}, not a string`;
    }
  }
  return undefined;
}

/** What is wrong with one point (`{ts, val}` with a numeric ts), or undefined. */
export function pointProblem(p: unknown): string | undefined {
  if (!isObject(p)) return `is ${kindOf(p)}, not a point object`;
  const ts = p.ts;
  if (
    typeof ts === 'number'
      ? !Number.isFinite(ts)
      : typeof ts !== 'string' || !Number.isFinite(Number(ts)) || ts.trim() === ''
  )
    return `\`ts\` is ${typeof ts === 'number' ? String(ts) : kindOf(ts)}, not a timestamp`;
  if (!('val' in p)) return '`val` is missing';
  return undefined;
}

/** The items of a list that have the right shape, and one warning for those dropped (count and the first problem). */
export function checkedItems<T>(
  items: unknown[],
  problemOf: (item: unknown) => string | undefined,
  noun: string,
  url: string,
): { items: T[]; warning?: string } {
  const out: T[] = [];
  let dropped = 0;
  let first: string | undefined;
  items.forEach((item, i) => {
    const problem = problemOf(item);
    if (problem === undefined) {
      out.push(item as T);
      return;
    }
    dropped++;
    if (first === undefined) {
      const key = isObject(item) && typeof item['metadata-key'] === 'string' ? ` (key ${item['metadata-key']})` : '';
      first = `${noun} ${i}${key} ${problem}`;
    }
  });
  if (!dropped) return { items: out };
  return {
    items: out,
    warning: `${url}: ${pluralPlain(dropped, noun)} of the wrong shape left out; ${first}`,
  };
}
