// Groups that select nothing and tasks that create nothing, with the reason: an empty list or disjoint side, a mesh
// of one address, selectors that all resolve to disabled addresses (or hosts, or missing labels), every pair
// excluded, every member no-agent. The merged template (with its includes) is planned by the expansion engine's own
// group iteration and task planning (expand/groups.ts, expand/scheduling.ts), stopping at the first combination,
// so the usual case costs one combination per task.
import { analyseTemplate, type TemplateModel } from '../model';
import type { JsonNode, Tree } from '../parse';
import { KEEP_ALIVE, NODE } from '../tree';
import type { Section } from '../symbols';
import { unreadIncludeSet, type IncludeSet } from '../includes/include-set';
import type { ClassContext } from '../expand/address-classes';
import { iterateGroup, NodeTable, selectAddress, type GroupContext } from '../expand/groups';
import { mergeInto } from '../expand/includes';
import { planTask } from '../expand/scheduling';
import { isDisabled, isNoAgent, str, viewOf, type JsonObject, type TemplateView } from '../expand/template-view';
import { diag, type TemplateDiagnostic } from './diagnostic';
import { isObject, jsonText } from '../../../../common/json';

/** Combinations looked at before giving up on a verdict (a huge mesh whose members are nearly all disabled). */
const MAX_COMBINATIONS = 100_000;
const LISTED = 5;

export function checkEmptySelections(model: TemplateModel, includes: IncludeSet): TemplateDiagnostic[] {
  // Without every include, or with a syntax error, what the groups select is not known.
  if (!model.parsed.root || model.parsed.syntaxErrors.length > 0 || !includes.complete) return [];
  return new EmptySelectionCheck(model, includes).run();
}

/** One run of the check. A class rather than closures made per run: V8 keeps a function's optimized code only
 *  while a closure of it lives, so per-run closures were compiled again on every version checked. */
class EmptySelectionCheck {
  private readonly out: TemplateDiagnostic[] = [];
  private readonly tree: Tree;
  /** Names from includes are planned on the merged view, and then nothing is kept for the next version. */
  private readonly merged: boolean;
  private readonly verdicts: Verdicts;
  private planning: Planning | undefined;
  /** group name -> its verdict id in this version */
  private readonly groupIds = new Map<string, number>();

  constructor(
    private readonly model: TemplateModel,
    private readonly includes: IncludeSet,
  ) {
    this.tree = model.parsed.tree;
    this.merged = includes.merged.some((e) => e.parsed);
    this.verdicts = this.merged ? freshVerdicts('', '') : keptVerdicts(model);
  }

  run(): TemplateDiagnostic[] {
    const t = this.tree;
    const groups = t.memberList(t.propertyValue(0, 'groups'));
    for (let k = 0; k < groups.length; k++) this.group(groups[k]);
    const tasks = t.memberList(t.propertyValue(0, 'tasks'));
    for (let k = 0; k < tasks.length; k++) this.task(tasks[k]);
    return this.out;
  }

  private plan(): Planning {
    return (this.planning ??= planningOf(this.model, this.includes));
  }

  /** A group's verdict depends on its name and text and on the addresses and hosts: judged once per such key, which
   *  gets a short id (tasks' keys would otherwise hash kilobytes of group text each). */
  private groupId(name: string, text: string): number {
    const key = `${name}\u0000${text}`;
    const { ids } = this.verdicts;
    let id = ids.get(key);
    if (id === undefined) ids.set(key, (id = ids.size));
    this.groupIds.set(name, id);
    return id;
  }

  private groupVerdict(name: string): GroupVerdict {
    const id = this.groupIds.get(name) ?? this.groupId(name, ''); // not in this template: from an include
    let v = this.verdicts.groups.get(id);
    if (!v) this.verdicts.groups.set(id, (v = judgeGroup(this.plan(), name)));
    return v;
  }

  private testKnown(name: string): boolean {
    return this.merged ? this.plan().view.tests.has(name) : this.model.index.isDefined('tests', name);
  }

  private group(prop: number): void {
    const t = this.tree;
    const value = t.propValue(prop);
    const name = t.str(prop + 1);
    this.groupId(name, this.model.parsed.text.slice(t.start[value], t.end[value]));
    const v = this.groupVerdict(name);
    if (v.empty === undefined) return;
    this.out.push(
      diag(
        'psconfig/empty-group',
        'warning',
        `Group \`${name}\` selects nothing: ${v.empty}. Tasks using it create no pScheduler tasks.`,
        t.start[prop + 1] + 1,
        t.end[prop + 1] - 1,
      ),
    );
  }

