// Where a position sits relative to pScheduler's payloads: inside a test's `spec`, an archive's `data` or a
// context's `data` (and at which path below it), or on the `type` / `archiver` / `context` naming the plug-in.
// Completion and hover both start here.
import { nodePath, propertyValue, stringValue, type JsonNode, type JsonPath } from '../parse';
import { plugin as pluginData, type PluginData, type PluginKind } from '../pscheduler/catalog';
import { selectedVersion, type SelectedVersion } from '../pscheduler/fields';

interface SectionRole {
  kind: PluginKind;
  /** The key naming the plug-in, and the key holding its value. */
  nameKey: string;
  valueKey: string;
}

const SECTIONS: Record<string, SectionRole> = {
  tests: { kind: 'test', nameKey: 'type', valueKey: 'spec' },
  archives: { kind: 'archiver', nameKey: 'archiver', valueKey: 'data' },
  contexts: { kind: 'context', nameKey: 'context', valueKey: 'data' },
};

/** A test / archive / context object of the template. */
export interface PluginOwner {
  role: SectionRole;
  /** The test / archive / context object. */
  owner: JsonNode;
  /** Its plug-in name as written (undefined when absent or not a string). */
  name?: string;
  plugin?: PluginData;
}

/** A position below a spec / data value. */
export interface PayloadPosition extends PluginOwner {
  plugin: PluginData;
  /** The spec / data value. */
  value: JsonNode;
  selected: SelectedVersion;
  /** The path below the value (of the object or value in question). */
  path: JsonPath;
}

/** The value nodes from the root down to `node` (property nodes skipped): entry k has a path of length k. */
function valueChain(node: JsonNode): JsonNode[] {
  const chain: JsonNode[] = [];
  for (let n: JsonNode | undefined = node; n; n = n.parent) if (n.type !== 'property') chain.unshift(n);
  return chain;
}

/**
 * The owner of a value node at `[section, name, ...]` (the node itself or one below it), or undefined outside
 * tests / archives / contexts. Found by walking up from the node, so an earlier duplicate of a name is its own owner.
 */
export function ownerOf(node: JsonNode): PluginOwner | undefined {
  const path = nodePath(node);
  if (path.length < 2 || typeof path[0] !== 'string' || typeof path[1] !== 'string') return undefined;
  const role = Object.prototype.hasOwnProperty.call(SECTIONS, path[0]) ? SECTIONS[path[0]] : undefined;
  if (!role || path[1].startsWith('#')) return undefined; // a `#` name is a comment pSConfig drops
  const chain = valueChain(node);
  const owner = chain[2];
  if (owner?.type !== 'object' || chain[0].parent) return undefined;
  const name = stringValue(propertyValue(owner, role.nameKey));
  const plugin = name !== undefined && !name.includes('{%') ? pluginData(role.kind, name) : undefined;
  return { role, owner, name, plugin };
}

/**
 * The payload position of a value node below (or at) a spec / data. Undefined outside one, when the plug-in is
 * unknown, or below a `#` comment key (pScheduler never sees those).
 */
export function payloadOf(node: JsonNode): PayloadPosition | undefined {
  const path = nodePath(node);
  if (path.length < 3) return undefined;
  const o = ownerOf(node);
  if (!o?.plugin || path[2] !== o.role.valueKey) return undefined;
  const rest = path.slice(3);
  if (rest.some((seg) => typeof seg === 'string' && seg.startsWith('#'))) return undefined;
  const value = valueChain(node)[3];
  if (value?.type !== 'object' || propertyValue(o.owner, o.role.valueKey) !== value) return undefined;
  return { ...o, plugin: o.plugin, value, selected: selectedVersion(o.plugin, value), path: rest };
}

/** Is the template path the plug-in name of a test / archive / context (`tests.X.type`, ...)? */
export function isPluginNamePath(path: JsonPath): boolean {
  return (
    path.length === 3 &&
    typeof path[0] === 'string' &&
    Object.prototype.hasOwnProperty.call(SECTIONS, path[0]) &&
    path[2] === SECTIONS[path[0]].nameKey &&
    typeof path[1] === 'string' &&
    !path[1].startsWith('#')
  );
}

/** "spec" / "data" word for messages. */
export function payloadWord(p: PluginData): string {
  return p.kind === 'test' ? `${p.name} spec` : `${p.name} ${p.kind}'s data`;
}
