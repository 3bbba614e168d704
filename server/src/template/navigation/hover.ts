// Hover text (markdown) for names and template variables. Expansion figures come from the caller (the engine's
// result for this document version), so this module stays pure and cheap.
import type { ExpandedCombination, ScheduleTemplateTask } from '../../../../common/protocol';
import type { TemplateModel } from '../model';
import { nodeAtOffset, nodePath, propertyValue, stringValue, toValue, type JsonNode } from '../parse';
import { scanStringNode, type TemplateVariable } from '../variables';
import { expandedOwner, meaningOf, tasksExpanding } from '../variable-table';
import { singular } from './completion';
import { definitionsOf, targetAt, type NameTarget } from './names';
import { code, fenced, plain } from './markdown';
import { hoverPayload } from './pscheduler-hover';
import { hoverReference } from './reference-completion';
import { pluralPlain, noun } from '../../../../common/text';

/** How many pScheduler tasks one template task yields (from the engine's count or its full expansion). */
export interface TaskFact {
  task: string;
  count: number;
  /** Combinations left out of `count`: identical to an earlier task of their agent, which pSConfig creates once. */
  identical?: number;
  /** Number of distinct scheduling agents. */
  agents: number;
  error?: string;
  disabled?: boolean;
}

/** The parts of an expansion result hovers and lenses use; `combinations` may be empty (counts only). */
export interface ExpansionFacts {
  tasks: TaskFact[];
  combinations: ExpandedCombination[];
  /** The simulated schedule's runs per template task, when it was ready (psconfig/schedule). */
  schedule?: ScheduleTemplateTask[];
}

export interface NavHover {
  start: number;
  end: number;
  markdown: string;
}

const MAX_SNIPPET_LINES = 30;

export function hoverAt(model: TemplateModel, offset: number, facts?: ExpansionFacts): NavHover | undefined {
  const t = targetAt(model, offset);
  if (t) return hoverName(model, t, facts);
  const node = nodeAtOffset(model.parsed.root, offset, false);
  if (node?.type === 'string') {
    const v = scanStringNode(model.text, node).find((x) => offset >= x.start && offset <= x.end);
    if (v) return hoverVariable(model, node, v, facts);
  }
  return hoverPayload(model, offset) ?? hoverReference(model, offset);
}

function fence(value: unknown): string {
  let json = JSON.stringify(value, null, 2) ?? 'undefined';
  const lines = json.split('\n');
  if (lines.length > MAX_SNIPPET_LINES) json = `${lines.slice(0, MAX_SNIPPET_LINES).join('\n')}\n…`;
  return fenced('json', json);
}

function hoverName(model: TemplateModel, t: NameTarget, facts?: ExpansionFacts): NavHover {
  const defs = definitionsOf(model, t);
  const what = singular(t.kind);
  const parts: string[] = [];
  const where = t.kind === 'labels' && t.address !== undefined ? ` of address ${code(t.address)}` : '';
  if (defs.length === 0) {
    parts.push(`**${what}** ${code(t.name)}${where} is not defined.`);
  } else {
    parts.push(`**${what}** ${code(t.name)}${where}`);
    if (t.kind === 'groups') parts.push(groupFacts(model, t.name, defs[0].valueNode, facts));
    if (t.kind === 'tasks') parts.push(taskFacts(t.name, facts));
    // On a reference show the object; on the definition key the object is right there.
    if (!t.definition) parts.push(fence(toValue(defs[0].valueNode)));
    const refs = model.index.referencesTo(t.kind, t.name, t.kind === 'labels' ? t.address : undefined).length;
    if (t.kind !== 'tasks') parts.push(`${refs} ${noun(refs, 'reference')} in this template.`);
  }
  return { start: t.start, end: t.end, markdown: parts.filter((p) => p !== '').join('\n\n') };
}

function groupFacts(model: TemplateModel, group: string, value: JsonNode | undefined, facts?: ExpansionFacts): string {
  const type = stringValue(propertyValue(value, 'type')) ?? '(no type)';
  const lines = [`Type: ${code(type)}`];
  const tasks = model.tasks.filter((t) => t.group === group).map((t) => t.name);
  if (tasks.length === 0) lines.push('No task uses this group.');
  for (const task of tasks.slice(0, 5)) {
    const s = facts?.tasks.find((x) => x.task === task);
    if (!s) lines.push(`Task ${code(task)}`);
    else if (s.error) lines.push(`Task ${code(task)}: ${plain(s.error)}`);
    else
      lines.push(
        `Task ${code(task)}: ${pluralPlain(s.count, 'task')} for ${pluralPlain(s.agents, 'agent')}${identicalNote(s)}${s.disabled ? ' (disabled)' : ''}`,
      );
  }
  if (tasks.length > 5) lines.push(`… and ${tasks.length - 5} more tasks`);
  return lines.join('  \n');
}

function taskFacts(task: string, facts?: ExpansionFacts): string {
  const s = facts?.tasks.find((x) => x.task === task);
  if (!s) return '';
  if (s.error) return `Cannot be expanded: ${plain(s.error)}`;
  const yields = `Yields ${pluralPlain(s.count, 'pScheduler task')} for ${pluralPlain(s.agents, 'agent')}${identicalNote(s)}.`;
  const run = facts?.schedule?.find((x) => x.task === task);
  return run ? `${yields}\n\n${scheduleFacts(run)}` : yields;
}

