// The template model: one per document version, read by every check and every navigation feature. It holds the
// parsed tree, the symbol index and the derived facts they share: group types and sizes, which tasks use which
// test/archive/context (only string-valued fields count; the schema check reports the rest).
//
//   const model = analyseTemplate(text);   // diagnostics (validateModel), completion, hover, lenses, quick fixes
import { parseTemplate, type JsonNode, type ParsedTemplate, type Tree } from './parse';
import { buildSymbolIndex, type SymbolIndex } from './symbols';
import { KEEP_ALIVE, NODE } from './tree';

const { ARRAY, COMMENT, OBJECT, STRING } = NODE;
const SELECTOR_LISTS = ['addresses', 'a-addresses', 'b-addresses'];

export type GroupType = 'mesh' | 'disjoint' | 'list';

export interface GroupInfo {
  name: string;
  /** The group's value in the parse tree; `node` is its view, made when first read. */
  index: number;
  readonly node: JsonNode;
  type: GroupType | undefined;
  /** Addresses per generated task: 1 for list, 2 for mesh/disjoint. */
  size: number | undefined;
  /** Address names selected by `name` selectors (addresses, a-addresses, b-addresses). */
  addressNames: Set<string>;
  /** The group selects by `class`: its members are not known statically. */
  hasClassSelectors: boolean;
}

export interface TaskInfo {
  name: string;
  /** The task's value in the parse tree; `node` is its view, made when first read. */
  index: number;
  readonly node: JsonNode;
  group: string | undefined;
  test: string | undefined;
  archives: string[];
  disabled: boolean;
}

export interface TemplateModel {
  /** The text that was parsed (parsed.text). */
  text: string;
  parsed: ParsedTemplate;
  index: SymbolIndex;
  groups: Map<string, GroupInfo>;
  tasks: TaskInfo[];
  /** Tasks whose expansion uses an object: tests and task archives directly, host archives and contexts
   *  through the addresses of the task's group (addresses selected by class are not known statically). */
  usersOf(kind: 'tests' | 'archives' | 'contexts', name: string): TaskInfo[];
  /** The task of that name (the last one when the key is duplicated, as pSConfig reads it). */
  task(name: string): TaskInfo | undefined;
}

// Groups and tasks hold their tree index; the node view is made when a feature reads it (the checks mostly read
// the tree by index, and a view each, with the view chunks they fill, was a tenth of what a large mesh's check kept
// alive for the collector to copy).
class Group implements GroupInfo {
  readonly size: number | undefined;

  constructor(
    readonly name: string,
    private readonly tree: Tree,
    readonly index: number,
    readonly type: GroupType | undefined,
    readonly addressNames: Set<string>,
    readonly hasClassSelectors: boolean,
  ) {
    this.size = groupSize(type);
  }

  get node(): JsonNode {
    return this.tree.node(this.index);
  }
}

class Task implements TaskInfo {
  constructor(
    readonly name: string,
    private readonly tree: Tree,
    readonly index: number,
    readonly group: string | undefined,
    readonly test: string | undefined,
    readonly archives: string[],
    readonly disabled: boolean,
  ) {}

  get node(): JsonNode {
    return this.tree.node(this.index);
  }
}

export function groupSize(type: GroupType | undefined): number | undefined {
  return type === 'list' ? 1 : type === 'mesh' || type === 'disjoint' ? 2 : undefined;
}

/** Parses the text and builds its symbol index and model: the one analysis of a document version. */
export function analyseTemplate(text: string): TemplateModel {
  const parsed = parseTemplate(text);
  return buildModel(parsed, buildSymbolIndex(parsed.root));
}

export function buildModel(parsed: ParsedTemplate, index: SymbolIndex = buildSymbolIndex(parsed.root)): TemplateModel {
  return new Model(parsed, index);
}

type UserKind = 'tests' | 'archives' | 'contexts';
type Users = Record<UserKind, Map<string, TaskInfo[]>>;

