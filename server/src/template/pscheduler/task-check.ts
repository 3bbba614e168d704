// The task JSON of one expanded combination checked as pScheduler checks a task it is sent (POST /tasks in
// perfsonar/pscheduler pscheduler-server/pscheduler-server/api-server/pschedulerapiserver/tasks.py): the task's
// own schema (TestSpecification, ArchiveSpecification_V1..3, ContextSpecificationSingle of jsonval.py), then the
// test's spec-is-valid, each archiver's and each context's data-is-valid, then the tool selection (the first of
// `tools` that can run the test, or any tool when none are listed). The checks are the ones the template's
// diagnostics use (check.ts, validate.ts, tools.ts), run on plain JSON values (value-nodes.ts).
//
// Most combinations of a mesh share their archives and contexts, and many share their test; verdicts are cached
// per JSON text of each part (and per object, for the constant parts the engine shares between combinations).
import type { PSchedulerRefusal } from '../../../../common/protocol';
import { plugin as pluginData, pschedulerType, tool as toolData, type PluginData } from './catalog';
import { checkPluginValue, unknownPluginMessage } from './check';
import { memberValue, type NodeLike } from './nodes';
import { someToolCanRun, toolsForSpec, toolVerdict, type ToolVerdict } from './tools';
import { SchemaChecker, type Problem } from './validate';
import { valueNode } from './value-nodes';

/** Per part of a task: the test, archive i, context i of a participant. */
export interface PartNames {
  test?: string;
  archive?: (i: number) => string | undefined;
  context?: (participant: number, i: number) => string | undefined;
}

/** Keys standing for each part's JSON text, made only when a cache wants one. */
export interface PartKeys {
  test?: () => string | undefined;
  archive?: (i: number) => string | undefined;
  context?: (participant: number, i: number) => string | undefined;
}

/** A part's verdict: undefined when pScheduler accepts it. */
type Verdict = Omit<PSchedulerRefusal, 'name' | 'index' | 'participant'> | undefined;

/** Verdict caches for one expansion (or longer: the verdict of a JSON text never changes). */
export class TaskChecker {
  private readonly tests = newTable();
  private readonly archives = newTable();
  private readonly contexts = newTable();
  /** Constant parts are one object shared by every combination: no JSON text needed to find their verdict. */
  private readonly byObject = new WeakMap<object, Verdict | null>();
  /** Distinct texts checked (for the bench and tests). */
  checked = 0;

  /**
   * Every part of the task pScheduler would refuse (empty when it would accept the task). `names` says which
   * template objects the archives and contexts come from, for the messages.
   */
  check(
    task: { test?: unknown; archives?: unknown; contexts?: unknown; tools?: unknown },
    names: PartNames = {},
    /** Keys standing for each part's JSON text (the expansion engine knows them without serialising). */
    keys: PartKeys = {},
  ): PSchedulerRefusal[] {
    const out: PSchedulerRefusal[] = [];
    const tools = Array.isArray(task.tools) ? task.tools.filter((t): t is string => typeof t === 'string') : NO_TOOLS;
    const t = this.cached(
      this.tests,
      task.test,
      tools.length ? `\u0000${tools.join('\u0000')}` : '',
      () => checkTest(task.test, tools),
      keys.test,
    );
    if (t) out.push(named(t, names.test));
    const archives = Array.isArray(task.archives) ? task.archives : NO_ITEMS;
    for (let i = 0; i < archives.length; i++) {
      const a = this.cached(
        this.archives,
        archives[i],
        '',
        () => checkArchive(archives[i]),
        keys.archive && (() => keys.archive!(i)),
      );
      if (a) out.push({ ...named(a, names.archive?.(i)), index: i });
    }
    const lists = contextLists(task.contexts);
    for (let p = 0; p < lists.length; p++) {
      const list = lists[p];
      for (let i = 0; i < list.length; i++) {
        const c = this.cached(
          this.contexts,
          list[i],
          '',
          () => checkContext(list[i]),
          keys.context && (() => keys.context!(p, i)),
        );
        if (c) out.push({ ...named(c, names.context?.(p, i)), participant: p, index: i });
      }
    }
    return out;
  }

