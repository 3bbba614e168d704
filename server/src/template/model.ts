// The template model: one per document version, read by every check and every navigation feature. It holds the
// parsed tree, the symbol index and the derived facts they share: group types and sizes, which tasks use which
// test/archive/context (only string-valued fields count; the schema check reports the rest).
//
//   const model = analyseTemplate(text);   // diagnostics (validateModel), completion, hover, lenses, quick fixes
import { parseTemplate, type JsonNode, type ParsedTemplate, type Tree } from './parse';
import { buildSymbolIndex, type SymbolIndex } from './symbols';
import { NODE } from './tree';

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
  const { root, tree: t } = parsed;
  // Read on tree indexes: node objects only for the groups and tasks themselves.
  const section = (name: string): number => {
    const v = root ? t.propertyValue(root.index, name) : -1;
    return v >= 0 && t.type(v) === OBJECT ? v : -1;
  };
  const str = (i: number): string | undefined => (i >= 0 && t.type(i) === STRING ? t.str(i) : undefined);
  const eachItem = (arr: number, fn: (item: number) => void): void => {
    if (arr < 0 || t.type(arr) !== ARRAY) return;
    for (let i = t.firstChild(arr); i >= 0; i = t.nextSibling(i, arr)) fn(i);
  };
  /** Members of a section object, the last of duplicate keys winning (as pSConfig reads them). */
  const eachMember = (sec: number, fn: (name: string, value: number) => void): void => {
    if (sec < 0) return;
    for (let p = t.firstChild(sec); p >= 0; p = t.nextSibling(p, sec)) {
      const v = t.propValue(p);
      if (v >= 0 && !(t.kind[p] & COMMENT)) fn(t.str(p + 1), v);
    }
  };

  // Groups, tasks and who uses what are read on first use: after an edit of a large template, completion or a
  // hover usually needs none of them, and the checks all of them.
  const readGroups = (): Map<string, GroupInfo> => {
    const groups = new Map<string, GroupInfo>();
    eachMember(section('groups'), (name, g) => {
      const ts = str(t.propertyValue(g, 'type'));
      const type = ts === 'mesh' || ts === 'disjoint' || ts === 'list' ? ts : undefined;
      const addressNames = new Set<string>();
      let hasClassSelectors = false;
      for (const field of SELECTOR_LISTS) {
        eachItem(t.propertyValue(g, field), (sel) => {
          const n = str(t.propertyValue(sel, 'name'));
          if (n !== undefined) addressNames.add(n);
          if (t.propertyValue(sel, 'class') >= 0) hasClassSelectors = true;
        });
      }
      groups.set(name, new Group(name, t, g, type, addressNames, hasClassSelectors));
    });
    return groups;
  };

  const readTasks = (): TaskInfo[] => {
    const tasks: TaskInfo[] = [];
    const taskAt = new Map<string, number>();
    eachMember(section('tasks'), (name, task) => {
      const archives: string[] = [];
      eachItem(t.propertyValue(task, 'archives'), (a) => {
        const s = str(a);
        if (s !== undefined) archives.push(s);
      });
      const disabled = t.propertyValue(task, 'disabled');
      const info = new Task(
        name,
        t,
        task,
        str(t.propertyValue(task, 'group')),
        str(t.propertyValue(task, 'test')),
        archives,
        disabled >= 0 && t.scalar(disabled) === true,
      );
      const at = taskAt.get(name);
      if (at === undefined) taskAt.set(name, tasks.push(info) - 1);
      else tasks[at] = info;
    });
    return tasks;
  };

  let byName: Map<string, TaskInfo> | undefined;
  type UserKind = 'tests' | 'archives' | 'contexts';
  let users: Record<UserKind, Map<string, TaskInfo[]>> | undefined;
  const buildUsers = (): Record<UserKind, Map<string, TaskInfo[]>> => {
    const m: Record<UserKind, Map<string, TaskInfo[]>> = { tests: new Map(), archives: new Map(), contexts: new Map() };
    // address → host name, address → contexts (own, labels', remote entries'), host → archives, in one pass; lists
    // rather than a Set each (thousands of hosts with one archive): groupExtras removes repeats
    const addressHost = new Map<string, string>();
    const addressContexts = new Map<string, string[]>();
    const hostArchives = new Map<string, string[]>();
    const refs = index.references;
    for (let i = 0; i < refs.length; i++) {
      const r = refs[i];
      if (r.ownerKind === 'addresses') {
        if (r.kind === 'hosts') addressHost.set(r.ownerName, r.name);
        else if (r.kind === 'contexts') append(addressContexts, r.ownerName, r.name);
      } else if (r.ownerKind === 'hosts' && r.kind === 'archives') append(hostArchives, r.ownerName, r.name);
    }
    const add = (kind: UserKind, name: string, t: TaskInfo): void => {
      const a = m[kind].get(name);
      if (!a) m[kind].set(name, [t]);
      else if (a[a.length - 1] !== t) a.push(t);
    };
    // archives and contexts a group's members bring along, computed once per group
    const viaGroup = new Map<string, { archives: Set<string>; contexts: Set<string> }>();
    const groupExtras = (g: GroupInfo): { archives: Set<string>; contexts: Set<string> } => {
      let e = viaGroup.get(g.name);
      if (!e) {
        e = { archives: new Set(), contexts: new Set() };
        for (const addr of g.addressNames) {
          const host = addressHost.get(addr);
          for (const a of (host !== undefined && hostArchives.get(host)) || []) e.archives.add(a);
          for (const c of addressContexts.get(addr) ?? []) e.contexts.add(c);
        }
        viaGroup.set(g.name, e);
      }
      return e;
    };
    for (const t of model.tasks) {
      if (t.test !== undefined) add('tests', t.test, t);
      for (const a of t.archives) add('archives', a, t);
      const g = t.group !== undefined ? model.groups.get(t.group) : undefined;
      if (!g) continue;
      const e = groupExtras(g);
      for (const a of e.archives) add('archives', a, t);
      for (const c of e.contexts) add('contexts', c, t);
    }
    return m;
  };

  let groups: Map<string, GroupInfo> | undefined;
  let tasks: TaskInfo[] | undefined;
  const model: TemplateModel = {
    text: parsed.text,
    parsed,
    index,
    get groups() {
      return (groups ??= readGroups());
    },
    get tasks() {
      return (tasks ??= readTasks());
    },
    usersOf(kind, name) {
      users ??= buildUsers();
      return users[kind].get(name) ?? [];
    },
    task(name) {
      byName ??= new Map(model.tasks.map((t) => [t.name, t]));
      return byName.get(name);
    },
  };
  return model;
}

function append(m: Map<string, string[]>, key: string, value: string): void {
  const l = m.get(key);
  if (l) l.push(value);
  else m.set(key, [value]);
}
