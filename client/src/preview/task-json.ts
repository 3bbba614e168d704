// Text of the task JSON the preview shows and exports, and the address of a read-only task document.
// Pure (no `vscode`): the document provider and the export command call these.
import {
  isCreated,
  type ExpandTasksResult,
  type ExpandedCombination,
  type PSchedulerTask,
} from '../../../common/protocol';
import { identicalText } from '../../../common/combination-text';

export { TASK_DOCUMENT_SCHEME } from '../language/document-schemes';

/**
 * The task JSON of every combination that would be created, in pSConfig order, as a bare array like the one
 * `psconfig pscheduler-tasks` prints. Failed combinations are left out, as the agent skips them; so are the
 * tasks pScheduler would refuse (the agent posts them and they are not created; on a real host
 * `pscheduler-tasks` still lists them, since the agent logs each task before posting it), and the duplicates of
 * a task the same agent creates already (`identicalTo`: posted once). The caller reports all three.
 */
export function pschedulerTaskArray(result: ExpandTasksResult): PSchedulerTask[] {
  const tasks: PSchedulerTask[] = [];
  for (const c of result.combinations) if (isCreated(c)) tasks.push(c.pscheduler!);
  return tasks;
}

/** Same layout as `psconfig pscheduler-tasks` (JSON indented by 2), with a final newline. */
export function formatTaskArray(tasks: PSchedulerTask[]): string {
  return JSON.stringify(tasks, null, 2) + '\n';
}

/**
 * The document text of one combination: its task JSON, or a JSON object stating why there is none; for a task
 * pScheduler would refuse, that object with the refusal and the task JSON under `pscheduler`.
 */
export function formatCombinationDocument(c: ExpandedCombination | undefined, missing: string): string {
  if (!c) return JSON.stringify({ error: missing }, null, 2) + '\n';
  if (c.refused !== undefined && c.pscheduler) {
    const { task, addresses, error, refused, pscheduler } = c;
    return JSON.stringify({ task, addresses, error, refused, pscheduler }, null, 2) + '\n';
  }
  if (c.identicalTo !== undefined && c.pscheduler) {
    // The JSON as the template yields it, with why the agent does not post it.
    const { task, addresses, identicalTo, pscheduler } = c;
    return JSON.stringify({ task, addresses, notCreated: identicalText(identicalTo), pscheduler }, null, 2) + '\n';
  }
  if (c.error !== undefined || !c.pscheduler) {
    return JSON.stringify({ task: c.task, addresses: c.addresses, error: c.error ?? 'no task JSON' }, null, 2) + '\n';
  }
  return JSON.stringify(c.pscheduler, null, 2) + '\n';
}

/** What a task document's URI carries: which template, which agent scope, which combination. */
export interface TaskDocumentAddress {
  template: string;
  agentAddresses: string[];
  key: string;
}

/**
 * Path and query of a task document URI. The last path segment is the editor tab title (`task a → b.json`,
 * ending in .json so the editor picks the JSON language); the query holds the lookup data.
 */
export function taskDocumentPathAndQuery(
  address: TaskDocumentAddress,
  c?: ExpandedCombination,
): { path: string; query: string } {
  const title = c
    ? `${c.task} ${c.addressValues.length ? c.addressValues.join(' → ') : c.addresses.join(' → ')}`
    : 'task';
  const query = new URLSearchParams({
    template: address.template,
    agents: JSON.stringify(address.agentAddresses),
    key: address.key,
  });
  return { path: '/' + safeSegment(title) + '.json', query: query.toString() };
}

/**
 * One side of one task of a task comparison (client/src/compare): the template, the comparison the server keeps,
 * which side, and the task as the diff identifies it; `label` names the side in the tab title.
 */
export interface ComparisonDocumentAddress {
  template: string;
  id: string;
  side: 'old' | 'new';
  label: string;
  agent: string;
  task: string;
  addresses: string[];
}

export function comparisonDocumentPathAndQuery(a: ComparisonDocumentAddress): { path: string; query: string } {
  const title = `${a.task} ${a.addresses.join(' → ')} (${a.label})`;
  const query = new URLSearchParams({
    compare: a.id,
    template: a.template,
    side: a.side,
    label: a.label,
    agent: a.agent,
    task: a.task,
    addresses: JSON.stringify(a.addresses),
  });
  return { path: '/' + safeSegment(title) + '.json', query: query.toString() };
}

/** The comparison side a task document shows, or undefined for a plain task document. */
export function parseComparisonDocumentQuery(query: string): ComparisonDocumentAddress | undefined {
  const q = new URLSearchParams(query);
  const id = q.get('compare');
  const template = q.get('template');
  const side = q.get('side');
  const task = q.get('task');
  if (!id || !template || (side !== 'old' && side !== 'new') || task === null) return undefined;
  let addresses: string[] = [];
  try {
    const parsed: unknown = JSON.parse(q.get('addresses') ?? '[]');
    if (Array.isArray(parsed)) addresses = parsed.filter((a): a is string => typeof a === 'string');
  } catch {
    return undefined;
  }
  return { id, template, side, task, addresses, agent: q.get('agent') ?? '', label: q.get('label') ?? side };
}

export function parseTaskDocumentQuery(query: string): TaskDocumentAddress | undefined {
  const q = new URLSearchParams(query);
  const template = q.get('template');
  const key = q.get('key');
  if (!template || !key) return undefined;
  let agentAddresses: string[] = [];
  try {
    const parsed: unknown = JSON.parse(q.get('agents') ?? '[]');
    if (Array.isArray(parsed)) agentAddresses = parsed.filter((a): a is string => typeof a === 'string');
  } catch {
    // a hand-edited URI: fall back to all agents
  }
  return { template, agentAddresses, key };
}

/** A single path segment: no separators, no characters that trouble file-like URIs. */
function safeSegment(s: string): string {
  const cleaned = s
    .replace(/[/\\?#]/g, '_')
    .replace(/\s+/g, ' ')
    .trim();
  return (cleaned || 'task').slice(0, 120);
}
