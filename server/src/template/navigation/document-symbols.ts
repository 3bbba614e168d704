// The outline: one entry per top-level section, its objects beneath (with labels under their address).
import { keyOf, members, type JsonNode } from '../parse';
import { isSection, type SymbolKind } from '../symbols';
import type { TemplateModel } from '../model';
import { summaryOf } from './summary';

export interface NavSymbol {
  name: string;
  detail?: string;
  /** A section key (`addresses`, …), `section` for the section itself, `labels`, `remote-addresses`, or `other`. */
  kind: SymbolKind | 'section' | 'other';
  start: number;
  end: number;
  selectionStart: number;
  selectionEnd: number;
  children: NavSymbol[];
}

/** Objects listed per document before the outline is cut (huge generated meshes). */
export const MAX_OUTLINE_ITEMS = 10000;

export function documentSymbols(model: TemplateModel): NavSymbol[] {
  const out: NavSymbol[] = [];
  let budget = MAX_OUTLINE_ITEMS;
  for (const [key, prop] of members(model.parsed.root)) {
    const k = keyOf(prop);
    const value = prop.children?.[1];
    const sym: NavSymbol = { name: key, kind: isSection(key) ? 'section' : 'other', ...ranges(prop, k), children: [] };
    if (isSection(key)) {
      for (const [name, p] of members(value)) {
        if (budget-- <= 0) break;
        const child: NavSymbol = {
          name,
          kind: key,
          detail: summaryOf(p.children?.[1]),
          ...ranges(p, keyOf(p)),
          children: [],
        };
        if (key === 'addresses') child.children = addressChildren(p.children?.[1]);
        sym.children.push(child);
      }
      sym.detail = `${members(value).size}`;
    }
    out.push(sym);
  }
  return out;
}

function addressChildren(value: JsonNode | undefined): NavSymbol[] {
  const out: NavSymbol[] = [];
  for (const [label, p] of members(members(value).get('labels')?.children?.[1])) {
    out.push({ name: label, kind: 'labels', detail: summaryOf(p.children?.[1]), ...ranges(p, keyOf(p)), children: [] });
  }
  for (const [remote, p] of members(members(value).get('remote-addresses')?.children?.[1])) {
    out.push({
      name: remote,
      kind: 'remote-addresses',
      detail: 'remote address',
      ...ranges(p, keyOf(p)),
      children: [],
    });
  }
  return out;
}

function ranges(prop: JsonNode, key: JsonNode): Pick<NavSymbol, 'start' | 'end' | 'selectionStart' | 'selectionEnd'> {
  return {
    start: prop.offset,
    end: prop.offset + prop.length,
    selectionStart: key.offset,
    selectionEnd: key.offset + key.length,
  };
}