  private cached(
    table: Table,
    value: unknown,
    extra: string,
    run: () => Verdict,
    given: (() => string | undefined) | undefined,
  ): Verdict {
    // A part that differs in every combination (a spec naming both addresses of a pair) never hits: once a table
    // shows no reuse, its keys are not worth building, storing and collecting.
    if (table.lookups >= REUSE_SAMPLE && table.hits * 10 < table.lookups) {
      this.checked++;
      return run();
    }
    const isObj = typeof value === 'object' && value !== null;
    const givenKey = given?.();
    if (isObj && !extra && givenKey === undefined) {
      const hit = this.byObject.get(value);
      if (hit !== undefined) return hit ?? undefined;
    }
    // A given key never starts like JSON text, so the two kinds of key cannot meet.
    const key = (givenKey !== undefined ? `\u0001${givenKey}` : JSON.stringify(value ?? null)) + extra;
    table.lookups++;
    let v: Verdict;
    if (table.map.has(key)) {
      table.hits++;
      v = table.map.get(key);
    } else {
      this.checked++;
      v = run();
      if (table.map.size >= MAX_ENTRIES) table.map.clear(); // a hostile template cannot grow it without bound
      table.map.set(key, v);
    }
    if (isObj && !extra && givenKey === undefined) this.byObject.set(value, v ?? null);
    return v;
  }
}

const MAX_ENTRIES = 20_000;
/** Lookups before a table's reuse is judged. */
const REUSE_SAMPLE = 1000;
interface Table {
  map: Map<string, Verdict>;
  lookups: number;
  hits: number;
}
const newTable = (): Table => ({ map: new Map(), lookups: 0, hits: 0 });
/** One options object for every check: check.ts keeps its schema checkers per options object. */
const OPTIONS = {};
const envelopeCheckers = new Map<string, SchemaChecker>();
const NO_TOOLS: string[] = [];
const NO_ITEMS: unknown[] = [];

function named(v: NonNullable<Verdict>, name: string | undefined): PSchedulerRefusal {
  return name === undefined ? { ...v } : { ...v, name };
}

/** The per-participant context lists of `contexts: {contexts: [[...], ...]}` (anything else: none to check). */
function contextLists(contexts: unknown): unknown[][] {
  if (typeof contexts !== 'object' || contexts === null || Array.isArray(contexts)) return [];
  const lists = (contexts as { contexts?: unknown }).contexts;
  if (!Array.isArray(lists)) return [];
  return lists.map((l: unknown) => (Array.isArray(l) ? (l as unknown[]) : []));
}

/** Problems of the task's own schema for a part (its envelope: `type`/`spec`, archive fields, `context`/`data`). */
function envelope(schemaName: string, node: NodeLike, rootName: string): string[] {
  const schema = pschedulerType(schemaName);
  if (!schema) return [];
  const found: Problem[] = [];
  let checker = envelopeCheckers.get(rootName);
  if (!checker) envelopeCheckers.set(rootName, (checker = new SchemaChecker(undefined, OPTIONS, rootName)));
  checker.run(schema, node, found);
  return found.filter((p) => p.severity === 'error').map((p) => p.message);
}

function errors(problems: Problem[]): string[] {
  return problems.filter((p) => p.severity === 'error').map((p) => p.message);
}

function checkTest(test: unknown, tools: string[]): Verdict {
  const node = valueNode(test);
  const shape = envelope('TestSpecification', node, 'the test');
  const type = memberValue(node, 'type');
  const name = type?.type === 'string' ? (type.value as string) : undefined;
  if (shape.length) return { part: 'test', plugin: name, problems: shape };
  const p = name !== undefined ? pluginData('test', name) : undefined;
  if (!p) return { part: 'test', plugin: name, problems: [unknownPluginMessage('test', name ?? '?').message] };
  const spec = memberValue(node, 'spec')!;
  const r = checkPluginValue(p, spec, OPTIONS);
  const specErrors = errors(r.problems);
  if (specErrors.length) return { part: 'test', plugin: p.name, version: r.version, problems: specErrors };
  const tooling = toolProblem(p, spec, tools);
  return tooling ? { part: 'tools', plugin: p.name, problems: [tooling] } : undefined;
}

