// Allocation-free reads of object nodes as pScheduler's json_load sees them (`#` keys dropped, the last of
// duplicate keys kept). The checks run on every spec of a large template per keystroke: no Maps per object.
import type { JsonNodeType } from '../parse';

/**
 * What the checks read of a node: the parse tree's NodeLike views satisfy it, and so do the stand-ins for what a
 * template variable becomes (a candidate string checked in the variable's place).
 */
export interface NodeLike {
  readonly type: JsonNodeType;
  readonly offset: number;
  readonly length: number;
  readonly value?: string | number | boolean | null | undefined;
  readonly children?: readonly NodeLike[] | undefined;
  readonly parent?: NodeLike | undefined;
  readonly comment?: boolean | undefined;
}

/** The property node of `key` (the last one, as Python's json keeps), or undefined. */
export function memberProp<N extends NodeLike>(obj: N | undefined, key: string): N | undefined {
  const kids = obj?.type === 'object' ? obj.children : undefined;
  if (!kids) return undefined;
  for (let i = kids.length - 1; i >= 0; i--) {
    const p = kids[i].children;
    if (p && p[1] && p[0].value === key) return kids[i] as N;
  }
  return undefined;
}

/** The value node of `key`, or undefined. */
export function memberValue<N extends NodeLike>(obj: N | undefined, key: string): N | undefined {
  return memberProp(obj, key)?.children?.[1] as N | undefined;
}

/** Calls fn for each effective property (no comments, no incomplete ones, only the last of duplicates). */
export function forEachMember(obj: NodeLike, fn: (key: string, prop: NodeLike) => void): void {
  const kids = obj.children;
  if (!kids) return;
  if (kids.length > 64) {
    // large objects: one pass from the end instead of a scan per key
    const seen = new Set<string>();
    const keep: [string, NodeLike][] = [];
    for (let i = kids.length - 1; i >= 0; i--) {
      const p = kids[i].children;
      if (kids[i].comment || !p || !p[1] || seen.has(p[0].value as string)) continue;
      seen.add(p[0].value as string);
      keep.push([p[0].value as string, kids[i]]);
    }
    for (let i = keep.length - 1; i >= 0; i--) fn(keep[i][0], keep[i][1]);
    return;
  }
  for (let i = 0; i < kids.length; i++) {
    const prop = kids[i];
    const p = prop.children;
    if (prop.comment || !p || !p[1]) continue;
    const key = p[0].value as string;
    let later = false;
    for (let j = i + 1; j < kids.length && !later; j++)
      later = kids[j].children?.[0]?.value === key && !!kids[j].children?.[1];
    if (!later) fn(key, prop);
  }
}

/** The keys fn would see, as an array (for the few places that need a list). */
export function memberKeys(obj: NodeLike): string[] {
  const out: string[] = [];
  forEachMember(obj, (k) => out.push(k));
  return out;
}
