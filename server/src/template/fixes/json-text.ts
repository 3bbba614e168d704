// Text edits on the members of a JSON object that leave every byte outside the changed members as it was: kept
// members (with their `#` comment keys, odd spacing, escapes) are never inside an edit, only the gaps between them
// are rewritten, and new text follows the style of the object it goes into (one member per line or all on one
// line, its indentation, its `": "` spacing, the document's line ends, CRLF included).
//
// Because kept members are outside every edit, edits inside them (a value replaced, a nested object rewritten) can
// be combined with a rewrite of their parent without overlapping.
import type { JsonNode } from '../parse';
import type { TextEditOffsets } from '../navigation/names';
import { indentUnit, lineIndent } from '../navigation/code-actions';

export type { TextEditOffsets } from '../navigation/names';

/** How new members of one object are written. */
export interface ObjectStyle {
  /** One member per line (else all on the object's line). */
  multiline: boolean;
  /** Indentation of a member line. */
  indent: string;
  /** Indentation of the closing brace's line. */
  closeIndent: string;
  /** One indentation step of the document. */
  unit: string;
  /** The document's line end (`\r\n` when its first line ends so). */
  eol: string;
  /** Between a key and its value, as the object writes it (`": "` → `: `). */
  colon: string;
  /** Between two members. */
  sep: string;
}

/** The document's line end: that of its first line. */
export function lineEnd(text: string): string {
  const n = text.indexOf('\n');
  return n > 0 && text[n - 1] === '\r' ? '\r\n' : '\n';
}

/** The style of `obj` as written; an empty object takes the one-per-line choice of `parent` (default: its own
 *  text holds a line break). */
export function objectStyle(text: string, obj: JsonNode, parent?: ObjectStyle): ObjectStyle {
  const eol = parent?.eol ?? lineEnd(text);
  const unit = parent?.unit ?? indentUnit(text);
  const props = obj.children ?? [];
  const open = obj.offset;
  const close = obj.offset + obj.length - 1;
  const closeIndent = startsLine(text, close) ? lineIndent(text, close) : lineIndent(text, open);
  const multiline =
    props.length > 0
      ? text.slice(open + 1, props[0].offset).includes('\n')
      : (parent?.multiline ?? text.slice(open, close).includes('\n'));
  const indent =
    multiline && props.length > 0 && startsLine(text, props[0].offset)
      ? lineIndent(text, props[0].offset)
      : closeIndent + unit;
  let colon = parent?.colon ?? ': ';
  const withValue = props.find((p) => p.children?.[1]);
  if (withValue) {
    const [k, v] = withValue.children!;
    const between = text.slice(k.offset + k.length, v.offset);
    if (/^\s*:\s*$/.test(between) && !between.includes('\n')) colon = between;
  }
  let sep = multiline ? `,${eol}${indent}` : ',';
  if (!multiline) {
    if (props.length > 1) {
      const between = text.slice(props[0].offset + props[0].length, props[1].offset);
      if (/^\s*,\s*$/.test(between)) sep = between;
    } else if (colon.endsWith(' ')) sep = ', ';
  }
  return { multiline, indent, closeIndent, unit, eol, colon, sep };
}

/** The style of an object written as the value of a member of `parent` (one level deeper). */
export function childStyle(parent: ObjectStyle): ObjectStyle {
  const indent = parent.indent + parent.unit;
  return {
    ...parent,
    indent,
    closeIndent: parent.indent,
    sep: parent.multiline ? `,${parent.eol}${indent}` : parent.sep,
  };
}

function startsLine(text: string, offset: number): boolean {
  for (let i = offset - 1; i >= 0; i--) {
    const c = text[i];
    if (c === '\n') return true;
    if (c !== ' ' && c !== '\t' && c !== '\r') return false;
  }
  return true;
}

/** Raw JSON text, written as it is (a token copied from the document, escapes and all). */
export class RawJson {
  constructor(readonly text: string) {}
}

/** A JSON value written in `style` (the style of the object holding it as a member). */
export function renderValue(value: unknown, style: ObjectStyle): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const inner = childStyle(style);
    const items = value.map((v) => renderValue(v, inner));
    return style.multiline
      ? `[${style.eol}${inner.indent}${items.join(inner.sep)}${style.eol}${inner.closeIndent}]`
      : `[${items.join(inner.sep)}]`;
  }
  if (value !== null && typeof value === 'object')
    return objectText(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => renderMember(k, v, childStyle(style))),
      style,
    );
  return JSON.stringify(value);
}

