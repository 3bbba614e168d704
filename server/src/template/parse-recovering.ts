// Error-recovering JSON parser for text with syntax errors (the fast strict path in parse.ts failed).
// Reports every error with a range and still builds the tree (tree.ts) around them, so that a template being typed
// keeps its diagnostics, completion and navigation. Comments are reported (pSConfig reads strict JSON) and skipped.
import type { SyntaxProblem } from './json-node';
import { MAX_NESTING, skipNested, tooDeepMessage } from './nesting';
import { KEEP_ALIVE, NODE, Tree } from './tree';

const { ARRAY, BOOLEAN, NULL, NUMBER, OBJECT, PROPERTY, STRING, TRUE } = NODE;

/** Syntax errors kept per parse. */
const MAX_ERRORS = 1000;

type Tok = '{' | '}' | '[' | ']' | ':' | ',' | 'string' | 'number' | 'literal' | 'invalid' | 'eof';

export function parseRecovering(text: string): { tree: Tree; errors: SyntaxProblem[] } {
  return new RecoveringParser(text).parse();
}

class RecoveringParser {
  private pos = 0;
  private tok: Tok = 'eof';
  private tokStart = 0;
  private tokEnd = 0;
  private tokValue: string | number | boolean | null = null;
  private depth = 0;
  /** The current string token's value, when it is not what decoding its text gives (a repaired string). */
  private tokRepaired = false;
  readonly errors: SyntaxProblem[] = [];
  private readonly tree: Tree;

  /** The current token (a method, so TypeScript does not narrow it across next()). */
  private cur(): Tok {
    return this.tok;
  }

  constructor(private readonly text: string) {
    this.tree = new Tree(text, Math.max(64, (text.length / 8) | 0));
  }

  parse(): { tree: Tree; errors: SyntaxProblem[] } {
    this.next();
    if (this.cur() === 'eof') this.error('The file is empty: a template is one JSON object.', 0, 0);
    else this.value(-1);
    while (this.cur() !== 'eof') {
      this.error('Expected the end of the file: a template is one JSON object.', this.tokStart, this.tokEnd);
      this.skipToEnd();
    }
    return { tree: this.tree, errors: this.errors };
  }

  private error(message: string, start: number, end: number): void {
    const last = this.errors[this.errors.length - 1];
    if (last && last.start === start) return; // one error per place
    // Megabytes of garbage would make millions; nobody reads past the first hundred (diagnostics.ts shows those).
    if (this.errors.length >= MAX_ERRORS) return;
    this.errors.push({ message, start, end: Math.max(end, start + 1) });
  }

  private skipToEnd(): void {
    this.pos = this.text.length;
    this.tok = 'eof';
    this.tokStart = this.tokEnd = this.pos;
  }

  // ---- scanner ----------------------------------------------------------------------------------------------

  private next(): void {
    const t = this.text;
    for (;;) {
      let c = t.charCodeAt(this.pos);
      while (c === 32 || c === 9 || c === 10 || c === 13 || c === 0xfeff) c = t.charCodeAt(++this.pos);
      if (c === 47 && (t[this.pos + 1] === '/' || t[this.pos + 1] === '*')) {
        const start = this.pos;
        const block = t[this.pos + 1] === '*';
        let end = block ? t.indexOf('*/', this.pos + 2) : t.slice(this.pos).search(/[\r\n]/);
        if (block) end = end < 0 ? t.length : end + 2;
        else end = end < 0 ? t.length : this.pos + end;
        this.error('Comments are not allowed in JSON; use a `#`-prefixed key (pSConfig 5.2+) instead.', start, end);
        this.pos = end;
        continue;
      }
      break;
    }
    this.tokStart = this.pos;
    if (this.pos >= t.length) {
      this.tok = 'eof';
      this.tokEnd = this.pos;
      return;
    }
    const ch = t[this.pos];
    if ('{}[]:,'.includes(ch)) {
      this.tok = ch as Tok;
      this.tokEnd = ++this.pos;
      return;
    }
    if (ch === '"') return this.scanString();
    const num = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
    num.lastIndex = this.pos;
    const word = /[A-Za-z0-9_.+-]+/y;
    word.lastIndex = this.pos;
    const w = word.exec(t);
    const n = num.exec(t);
    if (n && (!w || w[0].length === n[0].length)) {
      this.tok = 'number';
      this.tokValue = Number(n[0]);
      this.pos += n[0].length;
    } else if (w && (w[0] === 'true' || w[0] === 'false' || w[0] === 'null')) {
      this.tok = 'literal';
      this.tokValue = w[0] === 'null' ? null : w[0] === 'true';
      this.pos += w[0].length;
    } else {
      this.tok = 'invalid';
      this.pos += w ? w[0].length : 1;
      this.error(
        w
          ? `Invalid value \`${w[0].slice(0, 40)}\`: strings need double quotes; literals are true, false and null.`
          : 'Invalid character.',
        this.tokStart,
        this.pos,
      );
    }
    this.tokEnd = this.pos;
  }

