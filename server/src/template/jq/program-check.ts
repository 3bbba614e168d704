// Checks on a jq program's text before jq sees it.
//  - Module words are refused: `import "x" as $d {search: "/etc"};` reads any .json file of this machine at compile
//    time (measured with jq 1.6, also with `-L`), `include` reads .jq files, `modulemeta` and `get_search_list`
//    inspect the module path. The test is a plain word search over the whole text (strings and comments too), so
//    no quoting or comment trick gets a module word past it; the price is that a template cannot use these words
//    even inside a string literal.
//  - selfContained tells whether an expression is one balanced piece of jq (brackets matched outside strings and
//    comments), so that many expressions can be compile-checked together in one program without one closing
//    another's brackets. It only decides how expressions are grouped: a wrong answer costs a separate check.

const MODULE_WORD = /(?<![A-Za-z0-9_$])(import|include|modulemeta|get_search_list)(?![A-Za-z0-9_])/;

/** Why this program is refused, or undefined. */
export function refusedJqFeature(program: string): string | undefined {
  const m = MODULE_WORD.exec(program);
  if (!m) return undefined;
  return `\`${m[1]}\` is not available here: jq modules would read files of this machine, so \`import\`, \`include\`, \`modulemeta\` and \`get_search_list\` are refused wherever they appear (also inside strings)`;
}

const OPEN: Record<string, string> = { '(': ')', '[': ']', '{': '}' };
const CLOSE = new Set([')', ']', '}']);

/**
 * True when brackets balance outside string literals (with `\(...)` interpolation, itself nested code) and
 * comments. Comments end at a newline; one ending in a backslash is refused (jq 1.7 continues such a comment onto
 * the next line, 1.6 does not, so its extent depends on the jq version).
 */
export function selfContained(expr: string): boolean {
  // Each stack entry is a closing bracket, or '"' for "inside a string whose interpolation closed back into it".
  const stack: string[] = [];
  let i = 0;
  const n = expr.length;
  let inString = false;
  while (i < n) {
    const c = expr[i];
    if (inString) {
      if (c === '\\') {
        if (expr[i + 1] === '(') {
          stack.push('"');
          stack.push(')');
          inString = false;
          i += 2;
          continue;
        }
        i += 2;
        continue;
      }
      if (c === '"') inString = false;
      i++;
      continue;
    }
    if (c === '"') {
      inString = true;
      i++;
      continue;
    }
    if (c === '#') {
      let j = i;
      while (j < n && expr[j] !== '\n' && expr[j] !== '\r') j++;
      if (j > i && expr[j - 1] === '\\') return false;
      i = j;
      continue;
    }
    if (OPEN[c]) stack.push(OPEN[c]);
    else if (CLOSE.has(c)) {
      if (stack.pop() !== c) return false;
      // Closing an interpolation returns into its string.
      if (c === ')' && stack[stack.length - 1] === '"') {
        stack.pop();
        inString = true;
      }
    }
    i++;
  }
  return !inString && stack.length === 0;
}
