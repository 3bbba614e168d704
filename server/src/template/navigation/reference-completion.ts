// Completion and hover of the `reference` keys perfSONAR 5's Grafana side reads, in a task's `reference` object
// (the keys and what they do: grafana/reference-keys.ts; whether the agent draws the task: grafana/agent-view.ts).
import type { TemplateModel } from '../model';
import { nodeAtOffset, nodePath, type JsonNode } from '../parse';
import { GRAFANA_REFERENCE_KEYS, referenceKey, type ReferenceKey } from '../grafana/reference-keys';
import { grafanaLensTitle, grafanaView } from '../grafana/agent-view';
import type { NavCompletionItem, NavCompletionResult } from './completion-items';
import { followedByProperty, snippetEscape, wordAround } from './pscheduler-completion';
import { code } from './markdown';

/** The task whose `reference` object `obj` is, or undefined. */
function taskOfReference(obj: JsonNode | undefined): string | undefined {
  if (obj?.type !== 'object') return undefined;
  const path = nodePath(obj);
  return path.length === 3 && path[0] === 'tasks' && path[2] === 'reference' ? String(path[1]) : undefined;
}

function result(items: NavCompletionItem[]): NavCompletionResult {
  // Merged with the schema service's items after ours, like a spec's keys.
  return { context: 'pscheduler', items };
}

function valueOf(k: ReferenceKey, task: string): { plain: string; snippet: string } {
  const name = JSON.stringify(task).slice(1, -1);
  return {
    plain: k.value.plain.replace('{task}', name),
    snippet: k.value.snippet.replace('{task}', snippetEscape(name)),
  };
}

function keyItems(
  model: TemplateModel,
  obj: JsonNode,
  editing: JsonNode | undefined,
  range: { start: number; end: number },
  form: 'inner' | 'property',
): NavCompletionResult {
  const task = taskOfReference(obj)!;
  const present = new Set(
    (obj.children ?? []).filter((p) => p !== editing).map((p) => String(p.children?.[0]?.value ?? '')),
  );
  const comma = form === 'property' && followedByProperty(model.text, range.end) ? ',' : '';
  const items = GRAFANA_REFERENCE_KEYS.filter((k) => !present.has(k.key)).map((k): NavCompletionItem => {
    const v = valueOf(k, task);
    const item: NavCompletionItem = {
      label: k.key,
      kind: 'field',
      detail: k.takes,
      documentation: k.documentation,
      insertText: form === 'inner' ? k.key : `"${k.key}": ${v.plain}${comma}`,
      replaceStart: range.start,
      replaceEnd: range.end,
      filterText: form === 'inner' ? k.key : `"${k.key}"`,
    };
    if (form === 'property') item.snippet = `"${k.key}": ${v.snippet}${comma}`;
    return item;
  });
  return result(items);
}

/**
 * At `offset` in or around `node`: the reference keys (a key being typed, or a new property between tokens of a
 * task's `reference`), or a key's usual value (inside its string, or after its colon). Undefined elsewhere.
 */
export function completeReference(
  model: TemplateModel,
  node: JsonNode,
  offset: number,
): NavCompletionResult | undefined {
  const text = model.text;
  if (node.type === 'object' && taskOfReference(node)) {
    const prev = (node.children ?? []).filter((p) => p.offset < offset).pop();
    if (prev?.colonOffset !== undefined && !prev.children?.[1] && offset > prev.colonOffset)
      return valueItems(node, prev, { start: offset, end: offset });
    const w = wordAround(text, offset);
    return keyItems(model, node, undefined, w, 'property');
  }
  if (
    node.type === 'property' &&
    taskOfReference(node.parent) &&
    node.colonOffset !== undefined &&
    offset > node.colonOffset
  )
    return valueItems(node.parent!, node, { start: offset, end: offset });
  if (node.type !== 'string' || node.parent?.type !== 'property') return undefined;
  const prop = node.parent;
  const obj = prop.parent;
  if (!taskOfReference(obj)) return undefined;
  const closedEnd = node.offset + node.length - 1;
  const closed = node.length >= 2 && text.charCodeAt(closedEnd) === 34;
  if (prop.children?.[0] === node) {
    // A key: the bare key inside its quotes, or (no colon yet) the whole property.
    if (prop.colonOffset === undefined)
      return keyItems(model, obj!, prop, { start: node.offset, end: node.offset + node.length }, 'property');
    return keyItems(
      model,
      obj!,
      prop,
      { start: node.offset + 1, end: closed ? closedEnd : node.offset + node.length },
      'inner',
    );
  }
  return valueItems(obj!, prop, { start: node.offset, end: node.offset + node.length });
}

/** The usual value of the key of `prop`, written as JSON over `range`. */
function valueItems(
  obj: JsonNode,
  prop: JsonNode,
  range: { start: number; end: number },
): NavCompletionResult | undefined {
  const k = referenceKey(String(prop.children?.[0]?.value ?? ''));
  const task = taskOfReference(obj);
  if (!k || task === undefined) return undefined;
  const v = valueOf(k, task);
  return result([
    {
      label: v.plain,
      kind: 'value',
      detail: k.takes,
      documentation: k.documentation,
      insertText: v.plain,
      snippet: v.snippet,
      replaceStart: range.start,
      replaceEnd: range.end,
    },
  ]);
}

/** Hover on one of the keys in a task's `reference`: what reads it, and for display-task-name what the agent draws. */
export function hoverReference(
  model: TemplateModel,
  offset: number,
): { start: number; end: number; markdown: string } | undefined {
  const node = nodeAtOffset(model.parsed.root, offset, false);
  const prop = node?.parent;
  if (node?.type !== 'string' || prop?.type !== 'property' || prop.children?.[0] !== node) return undefined;
  const task = taskOfReference(prop.parent);
  const k = referenceKey(String(node.value));
  if (task === undefined || !k) return undefined;
  const parts = [`**${code(k.key)}** (read by perfSONAR 5's Grafana)`, k.documentation];
  if (k.key === 'display-task-name' || k.key === 'display-task-group') {
    const v = grafanaView(model).find((x) => x.task === task);
    if (v) parts.push(`This task: ${grafanaLensTitle(v).replace(/^Grafana: /, '')}.`);
  }
  return { start: node.offset, end: node.offset + node.length, markdown: parts.join('\n\n') };
}
