// The Tasks tree as plain data: Agent → Task → combination, built from one ExpandTasksResult. No `vscode`
// import, so grouping, labels and ids are unit-tested directly; tasks-view.ts maps TreeItemView to TreeItem.
//
// A 200-address mesh yields 39,800 combinations: nothing is materialised up front. One O(n) pass indexes
// combination numbers by agent and task (on first use); nodes are created only for the children VS Code asks
// for, and long child lists are paged behind a "… N more" item. When the server cut an all-agents expansion at the
// view's limit (a very large template), the model lists every agent from the task summaries and each agent's
// tasks come from a separate per-agent expansion, loaded when the agent is opened (see setAgentResult).
// Ids are derived from names (agent, task, address names), never from positions, so VS Code keeps the
// expansion state of each node across refreshes of an edited template.
import {
  type ScheduleAgentLoad,
  type ExpandTasksResult,
  ExpandedCombination,
  ExpandedTaskSummary,
  ExpansionNote,
} from '../../../common/protocol';
import { CombinationIndex } from './combination-index';
import { pluralPlain } from '../../../common/text';
import { identicalText, refusalPartLabel } from '../../../common/combination-text';

export { combinationKey } from './combination-index';

/** What the view currently shows. */
export type PreviewState =
  | { kind: 'no-template' }
  | { kind: 'loading'; template: string }
  | { kind: 'request-failed'; template: string; message: string }
  | { kind: 'result'; template: string; result: ExpandTasksResult; agentAddresses: string[] };

export type MessageSeverity = 'info' | 'warning' | 'error' | 'loading';

export type TaskTreeNode =
  | { kind: 'message'; id: string; label: string; detail?: string; severity: MessageSeverity }
  | { kind: 'notes'; id: string }
  | { kind: 'note'; id: string; note: ExpansionNote }
  | { kind: 'agent'; id: string; agent: string }
  | { kind: 'task'; id: string; agent: string; task: string }
  | { kind: 'combination'; id: string; agent: string; index: number; key: string }
  | { kind: 'more'; id: string; parentId: string; remaining: number };

/** Codicon names used by the view (ThemeIcon ids). */
export type IconId =
  | 'info'
  | 'warning'
  | 'error'
  | 'loading~spin'
  | 'server'
  | 'checklist'
  | 'arrow-right'
  | 'arrow-swap'
  | 'circle-small'
  | 'copy'
  | 'ellipsis';

export interface TreeItemView {
  id: string;
  label: string;
  description?: string;
  tooltip?: string;
  icon: IconId;
  collapsible: 'none' | 'collapsed';
  /**
   * For `view/item/context` menus: message, notes, note, agent, task, combination, combinationError,
   * combinationRefused (failed: pScheduler would refuse its task JSON, which opens), combinationIdentical (not
   * created: identical to an earlier task of its agent; its JSON opens), more.
   */
  contextValue: string;
  /** Set on combinations that have task JSON: the key that `combinationByKey` resolves. */
  openKey?: string;
}

/** Label of the bucket for failed combinations whose scheduling agent is unknown. */
export const NO_AGENT_LABEL = '(no scheduling agent)';
export const DEFAULT_PAGE_SIZE = 500;

/** `a → b` for pairs, the address for lists; address-object names when the engine gave no values. */
export function combinationLabel(c: ExpandedCombination): string {
  const parts = c.addressValues.length > 0 ? c.addressValues : c.addresses;
  return parts.length > 0 ? parts.join(' → ') : '(no addresses)';
}

/** `3 tasks, 2 failed (1 refused by pScheduler), 1 identical (created once)` */
function countText(ok: number, failed: number, refused: number, identical: number): string {
  const same = identical ? `, ${identical} identical (created once)` : '';
  if (!failed) return pluralPlain(ok, 'task') + same;
  const why = refused
    ? ` (${refused === failed ? (failed === 1 ? 'refused' : 'all refused') : `${refused} refused`} by pScheduler)`
    : '';
  return `${pluralPlain(ok, 'task')}, ${failed} failed${why}${same}`;
}

export class TaskTreeModel {
  private index: CombinationIndex | undefined;
  private readonly summaries = new Map<string, ExpandedTaskSummary>();
  /** How many children are shown per paged parent id; carried over from the previous model. */
  readonly pages: Map<string, number>;
  private readonly pageSize: number;
  /** Per-agent expansions of a cut all-agents result (lazy-agents mode). */
  private readonly perAgent = new Map<string, TaskTreeModel>();
  /** Each agent's load from the simulated schedule (psconfig/schedule), once it is known. */
  private loads = new Map<string, ScheduleAgentLoad>();

