// Quick fixes for reference diagnostics: create the missing object (in the right section, creating the section
// when needed) or replace a near-miss name with the closest defined one. Also renames a misspelt property.
import { closestName } from '../rules/closest-name';
import type { DiagnosticData, ScheduleChange } from '../rules/diagnostic';
import { keyOf, nodeAtOffset, nodePath, propertyValue, stringValue, type JsonNode } from '../parse';
import { isSection, type Reference, type SymbolKind } from '../symbols';
import { singular } from './completion';
import type { TemplateModel } from '../model';
import type { TextEditOffsets } from './names';
import { labelsOfAddress } from './reference-slots';

export interface NavCodeAction {
  title: string;
  edits: TextEditOffsets[];
  isPreferred?: boolean;
}

/** The diagnostic fields quick fixes read (offsets, as the rules produce them). */
export interface FixableDiagnostic {
  start: number;
  end: number;
  code?: string;
  /** A DiagnosticData when the rule gave one (checked by isData). */
  data?: unknown;
}

function isData(d: unknown): d is DiagnosticData {
  return typeof d === 'object' && d !== null && typeof (d as { kind?: unknown }).kind === 'string';
}

export function quickFixes(model: TemplateModel, diag: FixableDiagnostic): NavCodeAction[] {
  const data = isData(diag.data) ? diag.data : undefined;
  if (data?.kind === 'unknown-property') return renameProperty(model, diag, data.property, data.closest);
  if (data?.kind === 'missing-property') return addProperty(model, diag, data.property);
  if (data?.kind === 'replace-value') return replaceValue(model, diag, data.value);
  if (data?.kind === 'set-schema') return setSchema(model, diag, data.version);
  if (data?.kind === 'schedule-change') return scheduleChanges(model, data.changes);
  const ref = referenceOf(model, diag, data?.kind === 'missing-ref' ? data : undefined);
  let kind: SymbolKind | undefined;
  let name: string | undefined;
  let address: string | undefined;
  if (data?.kind === 'missing-ref') {
    kind = data.section as SymbolKind;
    name = data.name;
    address = data.address;
  } else if (
    ref &&
    model.index.definitionsOf(ref.kind, ref.name, ref.kind === 'labels' ? ref.address : undefined).length === 0
  ) {
    kind = ref.kind;
    name = ref.name;
    address = ref.address;
  }
  if (kind === undefined || name === undefined) return [];
  const actions: NavCodeAction[] = [];
  const candidates =
    kind === 'labels' && address !== undefined
      ? labelsOfAddress(model.parsed.root, address)
      : model.index.namesIn(kind);
  const closest = (data?.kind === 'missing-ref' ? data.closest : undefined) ?? closestName(name, candidates);
  if (closest !== undefined && ref) {
    actions.push({
      title: `Change to "${closest}"`,
      edits: [{ start: ref.start, end: ref.end, newText: escapeInner(closest) }],
      isPreferred: true,
    });
  }
  // (Not when the name has been defined since the diagnostic was made.)
  const defined = model.index.definitionsOf(kind, name, kind === 'labels' ? address : undefined).length > 0;
  const create = defined ? undefined : createObject(model, kind, name, address);
  if (create) actions.push(create);
  return actions;
}

type MissingRef = Extract<DiagnosticData, { kind: 'missing-ref' }>;

/**
 * The reference the diagnostic is about, in the current text. Its range, when it still covers exactly that name;
 * otherwise the reference at the data's path with the data's section and name. Ranges come back shifted from clients
 * that count columns differently (Neovim 0.7–0.10 send a diagnostic's byte columns, so any non-ASCII character
 * earlier on the line moves it) or from an older version of the text. Never a guess: without a reference that
 * still holds the same name at the same place in the tree, nothing is edited.
 */
function referenceOf(
  model: TemplateModel,
  diag: FixableDiagnostic,
  data: MissingRef | undefined,
): Reference | undefined {
  const found = model.index.referenceAt(diag.start);
  if (found && found.start === diag.start && found.end === diag.end) {
    if (!data || (found.name === data.name && found.kind === data.section)) return found;
  }
  if (!data?.path) return undefined;
  const path = data.path;
  const kind = data.section as SymbolKind;
  return model.index
    .referencesTo(kind, data.name, kind === 'labels' ? data.address : undefined)
    .find((r) => r.kind === kind && r.name === data.name && samePath(nodePath(r.node), path));
}

