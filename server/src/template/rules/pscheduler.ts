// pScheduler's own checks on what a template sends it: every test spec, archiver data and context data (by
// plug-in and schema version), the archive fields around them, empty `_meta` objects pSConfig forgets to remove,
// and whether any tool can run each test. The facts live in server/src/template/pscheduler/ (data in
// schemas/pscheduler/); this file only walks the template and turns problems into diagnostics.
import type { TaskInfo, TemplateModel } from '../model';
import { itemsOf, keyOf, propertyValue, type JsonNode, type Tree } from '../parse';
import {
  allTools,
  plugin as pluginData,
  pschedulerType,
  tool as toolData,
  type PluginData,
} from '../pscheduler/catalog';
import { checkPluginValue, unknownPluginMessage, type ValueCheckOptions } from '../pscheduler/check';
import { memberProp, memberValue, type NodeLike } from '../pscheduler/nodes';
import { templateExpansion } from '../pscheduler/template-expansion';
import { resultCache } from './pscheduler-cache';
import { someToolCanRun, toolsForSpec, toolVerdict, type ToolVerdict } from '../pscheduler/tools';
import type { Problem } from '../pscheduler/validate';
import { NODE } from '../tree';
import { closestName } from './closest-name';
import { findLegacyPlaceholders } from '../legacy-variables';
import type { DiagnosticCode } from './codes';
import { diag, type DiagnosticData, type TemplateDiagnostic } from './diagnostic';

const EMPTY_SPEC: NodeLike = { type: 'object', offset: 0, length: 2, children: [] };
/** The code of a problem in a spec or in archiver / context data (contexts have one version and no rules;
 *  archiver rules are jq compile checks, reported by rules/jq-expressions.ts). */
const CODES: Record<PluginData['kind'], Record<Problem['kind'], DiagnosticCode>> = {
  test: {
    'unknown-property': 'psconfig/spec-unknown-property',
    'needs-schema': 'psconfig/spec-needs-schema',
    'missing-property': 'psconfig/spec-missing-property',
    'invalid-value': 'psconfig/spec-invalid-value',
    rule: 'psconfig/spec-rule',
    'not-validated': 'psconfig/spec-not-validated',
  },
  archiver: {
    'unknown-property': 'psconfig/archiver-data-unknown-property',
    'needs-schema': 'psconfig/archiver-data-needs-schema',
    'missing-property': 'psconfig/archiver-data-missing-property',
    'invalid-value': 'psconfig/archiver-data-invalid-value',
    rule: 'psconfig/archiver-data-invalid-value',
    'not-validated': 'psconfig/archiver-data-not-validated',
  },
  context: {
    'unknown-property': 'psconfig/context-data-unknown-property',
    'needs-schema': 'psconfig/context-data-unknown-property',
    'missing-property': 'psconfig/context-data-missing-property',
    'invalid-value': 'psconfig/context-data-invalid-value',
    rule: 'psconfig/context-data-invalid-value',
    'not-validated': 'psconfig/context-data-invalid-value',
  },
};

export function checkPscheduler(model: TemplateModel): TemplateDiagnostic[] {
  const out: TemplateDiagnostic[] = [];
  const { text, tree } = model.parsed;
  const isIntLiteral = (n: NodeLike): boolean =>
    n.type === 'number' && !/[.eE]/.test(text.slice(n.offset, n.offset + n.length));
  // one options object for every check of this template (checkers are cached per options object)
  const expansion = templateExpansion(model);
  const opts = { expansion, isIntLiteral };
  const cache = resultCache(model);

  const specOk = new Map<string, { plugin: PluginData; spec: JsonNode; clean: boolean }>();
  // kept only for tasks that list tools
  let withTools = false;
  for (const t of model.tasks) if (hasTools(tree, t)) withTools = true;

  // Sections are walked on tree indexes: a test read back from the cache costs a slice and a lookup, no node views.
  // Loops and module-level functions, no callbacks: V8 keeps a function's optimized code only while a closure of
  // it lives, so closures made per check were compiled again on every version.
  for (const i of objectsOf(model, 'tests')) {
    const name = tree.str(tree.parent[i] + 1);
    // whether every task using the test lists tools changes what is said about tools
    const u = model.usersOf('tests', name);
    const context = u.length && allHaveTools(tree, u) ? '1' : '0';
    let entry = cache.lookup(i, 'tests', context, name);
    if (!entry) {
      const found: TemplateDiagnostic[] = [];
      const r = checkTest(model, name, i, opts, found);
      entry = cache.store(i, found, r);
    }
    cache.emit(entry, i, out);
    if (withTools && entry.plugin) {
      const spec = memberValue(tree.node(i), 'spec');
      const p = pluginData('test', entry.plugin);
      if (spec && p) specOk.set(name, { plugin: p, spec, clean: entry.clean });
    }
  }

  // archives and contexts: their data by plug-in, and the fields around it
  for (const [section, checkObject] of DATA_CHECKS)
    for (const i of objectsOf(model, section)) {
      let entry = cache.lookup(i, section, '', tree.str(tree.parent[i] + 1));
      if (!entry) {
        const found: TemplateDiagnostic[] = [];
        checkObject(tree.node(i), opts, found);
        entry = cache.store(i, found, undefined);
      }
      cache.emit(entry, i, out);
    }

  for (const task of model.tasks) {
    if (!withTools || !hasTools(tree, task)) continue;
    const toolsProp = memberProp(task.node, 'tools');
    const t = task.test !== undefined ? specOk.get(task.test) : undefined;
    if (!toolsProp || !t) continue;
    taskTools(t.plugin, t.clean ? t.spec : undefined, toolsProp, expansion, out);
  }
  return out;
}

