// Completion inside pScheduler's payloads: the keys of a test's `spec`, an archive's `data` or a context's `data`
// (at any depth) by plug-in and schema version, the values of an enumerated or boolean field, `schema` itself,
// and the plug-in name of `type` / `archiver` / `context`. A key of a later version is offered too, marked, with
// an edit setting `schema` to the version that introduces it (a quick fix does the same for a key already written).
import type { TemplateModel } from '../model';
import { nodePath, propertyValue, type JsonNode } from '../parse';
import {
  acceptedVersions,
  plugin as pluginData,
  pluginNames,
  type PluginData,
  type PluginKind,
  type Schema,
} from '../pscheduler/catalog';
import {
  fieldChoices,
  fieldsIn,
  schemasAt,
  valueChoices,
  valueShape,
  type FieldChoice,
  type SelectedVersion,
} from '../pscheduler/fields';
import type { NavCompletionItem, NavCompletionResult } from './completion-items';
import { ownerOf, payloadOf, payloadWord, type PayloadPosition } from './pscheduler-position';
import { fieldLines, pluginDetail, pluginLines } from './pscheduler-text';

/** A range of the text to replace, and whether it lies inside a string's quotes. */
interface Replace {
  start: number;
  end: number;
  /** inner: between a string's quotes (the text is the bare value); json: a JSON value or property is written. */
  form: 'inner' | 'json';
}

type OffsetEdit = { start: number; end: number; newText: string };

function result(items: NavCompletionItem[]): NavCompletionResult {
  return { context: 'pscheduler', items };
}

// ---- keys ---------------------------------------------------------------------------------------------------

/**
 * Keys for the object `obj` (below a spec / data, or the value itself). `editing` is the property whose key is
 * being typed (not counted as present); `withValue`: the text written is `"key": value` (no colon yet).
 */
export function payloadKeys(
  model: TemplateModel,
  obj: JsonNode,
  editing: JsonNode | undefined,
  range: Replace,
  withValue: boolean,
): NavCompletionResult | undefined {
  const at = payloadOf(obj);
  if (!at) return undefined;
  const present = new Set<string>();
  for (const prop of obj.children ?? []) {
    const k = prop.children?.[0];
    if (prop !== editing && typeof k?.value === 'string') present.add(k.value);
  }
  const items: NavCompletionItem[] = [];
  for (const f of fieldChoices(at.plugin, at.selected, at.path)) {
    if (present.has(f.key)) continue;
    if (!f.inSelected && f.needsVersion === undefined) continue; // only in earlier versions: not offered
    items.push(keyItem(model, at, f, range, withValue));
  }
  return result(items);
}

function keyItem(
  model: TemplateModel,
  at: PayloadPosition,
  f: FieldChoice,
  range: Replace,
  withValue: boolean,
): NavCompletionItem {
  const p = at.plugin;
  const escaped = JSON.stringify(f.key).slice(1, -1);
  let insertText = range.form === 'inner' && !withValue ? escaped : `"${escaped}"`;
  let snippet: string | undefined;
  if (withValue) {
    // `schema` itself: any version the plug-in takes, not only the one its current schema names
    const value = f.key === 'schema' && at.path.length === 0 ? versionText(p) : valueText(p, f);
    const comma = followedByProperty(model.text, range.end) ? ',' : '';
    insertText = `"${escaped}": ${value.plain}${comma}`;
    snippet = `"${snippetEscape(escaped)}": ${value.snippet}${comma}`;
  }
  const detailParts: string[] = [];
  if (f.required) detailParts.push('required');
  if (!f.inSelected && f.needsVersion !== undefined) detailParts.push(`needs schema ${f.needsVersion}: sets "schema"`);
  else if (f.versions.length && f.versions[0] > 1) detailParts.push(`since schema ${f.versions[0]}`);
  detailParts.push(f.key === 'schema' && at.path.length === 0 ? `${p.name} schema version` : f.takes);
  const item: NavCompletionItem = {
    label: f.key,
    kind: 'field',
    detail: detailParts.join(' · '),
    documentation: fieldLines(p, f, at.selected, at.path.length > 0).join('\n\n'),
    insertText,
    replaceStart: range.start,
    replaceEnd: range.end,
    sortText: `${f.required ? 0 : f.inSelected ? 1 : 2}${f.key}`,
    // what the client compares with the text typed in the range (a quote included when the range has one)
    filterText: range.form === 'json' ? `"${escaped}"` : escaped,
  };
  if (snippet !== undefined) item.snippet = snippet;
  if (!f.inSelected && f.needsVersion !== undefined) {
    const edit = schemaEdit(model.text, at.value, f.needsVersion, range);
    if (edit.prefix !== undefined) {
      item.insertText = edit.prefix + item.insertText;
      if (item.snippet !== undefined) item.snippet = snippetEscape(edit.prefix) + item.snippet;
    } else if (edit.edit) item.additionalEdits = [edit.edit];
  }
  return item;
}

