// Completion on the last parsed version of a document while the user types inside one string value.
// Parsing a 1.6 MB template takes 0.3-3 s; typing in a reference string does not change the JSON structure,
// only that string's content, so the previous parse still says which slot the cursor is in and which names it
// offers. Only the offsets after the edit move: they are mapped through the edited region.
import type { EditedRegion } from '../incremental';
import { nodeAtOffset, nodePath, type JsonNode } from '../parse';
import { completeAt, type NavCompletionResult } from './completion';
import { analyseTemplate, type TemplateModel } from '../model';

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
  return inCurrentText(nav, region);
}

/** Above this many characters, the stretch an edit re-shaped is not checked here (the caller re-parses). */
const MAX_STRETCH_CHARS = 64 * 1024;

/** The top-level section a kind of name is defined in (symbols.ts: labels and remote addresses inside addresses). */
function sectionOfNames(kind: string): string {
  return kind === 'labels' || kind === 'remote-addresses' ? 'addresses' : kind;
}

/**
 * Name completion at `offset` of the current text, answered from `model` (the parsed version) when the cursor is
 * outside the one edited region and the edit changed neither where the cursor is nor the names offered there:
 *
 * - the parsed version had no syntax error, and the edit replaced whole members of one object or array below the
 *   top level with others: the members it touched (and their neighbours, for the commas), read from the current
 *   text, still form a valid member list (JSON.parse of it, braced). Then the current text is valid JSON whose
 *   tree outside that stretch is the parsed one's, only moved by the edit's length;
 * - nothing between the cursor's token and that container touches the edit (its key, its property);
 * - that container is not in the section the offered names come from (a group slot reads `groups`: an edit inside
 *   `tasks` leaves its names and their details alone), and when it holds the cursor, the slot does not read the
 *   cursor's siblings (the selector and filter slots of `groups` and `address-classes` do: a `label` slot offers
 *   the labels of its sibling `name`).
 *
 * `read(from, to)` gives the current text [from, to) (the document reads it through its edits, copying nothing
 * else). Undefined whenever that does not hold: the caller analyses the current text instead.
 */
export function completeOutsideEdit(
  model: TemplateModel,
  region: EditedRegion,
  read: (from: number, to: number) => string,
  offset: number,
): NavCompletionResult | undefined {
  const parsed = model.parsed;
  const { lo, hiOld, hiNew } = region;
  const delta = hiNew - hiOld;
  if (parsed.approximate || parsed.syntaxErrors.length > 0 || !parsed.root) return undefined;
  // The innermost container whose brackets the edit left alone: opening bracket before lo, closing one at or
  // after hiOld (the edit removed [lo, hiOld)).
  let container = nodeAtOffset(parsed.root, lo, true);
  while (
    container &&
    !(
      (container.type === 'object' || container.type === 'array') &&
      container.offset < lo &&
      hiOld <= container.offset + container.length - 1
    )
  )
    container = container.parent;
  if (!container || container === parsed.root) return undefined;
  // Its section: the key of the top-level member holding it.
  let top = container;
  while (top.parent && top.parent !== parsed.root) top = top.parent;
  const section = top.type === 'property' ? top.children?.[0]?.value : undefined;
  if (typeof section !== 'string') return undefined;
  // The stretch of members the edit touched, widened to the neighbouring member on each side (or the brackets).
  const members = container.children ?? [];
  let from = container.offset + 1;
  let toOld = container.offset + container.length - 1;
  for (const m of members) {
    if (m.offset < lo) from = m.offset;
    if (m.offset + m.length > hiOld) {
      toOld = m.offset + m.length;
      break;
    }
  }
  if (toOld - from > MAX_STRETCH_CHARS || toOld + delta - from > MAX_STRETCH_CHARS) return undefined;
  const [open, close] = container.type === 'object' ? ['{', '}'] : ['[', ']'];
  try {
    JSON.parse(open + model.text.slice(from, toOld) + close);
    JSON.parse(open + read(from, toOld + delta) + close);
  } catch {
    return undefined;
  }
  const toNew = toOld + delta;
  if (from < offset && offset < toNew)
    return completeInStretch(model, container, section, read(from, toNew), from, offset);
  if (offset >= lo && offset <= hiNew) return undefined;
  const at = toParsed(region, offset);
  const holdsCursor = container.offset < at && at < container.offset + container.length;
  if (holdsCursor && (section === 'groups' || section === 'address-classes')) return undefined;
  // Nothing from the cursor's token up to the container may touch the edit (a renamed key changes the slot).
  const cEnd = container.offset + container.length;
  for (let n = nodeAtOffset(parsed.root, at, true); n; n = n.parent) {
    if (n.offset <= container.offset && cEnd <= n.offset + n.length) break;
    if (n.offset <= hiOld && lo <= n.offset + n.length) return undefined;
  }
  const nav = completeAt(model, at);
  // Only name slots (completion.ts `names`: the candidate list of one kind, `reuse` set) are known to read
  // nothing but their path and that kind's definitions.
  const kind = nav.items[0]?.kind;
  if (nav.context !== 'reference' || !nav.reuse || kind === undefined) return undefined;
  if (sectionOfNames(kind) === section) return undefined;
  return inCurrentText(nav, region);
}

