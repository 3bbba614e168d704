// The JSON AST node shared by both parsers (same shape as jsonc-parser's Node, so its helpers work on it).

export type JsonNodeType = 'object' | 'array' | 'property' | 'string' | 'number' | 'boolean' | 'null';
export type JsonPath = (string | number)[];

export interface JsonNode {
  type: JsonNodeType;
  offset: number;
  length: number;
  /** Decoded value for string/number/boolean/null nodes. */
  value?: string | number | boolean | null;
  parent?: JsonNode;
  /** object: property nodes; array: items; property: [key, value?]. */
  children?: JsonNode[];
  colonOffset?: number;
  /** On property nodes whose key starts with `#`: a comment (pSConfig 5.2+ strips these before validation). */
  comment?: boolean;
}

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

/** Nodes get their fields in one fixed order (two shapes: property nodes also carry colonOffset/comment), so
 *  V8 keeps property access on them at most bimorphic; leaving the two fields off the other ~100,000 nodes of a
 *  large template saves megabytes of young-generation copying. */
export function makeNode(
  type: JsonNodeType,
  offset: number,
  length: number,
  value: string | number | boolean | null | undefined,
  parent: JsonNode | undefined,
  children: JsonNode[] | undefined,
): JsonNode {
  if (type === 'property')
    return { type, offset, length, value, parent, children, colonOffset: undefined, comment: undefined };
  return { type, offset, length, value, parent, children };
}