type PluginOptions = ValueCheckOptions & { expansion: ReturnType<typeof templateExpansion> };

/** Read on tree indexes: a node view's children would make a view per property of every task. */
function hasTools(tree: Tree, t: TaskInfo): boolean {
  return tree.propertyValue(t.index, 'tools') >= 0;
}

function allHaveTools(tree: Tree, tasks: readonly TaskInfo[]): boolean {
  for (let k = 0; k < tasks.length; k++) if (!hasTools(tree, tasks[k])) return false;
  return true;
}

const DATA_CHECKS = [
  ['archives', checkArchive],
  ['contexts', checkContext],
] as const;

/** pScheduler's checks of test `name` (tree index i): its spec, `_meta`, and whether any tool can run it. */
function checkTest(
  model: TemplateModel,
  name: string,
  i: number,
  opts: PluginOptions,
  found: TemplateDiagnostic[],
): { plugin: string; clean: boolean } | undefined {
  const test = model.parsed.tree.node(i);
  metaKept(test, 'test', found);
  const p = pluginOf('test', propertyValue(test, 'type'), 'psconfig/unknown-test-type', found);
  const specProp = memberProp(test, 'spec');
  if (!p || !specProp) return undefined;
  const spec = specProp.children![1];
  const r = checkPluginValue(p, spec, opts);
  emit(r.problems, p, keyOf(specProp), found);
  const clean = !r.problems.some((q) => q.severity === 'error');
  if (clean) noToolAtAll(model, name, p, spec, keyOf(specProp), opts, found);
  return { plugin: p.name, clean };
}

function checkArchive(archive: JsonNode, opts: PluginOptions, found: TemplateDiagnostic[]): void {
  metaKept(archive, 'archive', found);
  archiveFields(archive, found);
  const p = pluginOf('archiver', propertyValue(archive, 'archiver'), 'psconfig/unknown-archiver', found);
  const dataProp = memberProp(archive, 'data');
  if (!p || !dataProp) return;
  const r = checkPluginValue(p, dataProp.children![1], opts);
  emit(r.problems, p, keyOf(dataProp), found);
}

function checkContext(context: JsonNode, opts: PluginOptions, found: TemplateDiagnostic[]): void {
  metaKept(context, 'context', found);
  const p = pluginOf('context', propertyValue(context, 'context'), 'psconfig/unknown-context-type', found);
  const dataProp = memberProp(context, 'data');
  if (!p || !dataProp) return;
  const r = checkPluginValue(p, dataProp.children![1], opts);
  emit(r.problems, p, keyOf(dataProp), found);
}

/**
 * The value indexes of a section's objects, as pSConfig reads them (tree.memberList: no `#` comments, the last of
 * duplicate names), on tree indexes. An object's name is the key of its property (`tree.parent[i] + 1`).
 */
function objectsOf(model: TemplateModel, section: 'tests' | 'archives' | 'contexts'): number[] {
  const out: number[] = [];
  const { tree } = model.parsed;
  if (!model.parsed.root) return out;
  const props = tree.memberList(tree.propertyValue(0, section));
  for (let k = 0; k < props.length; k++) {
    const v = tree.propValue(props[k]);
    if (tree.type(v) === NODE.OBJECT) out.push(v);
  }
  return out;
}