/**
 * A class, with its helpers at module level, rather than closures made per model: V8 keeps a function's optimized
 * code only while a closure of it lives, so per-model closures were compiled again for every version checked
 * (a steady background-compiler load on a large template, and their first calls unoptimized each time).
 */
class Model implements TemplateModel {
  readonly text: string;
  // Groups, tasks and who uses what are read on first use: after an edit of a large template, completion or a
  // hover usually needs none of them, and the checks all of them.
  private groupMap: Map<string, GroupInfo> | undefined;
  private taskList: TaskInfo[] | undefined;
  private byName: Map<string, TaskInfo> | undefined;
  private users: Users | undefined;

  constructor(
    readonly parsed: ParsedTemplate,
    readonly index: SymbolIndex,
  ) {
    this.text = parsed.text;
  }

  get groups(): Map<string, GroupInfo> {
    return (this.groupMap ??= readGroups(this.parsed));
  }

  get tasks(): TaskInfo[] {
    return (this.taskList ??= readTasks(this.parsed));
  }

  usersOf(kind: UserKind, name: string): TaskInfo[] {
    this.users ??= buildUsers(this);
    return this.users[kind].get(name) ?? [];
  }

  task(name: string): TaskInfo | undefined {
    if (!this.byName) {
      this.byName = new Map();
      for (const t of this.tasks) this.byName.set(t.name, t);
    }
    return this.byName.get(name);
  }
}

// Read on tree indexes: node views only when a feature asks a group or task for one.

/** The section object `name` of the template, or -1. */
function section(parsed: ParsedTemplate, name: string): number {
  const { root, tree: t } = parsed;
  const v = root ? t.propertyValue(root.index, name) : -1;
  return v >= 0 && t.type(v) === OBJECT ? v : -1;
}

function str(t: Tree, i: number): string | undefined {
  return i >= 0 && t.type(i) === STRING ? t.str(i) : undefined;
}

function readGroups(parsed: ParsedTemplate): Map<string, GroupInfo> {
  const t = parsed.tree;
  const groups = new Map<string, GroupInfo>();
  const sec = section(parsed, 'groups');
  if (sec < 0) return groups;
  // members of the section object, the last of duplicate keys winning (as pSConfig reads them)
  for (let p = t.firstChild(sec); p >= 0; p = t.nextSibling(p, sec)) {
    const g = t.propValue(p);
    if (g < 0 || t.kind[p] & COMMENT) continue;
    const name = t.str(p + 1);
    const ts = str(t, t.propertyValue(g, 'type'));
    const type = ts === 'mesh' || ts === 'disjoint' || ts === 'list' ? ts : undefined;
    const addressNames = new Set<string>();
    let hasClassSelectors = false;
    for (const field of SELECTOR_LISTS) {
      const arr = t.propertyValue(g, field);
      if (arr < 0 || t.type(arr) !== ARRAY) continue;
      for (let sel = t.firstChild(arr); sel >= 0; sel = t.nextSibling(sel, arr)) {
        const n = str(t, t.propertyValue(sel, 'name'));
        if (n !== undefined) addressNames.add(n);
        if (t.propertyValue(sel, 'class') >= 0) hasClassSelectors = true;
      }
    }
    groups.set(name, new Group(name, t, g, type, addressNames, hasClassSelectors));
  }
  return groups;
}