/** ` (+2 identical, created once)`: combinations pSConfig's agent skips as duplicates of an earlier task. */
export function identicalNote(s: Pick<TaskFact, 'identical'>): string {
  return s.identical ? ` (+${s.identical} identical, created once)` : '';
}

/** Runs a day as the simulated schedule found them (per pScheduler task and in all), the run, the class. */
function scheduleFacts(t: ScheduleTemplateTask): string {
  const per = (n: number): string => perDay(n / Math.max(1, t.combinations));
  const { min, max } = t.durationSeconds;
  const lines = [
    `**Schedule** (simulated): ${per(t.wantedPerDay)} runs a day per pScheduler task, ${perDay(t.wantedPerDay)} in all`,
    t.losing === 0
      ? 'All fit.'
      : `${perDay(t.scheduledPerDay)} a day fit, ${perDay(t.nonstartPerDay)} are non-starters; ${t.losing} of ${pluralPlain(t.combinations, 'pScheduler task')} lose runs.`,
    `Each run takes ${min === max ? `${min} s` : `${min}–${max} s`}${t.tools.length ? ` (${t.tools.map((x) => code(x)).join(', ')})` : ''}, class ${t.classes.map((x) => code(x)).join(', ')}.`,
  ];
  return lines.join('  \n');
}

/** A per-day figure: whole when it is, else one decimal. */
export function perDay(n: number): string {
  return Number.isInteger(n) ? n.toLocaleString('en-US') : n.toLocaleString('en-US', { maximumFractionDigits: 1 });
}

function hoverVariable(model: TemplateModel, node: JsonNode, v: TemplateVariable, facts?: ExpansionFacts): NavHover {
  const range = { start: v.start, end: v.end };
  if (v.malformed) {
    return {
      ...range,
      markdown: `${code(`{%${v.text}%}`)} is **not** a template variable: pSConfig needs a space after \`{%\` and before \`%}\`, so it stays literal text.`,
    };
  }
  if (v.kind === 'unknown') return { ...range, markdown: `${code(v.text)} is not a pSConfig template variable.` };
  const parts = [`**${code(`{% ${v.text} %}`)}**: ${meaningOf(v.kind, v.index)}.`];
  const path = nodePath(node);
  const owner = expandedOwner(path);
  if (!owner) {
    parts.push('pSConfig does not expand variables here: the text stays as written.');
    return { ...range, markdown: parts.join('\n\n') };
  }
  const users = new Set(tasksExpanding(model, owner).map((t) => t.name));
  const combo = facts?.combinations.find((c) => c.pscheduler !== undefined && users.has(c.task)); // refused ones too
  if (!combo) {
    parts.push(
      users.size === 0 ? 'No task expands this object yet.' : 'No combination to show (expansion not available).',
    );
    return { ...range, markdown: parts.join('\n\n') };
  }
  const value = variableValue(model, v, combo);
  const pair = combo.addressValues.join(' → ');
  if (value !== undefined)
    parts.push(`In task ${code(combo.task)}, first combination ${code(pair)}: ${code(JSON.stringify(value))}`);
  const expanded = expandedString(path, owner.section, combo);
  if (expanded !== undefined) parts.push(`This value expands to:\n${fence(expanded)}`);
  return { ...range, markdown: parts.join('\n\n') };
}

function bracketV6(a: string): string {
  return a.includes(':') && !a.startsWith('[') ? `[${a}]` : a;
}

/** Value of a non-jq variable for one combination (jq results are read from the expanded task instead). */
function variableValue(model: TemplateModel, v: TemplateVariable, c: ExpandedCombination): unknown {
  const addresses = propertyValue(model.parsed.root, 'addresses');
  const field = (i: number, key: string): string | undefined =>
    stringValue(propertyValue(propertyValue(addresses, c.addresses[i]), key));
  switch (v.kind) {
    case 'address':
      return v.index !== undefined ? c.addressValues[v.index] : undefined;
    case 'pscheduler_address': {
      if (v.index === undefined || c.addressValues[v.index] === undefined) return undefined;
      return field(v.index, 'pscheduler-address') ?? bracketV6(c.addressValues[v.index]);
    }
    case 'lead_bind_address':
      if (v.index === undefined || c.addressValues[v.index] === undefined) return undefined;
      return field(v.index, 'lead-bind-address') ?? c.addressValues[v.index];
    case 'scheduled_by_address':
      return c.agent;
    case 'flip':
      return c.flip ?? false;
    case 'localhost':
      return c.flip ? c.agent : 'localhost';
    default:
      return undefined;
  }
}

/** The same spot in the expanded pScheduler task, for tests (under `test`) and task references (under `reference`). */
function expandedString(path: (string | number)[], section: string, c: ExpandedCombination): unknown {
  if (!c.pscheduler) return undefined;
  let cur: unknown;
  let rest: (string | number)[];
  if (section === 'tests') {
    cur = c.pscheduler.test;
    rest = path.slice(2);
  } else if (section === 'tasks') {
    cur = c.pscheduler.reference;
    rest = path.slice(3);
  } else return undefined;
  for (const seg of rest) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string | number, unknown>)[seg];
  }
  return cur;
}
