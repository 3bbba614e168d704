// Go to definition, find references and rename, on the symbol index. Everything is offsets into the text.
import { NAME_PATTERN, type Definition, type Reference, type SymbolKind } from '../symbols';
import type { TemplateModel } from '../model';
import { singular } from './completion';

export interface OffsetRange {
  start: number;
  end: number;
}

/** The name under the cursor: what it names, and whether the cursor is on the definition's key. */
export interface NameTarget {
  kind: SymbolKind;
  name: string;
  /** For labels: the address they belong to (undefined for `default-address-label`, which means any address). */
  address?: string;
  /** Range of the name under the cursor (without quotes). */
  start: number;
  end: number;
  definition?: Definition;
  reference?: Reference;
}

export function targetAt(model: TemplateModel, offset: number): NameTarget | undefined {
  const idx = model.index;
  const ref = idx.referenceAt(offset);
  if (ref)
    return { kind: ref.kind, name: ref.name, address: ref.address, start: ref.start, end: ref.end, reference: ref };
  const def = idx.definitionAt(offset);
  if (def) {
    // A remote-addresses key is both a definition (of the remote entry) and a reference to another address;
    // navigation follows the reference.
    if (def.kind === 'remote-addresses')
      return { kind: 'addresses', name: def.name, start: def.start, end: def.end, definition: def };
    return { kind: def.kind, name: def.name, address: def.address, start: def.start, end: def.end, definition: def };
  }
  return undefined;
}

export function definitionsOf(model: TemplateModel, t: NameTarget): Definition[] {
  return model.index.definitionsOf(t.kind, t.name, t.kind === 'labels' ? t.address : undefined);
}

/** Where the name at offset is defined (empty when nothing is there or the name is undefined). */
export function findDefinitions(model: TemplateModel, offset: number): Definition[] {
  const t = targetAt(model, offset);
  if (!t) return [];
  if (t.definition && t.definition.kind !== 'remote-addresses') return [t.definition];
  return definitionsOf(model, t);
}

function referencesOfTarget(model: TemplateModel, t: NameTarget): Reference[] {
  if (t.kind !== 'labels') return model.index.referencesTo(t.kind, t.name);
  // A label: selectors naming its address, plus `default-address-label`s (which apply to any address).
  return model.index.referencesTo('labels', t.name, t.address);
}

/** Every place naming the same object; with `includeDeclaration`, its definition keys first. */
export function findReferences(model: TemplateModel, offset: number, includeDeclaration: boolean): OffsetRange[] {
  const t = targetAt(model, offset);
  if (!t) return [];
  const out: OffsetRange[] = [];
  if (includeDeclaration) for (const d of definitionsOf(model, t)) out.push({ start: d.start, end: d.end });
  for (const r of referencesOfTarget(model, t)) out.push({ start: r.start, end: r.end });
  return dedupe(out);
}

function dedupe(ranges: OffsetRange[]): OffsetRange[] {
  const seen = new Set<string>();
  return ranges.filter((r) => {
    const k = `${r.start}:${r.end}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

export type PrepareRenameResult = { start: number; end: number; placeholder: string } | { error: string };

export function prepareRename(model: TemplateModel, offset: number): PrepareRenameResult {
  const t = targetAt(model, offset);
  if (!t)
    return { error: 'Only names of template objects (addresses, groups, tests, tasks, …) and labels can be renamed.' };
  return { start: t.start, end: t.end, placeholder: t.name };
}

export interface TextEditOffsets {
  start: number;
  end: number;
  newText: string;
}

export type RenameResult = { edits: TextEditOffsets[] } | { error: string };

export function rename(model: TemplateModel, offset: number, newName: string): RenameResult {
  const t = targetAt(model, offset);
  if (!t) return { error: 'Nothing to rename here.' };
  if (!NAME_PATTERN.test(newName)) {
    return {
      error: `"${newName}" is not a valid pSConfig name: names may only contain letters, digits and : . _ - (pattern ^[a-zA-Z0-9:._\\-]+$).`,
    };
  }
  if (newName === t.name) return { edits: [] };
  const clash = model.index.definitionsOf(t.kind, newName, t.kind === 'labels' ? t.address : undefined);
  if (clash.length > 0) {
    const where = t.kind === 'labels' && t.address !== undefined ? ` on address "${t.address}"` : '';
    return {
      error: `A ${singular(t.kind)} named "${newName}" already exists${where}; renaming would merge two objects.`,
    };
  }
  const ranges: OffsetRange[] = [];
  for (const d of definitionsOf(model, t)) ranges.push(d);
  if (t.kind === 'addresses') {
    // Remote-addresses keys name other addresses: rename them too (they are references).
    for (const r of model.index.referencesTo('addresses', t.name)) ranges.push(r);
  } else if (t.kind === 'labels') {
    for (const r of model.index.referencesTo('labels', t.name)) {
      if (t.address === undefined || r.address === t.address) ranges.push(r);
      // default-address-label names a label of any address: only follow when no other address still defines it.
      else if (r.address === undefined && labelOnlyOn(model, t.name, t.address)) ranges.push(r);
    }
  } else {
    for (const r of model.index.referencesTo(t.kind, t.name)) ranges.push(r);
  }
  return { edits: dedupe(ranges).map((r) => ({ start: r.start, end: r.end, newText: newName })) };
}

function labelOnlyOn(model: TemplateModel, label: string, address: string | undefined): boolean {
  return model.index.definitionsOf('labels', label).every((d) => address === undefined || d.address === address);
}
