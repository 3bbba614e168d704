// Is this document a MeshConfig file (perfSONAR 4.0) rather than a pSConfig template? Then it gets one diagnostic
// saying so and what to do, plus the list of what a translation would not carry over: not the schema errors a
// template check would give (every required section missing, every MeshConfig key unknown).
//
// The test is pSConfig 4.x's: it translated a file "unless there is an addresses field or includes"
// (perfsonar/psconfig client/psconfig/api_connect.py needs_translation, quoting the 4.x behaviour). Here a file must
// also look like MeshConfig: `organizations`, or `tests` as a list (a template's `tests` is an object).
import type { ParsedTemplate, JsonNode } from '../parse';
import { itemsOf, keyOf, memberProps, keyName, propertyValue, toValue } from '../parse';
import { diag, type TemplateDiagnostic } from '../rules/diagnostic';
import { translateMeshConfig, type NotePath, type TranslationNote } from './translate';

const TEMPLATE_KEYS = ['addresses', 'includes', 'groups', 'tasks'];

export function isMeshConfig(parsed: ParsedTemplate): boolean {
  const root = parsed.root;
  if (root?.type !== 'object') return false;
  let meshConfig = false;
  for (const prop of memberProps(root)) {
    const key = keyName(prop);
    if (TEMPLATE_KEYS.includes(key)) return false;
    if (key === 'organizations' || (key === 'tests' && prop.children?.[1]?.type === 'array')) meshConfig = true;
  }
  return meshConfig;
}

export const TRANSLATE_HINT =
  'Translate it to a pSConfig template: quick fix "Translate MeshConfig to pSConfig", or `psconfig-tools translate FILE`.';

/** The MeshConfig diagnostic (on the first top-level key) and one per translation note, on the place it names. */
export function meshConfigDiagnostics(parsed: ParsedTemplate): TemplateDiagnostic[] {
  const root = parsed.root;
  if (!root) return [];
  const { notes } = translateMeshConfig(toValue(root));
  const first = memberProps(root)[0];
  const at = first ? tokenRange(keyOf(first)) : { start: root.offset, end: root.offset + 1 };
  const lost = notes.filter((n) => n.severity === 'warning').length;
  const summary =
    notes.length === 0
      ? 'Everything in it translates.'
      : `${lost > 0 ? `${lost} of its settings cannot be translated` : 'Everything it asks for translates'}${notes.length > lost ? ` (${notes.length - lost} more remarks)` : ''}: see the notes on them.`;
  const out = [
    diag(
      'psconfig/meshconfig',
      'error',
      `This is a MeshConfig file (perfSONAR 4.0: organizations, sites, hosts, tests), not a pSConfig template: perfSONAR 5 cannot read it and no longer translates it. ${TRANSLATE_HINT} ${summary}`,
      at.start,
      at.end,
      { data: { kind: 'translate-meshconfig' } },
    ),
  ];
  return [...out, ...noteDiagnostics(parsed, notes)];
}

/** A translation's notes as diagnostics on the MeshConfig text. */
export function noteDiagnostics(parsed: ParsedTemplate, notes: TranslationNote[]): TemplateDiagnostic[] {
  const root = parsed.root;
  if (!root) return [];
  return notes.map((n) => {
    const r = noteRange(root, n);
    return diag('psconfig/meshconfig-not-translated', n.severity, `Translation: ${n.message}`, r.start, r.end);
  });
}

/** Where a note belongs: a key's token, or the opening character of an object/array, or a scalar's token. */
function noteRange(root: JsonNode, note: TranslationNote): { start: number; end: number } {
  const found = nodeAtPath(root, note.path);
  return found ?? { start: root.offset, end: root.offset + 1 };
}

function nodeAtPath(root: JsonNode, path: NotePath): { start: number; end: number } | undefined {
  let node: JsonNode | undefined = root;
  let key: JsonNode | undefined;
  for (const step of path) {
    if (!node) return undefined;
    if (typeof step === 'number') {
      node = itemsOf(node)[step];
      key = undefined;
    } else {
      // the last of duplicate keys, the one a JSON reader keeps
      const props = memberProps(node).filter((p) => keyName(p) === step);
      key = props.length > 0 ? keyOf(props[props.length - 1]) : undefined;
      node = propertyValue(node, step);
    }
  }
  if (key) return tokenRange(key);
  if (!node) return undefined;
  return node.type === 'object' || node.type === 'array'
    ? { start: node.offset, end: node.offset + 1 }
    : tokenRange(node);
}

function tokenRange(n: JsonNode): { start: number; end: number } {
  return { start: n.offset, end: n.offset + n.length };
}
