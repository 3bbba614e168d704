// Hovers inside pScheduler's payloads: on a key (or a scalar value) of a test's `spec`, an archive's `data` or a
// context's `data`, what the field is, takes (type, unit, allowed values), which schema versions declare it and
// whether the version the value is read with allows it; on `type` / `archiver` / `context`, the plug-in.
import type { TemplateModel } from '../model';
import { closestKey } from '../pscheduler/validate';
import { closestName } from '../rules/closest-name';
import { acceptsOtherKeys, fieldChoice, fieldsIn, selectedVersion } from '../pscheduler/fields';
import { propertyValue, nodeAtOffset, type JsonNode } from '../parse';
import { pluginNames, toolsFor, type Schema } from '../pscheduler/catalog';
import { code } from './markdown';
import { isPluginNameProperty } from './pscheduler-completion';
import { ownerOf, payloadOf, payloadWord, type PayloadPosition } from './pscheduler-position';
import { fieldLines, pluginLines, selectedWords } from './pscheduler-text';

export interface PayloadHover {
  start: number;
  end: number;
  markdown: string;
}

export function hoverPayload(model: TemplateModel, offset: number): PayloadHover | undefined {
  const node = nodeAtOffset(model.parsed.root, offset, false);
  if (!node || node.type === 'object' || node.type === 'array' || node.type === 'property') return undefined;
  const prop = node.parent;
  if (prop?.type !== 'property' || prop.parent?.type !== 'object') return undefined;
  const range = { start: node.offset, end: node.offset + node.length };
  const key = prop.children?.[0];
  if (typeof key?.value !== 'string') return undefined;
  if (prop.children?.[1] === node) {
    const kind = isPluginNameProperty(prop);
    if (kind) return pluginHover(prop.parent, node, range);
  }
  const at = payloadOf(prop.parent);
  if (!at) return undefined;
  return { ...range, markdown: fieldHover(at, key.value) };
}

function pluginHover(owner: JsonNode, node: JsonNode, range: { start: number; end: number }): PayloadHover | undefined {
  const o = ownerOf(owner);
  if (!o || node.type !== 'string') return undefined;
  const name = String(node.value);
  if (name.includes('{%')) return undefined; // a variable's own hover applies
  if (!o.plugin) {
    const closest = closestName(name, pluginNames(o.role.kind));
    const what = o.role.kind === 'test' ? 'test type' : o.role.kind;
    return {
      ...range,
      markdown: `pScheduler has no ${what} ${code(name)}${closest ? `: did you mean ${code(closest)}?` : '.'} Known: ${pluginNames(o.role.kind).join(', ')}.`,
    };
  }
  const value = propertyValue(owner, o.role.valueKey);
  const selected = value?.type === 'object' ? selectedVersion(o.plugin, value) : undefined;
  return { ...range, markdown: pluginLines(o.plugin, selected).join('\n\n') };
}

function fieldHover(at: PayloadPosition, key: string): string {
  const p = at.plugin;
  const where = at.path.length ? `of ${code(pathText(at.path))} in the ${payloadWord(p)}` : `of the ${payloadWord(p)}`;
  if (key.startsWith('#'))
    return `${code(key)} is a comment: pSConfig (5.2 and later) and pScheduler remove \`#\` keys, so pScheduler never sees it.`;
  const f = fieldChoice(p, at.selected, at.path, key);
  if (f) {
    const lines = [`**${code(key)}**: field ${where}`, ...fieldLines(p, f, at.selected, at.path.length > 0)];
    if (p.kind === 'test' && at.path.length === 0) lines.push(...toolLines(p.name, key));
    return lines.join('\n\n');
  }
  if (key === '_meta' && at.path.length === 0)
    return `${code(key)} ${where}: pSConfig removes \`_meta\` only next to \`${at.role.nameKey}\`, not inside \`${at.role.valueKey}\`, so pScheduler receives it here and refuses it. Move it up one level.`;
  if (acceptsOtherKeys(p, at.selected.applied, at.path))
    return `${code(key)} ${where}: not a field pScheduler declares, but this object accepts other keys (${selectedWords(p, at.selected)}).`;
  const closest = closestKey(key, declared(at));
  return `${code(key)} is **not** a field ${where} (${selectedWords(p, at.selected)}): pScheduler refuses it.${
    closest ? ` Did you mean ${code(closest)}?` : ''
  }`;
}

/** Tools whose can-run lists the options it takes (pscheduler-tool-<name>/can-run) and leave this key out. */
function toolLines(testType: string, key: string): string[] {
  const tools = toolsFor(testType);
  const refusing = tools.filter((t) => t.supportedOptions && !t.supportedOptions.includes(key)).map((t) => t.name);
  if (!refusing.length || key === 'schema') return [];
  const taking = tools.filter((t) => !refusing.includes(t.name)).map((t) => code(t.name));
  return [
    `Tools whose option list leaves it out (their can-run refuses a spec with it): ${refusing
      .map((n) => code(n))
      .join(', ')}.${taking.length ? ` Tools that may take it: ${taking.join(', ')}.` : ''}`,
  ];
}

function declared(at: PayloadPosition): Record<string, Schema> {
  const out: Record<string, Schema> = {};
  for (const [k, f] of fieldsIn(at.plugin, at.selected.applied, at.path)) out[k] = f.schema;
  return out;
}

function pathText(path: readonly (string | number)[]): string {
  let s = '';
  for (const seg of path) s += typeof seg === 'number' ? `[${seg}]` : s ? `.${seg}` : seg;
  return s;
}