/**
 * pScheduler runs the first of the task's `tools` that every participant offers and that can run the test; with no
 * `tools`, the most preferred tool that can (pschedulerapiserver/tasks.py pick_tool ~38-107). A tool pScheduler 5.x
 * does not ship is offered by no participant, so a list of only such tools is refused as one whose tools cannot run
 * the test ("no tool in common", tasks.py ~463-490), as the template check says (rules/pscheduler.ts).
 */
function toolProblem(p: PluginData, spec: NodeLike, tools: string[]): string | undefined {
  if (tools.length) {
    const verdicts: ToolVerdict[] = [];
    const unknown: string[] = [];
    for (const name of tools) {
      const t = toolData(name);
      if (t) verdicts.push(toolVerdict(t, p.name, spec));
      else unknown.push(name);
    }
    if (verdicts.some((v) => v.canRun)) return undefined;
    const why = [
      ...(verdicts.length ? [reasons(verdicts)] : []),
      ...(unknown.length ? [`pScheduler 5.x has no tool ${unknown.map((u) => `\`${u}\``).join(', ')}`] : []),
    ].join('; ');
    return `none of the task's tools can run this ${p.name} spec: ${why}.`;
  }
  if (someToolCanRun(p.name, spec)) return undefined;
  const verdicts = toolsForSpec(p.name, spec);
  return verdicts.length ? `no pScheduler tool can run this ${p.name} spec: ${reasons(verdicts)}.` : undefined;
}

function reasons(verdicts: ToolVerdict[]): string {
  return verdicts.map((v) => `${v.tool.name} ${v.reasons.join('; ')}`).join('; ');
}

/** The archive's fields (by its `schema`, 1 when absent), then its archiver's data-is-valid. */
function checkArchive(archive: unknown): Verdict {
  const node = valueNode(archive);
  const archiverNode = memberValue(node, 'archiver');
  const name = archiverNode?.type === 'string' ? (archiverNode.value as string) : undefined;
  const schemaNode = memberValue(node, 'schema');
  const version = schemaNode === undefined ? 1 : schemaNode.value;
  if (node.type !== 'object') return { part: 'archive', problems: ['an archive must be an object.'] };
  if (typeof version !== 'number' || ![1, 2, 3].includes(version))
    return {
      part: 'archive',
      plugin: name,
      problems: [`pScheduler knows archive schema 1, 2 and 3, not ${JSON.stringify(schemaNode?.value ?? null)}.`],
    };
  const shape = envelope(`ArchiveSpecification_V${version}`, node, 'the archive');
  if (shape.length) return { part: 'archive', plugin: name, problems: shape };
  const p = pluginData('archiver', name!);
  if (!p) return { part: 'archive', plugin: name, problems: [unknownPluginMessage('archiver', name!).message] };
  const r = checkPluginValue(p, memberValue(node, 'data')!, OPTIONS);
  const dataErrors = errors(r.problems);
  return dataErrors.length ? { part: 'archive', plugin: p.name, version: r.version, problems: dataErrors } : undefined;
}

function checkContext(context: unknown): Verdict {
  const node = valueNode(context);
  const shape = envelope('ContextSpecificationSingle', node, 'the context');
  const typeNode = memberValue(node, 'context');
  const name = typeNode?.type === 'string' ? (typeNode.value as string) : undefined;
  if (shape.length) return { part: 'context', plugin: name, problems: shape };
  const p = pluginData('context', name!);
  if (!p) return { part: 'context', plugin: name, problems: [unknownPluginMessage('context', name!).message] };
  const r = checkPluginValue(p, memberValue(node, 'data')!, OPTIONS);
  const dataErrors = errors(r.problems);
  return dataErrors.length ? { part: 'context', plugin: p.name, version: r.version, problems: dataErrors } : undefined;
}
