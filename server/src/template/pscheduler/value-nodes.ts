// A plain JSON value (what the expansion engine builds for each combination) seen as the checks' NodeLike tree,
// so the checks made on a template's text (check.ts, validate.ts, tools.ts) run unchanged on the task JSON the
// agent would send. No offsets: problems on these nodes are reported by path, never by range.
import type { NodeLike } from './nodes';

interface ValueNode extends NodeLike {
  children?: ValueNode[];
  parent?: ValueNode;
}

/** The node tree of a JSON value (objects keep their key order; non-JSON values become null). */
export function valueNode(value: unknown, parent?: ValueNode): NodeLike {
  return build(value, parent, 0);
}

/** Deeper than any spec pScheduler takes: a cycle or a hostile value stops here as null. */
const MAX_DEPTH = 64;

function build(value: unknown, parent: ValueNode | undefined, depth: number): ValueNode {
  if (value === null || depth > MAX_DEPTH) return { type: 'null', offset: 0, length: 0, value: null, parent };
  switch (typeof value) {
    case 'string':
      return { type: 'string', offset: 0, length: 0, value, parent };
    case 'number':
      return { type: 'number', offset: 0, length: 0, value, parent };
    case 'boolean':
      return { type: 'boolean', offset: 0, length: 0, value, parent };
    case 'object': {
      if (Array.isArray(value)) {
        const node: ValueNode = { type: 'array', offset: 0, length: 0, parent, children: [] };
        for (const item of value) node.children!.push(build(item, node, depth + 1));
        return node;
      }
      const node: ValueNode = { type: 'object', offset: 0, length: 0, parent, children: [] };
      for (const key of Object.keys(value)) {
        const prop: ValueNode = { type: 'property', offset: 0, length: 0, parent: node, children: [] };
        prop.children!.push({ type: 'string', offset: 0, length: 0, value: key, parent: prop });
        prop.children!.push(build((value as Record<string, unknown>)[key], prop, depth + 1));
        node.children!.push(prop);
      }
      return node;
    }
    default:
      return { type: 'null', offset: 0, length: 0, value: null, parent };
  }
}
