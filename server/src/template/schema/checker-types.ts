// What the alternative dispatchers (alternatives.ts) may ask of the schema checker (validator.ts): declared here
// so the dispatchers depend on this small surface and the checker depends on the dispatchers, with no cycle.
import type { JsonNode } from '../parse';
import type { DiagnosticCode, TemplateDiagnostic } from '../rules/diagnostic';
import type { JsonSchema } from './schema-source';

/** Where a value sits while it is checked. */
export interface Frame {
  /** Nearest schema definition name (`#` for the root). */
  def: string;
  /** Property that holds the value (for array items: the array's property). */
  field?: string;
  /** Key node of that property (used to place "missing property" errors). */
  keyNode?: JsonNode;
  item?: boolean;
  /** Inside an object pSConfig does not validate (name outside NameType): problems are warnings. */
  lenient?: boolean;
  /** Properties already reported by an alternative dispatcher. */
  ignore?: ReadonlySet<string>;
}

/** The checker as a dispatcher sees it. */
export interface SchemaCheck {
  readonly defs: Record<string, JsonSchema>;
  check(node: JsonNode, s: JsonSchema, frame: Frame): void;
  report(
    code: DiagnosticCode,
    frame: Frame,
    message: string,
    start: number,
    end: number,
    data?: TemplateDiagnostic['data'],
  ): void;
  regex(pattern: string): RegExp;
  resolve(ref: string): { name: string; schema: JsonSchema };
  wrongType(node: JsonNode, type: string | string[], frame: Frame, what?: string): void;
  patternError(node: JsonNode, s: JsonSchema, frame: Frame): void;
}
