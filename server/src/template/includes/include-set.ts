// The includes of one template as the checks see them: each entry's outcome, and for the files that were read,
// their symbol index, so references resolve against the template merged as pSConfig merges it (the template's
// own names first, then each include in order; base_connect.py _merge_configs: a name already present wins).
import { itemsOf, propertyValue, stringValue, type JsonNode, type ParsedTemplate, parseTemplate } from '../parse';
import { LineIndex } from '../positions';
import { buildSymbolIndex, type Section, type SymbolIndex, type SymbolKind } from '../symbols';
import type { IncludeOutcome } from './loader';

export interface IncludedEntry {
  /** The string node of the entry in the template's `includes`. */
  item: JsonNode;
  outcome: IncludeOutcome;
  /** Set when the file was read and is a JSON object. */
  index?: SymbolIndex;
  parsed?: ParsedTemplate;
  /** Why a file that was read cannot be merged (not JSON, not an object). */
  invalid?: string;
  /** The file's own `includes` (pSConfig never reads them). */
  nested: string[];
  /** One of `nested` names the including template (a cycle pSConfig never follows). */
  nestedBack?: boolean;
}

export class IncludeSet {
  constructor(readonly entries: IncludedEntry[]) {}

  /** Every entry was read and merged: a name found nowhere is truly missing. */
  get complete(): boolean {
    return this.entries.every((e) => e.index !== undefined || e.outcome.status === 'self');
  }

  /** The merged entries, in order. */
  get merged(): (IncludedEntry & { index: SymbolIndex })[] {
    return this.entries.filter((e): e is IncludedEntry & { index: SymbolIndex } => e.index !== undefined);
  }

  /** An included file defines `name` (for labels: on `address`, as merged: the first file defining the address). */
  defines(kind: SymbolKind, name: string, address?: string): boolean {
    if (kind === 'labels' && address !== undefined) {
      const holder = this.merged.find((e) => e.index.definitionsOf('addresses', address).length > 0);
      return holder ? holder.index.definitionsOf('labels', name, address).length > 0 : false;
    }
    return this.merged.some((e) => e.index.definitionsOf(kind, name).length > 0);
  }

  /** Labels the merged address has, when an included file provides the address. */
  labelsOf(address: string): string[] | undefined {
    const holder = this.merged.find((e) => e.index.definitionsOf('addresses', address).length > 0);
    return holder?.index.namesIn('labels', address);
  }

  /** Names of `kind` the included files define (for suggestions). */
  namesIn(kind: SymbolKind): string[] {
    const out = new Set<string>();
    for (const e of this.merged) for (const n of e.index.namesIn(kind)) out.add(n);
    return [...out];
  }

  /** An included file uses `name` (an address also counts when an included group selects by class). */
  uses(kind: Section, name: string): boolean {
    return this.merged.some(
      (e) =>
        e.index.referencesTo(kind, name).some((r) => !r.isKey) ||
        (kind === 'addresses' && e.index.references.some((r) => r.ownerKind === 'groups' && r.field === 'class')),
    );
  }
}

/** The string entries of `includes` with their nodes. */
export function includeEntries(parsed: ParsedTemplate): { ref: string; item: JsonNode }[] {
  const out: { ref: string; item: JsonNode }[] = [];
  for (const item of itemsOf(propertyValue(parsed.root, 'includes'))) {
    const ref = stringValue(item);
    if (ref !== undefined) out.push({ ref, item });
  }
  return out;
}

/** Builds the set from the outcomes of loading `entries` (same order). */
export function buildIncludeSet(entries: { ref: string; item: JsonNode }[], outcomes: IncludeOutcome[]): IncludeSet {
  return new IncludeSet(
    entries.map(({ item }, i) => {
      const outcome = outcomes[i];
      const entry: IncludedEntry = { item, outcome, nested: [] };
      if (outcome.status !== 'read') return entry;
      const parsed = parseTemplate(outcome.text);
      if (parsed.syntaxErrors.length > 0 || !parsed.root) {
        const first = parsed.syntaxErrors[0];
        if (first) {
          const p = new LineIndex(outcome.text).positionAt(first.start);
          entry.invalid = `not valid JSON (line ${p.line + 1}, column ${p.character + 1}: ${first.message})`;
        } else entry.invalid = 'the file is empty';
        return entry;
      }
      if (parsed.root.type !== 'object') {
        entry.invalid = 'the file is not a JSON object';
        return entry;
      }
      entry.parsed = parsed;
      entry.index = buildSymbolIndex(parsed.root);
      entry.nested = includeEntries(parsed).map((e) => e.ref);
      return entry;
    }),
  );
}

/** Every entry not read, with `reason` (for callers that cannot read files). */
export function unreadIncludeSet(parsed: ParsedTemplate, reason: string): IncludeSet {
  const entries = includeEntries(parsed);
  return buildIncludeSet(
    entries,
    entries.map(({ ref }) => ({ ref, kind: 'local', relative: false, status: 'skipped', reason })),
  );
}