  private scanString(): void {
    const t = this.text;
    let p = this.pos + 1;
    let ok = true;
    for (;;) {
      const c = t.charCodeAt(p);
      if (Number.isNaN(c) || c === 10 || c === 13) {
        this.error('Unterminated string: add the closing `"`.', this.pos, p);
        ok = false;
        break;
      }
      if (c === 34) {
        p++;
        break;
      }
      if (c === 92) {
        const e = t[p + 1];
        if (e === 'u' ? !/^[0-9a-fA-F]{4}$/.test(t.slice(p + 2, p + 6)) : !'"\\/bfnrt'.includes(e ?? 'x')) {
          this.error('Invalid escape sequence in string.', p, p + 2);
          ok = false;
        }
        p += e === 'u' ? 6 : 2;
        continue;
      }
      if (c < 32) {
        this.error('Control characters in strings must be escaped (e.g. `\\t`, `\\n`).', p, p + 1);
        ok = false;
      }
      p++;
    }
    this.tok = 'string';
    const raw = t.slice(this.pos, p);
    let value: string;
    this.tokRepaired = !ok;
    try {
      value = ok ? (JSON.parse(raw) as string) : raw.replace(/^"|"$/g, '');
    } catch {
      value = raw.replace(/^"|"$/g, '');
      this.tokRepaired = true;
    }
    this.tokValue = value;
    this.pos = p;
    this.tokEnd = p;
  }

  // ---- parser -----------------------------------------------------------------------------------------------

  private leaf(parent: number): number {
    const tree = this.tree;
    let kind: number;
    if (this.cur() === 'string') kind = STRING;
    else if (this.cur() === 'number') kind = NUMBER;
    else if (this.tokValue === null) kind = NULL;
    else kind = this.tokValue === true ? BOOLEAN | TRUE : BOOLEAN;
    const i = tree.leaf(kind, this.tokStart, this.tokEnd, parent);
    if (kind === STRING) {
      // Every string value is kept as decoded here: repaired ones differ from their text, and the rest decode
      // the same way (this path only runs on text with syntax errors).
      const v = this.tokValue as string;
      if (this.tokRepaired || this.text.charCodeAt(this.tokEnd - 1) !== 34 || this.tokEnd - this.tokStart < 2)
        tree.overrides.set(i, v);
      else tree.aux[i] = tree.strings.push(v) - 1;
    }
    this.next();
    return i;
  }

  private value(parent: number): number {
    switch (this.cur()) {
      case '{':
        return this.container(parent, OBJECT);
      case '[':
        return this.container(parent, ARRAY);
      case 'string':
      case 'number':
      case 'literal':
        return this.leaf(parent);
      case 'invalid':
        this.next();
        return -1;
      default:
        this.error('Expected a value.', this.tokStart, this.tokEnd);
        return -1;
    }
  }

  private container(parent: number, type: typeof OBJECT | typeof ARRAY): number {
    const tree = this.tree;
    const node = tree.add(type, this.tokStart, parent);
    const close: Tok = type === OBJECT ? '}' : ']';
    if (++this.depth > MAX_NESTING) {
      // One diagnostic at the deepest allowed point; the value is skipped (without recursion) and parsing goes on
      // after it, so the rest of the template keeps its checks.
      const skipped = skipNested(this.text, this.tokStart);
      const { message, severity } = tooDeepMessage(this.depth - 1 + skipped.depth);
      this.errors.push({ message, start: this.tokStart, end: this.tokStart + 1, tooDeep: severity });
      tree.close(node, skipped.end);
      this.pos = skipped.end;
      this.depth--;
      this.next();
      return node;
    }
    this.next();
    let needComma = false;
    let lastEnd = 0;
    for (;;) {
      if (this.cur() === close) {
        this.next();
        break;
      }
      if (this.cur() === 'eof' || this.cur() === (type === OBJECT ? ']' : '}')) {
        // leave a mismatched closer to the enclosing container
        this.error(
          type === OBJECT ? 'Expected `}` to close the object.' : 'Expected `]` to close the array.',
          this.tokStart,
          this.tokEnd,
        );
        break;
      }
      if (this.cur() === ',') {
        if (!needComma) this.error('Unexpected comma.', this.tokStart, this.tokEnd);
        this.next();
        if (this.cur() === close)
          this.error(
            'Trailing comma: remove it (JSON does not allow one before the closing bracket).',
            this.tokStart - 1,
            this.tokStart,
          );
        needComma = false;
        continue;
      }
      if (needComma) this.error('Expected a comma.', this.tokStart, this.tokEnd);
      const before = this.tokStart;
      const child = type === OBJECT ? this.property(node) : this.value(node);
      if (child >= 0) lastEnd = tree.end[child];
      needComma = true;
      if (this.tokStart === before && this.cur() !== 'eof') this.next(); // always make progress
    }
    this.depth--;
    const start = tree.start[node];
    const end = Math.max(this.tokStart > start ? prevEnd(this.text, this.tokStart) : start + 1, lastEnd);
    tree.close(node, end);
    return node;
  }

  private property(parent: number): number {
    if (this.cur() !== 'string') {
      this.error('Expected a property name in double quotes.', this.tokStart, this.tokEnd);
      return -1;
    }
    const tree = this.tree;
    const prop = tree.add(PROPERTY, this.tokStart, parent);
    const key = this.leaf(prop);
    let end = tree.end[key];
    if (this.cur() === ':') {
      tree.aux[prop] = this.tokStart;
      end = this.tokStart + 1;
      this.next();
      const v = this.value(prop);
      if (v >= 0) end = tree.end[v];
    } else {
      this.error('Expected `:` after the property name.', this.tokStart, this.tokEnd);
    }
    tree.close(prop, end);
    return prop;
  }
}

/** End of the token before `offset`: containers end right after their closing bracket. */
function prevEnd(text: string, offset: number): number {
  let p = offset;
  while (p > 0 && /\s/.test(text[p - 1])) p--;
  return p;
}

KEEP_ALIVE.push(new RecoveringParser('0')); // see tree.ts
