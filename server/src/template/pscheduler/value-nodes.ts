// A plain JSON value (what the expansion engine builds for each combination) seen as the checks' NodeLike tree,
// so the checks made on a template's text (check.ts, validate.ts, tools.ts) run unchanged on the task JSON the
// agent would send. No offsets: problems on these nodes are reported by path, never by range.
import type { NodeLike } from './nodes';

/** One class, every field always set: the checks read a single object shape (and offsets are always 0). */
class ValueNode implements NodeLike {
  readonly offset = 0;
  readonly length = 0;
  children: ValueNode[] | undefined = undefined;
  constructor(
    readonly type: NodeLike['type'],
    readonly value: string | number | boolean | null | undefined,
    readonly parent: ValueNode | undefined,
  ) {}
}

/** The node tree of a JSON value (objects keep their key order; non-JSON values become null). */
export function valueNode(value: unknown): NodeLike {
  return build(value, undefined, 0);
}

/** Deeper than any spec pScheduler takes: a cycle or a hostile value stops here as null. */
const MAX_DEPTH = 64;

function build(value: unknown, parent: ValueNode | undefined, depth: number): ValueNode {
  if (value === null || depth > MAX_DEPTH) return new ValueNode('null', null, parent);
  switch (typeof value) {
    case 'string':
      return new ValueNode('string', value, parent);
    case 'number':
      return new ValueNode('number', value, parent);
    case 'boolean':
      return new ValueNode('boolean', value, parent);
    case 'object': {
      if (Array.isArray(value)) {
        const node = new ValueNode('array', undefined, parent);
        const kids: ValueNode[] = (node.children = []);
        for (const item of value) kids.push(build(item, node, depth + 1));
        return node;
      }
      const node = new ValueNode('object', undefined, parent);
      const kids: ValueNode[] = (node.children = []);
      for (const key in value) {
        if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
        const prop = new ValueNode('property', undefined, node);
        prop.children = [
          new ValueNode('string', key, prop),
          build((value as Record<string, unknown>)[key], prop, depth + 1),
        ];
        kids.push(prop);
      }
      return node;
    }
    default:
      return new ValueNode('null', null, parent);
  }
}
