// The open documents' text, kept so that an edit copies nothing before the next request is answered.
//
// vscode-languageserver-textdocument's TextDocument applies an edit as `before + inserted + after`, which V8 keeps
// as a cons string until a character of it is read; its own CRLF check reads one at once, so every edit of a
// 1.6 MB template made a fresh 1.6 MB copy on the didChange path (7–30 ms on a loaded machine, mostly page faults
// of the new memory: bench/README.md, "Completion right after an edit"). Completion right after an edit usually
// needs a handful of characters around the cursor (offsetAt, a short getText(range)) and the previous analysis.
//
// So this document keeps the last flat text plus the edits applied since (each: where, how much it removed, what
// it inserted) and reads characters and short ranges through them; the whole text is built only when someone asks
// for it (getText()), and then cached as the new flat text. The line offsets are updated in place exactly as the
// library does (the inserted text's own offsets spliced in, the later ones shifted), so positions never need the
// whole text either. Every operation answers what the library's TextDocument answers for the same changes
// (test/unit/pieced-document.test.ts compares them on random edit sequences).
import type { Position, Range, TextDocument, TextDocumentContentChangeEvent } from 'vscode-languageserver-textdocument';

/** An edit of the text before it: [start, start + removed) became `text`. */
interface Edit {
  start: number;
  removed: number;
  text: string;
}

/** Beyond this many pending edits a character read walks too many of them: the text is flattened at the edit. */
const MAX_PENDING_EDITS = 32;

const CR = 13;
const LF = 10;

export class PiecedDocument implements TextDocument {
  /** The text before `edits` were applied (flat once read). */
  private base: string;
  /** Applied in order to `base`; each in the coordinates of the text before it. */
  private edits: Edit[] = [];
  private size: number;
  /** Offset of each line's start; undefined until first needed (or after an edit the library would not patch). */
  private lineOffsets: number[] | undefined;

  constructor(
    readonly uri: string,
    readonly languageId: string,
    private _version: number,
    content: string,
  ) {
    this.base = content;
    this.size = content.length;
  }

  static create(uri: string, languageId: string, version: number, content: string): PiecedDocument {
    return new PiecedDocument(uri, languageId, version, content);
  }

  /** TextDocumentsConfiguration's update: applies `changes` in order to `doc` (the same instance) as the library. */
  static update(doc: PiecedDocument, changes: TextDocumentContentChangeEvent[], version: number): PiecedDocument {
    doc.update(changes, version);
    return doc;
  }

  get version(): number {
    return this._version;
  }

  /** The text's length in UTF-16 code units, without building the text. */
  get length(): number {
    return this.size;
  }

  get lineCount(): number {
    return this.getLineOffsets().length;
  }

  getText(range?: Range): string {
    if (range) return this.slice(this.offsetAt(range.start), this.offsetAt(range.end));
    if (this.edits.length > 0) {
      this.base = this.sliceAt(this.edits.length - 1, 0, this.size);
      this.edits = [];
    }
    return this.base;
  }

  /** The text [from, to) (clamped like String.prototype.substring), read through the pending edits. */
  slice(from: number, to: number): string {
    let a = Math.min(Math.max(from, 0), this.size);
    let b = Math.min(Math.max(to, 0), this.size);
    if (a > b) [a, b] = [b, a];
    return this.edits.length === 0 ? this.base.substring(a, b) : this.sliceAt(this.edits.length - 1, a, b);
  }

  /** The UTF-16 code unit at `offset` (NaN outside the text, as String.prototype.charCodeAt). */
  charCodeAt(offset: number): number {
    if (!(offset >= 0 && offset < this.size)) return NaN;
    let o = offset;
    for (let i = this.edits.length - 1; i >= 0; i--) {
      const e = this.edits[i];
      if (o < e.start) continue;
      const insertedEnd = e.start + e.text.length;
      if (o < insertedEnd) return e.text.charCodeAt(o - e.start);
      o = o - insertedEnd + e.start + e.removed;
    }
    return this.base.charCodeAt(o);
  }

  positionAt(offset: number): Position {
    offset = Math.max(Math.min(offset, this.size), 0);
    const lineOffsets = this.getLineOffsets();
    let low = 0;
    let high = lineOffsets.length;
    if (high === 0) return { line: 0, character: offset };
    while (low < high) {
      const mid = Math.floor((low + high) / 2);
      if (lineOffsets[mid] > offset) high = mid;
      else low = mid + 1;
    }
    const line = low - 1;
    offset = this.ensureBeforeEOL(offset, lineOffsets[line]);
    return { line, character: offset - lineOffsets[line] };
  }

  offsetAt(position: Position): number {
    const lineOffsets = this.getLineOffsets();
    if (position.line >= lineOffsets.length) return this.size;
    if (position.line < 0) return 0;
    const lineOffset = lineOffsets[position.line];
    if (position.character <= 0) return lineOffset;
    const nextLineOffset = position.line + 1 < lineOffsets.length ? lineOffsets[position.line + 1] : this.size;
    const offset = Math.min(lineOffset + position.character, nextLineOffset);
    return this.ensureBeforeEOL(offset, lineOffset);
  }

