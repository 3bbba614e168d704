// What the alternative dispatchers (alternatives.ts) may ask of the schema checker (validator.ts): declared here
// so the dispatchers depend on this small surface and the checker depends on the dispatchers, with no cycle.
// Values are node indexes of the compact tree (tree.ts): the check visits every node without making node objects.
import type { Tree } from '../parse';
import type { DiagnosticCode, TemplateDiagnostic } from '../rules/diagnostic';
import type { JsonSchema } from './schema-source';

/** Where a value sits while it is checked. */
export interface Frame {
  /** Nearest schema definition name (`#` for the root). */
  def: string;
  /** Property that holds the value (for array items: the array's property). */
  field?: string;
  /** Key node (index) of that property (used to place "missing property" errors). */
  key?: number;
  item?: boolean;
  /** Inside an object pSConfig does not validate (name outside NameType): problems are warnings. */
  lenient?: boolean;
  /** Properties already reported by an alternative dispatcher. */
  ignore?: ReadonlySet<string>;
}

/** The checker as a dispatcher sees it. */
export interface SchemaCheck {
  readonly tree: Tree;
  readonly defs: Record<string, JsonSchema>;
  check(node: number, s: JsonSchema, frame: Frame): void;
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
  wrongType(node: number, type: string | string[], frame: Frame, what?: string): void;
  patternError(node: number, s: JsonSchema, frame: Frame): void;
}