/**
 * Setting `schema` of the spec / data `value` to `version`: its value replaced, or `"schema": N,` put before the
 * value's first property. When that spot touches the completion's own range (an empty spec, or the whole first key
 * being replaced), the text goes in front of the completion's text instead: LSP forbids additional edits that touch
 * the main one.
 */
function schemaEdit(
  text: string,
  value: JsonNode,
  version: number,
  range: Replace,
): { edit?: OffsetEdit; prefix?: string } {
  const current = propertyValue(value, 'schema');
  if (current)
    return { edit: { start: current.offset, end: current.offset + current.length, newText: String(version) } };
  const first = value.children?.[0];
  const at = first ? first.offset : value.offset + 1;
  const multiline = first ? /\n[ \t]*$/.test(text.slice(value.offset, first.offset)) : false;
  let indentStart = first ? first.offset : 0;
  while (indentStart > 0 && (text[indentStart - 1] === ' ' || text[indentStart - 1] === '\t')) indentStart--;
  const indent = first ? text.slice(indentStart, first.offset) : '';
  const newText = `"schema": ${version},${multiline ? `\n${indent}` : ' '}`;
  if (at >= range.start && at <= range.end) return { prefix: newText };
  return { edit: { start: at, end: at, newText } };
}

/** The value written after a new key: plain text, and a snippet placing the cursor (with choices when few). */
function valueText(p: PluginData, f: FieldChoice): { plain: string; snippet: string } {
  const choices = valueChoices(p, [f.schema]);
  if (choices.length === 1) {
    const only = JSON.stringify(choices[0]);
    return { plain: only, snippet: snippetEscape(only) };
  }
  const simple = choices.length > 0 && choices.length <= 12 && choices.every((c) => /^[\w.:/+-]+$/.test(String(c)));
  switch (valueShape(p, f.schema)) {
    case 'string':
      return { plain: '""', snippet: simple ? `"\${1|${choices.join(',')}|}"` : '"$1"' };
    case 'boolean':
      return { plain: '', snippet: '${1|true,false|}' };
    case 'number':
      return { plain: '', snippet: simple ? `\${1|${choices.join(',')}|}` : '$1' };
    case 'object':
      return { plain: '{}', snippet: '{$1}' };
    case 'array':
      return { plain: '[]', snippet: '[$1]' };
    default:
      return { plain: '', snippet: '$1' };
  }
}

function versionText(p: PluginData): { plain: string; snippet: string } {
  const versions = acceptedVersions(p);
  return versions.length === 1
    ? { plain: String(versions[0]), snippet: String(versions[0]) }
    : { plain: '', snippet: `\${1|${versions.join(',')}|}` };
}

export function snippetEscape(s: string): string {
  return s.replace(/[$}\\]/g, (c) => `\\${c}`);
}

/** Is the next significant character after `offset` the start of another property (a key's quote)? */
export function followedByProperty(text: string, offset: number): boolean {
  const m = /^\s*(\S)/.exec(text.slice(offset, offset + 2000));
  return m?.[1] === '"';
}

// ---- values -------------------------------------------------------------------------------------------------

/**
 * Values for the member `key` of `holder` (an object or array below a spec / data, or the value itself). `inside`
 * is the string token the cursor is in, if any: string choices replace its content, others the whole token.
 */
