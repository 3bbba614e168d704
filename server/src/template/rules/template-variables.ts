// Template variables `{% … %}`: names, spacing, indexes against the groups of the tasks that use them,
// standalone `localhost`, and variables in places pSConfig never expands.
import type { TaskInfo, TemplateModel } from '../model';
import { nodeAtOffset, nodePath, type JsonNode, type JsonPath, type ParsedTemplate } from '../parse';
import type { Section } from '../symbols';
import { INDEXED_VARIABLES, scanStringNode, type TemplateVariable } from '../variables';
import { closestName } from './closest-name';
import { diag, type TemplateDiagnostic } from './diagnostic';

/** Where pSConfig expands variables: whole tests, archives and contexts, and a task's `reference`. */
const EXPANDED: Section[] = ['tests', 'archives', 'contexts'];
/** Where it never does (a task's other fields too). Subtasks are never generated at all. */
const LITERAL: Section[] = ['addresses', 'address-classes', 'groups', 'hosts', 'schedules', 'tasks'];

const KNOWN = [
  'address[0]',
  'pscheduler_address[0]',
  'lead_bind_address[0]',
  'scheduled_by_address',
  'flip',
  'localhost',
  'jq',
];

export function checkTemplateVariables(model: TemplateModel): TemplateDiagnostic[] {
  const out: TemplateDiagnostic[] = [];
  const { text } = model.parsed;
  const tasks = new Map(model.tasks.map((t) => [t.name, t]));
  for (const { node, path } of stringsWithVariables(model.parsed)) {
    const [section, name] = path as [Section, string];
    const place = placeOf(path);
    if (place === 'expanded') {
      const users =
        section === 'tasks'
          ? (): TaskInfo[] => (tasks.has(name) ? [tasks.get(name)!] : [])
          : (): TaskInfo[] => model.usersOf(section as 'tests' | 'archives' | 'contexts', name);
      for (const v of scanStringNode(text, node)) checkExpanded(v, section, name, users, model, out);
    } else if (place === 'literal') literal(node, section, text, out);
  }
  return out;
}

/** Where a string sits: expanded by pSConfig, literal (never expanded), or neither (comments, _meta, subtasks). */
export function placeOf(path: JsonPath): 'expanded' | 'literal' | 'other' {
  const section = path[0] as Section;
  if (path.length < 3) return 'other';
  if (EXPANDED.includes(section)) return 'expanded';
  if (section === 'tasks' && path[2] === 'reference') return 'expanded';
  if (LITERAL.includes(section) && !path.includes('_meta')) return 'literal';
  return 'other';
}

/** String values (not keys, not under `#` comments) containing `{%`, found from the text rather than by walking
 *  the whole tree: the cost follows the number of variables, not the size of the template. */
export function stringsWithVariables(parsed: ParsedTemplate): { node: JsonNode; path: JsonPath }[] {
  const cached = CACHE.get(parsed);
  if (cached) return cached;
  const out: { node: JsonNode; path: JsonPath }[] = [];
  const { text, root } = parsed;
  let last: JsonNode | undefined;
  for (let i = text.indexOf('{%'); i >= 0; i = text.indexOf('{%', i + 2)) {
    const node = nodeAtOffset(root, i);
    if (!node || node === last || node.type !== 'string') continue;
    last = node;
    const parent = node.parent;
    if (parent?.type === 'property' && parent.children?.[0] === node) continue; // a key
    if (underComment(node)) continue;
    out.push({ node, path: nodePath(node) });
  }
  CACHE.set(parsed, out);
  return out;
}
const CACHE = new WeakMap<ParsedTemplate, { node: JsonNode; path: JsonPath }[]>();

function underComment(node: JsonNode): boolean {
  for (let n: JsonNode | undefined = node; n; n = n.parent) if (n.comment) return true;
  return false;
}

function literal(node: JsonNode, section: Section, text: string, out: TemplateDiagnostic[]): void {
  for (const v of scanStringNode(text, node)) {
    const where = section === 'tasks' ? 'task fields other than `reference`' : section;
    out.push(
      diag(
        'psconfig/variable-not-expanded',
        'warning',
        `pSConfig does not expand template variables in ${where}: \`${raw(text, v)}\` stays literal text. Variables work in tests, archives, contexts and a task's \`reference\`.`,
        v.start,
        v.end,
      ),
    );
  }
}

