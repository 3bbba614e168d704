// Completion on the last parsed version of a document while the user types inside one string value.
// Parsing a 1.6 MB template takes 0.3-3 s; typing in a reference string does not change the JSON structure,
// only that string's content, so the previous parse still says which slot the cursor is in and which names it
// offers. Only the offsets after the edit move: they are mapped through the edited region.
import type { EditedRegion } from '../incremental';
import { nodeAtOffset } from '../parse';
import { completeAt, type NavCompletionResult } from './completion';
import type { TemplateModel } from '../model';

export type { EditedRegion } from '../incremental';
export { extendRegion } from '../incremental';

/**
 * A parsed-version offset in the current text, or undefined inside the edited region. At a pure insertion point
 * (lo = hiOld) the offset is ambiguous: a range start stays before the inserted text, a range end goes after it.
 */
export function toCurrent(region: EditedRegion, offset: number, side: 'start' | 'end' = 'start'): number | undefined {
  const shifted = offset >= region.hiOld ? offset + (region.hiNew - region.hiOld) : undefined;
  if (side === 'end' && shifted !== undefined) return shifted;
  if (offset <= region.lo) return offset;
  return shifted;
}

/** A current offset in the parsed version (inside the edited region: its start). */
export function toParsed(region: EditedRegion, offset: number): number {
  if (offset <= region.lo) return offset;
  if (offset >= region.hiNew) return offset - (region.hiNew - region.hiOld);
  return region.lo;
}

/** Characters that may change the structure or the kind of completion (quotes, escapes, variables, lines). */
// eslint-disable-next-line no-control-regex -- control characters (line breaks among them) change the structure
const STRUCTURAL = /["\\{}%\u0000-\u001f]/;

/**
 * Name completion at `offset` of the current text, answered from `model` (the parsed version) when the only
 * edit since is text typed inside one closed string value (not a key, not a `type`). Undefined when that does
 * not hold or the position is not a name slot: the caller parses the current text instead.
 */
export function completeInEditedText(
  model: TemplateModel,
  region: EditedRegion,
  inserted: string,
  offset: number,
): NavCompletionResult | undefined {
  if (STRUCTURAL.test(inserted) || STRUCTURAL.test(model.text.slice(region.lo, region.hiOld))) return undefined;
  const edited = nodeAtOffset(model.parsed.root, region.lo, true);
  if (!edited || edited.type !== 'string') return undefined;
  const close = edited.offset + edited.length - 1;
  if (!(edited.offset < region.lo && region.hiOld <= close && model.text.charCodeAt(close) === 34)) return undefined;
  const property = edited.parent;
  if (property?.type !== 'property' || property.children?.[1] !== edited) {
    // Array items are values too; a key names a definition, whose list of names the edit changes.
    if (property?.type !== 'array') return undefined;
  } else if (property.children?.[0]?.value === 'type') return undefined;
  const nav = completeAt(model, toParsed(region, offset));
  if (nav.context !== 'reference') return undefined;
  const items = [];
  for (const item of nav.items) {
    const replaceStart = toCurrent(region, item.replaceStart);
    const replaceEnd = toCurrent(region, item.replaceEnd, 'end');
    if (replaceStart === undefined || replaceEnd === undefined) return undefined;
    items.push({ ...item, replaceStart, replaceEnd });
  }
  return { ...nav, items };
}