/** An object made of member texts (written in childStyle(style)), as the value of a member of a `style` object. */
export function objectText(members: string[], style: ObjectStyle): string {
  if (members.length === 0) return '{}';
  const inner = childStyle(style);
  return style.multiline
    ? `{${style.eol}${inner.indent}${members.join(inner.sep)}${style.eol}${inner.closeIndent}}`
    : `{${members.join(inner.sep)}}`;
}

/** `"key": value` in the style of the object it goes into. */
export function renderMember(key: string, value: unknown, style: ObjectStyle): string {
  return `${JSON.stringify(key)}${style.colon}${renderValue(value, style)}`;
}

/** A member's text as written (key, colon, value), moved to an object whose members are indented `toIndent`:
 *  its continuation lines lose the old member indentation and get the new one (JSON strings hold no raw line
 *  breaks, so every line break is between tokens). */
export function movedMember(text: string, prop: JsonNode, toIndent: string): string {
  const from = lineIndent(text, prop.offset);
  const lines = text.slice(prop.offset, prop.offset + prop.length).split('\n');
  for (let i = 1; i < lines.length; i++)
    if (lines[i].startsWith(from)) lines[i] = toIndent + lines[i].slice(from.length);
  return lines.join('\n');
}

/** One member of the rewritten object: an existing property node, kept where it is, or new text. */
export type MemberItem = { keep: JsonNode } | { text: string };

/**
 * Edits turning the members of `obj` into `items`. Kept properties must appear in their original order; properties
 * not kept are removed. Only the text between kept properties changes, so edits inside kept properties may be
 * combined with these.
 */
export function rewriteMembers(
  text: string,
  obj: JsonNode,
  items: MemberItem[],
  style: ObjectStyle,
): TextEditOffsets[] {
  const props = obj.children ?? [];
  const position = new Map<JsonNode, number>(props.map((p, i) => [p, i]));
  const open = obj.offset + 1;
  const close = obj.offset + obj.length - 1;
  const lead = props.length ? text.slice(open, props[0].offset) : style.multiline ? style.eol + style.indent : '';
  const last = props[props.length - 1];
  const trail = last
    ? text.slice(last.offset + last.length, close)
    : style.multiline
      ? style.eol + style.closeIndent
      : '';
  const edits: TextEditOffsets[] = [];
  let before = -1; // index in props of the previous kept property (-1: the opening brace)
  let fresh: string[] = [];
  const gap = (after: number): void => {
    // the gap between props[before] (or `{`) and props[after] (or `}` when after === props.length)
    const start = before < 0 ? open : props[before].offset + props[before].length;
    const end = after >= props.length ? close : props[after].offset;
    if (after === before + 1 && fresh.length === 0) return; // nothing removed or added here: left as it is
    const head = before < 0 ? lead : style.sep;
    const tail = after >= props.length ? trail : style.sep;
    let middle: string;
    if (fresh.length) middle = head + fresh.join(style.sep) + tail;
    else if (before < 0 && after >= props.length) middle = '';
    else if (before < 0) middle = lead;
    else if (after >= props.length) middle = trail;
    else middle = style.sep;
    if (text.slice(start, end) !== middle) edits.push({ start, end, newText: middle });
  };
  for (const item of items) {
    if ('text' in item) {
      fresh.push(item.text);
      continue;
    }
    const at = position.get(item.keep);
    if (at === undefined || at <= before) throw new Error('rewriteMembers: kept members must be in order');
    gap(at);
    before = at;
    fresh = [];
  }
  gap(props.length);
  return edits;
}

/** The text with the edits applied (edits must not overlap). */
export function applyEdits(text: string, edits: readonly TextEditOffsets[]): string {
  const sorted = [...edits].sort((a, b) => a.start - b.start || a.end - b.end);
  let out = '';
  let at = 0;
  for (const e of sorted) {
    if (e.start < at) throw new Error(`overlapping edits at offset ${e.start}`);
    out += text.slice(at, e.start) + e.newText;
    at = e.end;
  }
  return out + text.slice(at);
}

/** True when no edit of `a` overlaps an edit of `b` (touching ends count as overlapping insertions only when both
 *  insert at the same point, whose order would be undefined). */
export function editsDisjoint(a: readonly TextEditOffsets[], b: readonly TextEditOffsets[]): boolean {
  for (const x of a)
    for (const y of b) {
      if (x.start === y.start && (x.start === x.end || y.start === y.end)) return false;
      if (x.start < y.end && y.start < x.end) return false;
    }
  return true;
}