function checkExpanded(
  v: TemplateVariable,
  section: Section,
  name: string,
  users: () => TaskInfo[],
  model: TemplateModel,
  out: TemplateDiagnostic[],
): void {
  const text = model.parsed.text;
  if (v.malformed) {
    out.push(
      diag(
        'psconfig/variable-missing-space',
        'warning',
        `\`${raw(text, v)}\` is not a template variable: pSConfig needs whitespace after \`{%\` and before \`%}\` and leaves this text as is. Write \`{% ${v.text} %}\`.`,
        v.start,
        v.end,
      ),
    );
    return;
  }
  if (v.kind === 'unknown') {
    out.push(diag('psconfig/unknown-variable', 'error', unknownMessage(v.text), v.nameStart, v.nameEnd));
    return;
  }
  if (v.kind === 'localhost' && v.standalone) {
    out.push(
      diag(
        'psconfig/standalone-localhost',
        'warning',
        'A string that is only `{% localhost %}` expands to invalid JSON in pSConfig 5.x (an unquoted `localhost`) unless the task is flipped. Embed it in text (`"https://{% localhost %}/…"`) or use `{% scheduled_by_address %}`.',
        v.start,
        v.end,
      ),
    );
  }
  if (v.index !== undefined && INDEXED_VARIABLES.includes(v.kind)) checkIndex(v, section, name, users(), model, out);
}

function checkIndex(
  v: TemplateVariable,
  section: Section,
  name: string,
  users: TaskInfo[],
  model: TemplateModel,
  out: TemplateDiagnostic[],
): void {
  const index = v.index!;
  const bad: { task: TaskInfo; group: string; type: string; size: number }[] = [];
  for (const t of users) {
    const g = t.group !== undefined ? model.groups.get(t.group) : undefined;
    if (g?.size !== undefined && index >= g.size) bad.push({ task: t, group: g.name, type: g.type!, size: g.size });
  }
  const shown = `{% ${v.text} %}`;
  if (bad.length) {
    const [b] = bad;
    const where =
      section === 'tasks'
        ? `the \`reference\` of task \`${b.task.name}\``
        : `${section.slice(0, -1)} \`${name}\`, used by task \`${b.task.name}\`,`;
    const yields = b.size === 1 ? 'one address per task (only index 0)' : 'two addresses per task (indexes 0 and 1)';
    const more = bad.length > 1 ? ` ${bad.length - 1} more task(s) have the same problem.` : '';
    out.push(
      diag(
        'psconfig/variable-index',
        'error',
        `\`${shown}\` in ${where} is out of range: group \`${b.group}\` is a ${b.type} group, which yields ${yields}. pSConfig cannot expand it and skips every task of this kind.${more}`,
        v.start,
        v.end,
      ),
    );
  } else if (index >= 2) {
    out.push(
      diag(
        'psconfig/variable-index',
        'error',
        `\`${shown}\` is out of range: no group yields more than two addresses per task (indexes 0 and 1).`,
        v.start,
        v.end,
      ),
    );
  }
}

function unknownMessage(name: string): string {
  if (/^(address|pscheduler_address|lead_bind_address)$/.test(name))
    return `\`${name}\` needs an index: write \`${name}[0]\` or \`${name}[1]\`.`;
  const base = /^(address|pscheduler_address|lead_bind_address)\[/.exec(name);
  if (base) return `\`${name}\` needs a decimal index in brackets, e.g. \`${base[1]}[0]\`.`;
  if (/^jq(\s|$)/.test(name))
    return '`jq` needs exactly one space and then a jq script, e.g. `{% jq .addresses[0]._meta."display-name" %}`.';
  const closest = closestName(name, KNOWN);
  return `Unknown template variable \`${name}\`${closest ? `; did you mean \`${closest}\`?` : '.'} Known: address[N], pscheduler_address[N], lead_bind_address[N], scheduled_by_address, flip, localhost, jq <script>.`;
}

function raw(text: string, v: TemplateVariable): string {
  return text.slice(v.start, v.end);
}

/** Calls fn on every string value under node (comment keys skipped; `_meta` skipped when skipMeta). */
export function eachString(node: JsonNode | undefined, fn: (n: JsonNode) => void, skipMeta = false): void {
  if (!node) return;
  const stack: JsonNode[] = [node];
  while (stack.length) {
    const n = stack.pop()!;
    switch (n.type) {
      case 'string':
        if ((n.value as string).includes('{%')) fn(n);
        break;
      case 'object':
        for (const p of n.children ?? []) {
          if (p.comment || !p.children?.[1]) continue;
          if (skipMeta && p.children[0].value === '_meta') continue;
          stack.push(p.children[1]);
        }
        break;
      case 'array':
        for (const c of n.children ?? []) stack.push(c);
        break;
      default:
        break;
    }
  }
}