  constructor(
    readonly state: PreviewState,
    options: { pageSize?: number; pages?: Map<string, number> } = {},
  ) {
    this.pageSize = Math.max(1, options.pageSize ?? DEFAULT_PAGE_SIZE);
    this.pages = options.pages ?? new Map<string, number>();
    if (state.kind === 'result') for (const t of state.result.tasks) this.summaries.set(t.task, t);
  }

  get result(): ExpandTasksResult | undefined {
    return this.state.kind === 'result' ? this.state.result : undefined;
  }

  /** True when the all-agents result was cut: agents are listed from the summaries, their tasks loaded per agent. */
  get lazyAgents(): boolean {
    const s = this.state;
    return (
      s.kind === 'result' &&
      s.result.truncated &&
      s.result.error === undefined &&
      s.agentAddresses.length === 0 &&
      s.result.agents.length > 0
    );
  }

  /** The agents' loads from the template's simulated schedule (shown beside each agent). */
  setLoads(agents: readonly ScheduleAgentLoad[]): void {
    this.loads = new Map(agents.map((a) => [a.agent, a]));
    for (const sub of this.perAgent.values()) sub.loads = this.loads;
  }

  /** ` · exclusive load 42%` and the tooltip's sentence for an agent, when its load is known. */
  private loadText(agent: string): { short: string; long: string; over: boolean } | undefined {
    const l = this.loads.get(agent);
    if (!l) return undefined;
    const pct = (x: number): string => `${Math.round(x * 100)}%`;
    const on = l.hosts.length ? ` on ${l.hosts.join(', ')}` : '';
    return {
      short: ` · exclusive load ${pct(l.exclusiveLoad)}`,
      long:
        `\nExclusive load ${pct(l.exclusiveLoad)}${on}: the share of the day its exclusive (throughput) runs ask for` +
        `${l.exclusiveLoad > 1 ? ', more than the day has: runs will not start' : ''}; normal (latency) load ${pct(l.normalLoad)}.`,
      over: l.exclusiveLoad > 1,
    };
  }

  /** Whether opening `node` first needs `setAgentResult` for its agent. */
  needsAgentResult(node: TaskTreeNode): node is Extract<TaskTreeNode, { kind: 'agent' }> {
    return node.kind === 'agent' && this.lazyAgents && !this.perAgent.has(node.agent);
  }

  /** Stores the expansion for one agent (requested with agentAddresses [agent]) in lazy-agents mode. */
  setAgentResult(agent: string, result: ExpandTasksResult): void {
    if (this.state.kind !== 'result') return;
    const sub = new TaskTreeModel(
      { kind: 'result', template: this.state.template, result, agentAddresses: [agent] },
      { pageSize: this.pageSize, pages: this.pages },
    );
    sub.loads = this.loads;
    this.perAgent.set(agent, sub);
  }

  /** Short text for the view's description: which agents are shown. */
  scopeDescription(): string {
    if (this.state.kind !== 'result') return '';
    const a = this.state.agentAddresses;
    return a.length === 0 ? 'all agents' : `agent ${a.join(', ')}`;
  }

  roots(): TaskTreeNode[] {
    const s = this.state;
    switch (s.kind) {
      case 'no-template':
        return [message('no-template', 'Open a pSConfig template to preview the tasks it generates.', 'info')];
      case 'loading':
        return [message('loading', 'Expanding tasks…', 'loading')];
      case 'request-failed':
        return [message('request-failed', 'The task expansion failed.', 'error', s.message)];
      case 'result':
        return this.resultRoots(s.result, s.agentAddresses);
    }
  }