  private task(prop: number): void {
    const t = this.tree;
    const { verdicts } = this;
    const name = t.str(prop + 1);
    const task = this.merged ? this.plan().view.tasks.get(name) : taskFields(t, t.propValue(prop));
    if (!task || task.disabled === true) return;
    const groupName = str(task.group);
    const testName = str(task.test);
    if (!groupName || !testName || !this.testKnown(testName)) return;
    const group = this.groupVerdict(groupName);
    if (!group.checkable) return;
    // Tasks of one group differ only in scheduled-by here: plan each (group, scheduled-by) once.
    const groupKey = this.groupIds.get(groupName)!;
    const planKey = `${groupKey}\u0000${jsonText(task['scheduled-by'] ?? 0)}`;
    let yields = verdicts.plans.get(planKey);
    if (yields === undefined) {
      const { view, classes, nodes } = this.plan();
      const p = planTask(view, classes, nodes, name, { ...task, disabled: false }, anyAgent, 1);
      verdicts.plans.set(planKey, (yields = p.error ? 'error' : p.combos.length > 0 ? 'some' : 'none'));
    }
    if (yields !== 'none') return;
    let reason: string | undefined;
    if (group.empty !== undefined) reason = `its group \`${groupName}\` selects nothing (${group.empty})`;
    else if (verdicts.noScheduler.has(groupKey)) reason = verdicts.noScheduler.get(groupKey);
    else {
      const { view, ctx } = this.plan();
      reason = whyNoScheduler(view, ctx, groupName, view.groups.get(groupName)!);
      verdicts.noScheduler.set(groupKey, reason);
    }
    if (!reason) return;
    this.out.push(
      diag(
        'psconfig/task-yields-nothing',
        'warning',
        `Task \`${name}\` creates no pScheduler task: ${reason}.`,
        t.start[prop + 1] + 1,
        t.end[prop + 1] - 1,
      ),
    );
  }
}

function anyAgent(): boolean {
  return true;
}

/** What planning works on: the merged view of the template and its includes, made only when a verdict is missing. */
interface Planning {
  view: TemplateView;
  classes: ClassContext;
  nodes: NodeTable;
  ctx: GroupContext;
}

function planningOf(model: TemplateModel, includes: IncludeSet): Planning {
  const view = mergedView(model, includes);
  const classes: ClassContext = { view, requestingAgent: new Map(), jqResults: new Map(), note: () => undefined };
  const nodes = new NodeTable();
  return { view, classes, nodes, ctx: { classes, nodes, note: () => undefined } };
}

interface GroupVerdict {
  /** Its members are known without jq or agents (else nothing is said about it or its tasks). */
  checkable: boolean;
  /** Why it selects nothing, when it does. */
  empty?: string;
}

function judgeGroup({ view, ctx }: Planning, name: string): GroupVerdict {
  const group = view.groups.get(name);
  if (!group || !checkable(view, group)) return { checkable: false };
  if (usableCombination(view, ctx, name, group) !== false) return { checkable: true };
  return { checkable: true, empty: whyEmpty(view, ctx, group) };
}

/**
 * Verdicts kept across versions while the addresses and hosts text stays the same (keystrokes in tasks, tests or
 * a group re-judge only what they touched), as the pScheduler checks keep theirs (pscheduler/template-expansion.ts).
 */
interface Verdicts {
  addressesText: string;
  hostsText: string;
  /** group name and text -> id */
  ids: Map<string, number>;
  /** group id -> verdict */
  groups: Map<number, GroupVerdict>;
  /** group id and scheduled-by -> whether planning yields a task */
  plans: Map<string, 'some' | 'none' | 'error'>;
  /** group id -> why nobody schedules its combinations (undefined: someone does) */
  noScheduler: Map<number, string | undefined>;
}
let kept: Verdicts | undefined;
/** Verdicts kept at most (edits that rename groups leave old keys behind): beyond it the store starts over. */
const MAX_KEPT = 20_000;

function freshVerdicts(addressesText: string, hostsText: string): Verdicts {
  return { addressesText, hostsText, ids: new Map(), groups: new Map(), plans: new Map(), noScheduler: new Map() };
}

function keptVerdicts(model: TemplateModel): Verdicts {
  const { text, tree: t } = model.parsed;
  const slice = (section: number): string => (section < 0 ? '' : text.slice(t.start[section], t.end[section]));
  // Slices share the document's storage and compare natively: no megabyte copy per version.
  const addressesText = slice(t.propertyValue(0, 'addresses'));
  const hostsText = slice(t.propertyValue(0, 'hosts'));
  if (
    !kept ||
    kept.addressesText !== addressesText ||
    kept.hostsText !== hostsText ||
    kept.ids.size + kept.plans.size > MAX_KEPT
  )
    kept = freshVerdicts(addressesText, hostsText);
  return kept;
}

