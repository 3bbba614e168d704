// What every navigation feature reads: the parsed template and its symbol index, plus small lookups over them
// (which groups use an object, so variable indexes can be checked and completed).
import { itemsOf, members, propertyValue, stringValue, type JsonNode, type ParsedTemplate } from '../parse';
import { sectionNode, type SymbolIndex, type Section } from '../symbols';

export interface NavModel {
  text: string;
  parsed: ParsedTemplate;
  index: SymbolIndex;
}

/** Number of addresses a combination of this group type has (the valid `[N]` are 0..size-1). */
export function combinationSize(groupType: string | undefined): number {
  return groupType === 'list' ? 1 : 2;
}

export function groupTypeOf(root: JsonNode | undefined, group: string): string | undefined {
  return stringValue(propertyValue(propertyValue(sectionNode(root, 'groups'), group), 'type'));
}

/** Tasks (names) whose spec names `name` in `field` (a string field or an array of names). */
export function tasksUsing(
  root: JsonNode | undefined,
  field: 'test' | 'archives' | 'group' | 'schedule',
  name: string,
): string[] {
  const out: string[] = [];
  for (const [task, prop] of members(sectionNode(root, 'tasks'))) {
    const v = propertyValue(prop.children?.[1], field);
    if (v?.type === 'string' ? v.value === name : itemsOf(v).some((i) => i.value === name)) out.push(task);
  }
  return out;
}

export interface UsingTask {
  task: string;
  group?: string;
  groupType?: string;
}

/**
 * Tasks whose combinations expand an object of `section` named `name` (a test, an archive, a context, or the
 * task itself for its `reference`). Archives attached through hosts and contexts attached through addresses
 * may reach any task, so for those every task counts.
 */
export function tasksExpanding(root: JsonNode | undefined, section: Section, name: string): UsingTask[] {
  let tasks: string[];
  if (section === 'tests') tasks = tasksUsing(root, 'test', name);
  else if (section === 'tasks') tasks = [name];
  else if (section === 'archives') {
    tasks = tasksUsing(root, 'archives', name);
    const viaHost = [...members(sectionNode(root, 'hosts'))].some(([, h]) =>
      itemsOf(propertyValue(h.children?.[1], 'archives')).some((i) => i.value === name),
    );
    if (viaHost) tasks = [...members(sectionNode(root, 'tasks')).keys()];
  } else if (section === 'contexts') tasks = [...members(sectionNode(root, 'tasks')).keys()];
  else tasks = [];
  const taskSection = sectionNode(root, 'tasks');
  return tasks.map((task) => {
    const group = stringValue(propertyValue(propertyValue(taskSection, task), 'group'));
    return { task, group, groupType: group === undefined ? undefined : groupTypeOf(root, group) };
  });
}

/** Largest address index valid in every task that expands the object (1 when nothing uses it yet). */
export function maxAddressIndex(root: JsonNode | undefined, section: Section, name: string): number {
  const users = tasksExpanding(root, section, name);
  if (users.length === 0) return 1;
  return Math.min(...users.map((u) => combinationSize(u.groupType))) - 1;
}

/** One-line summary of a definition for completion details and symbols: its type, address or archiver. */
export function summaryOf(value: JsonNode | undefined): string | undefined {
  if (value?.type !== 'object') return undefined;
  for (const key of ['type', 'address', 'archiver', 'context', 'test', 'group']) {
    const s = stringValue(propertyValue(value, key));
    if (s !== undefined) return key === 'type' ? s : `${key}: ${s}`;
  }
  const ds = stringValue(propertyValue(propertyValue(value, 'data-source'), 'type'));
  return ds === undefined ? undefined : `data-source: ${ds}`;
}