/**
 * completeOutsideEdit with the cursor in the stretch of members the edit re-shaped (a paste, the cursor in it): that
 * stretch alone is parsed, nested in its container's path (`{"tasks":{` … `}}`), so the cursor's slot is what the
 * whole current text would give; the names come from the previous version's model (the section they are defined
 * in is not the edited one). Slots of `groups` and `address-classes` read the cursor's siblings, which the stretch
 * may not hold: refused there.
 */
function completeInStretch(
  model: TemplateModel,
  container: JsonNode,
  section: string,
  stretch: string,
  from: number,
  offset: number,
): NavCompletionResult | undefined {
  if (section === 'groups' || section === 'address-classes') return undefined;
  let prefix = '';
  let suffix = '';
  for (const seg of nodePath(container)) {
    // An array item's index only counts as "an index" for the slots (reference-slots.ts): the first one will do.
    prefix += typeof seg === 'number' ? '[' : `{${JSON.stringify(seg)}:`;
    suffix = (typeof seg === 'number' ? ']' : '}') + suffix;
  }
  const [open, close] = container.type === 'object' ? ['{', '}'] : ['[', ']'];
  const shift = prefix.length + 1 - from;
  const small = analyseTemplate(prefix + open + stretch + close + suffix);
  let nav: NavCompletionResult;
  try {
    nav = completeAt(small, offset + shift, model);
  } finally {
    // Its tree storage may be a pooled multi-megabyte buffer (tree.ts takes any that fits): give it back, or the
    // next re-parse of the document faults in fresh pages for its own.
    small.parsed.tree.release();
  }
  const kind = nav.items[0]?.kind;
  if (nav.context !== 'reference' || !nav.reuse || kind === undefined || sectionOfNames(kind) === section)
    return undefined;
  return {
    ...nav,
    items: nav.items.map((item) => ({
      ...item,
      replaceStart: item.replaceStart - shift,
      replaceEnd: item.replaceEnd - shift,
    })),
  };
}

/** The answer of the previous parse with its replace ranges moved into the current text (none if one fell in the edit). */
function inCurrentText(nav: NavCompletionResult, region: EditedRegion): NavCompletionResult | undefined {
  const items = [];
  for (const item of nav.items) {
    const replaceStart = toCurrent(region, item.replaceStart);
    const replaceEnd = toCurrent(region, item.replaceEnd, 'end');
    if (replaceStart === undefined || replaceEnd === undefined) return undefined;
    items.push({ ...item, replaceStart, replaceEnd });
  }
  return { ...nav, items };
}