function samePath(a: readonly (string | number)[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function escapeInner(s: string): string {
  return JSON.stringify(s).slice(1, -1);
}

function renameProperty(
  model: TemplateModel,
  diag: FixableDiagnostic,
  property: string,
  closest: string | undefined,
): NavCodeAction[] {
  if (!closest) return [];
  const node = nodeAtOffset(model.parsed.root, diag.start, false);
  const key =
    node?.type === 'string' && node.value === property ? node : node?.type === 'property' ? keyOf(node) : undefined;
  if (!key || key.value !== property) return [];
  return [
    {
      title: `Change property "${property}" to "${closest}"`,
      edits: [{ start: key.offset + 1, end: key.offset + key.length - 1, newText: closest }],
      isPreferred: true,
    },
  ];
}

/** pScheduler checks: put the closest known value (test type, archiver, context, tool, enum value) in place.
 *  Only when the range still covers exactly a string (with or without its quotes): a shifted range edits nothing. */
function replaceValue(model: TemplateModel, diag: FixableDiagnostic, value: string): NavCodeAction[] {
  const node = nodeAtOffset(model.parsed.root, diag.start, false);
  if (node?.type !== 'string') return [];
  const whole = node.offset === diag.start && node.offset + node.length === diag.end;
  const inner = node.offset + 1 === diag.start && node.offset + node.length - 1 === diag.end;
  if (!whole && !inner) return [];
  const edit = { start: node.offset + 1, end: node.offset + node.length - 1, newText: escapeInner(value) };
  return [{ title: `Change to "${value}"`, edits: [edit], isPreferred: true }];
}

/** pScheduler checks: a field of a later schema version: set `schema` of the object holding it (the diagnostic is
 *  on that field's key). */
function setSchema(model: TemplateModel, diag: FixableDiagnostic, version: number): NavCodeAction[] {
  const key = nodeAtOffset(model.parsed.root, diag.start, false);
  if (key?.type !== 'string' || key.offset !== diag.start || key.offset + key.length !== diag.end) return [];
  const obj = key.parent?.type === 'property' && key.parent.children?.[0] === key ? key.parent.parent : undefined;
  if (obj?.type !== 'object') return [];
  const current = propertyValue(obj, 'schema');
  const edit = current
    ? { start: current.offset, end: current.offset + current.length, newText: String(version) }
    : insertProperty(model.text, obj, 'schema', version);
  return [{ title: `Set "schema" to ${version}`, edits: [edit], isPreferred: true }];
}

/**
 * The simulated schedule: set the fields of a schedule object that the re-simulation showed to fit
 * (schedule-view/diagnostics.ts); fields already there are replaced, the others added.
 */
function scheduleChanges(model: TemplateModel, changes: readonly ScheduleChange[]): NavCodeAction[] {
  const out: NavCodeAction[] = [];
  for (const c of changes) {
    const obj = model.index.definitionsOf('schedules', c.schedule).at(-1)?.valueNode;
    if (obj?.type !== 'object') continue;
    const edits: TextEditOffsets[] = [];
    const missing: [string, unknown][] = [];
    for (const [key, value] of Object.entries(c.change)) {
      const current = propertyValue(obj, key);
      if (current)
        edits.push({ start: current.offset, end: current.offset + current.length, newText: JSON.stringify(value) });
      else missing.push([key, value]);
    }
    if (missing.length) edits.push(insertProperties(model.text, obj, missing));
    out.push({ title: c.title, edits, isPreferred: out.length === 0 });
  }
  return out;
}

/** insertProperty for several keys at once (one edit: edits at the same offset would be applied in any order). */
function insertProperties(text: string, obj: JsonNode, entries: [string, unknown][]): TextEditOffsets {
  const edits = entries.map(([k, v]) => insertProperty(text, obj, k, v));
  if ((obj.children ?? []).length > 0) return { ...edits[0], newText: edits.map((e) => e.newText).join('') };
  // An empty object: each edit is `\n<indent>"k": v\n<outer indent>`; keep the members and one closing line.
  const close = /\n[ \t]*$/.exec(edits[0].newText)?.[0] ?? '';
  return {
    ...edits[0],
    newText: edits.map((e) => e.newText.slice(0, e.newText.length - close.length)).join(',') + close,
  };
}

/** Placeholder values for required properties, valid for the schema where one can be (a `type` must be chosen). */
const PROPERTY_DEFAULTS: Record<string, unknown> = {
  addresses: {},
  groups: {},
  tests: {},
  tasks: {},
  address: '',
  archiver: 'http',
  data: {},
  context: '',
  spec: {},
  test: '',
  group: '',
  'data-source': { type: 'current-config' },
  'a-addresses': [],
  'b-addresses': [],
  'local-address': { name: '' },
  'target-addresses': [],
  filters: [],
  script: '.',
};

function addProperty(model: TemplateModel, diag: FixableDiagnostic, property: string): NavCodeAction[] {
  const node = nodeAtOffset(model.parsed.root, diag.start, false);
  let obj: JsonNode | undefined;
  if (node?.type === 'object') obj = node;
  else if (node?.type === 'string' && node.parent?.type === 'property' && node.parent.children?.[0] === node)
    obj = node.parent.children?.[1];
  else if (node?.type === 'property') obj = node.children?.[1];
  if (obj?.type !== 'object' || propertyValue(obj, property) !== undefined) return [];
  const value = property in PROPERTY_DEFAULTS ? PROPERTY_DEFAULTS[property] : '';
  return [
    {
      title: `Add the required property "${property}"`,
      edits: [insertProperty(model.text, obj, property, value)],
      isPreferred: true,
    },
  ];
}

/** A minimal, schema-valid object for each section, for the user to fill in. */
function skeleton(kind: SymbolKind, name: string, addressValue?: string): unknown {
  switch (kind) {
    case 'addresses':
      return { address: name };
    case 'groups':
      return { type: 'mesh', addresses: [] };
    case 'tests':
      return { type: '', spec: {} };
    case 'schedules':
      return { repeat: 'PT4H', slip: 'PT4H', sliprand: true };
    case 'archives':
      return { archiver: 'http', data: {} };
    case 'contexts':
      return { context: '', data: {} };
    case 'address-classes':
      return { 'data-source': { type: 'current-config' } };
    case 'subtasks':
      return { test: '' };
    case 'labels':
      return { address: addressValue ?? '' };
    default:
      return {};
  }
}

function createObject(
  model: TemplateModel,
  kind: SymbolKind,
  name: string,
  address: string | undefined,
): NavCodeAction | undefined {
  const root = model.parsed.root;
  if (root?.type !== 'object') return undefined;
  if (kind === 'labels') {
    if (address === undefined) return undefined;
    const addr = propertyValue(propertyValue(root, 'addresses'), address);
    if (addr?.type !== 'object') return undefined;
    const value = skeleton('labels', name, stringValue(propertyValue(addr, 'address')));
    const labels = propertyValue(addr, 'labels');
    const edit =
      labels?.type === 'object'
        ? insertProperty(model.text, labels, name, value)
        : insertProperty(model.text, addr, 'labels', { [name]: value });
    return { title: `Create label "${name}" on address "${address}"`, edits: [edit] };
  }
  if (!isSection(kind)) return undefined;
  const section = propertyValue(root, kind);
  const value = skeleton(kind, name);
  let edit: TextEditOffsets;
  if (section?.type === 'object') edit = insertProperty(model.text, section, name, value);
  else if (section === undefined) edit = insertProperty(model.text, root, kind, { [name]: value });
  else return undefined;
  return { title: `Create ${singular(kind)} "${name}" in "${kind}"`, edits: [edit] };
}

/** Indentation unit of the document (first indented line), two spaces by default. */
export function indentUnit(text: string): string {
  const m = /\n([ \t]+)\S/.exec(text.slice(0, 20000));
  return m ? m[1] : '  ';
}

export function lineIndent(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart, offset + 1))?.[0] ?? '';
}

/** An edit adding `"key": value` as the last property of an object node, indented like its siblings. */
export function insertProperty(text: string, obj: JsonNode, key: string, value: unknown): TextEditOffsets {
  const unit = indentUnit(text);
  const props = obj.children ?? [];
  const objIndent = lineIndent(text, obj.offset);
  const childIndent = props.length > 0 ? lineIndent(text, props[0].offset) : objIndent + unit;
  const body = JSON.stringify(value, null, unit).split('\n').join(`\n${childIndent}`);
  const prop = `${JSON.stringify(key)}: ${body}`;
  if (props.length > 0) {
    const last = props[props.length - 1];
    const at = last.offset + last.length;
    return { start: at, end: at, newText: `,\n${childIndent}${prop}` };
  }
  const close = obj.offset + obj.length - 1;
  return { start: obj.offset + 1, end: close, newText: `\n${childIndent}${prop}\n${objIndent}` };
}