/** The plug-in a `type` / `archiver` / `context` string names, or a diagnostic when pScheduler has none. */
function pluginOf(
  kind: 'test' | 'archiver' | 'context',
  node: JsonNode | undefined,
  code: DiagnosticCode,
  out: TemplateDiagnostic[],
): PluginData | undefined {
  if (node?.type !== 'string') return undefined; // the official schema reports a missing or non-string name
  const name = node.value as string;
  if (name.includes('{%')) return undefined;
  const p = pluginData(kind, name);
  if (p) return p;
  const { message, closest } = unknownPluginMessage(kind, name);
  out.push(
    diag(code, 'error', message, node.offset + 1, node.offset + node.length - 1, {
      data: closest ? { kind: 'replace-value', value: closest } : undefined,
    }),
  );
  return undefined;
}

function emit(problems: Problem[], p: PluginData, ownerKey: JsonNode, out: TemplateDiagnostic[]): void {
  for (const q of problems) {
    // A draft placeholder (`$group::0`) has its own error, which names the variable to write (legacy-placeholders.ts).
    if (q.kind === 'invalid-value' && q.node.type === 'string' && findLegacyPlaceholders(String(q.node.value)).length)
      continue;
    const code = CODES[p.kind][q.kind];
    let at = q.node;
    if (q.kind === 'missing-property') {
      const parent = q.node.parent;
      at = !q.path.length ? ownerKey : parent?.type === 'property' ? parent.children![0] : q.node;
    }
    let data: DiagnosticData | undefined;
    if (q.kind === 'unknown-property')
      data = { kind: 'unknown-property', property: String(at.value), closest: q.closest };
    else if (q.kind === 'missing-property' && q.property) data = { kind: 'missing-property', property: q.property };
    else if (q.kind === 'needs-schema' && q.version !== undefined) data = { kind: 'set-schema', version: q.version };
    else if (q.kind === 'invalid-value' && q.closest) data = { kind: 'replace-value', value: q.closest };
    out.push(diag(code, q.severity, q.message, at.offset, at.offset + at.length, data ? { data } : undefined));
  }
}

/** pSConfig 5.x removes `_meta` only when it is truthy (task_generator.py _pscheduler_prep): `{}` is sent on. */
function metaKept(obj: JsonNode, what: 'test' | 'archive' | 'context', out: TemplateDiagnostic[]): void {
  const meta = memberProp(obj, '_meta');
  const v = meta?.children?.[1];
  if (!meta || !v) return;
  const falsy =
    v.type === 'null' ||
    v.value === false ||
    v.value === 0 ||
    v.value === '' ||
    ((v.type === 'object' || v.type === 'array') && !(v.children?.length ?? 0));
  if (!falsy) return;
  const allowed =
    what === 'test' ? '`type` and `spec`' : what === 'archive' ? 'the archive fields' : '`context` and `data`';
  out.push(
    diag(
      'psconfig/meta-not-removed',
      'warning',
      `pSConfig 5.x removes \`_meta\` only when it is not empty; this one reaches pScheduler, which allows only ${allowed} in a ${what} and refuses the task. Remove it or put something in it.`,
      keyOf(meta).offset,
      keyOf(meta).offset + keyOf(meta).length,
    ),
  );
}

/**
 * The fields around an archive's data, as pScheduler's task schema checks them (ArchiveSpecification_V1..V3 in
 * jsonval.py): `runs` and `uri-host` need `schema: 2`, `label` needs 3. Values are left to the official schema.
 */
function archiveFields(archive: JsonNode, out: TemplateDiagnostic[]): void {
  const schemaNode = memberValue(archive, 'schema');
  const version = schemaNode === undefined ? 1 : schemaNode.value;
  if (typeof version !== 'number' || ![1, 2, 3].includes(version)) {
    if (schemaNode && typeof version === 'number')
      out.push(
        diag(
          'psconfig/archive-invalid',
          'error',
          `pScheduler knows archive schema 1, 2 and 3, not ${version}: it refuses the task.`,
          schemaNode.offset,
          schemaNode.offset + schemaNode.length,
        ),
      );
    return;
  }
  const spec = pschedulerType(`ArchiveSpecification_V${version}`)!;
  // the few archive fields, checked only when a key is not in this version (rare): no Map per archive
  const extra: [string, JsonNode][] = [];
  for (const prop of archive.children ?? []) {
    const key = prop.children?.[0]?.value as string | undefined;
    if (
      key !== undefined &&
      prop.children?.[1] &&
      !prop.comment &&
      !Object.prototype.hasOwnProperty.call(spec.properties ?? {}, key)
    )
      extra.push([key, prop]);
  }
  for (const [key, prop] of extra) {
    if (key === '_meta' || Object.prototype.hasOwnProperty.call(spec.properties ?? {}, key)) continue;
    const later = [2, 3].find((v) => v > version && pschedulerType(`ArchiveSpecification_V${v}`)!.properties![key]);
    if (later === undefined) continue; // the official schema reports keys no version has
    const k = keyOf(prop);
    out.push(
      diag(
        'psconfig/archive-needs-schema',
        'error',
        `\`${key}\` needs archive schema ${later} or later (this archive is schema ${version}${schemaNode ? '' : ', the default'}): pScheduler refuses the task. Add \`"schema": ${later}\`.`,
        k.offset,
        k.offset + k.length,
        { data: { kind: 'set-schema', version: later } },
      ),
    );
  }
}

