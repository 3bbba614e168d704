// The one table of pSConfig's template variables: their names, what they mean, where pSConfig expands them, and
// which `[N]` indexes are valid in an object. The scanner (variables.ts), the variable rule
// (rules/template-variables.ts), completion and hover all read it, so a diagnostic and a completion list can
// never disagree about an index.
//
// Names and meanings: pSConfig's template variables (psconfig.md §2.2; perfsonar/psconfig
// psconfig/client/psconfig/base_template.py). Which objects are expanded: tests, archives and contexts whole, and
// a task's `reference` (perfsonar/psconfig psconfig/client/pscheduler/task_generator.py).
import type { JsonPath } from './json-node';
import { NODE, type Tree } from './tree';
import type { TaskInfo, TemplateModel } from './model';
import type { Section } from './symbols';

const { OBJECT, PROPERTY } = NODE;

export type VariableKind =
  | 'address'
  | 'pscheduler_address'
  | 'lead_bind_address'
  | 'scheduled_by_address'
  | 'flip'
  | 'localhost'
  | 'jq'
  | 'unknown';

export interface VariableInfo {
  name: Exclude<VariableKind, 'unknown'>;
  /** Written with an address index: `address[0]`. */
  indexed: boolean;
  /** What it expands to, as a phrase ("the `address` of address N of the combination"); `N` is the index. */
  meaning: string;
  /** What completion inserts after the name (`jq` needs a script). */
  insert?: string;
}

export const VARIABLES: readonly VariableInfo[] = [
  {
    name: 'address',
    indexed: true,
    meaning: 'the `address` of address N of the combination (after label / remote-address selection)',
  },
  {
    name: 'pscheduler_address',
    indexed: true,
    meaning: 'the `pscheduler-address` of address N of the combination, else its `address` (IPv6 bracketed)',
  },
  {
    name: 'lead_bind_address',
    indexed: true,
    meaning: 'the `lead-bind-address` of address N of the combination, else its `address`',
  },
  { name: 'scheduled_by_address', indexed: false, meaning: 'the address of the agent that schedules the task' },
  {
    name: 'flip',
    indexed: false,
    meaning:
      '`true` when the task is scheduled by the other side because the `scheduled-by` member is `no-agent` (a JSON boolean when standalone)',
  },
  { name: 'localhost', indexed: false, meaning: '`localhost`, or the scheduling address when `flip` is true' },
  {
    name: 'jq',
    indexed: false,
    meaning:
      'the result of a jq script run on the task document (`addresses`, `archives`, `contexts`, `hosts`, `task`, `test`, `schedule`)',
    insert: 'jq .',
  },
];

const BY_NAME = new Map<string, VariableInfo>(VARIABLES.map((v) => [v.name, v]));

export function variableInfo(kind: VariableKind): VariableInfo | undefined {
  return BY_NAME.get(kind);
}

/** The variables written with an index. */
export const INDEXED_VARIABLES: readonly VariableKind[] = VARIABLES.filter((v) => v.indexed).map((v) => v.name);

/** The meaning of a variable, with its index filled in when it has one. */
export function meaningOf(kind: VariableKind, index?: number): string | undefined {
  const v = BY_NAME.get(kind);
  return v && v.meaning.replace(/address N /, index === undefined ? 'address N ' : `address ${index} `);
}

/** The spellings offered when an unknown name is close to one of them. */
export const KNOWN_SPELLINGS: readonly string[] = VARIABLES.map((v) => (v.indexed ? `${v.name}[0]` : v.name));

/** No group yields combinations of more than two addresses (mesh and disjoint: 2, list: 1). */
export const MAX_COMBINATION_SIZE = 2;

// ---- where pSConfig expands them ---------------------------------------------------------------------------------

/** Sections whose objects pSConfig expands whole (a task's `reference` too). */
const EXPANDED: readonly Section[] = ['tests', 'archives', 'contexts'];
/** Sections it never expands (a task's other fields too). Subtasks are never generated at all. */
const LITERAL: readonly Section[] = ['addresses', 'address-classes', 'groups', 'hosts', 'schedules', 'tasks'];

export type ExpandedSection = 'tests' | 'archives' | 'contexts' | 'tasks';

/** An object whose strings pSConfig expands: a test, an archive, a context, or a task (for its `reference`). */
export interface ExpandedOwner {
  section: ExpandedSection;
  name: string;
}