function readTasks(parsed: ParsedTemplate): TaskInfo[] {
  const t = parsed.tree;
  const tasks: TaskInfo[] = [];
  const sec = section(parsed, 'tasks');
  if (sec < 0) return tasks;
  const taskAt = new Map<string, number>();
  for (let p = t.firstChild(sec); p >= 0; p = t.nextSibling(p, sec)) {
    const task = t.propValue(p);
    if (task < 0 || t.kind[p] & COMMENT) continue;
    const name = t.str(p + 1);
    const archives: string[] = [];
    const arr = t.propertyValue(task, 'archives');
    if (arr >= 0 && t.type(arr) === ARRAY)
      for (let a = t.firstChild(arr); a >= 0; a = t.nextSibling(a, arr)) {
        const s = str(t, a);
        if (s !== undefined) archives.push(s);
      }
    const disabled = t.propertyValue(task, 'disabled');
    const info = new Task(
      name,
      t,
      task,
      str(t, t.propertyValue(task, 'group')),
      str(t, t.propertyValue(task, 'test')),
      archives,
      disabled >= 0 && t.scalar(disabled) === true,
    );
    const at = taskAt.get(name);
    if (at === undefined) taskAt.set(name, tasks.push(info) - 1);
    else tasks[at] = info;
  }
  return tasks;
}

/** Archives and contexts a group's members bring along. */
interface GroupExtras {
  archives: Set<string>;
  contexts: Set<string>;
}

function buildUsers(model: TemplateModel): Users {
  const m: Users = { tests: new Map(), archives: new Map(), contexts: new Map() };
  // address → host name, address → contexts (own, labels', remote entries'), host → archives, in one pass; lists
  // rather than a Set each (thousands of hosts with one archive): groupExtras removes repeats
  const addressHost = new Map<string, string>();
  const addressContexts = new Map<string, string[]>();
  const hostArchives = new Map<string, string[]>();
  const refs = model.index.references;
  for (let i = 0; i < refs.length; i++) {
    const r = refs[i];
    if (r.ownerKind === 'addresses') {
      if (r.kind === 'hosts') addressHost.set(r.ownerName, r.name);
      else if (r.kind === 'contexts') append(addressContexts, r.ownerName, r.name);
    } else if (r.ownerKind === 'hosts' && r.kind === 'archives') append(hostArchives, r.ownerName, r.name);
  }
  // computed once per group
  const viaGroup = new Map<string, GroupExtras>();
  for (const t of model.tasks) {
    if (t.test !== undefined) addUser(m.tests, t.test, t);
    for (const a of t.archives) addUser(m.archives, a, t);
    const g = t.group !== undefined ? model.groups.get(t.group) : undefined;
    if (!g) continue;
    let e = viaGroup.get(g.name);
    if (!e) viaGroup.set(g.name, (e = groupExtras(g, addressHost, hostArchives, addressContexts)));
    for (const a of e.archives) addUser(m.archives, a, t);
    for (const c of e.contexts) addUser(m.contexts, c, t);
  }
  return m;
}

function groupExtras(
  g: GroupInfo,
  addressHost: Map<string, string>,
  hostArchives: Map<string, string[]>,
  addressContexts: Map<string, string[]>,
): GroupExtras {
  const e: GroupExtras = { archives: new Set(), contexts: new Set() };
  for (const addr of g.addressNames) {
    const host = addressHost.get(addr);
    const archives = host !== undefined ? hostArchives.get(host) : undefined;
    if (archives) for (const a of archives) e.archives.add(a);
    const contexts = addressContexts.get(addr);
    if (contexts) for (const c of contexts) e.contexts.add(c);
  }
  return e;
}

function addUser(users: Map<string, TaskInfo[]>, name: string, t: TaskInfo): void {
  const a = users.get(name);
  if (!a) users.set(name, [t]);
  else if (a[a.length - 1] !== t) a.push(t);
}

function append(m: Map<string, string[]>, key: string, value: string): void {
  const l = m.get(key);
  if (l) l.push(value);
  else m.set(key, [value]);
}

{
  // see tree.ts: one of each per-version class stays alive
  const parsed = parseTemplate('{}');
  KEEP_ALIVE.push(
    new Model(parsed, buildSymbolIndex(undefined)),
    new Group('', parsed.tree, 0, undefined, new Set(), false),
    new Task('', parsed.tree, 0, undefined, undefined, [], false),
  );
}