  getLineRange(line: number): Range {
    const lineOffsets = this.getLineOffsets();
    if (line >= lineOffsets.length) {
      const lastLine = lineOffsets.length - 1;
      return {
        start: { line: lastLine, character: 0 },
        end: { line: lastLine, character: this.size - lineOffsets[lastLine] },
      };
    }
    if (line < 0) return { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    const startOffset = lineOffsets[line];
    const nextLineOffset = line + 1 < lineOffsets.length ? lineOffsets[line + 1] : this.size;
    const endOffset = this.ensureBeforeEOL(nextLineOffset, startOffset);
    return { start: { line, character: 0 }, end: { line, character: endOffset - startOffset } };
  }

  getEOLCharacters(line: number): string {
    const lineOffsets = this.getLineOffsets();
    if (line >= lineOffsets.length || line < 0) return '';
    const nextLineOffset = line + 1 < lineOffsets.length ? lineOffsets[line + 1] : this.size;
    return this.slice(this.ensureBeforeEOL(nextLineOffset, lineOffsets[line]), nextLineOffset);
  }

  private update(changes: TextDocumentContentChangeEvent[], version: number): void {
    for (const change of changes) {
      if (isIncremental(change)) {
        const range = wellformed(change.range);
        const startOffset = this.offsetAt(range.start);
        const endOffset = this.offsetAt(range.end);
        this.apply(startOffset, endOffset, change.text);
        const insertedEnd = startOffset + change.text.length;
        const crlfAtStart = this.charCodeAt(startOffset - 1) === CR && this.charCodeAt(startOffset) === LF;
        const crlfAtEnd = this.charCodeAt(insertedEnd - 1) === CR && this.charCodeAt(insertedEnd) === LF;
        if (crlfAtStart || crlfAtEnd) {
          // A CRLF pair across an edit boundary is not in the inserted text's line offsets (as the library).
          this.lineOffsets = undefined;
          continue;
        }
        // offsetAt above computed them if they were not there.
        let lineOffsets = this.lineOffsets!;
        const startLine = Math.max(range.start.line, 0);
        const endLine = Math.max(range.end.line, 0);
        const added = computeLineOffsets(change.text, false, startOffset);
        if (endLine - startLine === added.length) {
          for (let i = 0; i < added.length; i++) lineOffsets[i + startLine + 1] = added[i];
        } else if (added.length < 10000) {
          lineOffsets.splice(startLine + 1, endLine - startLine, ...added);
        } else {
          this.lineOffsets = lineOffsets = lineOffsets
            .slice(0, startLine + 1)
            .concat(added, lineOffsets.slice(endLine + 1));
        }
        const diff = change.text.length - (endOffset - startOffset);
        if (diff !== 0) {
          for (let i = startLine + 1 + added.length; i < lineOffsets.length; i++) lineOffsets[i] += diff;
        }
      } else if (isFull(change)) {
        this.base = change.text;
        this.edits = [];
        this.size = change.text.length;
        this.lineOffsets = undefined;
      } else {
        throw new Error('Unknown change event received');
      }
    }
    this._version = version;
  }

  /** Records the edit [start, end) → text; flattens first when too many are pending. */
  private apply(start: number, end: number, text: string): void {
    if (this.edits.length >= MAX_PENDING_EDITS) this.getText();
    this.edits.push({ start, removed: end - start, text });
    this.size += text.length - (end - start);
  }

  /** The text after edits[0..level] applied, [from, to) of it (0 ≤ from ≤ to ≤ its length). */
  private sliceAt(level: number, from: number, to: number): string {
    if (level < 0) return this.base.substring(from, to);
    const e = this.edits[level];
    const insertedEnd = e.start + e.text.length;
    const shift = e.removed - e.text.length;
    let out = '';
    if (from < e.start) out += this.sliceAt(level - 1, from, Math.min(to, e.start));
    if (to > e.start && from < insertedEnd)
      out += e.text.substring(Math.max(from, e.start) - e.start, Math.min(to, insertedEnd) - e.start);
    if (to > insertedEnd) out += this.sliceAt(level - 1, Math.max(from, insertedEnd) + shift, to + shift);
    return out;
  }

  private getLineOffsets(): number[] {
    // Computing them reads every character: the whole text is built (once) for it.
    return (this.lineOffsets ??= computeLineOffsets(this.getText(), true));
  }

  private ensureBeforeEOL(offset: number, lineOffset: number): number {
    while (offset > lineOffset && isEOL(this.charCodeAt(offset - 1))) offset--;
    return offset;
  }
}

function isIncremental(event: TextDocumentContentChangeEvent): event is { range: Range; text: string } {
  const candidate = event as { range?: Range; rangeLength?: number; text?: unknown };
  return (
    candidate !== undefined &&
    candidate !== null &&
    typeof candidate.text === 'string' &&
    candidate.range !== undefined &&
    (candidate.rangeLength === undefined || typeof candidate.rangeLength === 'number')
  );
}

function isFull(event: TextDocumentContentChangeEvent): event is { text: string } {
  const candidate = event as { range?: Range; rangeLength?: number; text?: unknown };
  return (
    candidate !== undefined &&
    candidate !== null &&
    typeof candidate.text === 'string' &&
    candidate.range === undefined &&
    candidate.rangeLength === undefined
  );
}

function wellformed(range: Range): Range {
  const { start, end } = range;
  if (start.line > end.line || (start.line === end.line && start.character > end.character))
    return { start: end, end: start };
  return range;
}

function isEOL(ch: number): boolean {
  return ch === CR || ch === LF;
}

function computeLineOffsets(text: string, isAtLineStart: boolean, textOffset = 0): number[] {
  const result = isAtLineStart ? [textOffset] : [];
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (isEOL(ch)) {
      if (ch === CR && i + 1 < text.length && text.charCodeAt(i + 1) === LF) i++;
      result.push(textOffset + i + 1);
    }
  }
  return result;
}
