// Completion of names at reference positions and of `{% %}` variables, as plain offset-based items.
// Positions that are neither are left to schema completion (the LSP layer asks the JSON language service).
import type { TemplateModel } from '../model';
import { nodeAtOffset, nodePath, type JsonNode, type JsonPath } from '../parse';
import { NAME_PATTERN, type SymbolKind } from '../symbols';
import { expandedOwner, meaningOf, validIndexCount, VARIABLES } from '../variable-table';
import { singular as sectionSingular } from '../schema/describe';
import { summaryOf } from './summary';
import { keySlotAt, labelsOfAddress, valueSlotAt, type ReferenceSlot } from './reference-slots';
import type { NavCompletionItem, NavCompletionResult } from './completion-items';
import { completeInPayload, completePayloadString } from './pscheduler-completion';
import { completeReference } from './reference-completion';

export type { NavCompletionItem, NavCompletionResult } from './completion-items';

const NONE: NavCompletionResult = { context: 'none', items: [] };

/**
 * Completion at `offset` of `model`'s text. The names a name slot offers come from `namesFrom` (default: the same
 * model); edited-text.ts passes the previous version's model with a small parse of an edited stretch.
 */
export function completeAt(
  model: TemplateModel,
  offset: number,
  namesFrom: TemplateModel = model,
): NavCompletionResult {
  const root = model.parsed.root;
  const node = nodeAtOffset(root, offset, true);
  if (!node) return NONE;
  if (node.type === 'string') {
    const inside = offset > node.offset && (offset < node.offset + node.length || !closed(model.text, node));
    if (inside) return completeInString(model, node, offset, namesFrom);
    // Right before a key's opening quote (a spec's `{|"dest"`): a new key of a spec / data goes there.
    const prop = node.parent;
    if (offset === node.offset && prop?.type === 'property' && prop.children?.[0] === node && prop.parent)
      return completeInPayload(model, prop.parent, offset) ?? NONE;
    return NONE;
  }
  // Between tokens: an array item or a property value not written yet.
  if (node.type === 'array') {
    const path = nodePath(node);
    const index = (node.children ?? []).filter((c) => c.offset + c.length <= offset).length;
    const slot = valueSlotAt([...path, index], undefined);
    return slot ? names(namesFrom, slot, offset, offset, true) : (completeInPayload(model, node, offset) ?? NONE);
  }
  if (node.type === 'property' && node.colonOffset !== undefined && offset > node.colonOffset) {
    const value = node.children?.[1];
    if (value && offset > value.offset) return NONE;
    const key = node.children?.[0];
    if (typeof key?.value !== 'string' || !node.parent) return NONE;
    const slot = valueSlotAt([...nodePath(node.parent), key.value], node.parent);
    return slot
      ? names(namesFrom, slot, offset, offset, true)
      : (completeInPayload(model, node, offset) ?? completeReference(model, node, offset) ?? NONE);
  }
  // Inside a spec / data or a test / archive / context object, between tokens or on a literal; a task's reference.
  return completeInPayload(model, node, offset) ?? completeReference(model, node, offset) ?? NONE;
}

/** A string token whose closing quote is really there (the tolerant parser ends unterminated ones at the line end). */
function closed(text: string, node: JsonNode): boolean {
  const end = node.offset + node.length - 1;
  return node.length >= 2 && text.charCodeAt(end) === 34 && text.charCodeAt(end - 1) !== 92;
}

function completeInString(
  model: TemplateModel,
  node: JsonNode,
  offset: number,
  namesFrom: TemplateModel,
): NavCompletionResult {
  const start = node.offset + 1;
  const end = closed(model.text, node) ? node.offset + node.length - 1 : node.offset + node.length;
  const parent = node.parent;
  if (parent?.type === 'property' && parent.children?.[0] === node) {
    // A key: only remote-addresses keys name something.
    const slot = parent.parent ? keySlotAt(nodePath(parent.parent)) : undefined;
    if (slot) return names(namesFrom, slot, start, end, false);
    return completePayloadString(model, node, offset, start, end) ?? completeReference(model, node, offset) ?? NONE;
  }
  const path = nodePath(node);
  const holder = parent?.type === 'property' ? parent.parent : undefined;
  const slot = valueSlotAt(path, holder);
  if (slot) return names(namesFrom, slot, start, end, false);
  const variable = completeVariable(model, path, start, end, offset);
  if (variable.context !== 'none') return variable;
  return completePayloadString(model, node, offset, start, end) ?? completeReference(model, node, offset) ?? NONE;
}

interface NameEntry {
  label: string;
  detail: string;
  sortText: string;
  escaped: string;
}

