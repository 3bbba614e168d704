// Strict JSON (RFC 8259) parser for the fast path: a hand-written scanner building the AST with offsets, noting
// comment keys and duplicate keys as it goes. Throws StrictSyntaxError at the first problem; parse.ts then falls
// back to the recovering parser.
import { makeNode, type DuplicateKey, type JsonNode } from './json-node';
import { MAX_NESTING } from './nesting';

export class StrictSyntaxError extends Error {}

const WS = new Uint8Array(128);
WS[32] = WS[9] = WS[10] = WS[13] = 1;

/** Strict JSON (RFC 8259) recursive-descent parser; throws StrictSyntaxError on the first problem. */
export class StrictParser {
  private pos = 0;
  private depth = 0;
  /** Children of the open containers, copied out exact-size when each closes (a pushed-to array keeps spare
   *  capacity: ~17 slots for a 3-member object, which on a large template is megabytes of young-GC copying). */
  private readonly stack: JsonNode[] = [];
  private readonly interned: (string | undefined)[] = new Array<string | undefined>(INTERN_SLOTS).fill(undefined);

  constructor(
    private readonly text: string,
    private readonly dups: DuplicateKey[],
    private readonly comments: JsonNode[],
  ) {}

  parseDocument(): JsonNode {
    this.ws();
    const root = this.value(undefined);
    this.ws();
    if (this.pos !== this.text.length) this.fail();
    return root;
  }

  private fail(): never {
    throw new StrictSyntaxError();
  }

  private ws(): void {
    const t = this.text;
    let p = this.pos;
    for (;;) {
      const c = t.charCodeAt(p);
      if (c < 128 && WS[c] === 1) p++;
      else break;
    }
    this.pos = p;
  }

  private value(parent: JsonNode | undefined): JsonNode {
    const c = this.text.charCodeAt(this.pos);
    if (c === 34) return this.string(parent);
    if (c === 123) return this.object(parent);
    if (c === 91) return this.array(parent);
    if (c === 45 || (c >= 48 && c <= 57)) return this.number(parent);
    if (this.text.startsWith('true', this.pos)) return this.literal(parent, 'boolean', true, 4);
    if (this.text.startsWith('false', this.pos)) return this.literal(parent, 'boolean', false, 5);
    if (this.text.startsWith('null', this.pos)) return this.literal(parent, 'null', null, 4);
    return this.fail();
  }

  private literal(
    parent: JsonNode | undefined,
    type: 'boolean' | 'null',
    value: boolean | null,
    len: number,
  ): JsonNode {
    const node = makeNode(type, this.pos, len, value, parent, undefined);
    this.pos += len;
    return node;
  }

  private string(parent: JsonNode | undefined): JsonNode {
    const t = this.text;
    const start = this.pos;
    let p = start + 1;
    let escaped = false;
    for (;;) {
      PLAIN.lastIndex = p;
      PLAIN.test(t);
      p = PLAIN.lastIndex;
      const c = t.charCodeAt(p);
      if (c === 34) break;
      if (c === 92) {
        escaped = true;
        p += 2;
        continue;
      }
      this.fail(); // control character or end of text
    }
    this.pos = p + 1;
    let value: string;
    if (escaped) {
      try {
        value = JSON.parse(t.slice(start, p + 1)) as string;
      } catch {
        return this.fail();
      }
    } else value = p - start - 1 <= INTERN_MAX ? this.intern(start + 1, p) : t.slice(start + 1, p);
    return makeNode('string', start, p + 1 - start, value, parent, undefined);
  }

  /** Short strings (keys, names, enum values) repeat thousands of times in a large template: share one copy
   *  of each instead of allocating a fresh one per token (less for the young-generation GC to copy). */
  private intern(from: number, to: number): string {
    const t = this.text;
    let h = to - from;
    for (let i = from; i < to; i++) h = (Math.imul(h, 31) + t.charCodeAt(i)) | 0;
    const slot = h & (INTERN_SLOTS - 1);
    const hit = this.interned[slot];
    if (hit !== undefined && hit.length === to - from && t.startsWith(hit, from)) return hit;
    const s = t.slice(from, to);
    this.interned[slot] = s;
    return s;
  }

  private number(parent: JsonNode | undefined): JsonNode {
    NUMBER.lastIndex = this.pos;
    const m = NUMBER.exec(this.text);
    if (!m) return this.fail();
    const node = makeNode('number', this.pos, m[0].length, Number(m[0]), parent, undefined);
    this.pos += m[0].length;
    return node;
  }

  private object(parent: JsonNode | undefined): JsonNode {
    // Deeper than MAX_NESTING: the recovering parser skips that value with one diagnostic.
    if (++this.depth > MAX_NESTING) this.fail();
    const stack = this.stack;
    const mark = stack.length;
    const node = makeNode('object', this.pos, 0, undefined, parent, undefined);
    let seen: Set<string> | undefined;
    this.pos++;
    this.ws();
    if (this.text.charCodeAt(this.pos) !== 125) {
      for (;;) {
        if (this.text.charCodeAt(this.pos) !== 34) this.fail();
        const prop = makeNode('property', this.pos, 0, undefined, node, undefined);
        const key = this.string(prop);
        const name = key.value as string;
        this.ws();
        if (this.text.charCodeAt(this.pos) !== 58) this.fail();
        prop.colonOffset = this.pos++;
        this.ws();
        const value = this.value(prop);
        prop.children = [key, value];
        prop.length = value.offset + value.length - prop.offset;
        if (name.charCodeAt(0) === 35) {
          prop.comment = true;
          this.comments.push(prop);
        }
        if (stack.length - mark >= 8 && !seen) {
          seen = new Set();
          for (let i = mark; i < stack.length; i++) seen.add(stack[i].children![0].value as string);
        }
        if (seen ? seen.has(name) : hasKey(stack, mark, name)) {
          for (let i = mark; i < stack.length; i++) {
            if (stack[i].children![0].value === name) {
              this.dups.push({ key: name, node: key, first: stack[i].children![0] });
              break;
            }
          }
        }
        seen?.add(name);
        stack.push(prop);
        this.ws();
        const c = this.text.charCodeAt(this.pos);
        if (c === 44) {
          this.pos++;
          this.ws();
          continue;
        }
        if (c === 125) break;
        this.fail();
      }
    }
    node.children = stack.slice(mark);
    stack.length = mark;
    this.pos++;
    node.length = this.pos - node.offset;
    this.depth--;
    return node;
  }

  private array(parent: JsonNode | undefined): JsonNode {
    if (++this.depth > MAX_NESTING) this.fail();
    const stack = this.stack;
    const mark = stack.length;
    const node = makeNode('array', this.pos, 0, undefined, parent, undefined);
    this.pos++;
    this.ws();
    if (this.text.charCodeAt(this.pos) !== 93) {
      for (;;) {
        stack.push(this.value(node));
        this.ws();
        const c = this.text.charCodeAt(this.pos);
        if (c === 44) {
          this.pos++;
          this.ws();
          continue;
        }
        if (c === 93) break;
        this.fail();
      }
    }
    node.children = stack.slice(mark);
    stack.length = mark;
    this.pos++;
    node.length = this.pos - node.offset;
    this.depth--;
    return node;
  }
}

const INTERN_MAX = 24;
const INTERN_SLOTS = 4096;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
/** A run of string characters that need no attention (not a quote, backslash or control character). */
const PLAIN = /[^"\\\u0000-\u001f]*/y;

function hasKey(stack: JsonNode[], from: number, name: string): boolean {
  for (let i = from; i < stack.length; i++) if (stack[i].children![0].value === name) return true;
  return false;
}