  children(node: TaskTreeNode): TaskTreeNode[] {
    const result = this.result;
    if (!result) return [];
    if (this.lazyAgents && (node.kind === 'agent' || node.kind === 'task')) {
      const sub = this.perAgent.get(node.agent);
      const error = sub?.result?.error;
      if (error !== undefined)
        return [message(`agent-error:${node.agent}`, 'The expansion for this agent failed.', 'error', error)];
      if (!sub) return [];
      const kids = sub.children(node);
      // an agent's own answer is bounded too (AGENT_COMBINATION_LIMIT, and 4 MB of task JSON): say when it was cut
      if (node.kind === 'agent' && sub.result?.truncated)
        kids.unshift(
          message(
            `agent-truncated:${node.agent}`,
            `Showing the first ${sub.result.combinations.length} of this agent's combinations.`,
            'warning',
            'One answer carries at most 4 MB of task JSON; Export writes every task, and `psconfig-tools expand --agent` lists them all.',
          ),
        );
      return kids;
    }
    switch (node.kind) {
      case 'notes':
        return result.notes.map((note, i) => ({ kind: 'note', id: `note:${i}`, note }));
      case 'agent': {
        const bucket = this.getIndex().byAgent.get(node.agent);
        if (!bucket) return [];
        const tasks = [...bucket.tasks.keys()];
        return this.paged(node.id, tasks.length, (i) => ({
          kind: 'task',
          id: JSON.stringify(['t', node.agent, tasks[i]]),
          agent: node.agent,
          task: tasks[i],
        }));
      }
      case 'task': {
        const idx = this.getIndex();
        const numbers = idx.list(node.agent, node.task);
        idx.fillKeys(numbers);
        return this.paged(node.id, numbers.length, (i) => {
          const n = numbers[i];
          const key = idx.keyOf(n) as string;
          return { kind: 'combination', id: JSON.stringify(['c', node.agent, key]), agent: node.agent, index: n, key };
        });
      }
      default:
        return [];
    }
  }

  item(node: TaskTreeNode): TreeItemView {
    if (this.lazyAgents && (node.kind === 'agent' || node.kind === 'task' || node.kind === 'combination')) {
      const sub = this.perAgent.get(node.agent);
      if (sub) return sub.item(node);
      if (node.kind === 'agent') return this.unloadedAgentItem(node);
    }
    switch (node.kind) {
      case 'message':
        return {
          id: node.id,
          label: node.label,
          description: node.detail,
          tooltip: node.detail ? `${node.label}\n${node.detail}` : node.label,
          icon: severityIcon(node.severity),
          collapsible: 'none',
          contextValue: 'message',
        };
      case 'notes': {
        const n = this.result?.notes.length ?? 0;
        return {
          id: node.id,
          label: `Where pSConfig 5.x differs (${n})`,
          tooltip: 'What the Python 5.x agent would do differently from the Perl 4.x semantics shown here.',
          icon: 'warning',
          collapsible: 'collapsed',
          contextValue: 'notes',
        };
      }
      case 'note': {
        const label = node.note.task ? `${node.note.task}: ${node.note.message}` : node.note.message;
        return { id: node.id, label, tooltip: label, icon: 'info', collapsible: 'none', contextValue: 'note' };
      }
      case 'agent':
        return this.agentItem(node);
      case 'task':
        return this.taskItem(node);
      case 'combination':
        return this.combinationItem(node);
      case 'more':
        return {
          id: node.id,
          label: `… ${node.remaining} more`,
          tooltip: 'Show more items',
          icon: 'ellipsis',
          collapsible: 'none',
          contextValue: 'more',
        };
    }
  }

  /** Shows the next page under a "… N more" item's parent; returns that parent's id (the node to refresh). */
  showMore(node: Extract<TaskTreeNode, { kind: 'more' }>): string {
    this.pages.set(node.parentId, (this.pages.get(node.parentId) ?? this.pageSize) + this.pageSize);
    return node.parentId;
  }

  combination(index: number): ExpandedCombination | undefined {
    return this.result?.combinations[index];
  }

  /** The stable key of combination number `n` of the result. */
  keyOf(n: number): string | undefined {
    return this.getIndex().keyOf(n);
  }

  /** The combination with this key, in the result or in a loaded per-agent expansion. */
  combinationByKey(key: string): ExpandedCombination | undefined {
    const n = this.getIndex().indexOfKey(key);
    if (n !== undefined) return this.result?.combinations[n];
    for (const sub of this.perAgent.values()) {
      const c = sub.combinationByKey(key);
      if (c) return c;
    }
    return undefined;
  }

  /** Agents in tree order (schedulers first seen, then the bucket of failures without an agent). */
  agents(): string[] {
    return this.result ? [...this.getIndex().agents] : [];
  }