export type Place = 'expanded' | 'literal' | 'other';

/** Where a string sits: expanded by pSConfig, literal (never expanded), or neither (comments, _meta, subtasks). */
export function placeOf(path: JsonPath): Place {
  if (path.length < 3 || typeof path[1] !== 'string') return 'other';
  return placeRule(path[0] as string, path[2], path.includes('_meta'));
}

/** The rule of placeOf on what it reads: the section, the key under the object (`reference`?), and whether
 *  `_meta` is on the way (the path is at least section / object name / something). */
function placeRule(section: string, third: string | number, underMeta: boolean): Place {
  if (EXPANDED.includes(section as Section)) return 'expanded';
  if (section === 'tasks' && third === 'reference') return 'expanded';
  if (LITERAL.includes(section as Section) && !underMeta) return 'literal';
  return 'other';
}

/** The object a string at `path` belongs to, when pSConfig expands that string. */
export function expandedOwner(path: JsonPath): ExpandedOwner | undefined {
  return placeOf(path) === 'expanded' ? { section: path[0] as ExpandedSection, name: path[1] as string } : undefined;
}

/**
 * placeOf for string node `n` of a parsed tree, read from its ancestors without making its path (the variable rules
 * ask it for every string holding `{%`). `member` is the property of the section object that holds the node
 * (the owner's name is its key), or -1.
 */
export function placeInTree(t: Tree, n: number): { place: Place; member: number } {
  // chain[0] = n … chain[d] = the root; chain[d-1] the section's property, d-2 its object, d-3 the member
  // property, d-4 its value, d-5 what the third path element names (a property of that value, or an item)
  let d = 0;
  let underMeta = false;
  for (let x = n; x >= 0; x = t.parent[x]) {
    chain[d++] = x;
    if (t.type(x) === PROPERTY && t.strIs(x + 1, '_meta')) underMeta = true;
  }
  d--;
  if (d < 5 || t.type(chain[d]) !== OBJECT || t.type(chain[d - 2]) !== OBJECT) return OTHER;
  const below = chain[d - 5];
  const third = t.type(below) === PROPERTY ? t.str(below + 1) : 0;
  return { place: placeRule(t.str(chain[d - 1] + 1), third, underMeta), member: chain[d - 3] };
}
const chain: number[] = [];
const OTHER = { place: 'other' as Place, member: -1 };

/** Tasks whose combinations expand the object: the task itself for its reference, otherwise model.usersOf. */
export function tasksExpanding(model: TemplateModel, owner: ExpandedOwner): TaskInfo[] {
  if (owner.section !== 'tasks') return model.usersOf(owner.section, owner.name);
  const task = model.task(owner.name);
  return task ? [task] : [];
}

// ---- which indexes are valid -------------------------------------------------------------------------------------

/** A task that cannot expand an index: its group's combinations have `size` addresses. */
export interface IndexLimit {
  task: TaskInfo;
  group: string;
  type: string;
  size: number;
}

/**
 * Why `[index]` cannot be expanded in the owner's strings: the tasks whose group yields fewer addresses, or (with
 * no such task) `beyondAnyGroup` when no group yields that many. Valid when both are empty/false.
 */
export function indexLimits(
  model: TemplateModel,
  owner: ExpandedOwner,
  index: number,
): { tasks: IndexLimit[]; beyondAnyGroup: boolean } {
  const tasks: IndexLimit[] = [];
  for (const t of tasksExpanding(model, owner)) {
    const g = t.group !== undefined ? model.groups.get(t.group) : undefined;
    if (g?.size !== undefined && index >= g.size) tasks.push({ task: t, group: g.name, type: g.type!, size: g.size });
  }
  return { tasks, beyondAnyGroup: tasks.length === 0 && index >= MAX_COMBINATION_SIZE };
}

/** The indexes `[0]…[n-1]` valid in the owner's strings (outside an expanded object: every index a group yields). */
export function validIndexCount(model: TemplateModel, owner: ExpandedOwner | undefined): number {
  let n = MAX_COMBINATION_SIZE;
  if (!owner) return n;
  for (const t of tasksExpanding(model, owner)) {
    const size = t.group !== undefined ? model.groups.get(t.group)?.size : undefined;
    if (size !== undefined && size < n) n = size;
  }
  return n;
}
