// Offset ↔ line/column conversion for one text (0-based lines and UTF-16 columns, as LSP counts them).

export interface LineCol {
  line: number;
  character: number;
}

export class LineIndex {
  private readonly starts: number[];

  constructor(readonly text: string) {
    const starts = [0];
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 10) starts.push(i + 1);
      else if (c === 13) {
        if (text.charCodeAt(i + 1) === 10) i++;
        starts.push(i + 1);
      }
    }
    this.starts = starts;
  }

  get lineCount(): number {
    return this.starts.length;
  }

  positionAt(offset: number): LineCol {
    const o = Math.max(0, Math.min(offset, this.text.length));
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= o) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, character: o - this.starts[lo] };
  }

  offsetAt(pos: LineCol): number {
    if (pos.line < 0) return 0;
    if (pos.line >= this.starts.length) return this.text.length;
    const start = this.starts[pos.line];
    const next = pos.line + 1 < this.starts.length ? this.starts[pos.line + 1] : this.text.length;
    return Math.max(start, Math.min(start + pos.character, next));
  }
}