  private resultRoots(result: ExpandTasksResult, agentAddresses: string[]): TaskTreeNode[] {
    if (result.error !== undefined)
      return [message('template-error', 'The template cannot be expanded.', 'error', result.error)];
    const roots: TaskTreeNode[] = [];
    if (this.lazyAgents) {
      const total = result.tasks.reduce((sum, t) => sum + t.count, 0);
      roots.push(
        message(
          'large',
          `${pluralPlain(total, 'task')} for ${pluralPlain(result.agents.length, 'agent')}.`,
          'info',
          "A large template: each agent's tasks are expanded when you open it.",
        ),
      );
    } else if (result.truncated) {
      roots.push(
        message(
          'truncated',
          `Showing the first ${result.combinations.length} combinations.`,
          'warning',
          'Pick an agent (pSConfig: Show Tasks for Agent…) to see all of its tasks; Export writes every task.',
        ),
      );
    }
    for (const t of result.tasks) {
      if (t.error !== undefined)
        roots.push(message(`task-error:${t.task}`, `Task ${t.task} stopped.`, 'error', t.error));
    }
    const idx = this.getIndex();
    const agents = this.lazyAgents ? result.agents : idx.agents;
    if (agents.length === 0) {
      const who = agentAddresses.length === 0 ? 'any agent' : `agent ${agentAddresses.join(', ')}`;
      roots.push(
        message(
          'empty',
          `No tasks for ${who}.`,
          'info',
          agentAddresses.length === 0 ? undefined : 'pSConfig: Show Tasks for Agent… picks another agent.',
        ),
      );
    } else {
      roots.push(
        ...this.paged('', agents.length, (i) => ({
          kind: 'agent',
          id: JSON.stringify(['a', agents[i]]),
          agent: agents[i],
        })),
      );
    }
    if (result.notes.length > 0) roots.push({ kind: 'notes', id: 'notes' });
    return roots;
  }

  /** An agent of a cut result whose own expansion is not loaded yet: what the task summaries say about it. */
  private unloadedAgentItem(node: Extract<TaskTreeNode, { kind: 'agent' }>): TreeItemView {
    const tasks = this.result?.tasks.filter((t) => t.agents.includes(node.agent)).length ?? 0;
    const description = `${pluralPlain(tasks, 'template task')}`;
    const load = this.loadText(node.agent);
    return {
      id: node.id,
      label: node.agent,
      description: description + (load?.short ?? ''),
      tooltip: `${node.agent}: ${description}; open to expand its tasks${load?.long ?? ''}`,
      icon: load?.over ? 'warning' : 'server',
      collapsible: 'collapsed',
      contextValue: 'agent',
    };
  }

  private agentItem(node: Extract<TaskTreeNode, { kind: 'agent' }>): TreeItemView {
    const bucket = this.getIndex().byAgent.get(node.agent);
    const ok = bucket?.ok ?? 0;
    const failed = bucket?.failed ?? 0;
    const label = node.agent === '' ? NO_AGENT_LABEL : node.agent;
    const description = countText(ok, failed, bucket?.refused ?? 0, bucket?.identical ?? 0);
    const load = this.loadText(node.agent);
    return {
      id: node.id,
      label,
      description: description + (load?.short ?? ''),
      tooltip: `${label}: ${description} in ${pluralPlain(bucket?.tasks.size ?? 0, 'template task')}${load?.long ?? ''}`,
      icon: failed || load?.over ? 'warning' : 'server',
      collapsible: 'collapsed',
      contextValue: 'agent',
    };
  }

  private taskItem(node: Extract<TaskTreeNode, { kind: 'task' }>): TreeItemView {
    const numbers = this.getIndex().list(node.agent, node.task);
    let failed = 0;
    let refused = 0;
    let identical = 0;
    for (const n of numbers) {
      const c = this.result?.combinations[n];
      if (c?.error !== undefined) failed++;
      else if (c?.identicalTo !== undefined) identical++;
      if (c?.refused !== undefined) refused++;
    }
    const ok = numbers.length - failed - identical;
    const summary = this.summaries.get(node.task);
    const count = countText(ok, failed, refused, identical);
    const parts = [
      summary?.testType ?? 'unknown test',
      summary?.group ? `group ${summary.group}` : undefined,
      count,
    ].filter((p): p is string => p !== undefined);
    const description = parts.join(' · ');
    const groupType = summary?.groupType ? ` (${summary.groupType})` : '';
    return {
      id: node.id,
      label: node.task,
      description,
      tooltip: `Task ${node.task}: ${summary?.testType ?? 'unknown'} test, group ${summary?.group ?? '?'}${groupType}\n${count} for ${node.agent || NO_AGENT_LABEL}`,
      icon: failed === 0 ? 'checklist' : ok === 0 ? 'error' : 'warning',
      collapsible: 'collapsed',
      contextValue: 'task',
    };
  }

