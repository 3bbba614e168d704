// How deep a template may nest before we stop looking inside. Every walk over a template (the parsers, the model,
// the schema checks, expansion) is recursive and safe up to this depth; beyond it the parser skips the value with
// one diagnostic at the deepest allowed point, and expansion refuses the template with a clear error, so nothing
// ever overflows the stack (V8's own JSON.stringify and structuredClone already fail at 10,000 levels).
// pSConfig itself cannot read much deeper: Python's json raises RecursionError at about 1,000 levels (the default
// recursion limit; CPython Modules/_json.c calls Py_EnterRecursiveCall per object and array).

export const MAX_NESTING = 500;
/** About where pSConfig 5.x's Python json gives up (RecursionError). */
export const PYTHON_JSON_NESTING = 1000;

/**
 * The end (index after the closing bracket) and the deepest nesting of the JSON value whose opening bracket is at
 * `start`, scanned without recursion; strings are skipped with their escapes. An unclosed value ends at the text's end.
 */
export function skipNested(text: string, start: number): { end: number; depth: number } {
  let depth = 0;
  let max = 0;
  let i = start;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      i++;
      while (i < n) {
        const s = text.charCodeAt(i);
        if (s === 92) i += 2;
        else if (s === 34) break;
        else i++;
      }
    } else if (c === 123 || c === 91) {
      if (++depth > max) max = depth;
    } else if (c === 125 || c === 93) {
      if (--depth === 0) return { end: i + 1, depth: max };
    }
    i++;
  }
  return { end: n, depth: max };
}

/**
 * The deepest bracket nesting anywhere in `text`, without recursion, as a JSON scanner that ends an unterminated
 * string at the end of its line sees it (vscode-json-languageservice does; so this never counts less than it).
 */
export function maxNesting(text: string): number {
  let depth = 0;
  let deepest = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 123 || c === 91) {
      if (++depth > deepest) deepest = depth;
    } else if (c === 125 || c === 93) {
      if (depth > 0) depth--;
    } else if (c === 34) {
      for (i++; i < n; i++) {
        const s = text.charCodeAt(i);
        if (s === 92) i++;
        else if (s === 34 || s === 10 || s === 13) break;
      }
    }
  }
  return deepest;
}

/** The diagnostic's message for a value nested `total` levels deep in all. */
export function tooDeepMessage(total: number): { message: string; severity: 'error' | 'warning' } {
  const levels = total.toLocaleString('en-US');
  if (total >= PYTHON_JSON_NESTING)
    return {
      severity: 'error',
      message: `Nested ${levels} levels deep: pSConfig cannot read this template (Python's json stops at about 1,000 levels with a RecursionError). Nothing below this point is checked.`,
    };
  return {
    severity: 'warning',
    message: `Nested ${levels} levels deep: nothing below level ${MAX_NESTING} (this point) is checked or shown.`,
  };
}

/** Thrown by value walks (stripHashKeys) past MAX_NESTING; `path` says where. */
export class TooDeepError extends Error {
  constructor(readonly path: string) {
    super(
      `The template nests more than ${MAX_NESTING} levels deep (at ${path}), so it is not expanded; pSConfig's Python json stops at about 1,000 levels.`,
    );
    this.name = 'TooDeepError';
  }
}