/** A test no tool can run at all (when tasks do not choose tools): every task using it is refused. */
function noToolAtAll(
  model: TemplateModel,
  testName: string,
  p: PluginData,
  spec: JsonNode,
  at: JsonNode,
  opts: { expansion: ReturnType<typeof templateExpansion> },
  out: TemplateDiagnostic[],
): void {
  const users = model.usersOf('tests', testName);
  if (users.length && users.every((t) => propertyValue(t.node, 'tools') !== undefined)) return; // checked per task
  if (someToolCanRun(p.name, spec, opts)) return;
  const verdicts = toolsForSpec(p.name, spec, opts);
  if (!verdicts.length) return;
  out.push(
    diag(
      'psconfig/tool-cannot-run',
      'error',
      `No pScheduler tool can run this ${p.name} spec, so every task using it is refused: ${reasons(verdicts)}.`,
      at.offset,
      at.offset + at.length,
    ),
  );
}

function reasons(verdicts: ToolVerdict[]): string {
  return verdicts.map((v) => `${v.tool.name} ${v.reasons.join('; ')}`).join('; ');
}

/** A task's `tools`: pScheduler uses the first listed tool that can run the test; none means refusal. */
function taskTools(
  p: PluginData,
  /** undefined when the spec has errors of its own: then only the test type is compared */
  spec: JsonNode | undefined,
  toolsProp: JsonNode,
  expansion: ReturnType<typeof templateExpansion>,
  out: TemplateDiagnostic[],
): void {
  const items = itemsOf(toolsProp.children![1]).filter(
    (n) => n.type === 'string' && !(n.value as string).includes('{%'),
  );
  if (!items.length) return;
  const verdicts: { node: JsonNode; v: ToolVerdict }[] = [];
  for (const node of items) {
    const name = node.value as string;
    const t = toolData(name);
    if (!t) {
      // ties go to the tool pScheduler prefers
      const forType = allTools()
        .filter((x) => x.tests.includes(p.name))
        .sort((a, b) => b.preference - a.preference)
        .map((x) => x.name);
      const closest =
        closestName(name, forType) ??
        closestName(
          name,
          allTools().map((x) => x.name),
        );
      out.push(
        diag(
          'psconfig/unknown-tool',
          'warning',
          `pScheduler 5.x has no tool \`${name}\`${closest ? `; did you mean \`${closest}\`?` : '.'} Tools for ${p.name}: ${forType.join(', ')}.`,
          node.offset + 1,
          node.offset + node.length - 1,
          closest ? { data: { kind: 'replace-value', value: closest } } : undefined,
        ),
      );
      continue;
    }
    verdicts.push({
      node,
      v: spec
        ? toolVerdict(t, p.name, spec, { expansion })
        : t.tests.includes(p.name)
          ? { tool: t, canRun: true, reasons: [] }
          : toolVerdict(t, p.name, EMPTY_SPEC),
    });
  }
  // pScheduler's lead picks the first listed tool every participant offers for the test; one it does not have is
  // offered by nobody, so a list naming only such tools leaves nothing in common and the task is refused
  // (pschedulerapiserver/tasks.py pick_tool ~38-107, "no tool in common" ~463-490).
  if (verdicts.every((x) => !x.v.canRun)) {
    const k = keyOf(toolsProp);
    const unknown = items.map((n) => n.value as string).filter((name) => !toolData(name));
    const why = [
      ...(verdicts.length ? [reasons(verdicts.map((x) => x.v))] : []),
      ...(unknown.length
        ? [`pScheduler 5.x has no tool ${unknown.map((u) => `\`${u}\``).join(', ')}, so no participant offers it`]
        : []),
    ].join('; ');
    out.push(
      diag(
        'psconfig/tool-cannot-run',
        'error',
        `None of this task's tools can run its ${p.name} test, so pScheduler refuses the task: ${why}.`,
        k.offset,
        k.offset + k.length,
      ),
    );
    return;
  }
  for (const { node, v } of verdicts)
    if (!v.canRun)
      out.push(
        diag(
          'psconfig/tool-cannot-run',
          'information',
          `${v.tool.name} cannot run this ${p.name} test (${v.reasons.join('; ')}); pScheduler will use another tool of the list.`,
          node.offset + 1,
          node.offset + node.length - 1,
        ),
      );
}
