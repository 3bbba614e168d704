// `_meta` inside an archive's `data` (or a test's `spec`, a context's `data`) moved up one level, next to
// `archiver`/`type`/`context`: pSConfig removes `_meta` only there (psconfig task_generator.py _pscheduler_prep),
// so inside `data` it reaches pScheduler, whose plug-in refuses it (the official skeleton, perfsonar/psconfig
// doc/skeleton.json, does exactly this). When the owner already has a `_meta` object, the members are merged into
// it; a key both hold with different values is left to the user (no fix), never overwritten.
import { firstMember, keyName, toValue, type JsonNode } from '../parse';
import {
  childStyle,
  movedMember,
  objectStyle,
  objectText,
  renderMember,
  rewriteMembers,
  type MemberItem,
  type TextEditOffsets,
} from './json-text';

/** The containers whose `_meta` pSConfig does not remove, by the key of the member holding them. */
const CONTAINERS = new Set(['data', 'spec']);

/** The `_meta` property whose key node is `key`, when it sits directly in a `data`/`spec` object of an object. */
export function metaInContainer(key: JsonNode | undefined): JsonNode | undefined {
  const prop = key?.parent;
  if (key?.type !== 'string' || key.value !== '_meta' || prop?.type !== 'property') return undefined;
  if (prop.children?.[0] !== key || prop.comment) return undefined;
  const holder = prop.parent?.parent;
  if (holder?.type !== 'property' || !CONTAINERS.has(keyName(holder))) return undefined;
  return holder.parent?.type === 'object' ? prop : undefined;
}

export type Outcome = { edits: TextEditOffsets[] } | { reason: string };

/**
 * Edits that give `container` (a `data`/`spec` object) the members `items`, and move the members of `metaProp` (its
 * `_meta`, or undefined) and the `extra` members into the `_meta` of the object holding the container: a new
 * `_meta` right after the container, or the owner's `_meta` object grown. Keys the owner's `_meta` already has are
 * not added again (the same value) or stop the fix (another value).
 */
export function moveMetaUp(
  text: string,
  container: JsonNode,
  items: MemberItem[],
  metaProp: JsonNode | undefined,
  extra: { key: string; value: unknown }[] = [],
): Outcome {
  const holder = container.parent!;
  const owner = holder.parent!;
  const ownerStyle = objectStyle(text, owner);
  const inner = metaProp?.children?.[1];
  const ownerMeta = firstMember(owner, '_meta');
  const edits = rewriteMembers(text, container, items, objectStyle(text, container));
  if (!metaProp && extra.length === 0) return { edits };
  if (inner && inner.type !== 'object' && (ownerMeta || extra.length))
    return { reason: 'the `_meta` inside it is not an object' };

  if (!ownerMeta) {
    let member: string;
    if (metaProp && extra.length === 0) member = movedMember(text, metaProp, ownerStyle.indent);
    else {
      const style = childStyle(ownerStyle);
      const parts = (inner?.children ?? []).map((p) => movedMember(text, p, style.indent));
      for (const e of extra) if (!inner || !firstMember(inner, e.key)) parts.push(renderMember(e.key, e.value, style));
      member = `"_meta"${ownerStyle.colon}${objectText(parts, ownerStyle)}`;
    }
    const ownerItems: MemberItem[] = [];
    for (const p of owner.children ?? []) {
      ownerItems.push({ keep: p });
      if (p === holder) ownerItems.push({ text: member });
    }
    edits.push(...rewriteMembers(text, owner, ownerItems, ownerStyle));
    return { edits };
  }

  const target = ownerMeta.children?.[1];
  if (target?.type !== 'object') return { reason: 'its `_meta` is not an object' };
  const style = objectStyle(text, target, childStyle(ownerStyle));
  const added: string[] = [];
  for (const p of inner?.children ?? []) {
    const there = p.comment ? undefined : firstMember(target, keyName(p));
    if (!there) added.push(movedMember(text, p, style.indent));
    else if (JSON.stringify(toValue(there.children?.[1])) !== JSON.stringify(toValue(p.children?.[1])))
      return { reason: `\`_meta.${keyName(p)}\` is set inside and outside with different values` };
  }
  for (const e of extra)
    if (!firstMember(target, e.key) && !(inner && firstMember(inner, e.key)))
      added.push(renderMember(e.key, e.value, style));
  if (added.length)
    edits.push(
      ...rewriteMembers(
        text,
        target,
        [...(target.children ?? []).map((keep) => ({ keep })), ...added.map((t) => ({ text: t }))],
        style,
      ),
    );
  return { edits };
}

/** The fix for a `_meta` member of a `data`/`spec` object: the container without it, the owner with it. */
export function metaUpFix(text: string, metaProp: JsonNode): Outcome {
  const container = metaProp.parent!;
  const items = (container.children ?? []).filter((p) => p !== metaProp).map((keep) => ({ keep }));
  return moveMetaUp(text, container, items, metaProp);
}