export function payloadValues(
  holder: JsonNode,
  key: string | number,
  range: Replace,
  inside?: { start: number; end: number },
): NavCompletionResult | undefined {
  const at = payloadOf(holder);
  if (!at) return undefined;
  const p = at.plugin;
  const items: NavCompletionItem[] = [];
  const whole = inside ?? range;
  const push = (value: unknown, detail: string, documentation: string | undefined, sort: number): void => {
    const json = JSON.stringify(value);
    const asInner = range.form === 'inner' && typeof value === 'string';
    const r = asInner ? range : whole;
    items.push({
      label: typeof value === 'string' ? value : json,
      kind: 'value',
      detail,
      ...(documentation ? { documentation } : {}),
      insertText: asInner ? json.slice(1, -1) : json,
      filterText: asInner ? json.slice(1, -1) : json,
      replaceStart: r.start,
      replaceEnd: r.end,
      sortText: String(sort).padStart(4, '0'),
    });
  };
  if (at.path.length === 0 && key === 'schema') {
    acceptedVersions(p).forEach((v, i) => push(v, `${p.name} schema ${v}`, versionAdds(p, v), i));
    return result(items);
  }
  const schemas = schemasAt(p, at.selected.applied, [...at.path, key]);
  const found = schemas.length ? schemas : laterSchemas(p, at.selected, [...at.path, key]);
  const detail = `${typeof key === 'string' ? key : 'list item'} · ${payloadWord(p)}`;
  valueChoices(p, found).forEach((v, i) => push(v, detail, undefined, i));
  return result(items);
}

/** The schemas of a path in the first version declaring it (a key not in the selected version). */
function laterSchemas(p: PluginData, selected: SelectedVersion, path: (string | number)[]): Schema[] {
  for (const v of acceptedVersions(p)) {
    if (v <= selected.version || !p.versions[String(v)]) continue;
    const s = schemasAt(p, String(v), path);
    if (s.length) return s;
  }
  return [];
}