  private combinationItem(node: Extract<TaskTreeNode, { kind: 'combination' }>): TreeItemView {
    // A node handed out by an older model may reach us after a refresh: trust its key, not its position.
    const n = this.keyOf(node.index) === node.key ? node.index : this.getIndex().indexOfKey(node.key);
    const c = n === undefined ? undefined : this.result?.combinations[n];
    if (!c) return { id: node.id, label: '(gone)', icon: 'error', collapsible: 'none', contextValue: 'message' };
    const label = combinationLabel(c);
    const names = c.addresses.join(' → ');
    if (c.refused !== undefined) {
      // Failed like an expansion error, but its task JSON exists: it opens, to see what pScheduler would refuse.
      const lines = c.refused.flatMap((r) => r.problems.map((p) => `• ${refusalPartLabel(r)}: ${p}`));
      return {
        id: node.id,
        label,
        description: c.error,
        tooltip: `${c.task}: ${names}\nscheduled by ${c.agent ?? '?'}\npScheduler would refuse this task:\n${lines.join('\n')}\nClick to open the task JSON it would refuse.`,
        icon: 'error',
        collapsible: 'none',
        contextValue: 'combinationRefused',
        openKey: node.key,
      };
    }
    if (c.error !== undefined) {
      return {
        id: node.id,
        label,
        description: c.error,
        tooltip: `${c.task}: ${names}\n${c.error}`,
        icon: 'error',
        collapsible: 'none',
        contextValue: 'combinationError',
      };
    }
    if (c.identicalTo !== undefined) {
      // Not a failure: the agent skips it because it already creates the same task; greyed, its JSON opens.
      return {
        id: node.id,
        label,
        description: identicalText(c.identicalTo),
        tooltip: `${c.task}: ${names}\nscheduled by ${c.agent ?? '?'}\nNot created: ${identicalText(c.identicalTo)}. pSConfig's agent creates each identical task (same task JSON less schema, tool, start, until and private values) once per agent.\nClick to open the task JSON.`,
        icon: 'copy',
        collapsible: 'none',
        contextValue: 'combinationIdentical',
        openKey: node.key,
      };
    }
    const flip = c.flip ? `\nflip: the scheduled-by member is no-agent, so ${c.agent ?? '?'} schedules it` : '';
    return {
      id: node.id,
      label,
      description: c.flip ? 'flip' : undefined,
      tooltip: `${c.task}: ${names}\nscheduled by ${c.agent ?? '?'}${flip}\nClick to open the pScheduler task JSON.`,
      icon: c.flip ? 'arrow-swap' : c.addressValues.length === 1 ? 'circle-small' : 'arrow-right',
      collapsible: 'none',
      contextValue: 'combination',
      openKey: node.key,
    };
  }

  private getIndex(): CombinationIndex {
    this.index ??= new CombinationIndex(this.result?.combinations ?? [], this.result?.agents ?? []);
    return this.index;
  }

  /** The first page (or more, after "… N more") of a child list of `total` entries; `make(i)` builds entry i. */
  private paged(parentId: string, total: number, make: (i: number) => TaskTreeNode): TaskTreeNode[] {
    const shown = Math.min(total, this.pages.get(parentId) ?? this.pageSize);
    const out: TaskTreeNode[] = [];
    for (let i = 0; i < shown; i++) out.push(make(i));
    if (shown < total)
      out.push({ kind: 'more', id: JSON.stringify(['more', parentId]), parentId, remaining: total - shown });
    return out;
  }
}

function message(code: string, label: string, severity: MessageSeverity, detail?: string): TaskTreeNode {
  return { kind: 'message', id: `msg:${code}`, label, detail, severity };
}

function severityIcon(s: MessageSeverity): IconId {
  return s === 'loading' ? 'loading~spin' : s;
}

/** A rendered tree (items with their children), as the commands return it for tests and tools. */
export interface TreeSnapshotNode extends TreeItemView {
  children?: TreeSnapshotNode[];
}

/** The tree's items down to `depth` levels (1: roots only), opening every collapsible node on the way. */
export function snapshotTree(model: TaskTreeModel, depth: number): TreeSnapshotNode[] {
  const walk = (nodes: TaskTreeNode[], level: number): TreeSnapshotNode[] =>
    nodes.map((node) => {
      const view: TreeSnapshotNode = { ...model.item(node) };
      if (view.collapsible === 'collapsed' && level < depth) view.children = walk(model.children(node), level + 1);
      return view;
    });
  return walk(model.roots(), 1);
}