/** Candidate lists per model (one per document version) and slot: large templates offer thousands of names. */
const nameCache = new WeakMap<TemplateModel, Map<string, NameEntry[]>>();

function candidates(model: TemplateModel, slot: ReferenceSlot): NameEntry[] {
  let perModel = nameCache.get(model);
  if (!perModel) nameCache.set(model, (perModel = new Map<string, NameEntry[]>()));
  const key = `${slot.kind}\u0000${slot.address ?? ''}`;
  let list = perModel.get(key);
  if (list) return list;
  const idx = model.index;
  let names: string[];
  let detailOf: (name: string) => string;
  if (slot.kind === 'labels') {
    names = slot.address !== undefined ? labelsOfAddress(model.parsed.root, slot.address) : idx.namesIn('labels');
    const detail = slot.address !== undefined ? `label of ${slot.address}` : 'address label';
    detailOf = () => detail;
  } else {
    names = idx.namesIn(slot.kind);
    const kind = slot.kind;
    detailOf = (name) => nameDetail(model, kind, name);
  }
  // Names outside the pattern cannot be referenced from a validated field; still offered (real templates use them), last.
  list = names.map((name) => ({
    label: name,
    detail: detailOf(name),
    sortText: NAME_PATTERN.test(name) ? `0${name}` : `1${name}`,
    escaped: escapeInString(name),
  }));
  perModel.set(key, list);
  return list;
}

function names(
  model: TemplateModel,
  slot: ReferenceSlot,
  start: number,
  end: number,
  quote: boolean,
): NavCompletionResult {
  const source = candidates(model, slot);
  const items: NavCompletionItem[] = source.map((c) => ({
    label: c.label,
    kind: slot.kind,
    detail: c.detail,
    insertText: quote ? `"${c.escaped}"` : c.escaped,
    replaceStart: start,
    replaceEnd: end,
    sortText: c.sortText,
  }));
  return { context: 'reference', items, reuse: { source, quoted: quote } };
}

/** Completion detail of a name: what it is and its type / address / archiver. */
export function nameDetail(model: TemplateModel, kind: SymbolKind, name: string): string {
  const what = singular(kind);
  const summary = summaryOf(model.index.definitionsOf(kind, name)[0]?.valueNode);
  return summary ? `${what} · ${summary}` : what;
}

function escapeInString(name: string): string {
  return JSON.stringify(name).slice(1, -1);
}

// Section names come from the schema's wording; labels and remote addresses live inside addresses.
const NESTED_SINGULAR: Record<string, string> = { labels: 'label', 'remote-addresses': 'remote address' };
export function singular(kind: SymbolKind): string {
  return NESTED_SINGULAR[kind] ?? sectionSingular(kind);
}

function completeVariable(
  model: TemplateModel,
  path: JsonPath,
  start: number,
  end: number,
  offset: number,
): NavCompletionResult {
  const text = model.text;
  const open = text.lastIndexOf('{%', offset - 1);
  if (open < start || open + 2 > offset) return NONE;
  const closeBefore = text.indexOf('%}', open + 2);
  if (closeBefore !== -1 && closeBefore + 2 <= offset) return NONE;
  const owner = expandedOwner(path);
  // Replace the word being typed: from the first non-blank after `{%` to the end of the name at the cursor.
  let from = open + 2;
  while (from < offset && (text[from] === ' ' || text[from] === '\t')) from++;
  let to = offset;
  while (to < end && /[\w[\]]/.test(text[to])) to++;
  const hasSpace = from > open + 2;
  const close = text.indexOf('%}', to);
  const hasClose = close !== -1 && close < end && !text.slice(to, close).includes('{%');
  const wrap = (v: string): string => `${hasSpace ? '' : ' '}${v}${hasClose ? '' : ' %}'}`;
  // The same table decides which indexes the variable rule accepts here (variable-table.ts).
  const indexes = validIndexCount(model, owner);
  const items: NavCompletionItem[] = [];
  VARIABLES.forEach((v, sort) => {
    const add = (label: string, index?: number): void => {
      const meaning = meaningOf(v.name, index)!;
      items.push({
        label,
        kind: 'variable',
        detail: owner ? 'pSConfig template variable' : 'pSConfig template variable (not expanded here)',
        documentation: meaning[0].toUpperCase() + meaning.slice(1) + '.',
        insertText: wrap(v.insert ?? label),
        replaceStart: from,
        replaceEnd: to,
        sortText: `${sort}${label}`,
      });
    };
    if (v.indexed) for (let i = 0; i < indexes; i++) add(`${v.name}[${i}]`, i);
    else add(v.name);
  });
  return { context: 'variable', items };
}