/** Forget the verdicts of earlier versions (the benchmark measures a first check with it). */
export function clearSelectionVerdicts(): void {
  kept = undefined;
}

/** The task fields the check reads, as planning sees them (plannedSections), straight from the tree. */
function taskFields(t: Tree, task: number): JsonObject | undefined {
  return t.type(task) === NODE.OBJECT ? pick(t, task, TASK_FIELDS) : undefined;
}
const TASK_FIELDS = ['group', 'test', 'scheduled-by', 'disabled'];

/** The fields of object `obj` (a tree index) that planning reads (values as pSConfig sees them: comments out, the
 *  last duplicate wins), read on tree indexes: no node objects for the thousands of addresses of a large mesh. */
function pick(
  t: Tree,
  obj: number,
  keys: readonly string[],
  nested: Record<string, readonly string[]> = {},
): JsonObject {
  const out: JsonObject = {};
  if (obj < 0 || t.type(obj) !== NODE.OBJECT) return out;
  for (let prop = t.firstChild(obj); prop >= 0; prop = t.nextSibling(prop, obj)) {
    const value = t.propValue(prop);
    if (value < 0 || t.kind[prop] & NODE.COMMENT) continue;
    const k = t.str(prop + 1);
    if (keys.includes(k)) out[k] = t.toValue(value) as JsonObject[string];
    else if (nested[k] && t.type(value) === NODE.OBJECT) {
      const inner: JsonObject = {};
      for (let p = t.firstChild(value); p >= 0; p = t.nextSibling(p, value)) {
        const v = t.propValue(p);
        if (v >= 0 && !(t.kind[p] & NODE.COMMENT))
          inner[t.str(p + 1)] = pick(t, v, nested[k], k === 'remote-addresses' ? LABELLED : {});
      }
      out[k] = inner;
    }
  }
  return out;
}

const FLAGS = ['address', 'disabled', 'no-agent'] as const;
const LABELLED = { labels: FLAGS };
const ADDRESS_FIELDS = [...FLAGS, 'host'];
const ADDRESS_NESTED = { labels: FLAGS, 'remote-addresses': FLAGS };

/**
 * Only what planning reads, from the parsed trees (no second parse of the text, none of the `_meta`, tags or specs
 * that make up most of a large template): addresses with their labels and remote entries, groups, host flags, tasks,
 * and the names of the tests.
 */
function plannedSections(root: JsonNode | undefined): JsonObject {
  const section = (name: Section, read: (t: Tree, node: number) => JsonObject): JsonObject => {
    const out: JsonObject = {};
    if (!root) return out;
    const t = root.tree;
    const sec = t.propertyValue(root.index, name);
    if (sec < 0 || t.type(sec) !== NODE.OBJECT) return out;
    for (let prop = t.firstChild(sec); prop >= 0; prop = t.nextSibling(prop, sec)) {
      const v = t.propValue(prop);
      if (v >= 0 && !(t.kind[prop] & NODE.COMMENT)) out[t.str(prop + 1)] = read(t, v);
    }
    return out;
  };
  return {
    addresses: section('addresses', (t, n) => pick(t, n, ADDRESS_FIELDS, ADDRESS_NESTED)),
    groups: section('groups', (t, n) => (t.toValue(n) ?? {}) as JsonObject),
    hosts: section('hosts', (t, n) => pick(t, n, ['disabled', 'no-agent'])),
    tasks: section('tasks', (t, n) => pick(t, n, TASK_FIELDS)),
    tests: section('tests', () => ({})),
  };
}

function mergedView(model: TemplateModel, includes: IncludeSet): TemplateView {
  const merged = plannedSections(model.parsed.root);
  for (const e of includes.merged) if (e.parsed) mergeInto(merged, plannedSections(e.parsed.root));
  return viewOf(merged);
}

/** Groups whose members are known without jq or agents: no class selectors, every named address defined. */
function checkable(view: TemplateView, group: JsonObject): boolean {
  if (group.type !== 'mesh' && group.type !== 'disjoint' && group.type !== 'list') return false;
  for (const sel of selectorsOf(group)) {
    if (sel.class !== undefined) return false;
    const name = str(sel.name);
    if (!name || !view.addresses.has(name)) return false; // reported as an unknown address
  }
  return true;
}

