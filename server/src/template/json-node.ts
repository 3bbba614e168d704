// The JSON AST node every rule and navigation feature reads: a view of one entry of the compact tree (tree.ts).
import type { JsonNode } from './tree';

export { JsonNode } from './tree';
export type { JsonNodeType, JsonPath } from './tree';

export interface DuplicateKey {
  key: string;
  /** Key node of the later occurrence (the one whose value pSConfig keeps: Python's json keeps the last). */
  node: JsonNode;
  /** Key node of the first occurrence. */
  first: JsonNode;
}

export interface SyntaxProblem {
  message: string;
  start: number;
  end: number;
  /** A value nested too deep to look inside (nesting.ts); otherwise a syntax error. */
  tooDeep?: 'error' | 'warning';
}