/** "Adds `fq-rate`" for a version, compared with the previous one. */
function versionAdds(p: PluginData, v: number): string | undefined {
  if (!p.versions[String(v)] || !p.versions[String(v - 1)]) return undefined;
  const now = fieldsIn(p, String(v), []);
  const before = fieldsIn(p, String(v - 1), []);
  const added = [...now.keys()].filter((k) => !before.has(k));
  return added.length ? `Adds ${added.map((k) => `\`${k}\``).join(', ')}.` : undefined;
}

// ---- plug-in names ------------------------------------------------------------------------------------------

/** Every test type / archiver / context pScheduler has, for the value of `type` / `archiver` / `context`. */
export function pluginNameItems(
  kind: PluginKind,
  range: Replace,
  whole?: { start: number; end: number },
): NavCompletionResult {
  const items = pluginNames(kind).map((name): NavCompletionItem => {
    const p = pluginData(kind, name)!;
    const r = range.form === 'inner' ? range : (whole ?? range);
    return {
      label: name,
      kind: 'plugin',
      detail: pluginDetail(p),
      documentation: pluginLines(p).join('\n\n'),
      insertText: range.form === 'inner' ? name : JSON.stringify(name),
      filterText: range.form === 'inner' ? name : JSON.stringify(name),
      replaceStart: r.start,
      replaceEnd: r.end,
      // obsolete plug-ins last
      sortText: `${p.bundle === 'obsolete' ? 1 : 0}${name}`,
    };
  });
  return result(items);
}

/** Is `prop` the `type` / `archiver` / `context` property of a test / archive / context? */
export function isPluginNameProperty(prop: JsonNode): PluginKind | undefined {
  const obj = prop.parent;
  const key = prop.children?.[0]?.value;
  if (obj?.type !== 'object' || typeof key !== 'string') return undefined;
  const o = ownerOf(obj);
  if (!o || o.owner !== obj || o.role.nameKey !== key || nodePath(obj).length !== 2) return undefined;
  return o.role.kind;
}

// ---- where the cursor is ------------------------------------------------------------------------------------

const WORD = /[\w.+-]/;

/** The bare word (no quotes) around `offset`: what is being typed where no token was recognised. */
export function wordAround(text: string, offset: number): { start: number; end: number } {
  let start = offset;
  while (start > 0 && WORD.test(text[start - 1])) start--;
  let end = offset;
  while (end < text.length && WORD.test(text[end])) end++;
  return { start, end };
}

/**
 * In a string token below a spec / data (a key or a value), or the value of `type` / `archiver` / `context`.
 * `start` / `end` bound the string's content; an unterminated string (the parser runs it to the line's end) is
 * replaced only up to the end of the word at the cursor.
 */
export function completePayloadString(
  model: TemplateModel,
  node: JsonNode,
  offset: number,
  start: number,
  end: number,
): NavCompletionResult | undefined {
  const closed = end < node.offset + node.length;
  const innerEnd = closed ? end : wordAround(model.text, offset).end;
  const parent = node.parent;
  if (parent?.type === 'property' && parent.parent?.type === 'object') {
    if (parent.children?.[0] === node) {
      const withValue = parent.colonOffset === undefined;
      const range: Replace = withValue
        ? { start: node.offset, end: closed ? node.offset + node.length : innerEnd, form: 'json' }
        : { start, end: innerEnd, form: 'inner' };
      return payloadKeys(model, parent.parent, parent, range, withValue);
    }
    const key = parent.children?.[0]?.value;
    if (typeof key !== 'string') return undefined;
    const kind = isPluginNameProperty(parent);
    const whole = { start: node.offset, end: closed ? node.offset + node.length : innerEnd };
    if (kind) return pluginNameItems(kind, { start, end: innerEnd, form: 'inner' }, whole);
    return payloadValues(parent.parent, key, { start, end: innerEnd, form: 'inner' }, whole);
  }
  if (parent?.type === 'array') {
    const index = (parent.children ?? []).indexOf(node);
    const whole = { start: node.offset, end: closed ? node.offset + node.length : innerEnd };
    return payloadValues(parent, index, { start, end: innerEnd, form: 'inner' }, whole);
  }
  return undefined;
}

/** Between tokens of an object or array below a spec / data, after a key's colon, or on a literal there. */
export function completeInPayload(
  model: TemplateModel,
  node: JsonNode,
  offset: number,
): NavCompletionResult | undefined {
  const text = model.text;
  if (node.type === 'object') {
    let prev: JsonNode | undefined;
    for (const prop of node.children ?? []) if (prop.offset < offset) prev = prop;
    const word = wordAround(text, offset);
    if (
      prev?.colonOffset !== undefined &&
      !prev.children?.[1] &&
      offset > prev.colonOffset &&
      /^\s*$/.test(text.slice(prev.colonOffset + 1, word.start))
    )
      return valueAfterColon(prev, { ...word, form: 'json' });
    return payloadKeys(model, node, undefined, { ...word, form: 'json' }, true);
  }
  if (node.type === 'property') {
    const value = node.children?.[1];
    const scalar = value && value.type !== 'object' && value.type !== 'array';
    const range: Replace = scalar
      ? { start: value.offset, end: value.offset + value.length, form: 'json' }
      : { start: offset, end: offset, form: 'json' };
    return valueAfterColon(node, range);
  }
  if (node.type === 'array') {
    const index = (node.children ?? []).filter((c) => c.offset + c.length <= offset).length;
    return payloadValues(node, index, { start: offset, end: offset, form: 'json' });
  }
  // a number, boolean or null: replace it
  const parent = node.parent;
  const range: Replace = { start: node.offset, end: node.offset + node.length, form: 'json' };
  if (parent?.type === 'property' && parent.children?.[1] === node) return valueAfterColon(parent, range);
  if (parent?.type === 'array') return payloadValues(parent, (parent.children ?? []).indexOf(node), range);
  return undefined;
}

function valueAfterColon(prop: JsonNode, range: Replace): NavCompletionResult | undefined {
  const key = prop.children?.[0]?.value;
  const obj = prop.parent;
  if (typeof key !== 'string' || obj?.type !== 'object') return undefined;
  const kind = isPluginNameProperty(prop);
  if (kind) return pluginNameItems(kind, range);
  return payloadValues(obj, key, range);
}