function selectorsOf(group: JsonObject): JsonObject[] {
  const out: JsonObject[] = [];
  for (const field of ['addresses', 'a-addresses', 'b-addresses']) {
    const list = group[field];
    if (Array.isArray(list)) for (const s of list) out.push(isObject<JsonObject>(s) ? s : {});
  }
  return out;
}

/** true: a combination without a disabled member exists; false: none; undefined: too many to tell. */
function usableCombination(
  view: TemplateView,
  ctx: GroupContext,
  name: string,
  group: JsonObject,
): boolean | undefined {
  let seen = 0;
  for (const combo of iterateGroup(ctx, name, group)) {
    if (!combo.some((m) => isDisabled(view, m))) return true;
    if (++seen >= MAX_COMBINATIONS) return undefined;
  }
  return false;
}

/** What one selector yields on its own: the address (or label) and whether it is usable, in words. */
function describeSelector(
  view: TemplateView,
  ctx: GroupContext,
  group: JsonObject,
  sel: JsonObject,
): { usable: boolean; key: string; text: string } {
  const name = str(sel.name) as string;
  const data = view.addresses.get(name) as JsonObject;
  const label = str(sel.label) ?? str(group['default-address-label']);
  const node = selectAddress(ctx, group, { name, label: str(sel.label), data }, '');
  const what = label ? `\`${name}\` label \`${label}\`` : `\`${name}\``;
  if (!node) return { usable: false, key: `${name}\u0000${label ?? ''}`, text: `${what} (no such label)` };
  if (isDisabled(view, node)) {
    const host =
      node.hostRef && view.hosts.get(node.hostRef)?.disabled === true ? `its host \`${node.hostRef}\` is ` : '';
    return { usable: false, key: String(node.id), text: `${what} (${host}disabled)` };
  }
  return { usable: true, key: String(node.id), text: what };
}

function listOf(items: string[]): string {
  const shown = items.slice(0, LISTED).join(', ');
  return items.length > LISTED ? `${shown} and ${items.length - LISTED} more` : shown;
}

/** Why a checkable group yields no combination without a disabled member. */
function whyEmpty(view: TemplateView, ctx: GroupContext, group: JsonObject): string {
  const side = (field: string): string | undefined => {
    const list = Array.isArray(group[field]) ? (group[field] as unknown[]) : [];
    if (list.length === 0) return `its \`${field}\` list is empty`;
    const described = list.map((s) => describeSelector(view, ctx, group, isObject<JsonObject>(s) ? s : {}));
    const usable = new Set(described.filter((d) => d.usable).map((d) => d.key));
    if (usable.size === 0)
      return `every address its \`${field}\` selects is unusable: ${listOf(described.map((d) => d.text))}`;
    if (group.type === 'mesh' && usable.size === 1)
      return `a mesh needs two addresses, and only ${described.find((d) => d.usable)?.text} is usable${
        described.length > 1
          ? ` (${listOf(described.filter((d) => !d.usable).map((d) => d.text)) || 'the others are the same address'})`
          : ''
      }`;
    return undefined;
  };
  if (group.type === 'disjoint') {
    const a = side('a-addresses');
    const b = side('b-addresses');
    if (a || b) return [a, b].filter(Boolean).join('; ');
  } else {
    const s = side('addresses');
    if (s) return s;
  }
  const self = group['excludes-self'] ?? 'host';
  const excludes = Array.isArray(group.excludes) && group.excludes.length > 0;
  return `every pair it forms is excluded (${[
    excludes ? '`excludes`' : '',
    self !== 'disabled'
      ? `\`excludes-self: ${jsonText(self)}\` (members on the same ${self === 'address' ? 'address' : 'host or address'})`
      : '',
    'or a disabled member',
  ]
    .filter(Boolean)
    .join(', ')})`;
}

/** The group yields combinations but the task none: nobody schedules them (every member no-agent). */
function whyNoScheduler(view: TemplateView, ctx: GroupContext, name: string, group: JsonObject): string | undefined {
  const names = new Set<string>();
  let seen = 0;
  for (const combo of iterateGroup(ctx, name, group)) {
    if (combo.some((m) => isDisabled(view, m))) continue;
    if (!combo.every((m) => isNoAgent(view, m))) return undefined;
    for (const m of combo) names.add(`\`${m.objectName}\``);
    if (++seen >= MAX_COMBINATIONS) return undefined;
  }
  return `every member of its group \`${name}\` is \`no-agent\` (${listOf([...names])}), so no agent schedules it`;
}

{
  // see tree.ts: one instance of the per-run class stays alive
  const model = analyseTemplate('{}');
  KEEP_ALIVE.push(new EmptySelectionCheck(model, unreadIncludeSet(model.parsed, '')));
}
