// The comparison tree (pure, no `vscode`): a task comparison → a header, the new failures and diagnostics, the hosts
// whose load changes, then the agents, each with its removed, added and changed tasks. Every task opens its task
// JSON side by side.
import {
  type CompareTasksResult,
  type TaskDiffAgent,
  type TaskDiffChanged,
  type TaskDiffResult,
  type TaskDiffSide,
  type TaskDiffTask,
} from '../../../common/protocol';
import { hostLoadChangeText, loadPercent, taskDiffHeadline } from '../../../common/task-diff-text';
import { count, plural, noun } from '../../../common/text';
import { identicalText } from '../../../common/combination-text';

export type ComparisonIcon =
  | 'git-compare'
  | 'pass'
  | 'info'
  | 'warning'
  | 'error'
  | 'loading~spin'
  | 'server'
  | 'diff-removed'
  | 'diff-added'
  | 'diff-modified'
  | 'ellipsis'
  | 'pulse';

export type EntryKind = 'removed' | 'added' | 'changed';

export interface ComparisonItemView {
  id: string;
  label: string;
  description?: string;
  tooltip?: string;
  icon: ComparisonIcon;
  collapsible: 'none' | 'collapsed' | 'expanded';
  /** For `view/item/context` menus: header, message, failures, failure, diagnostics, diagnostic, agent, entry, more. */
  contextValue: string;
  /** Set on tasks: what opens side by side. */
  open?: ComparisonEntryRef;
}

/** One task of a comparison, as the open command receives it. */
export interface ComparisonEntryRef {
  template: string;
  id: string;
  kind: EntryKind;
  agent: string;
  task: string;
  addresses: string[];
}

export type ComparisonState =
  | { kind: 'none' }
  | { kind: 'loading'; template: string; base: string }
  | { kind: 'failed'; template: string; base: string; message: string }
  | { kind: 'result'; template: string; base: string; result: CompareTasksResult };

export type ComparisonNode =
  | { kind: 'message'; id: string; text: string; icon: ComparisonIcon; tooltip?: string }
  | { kind: 'header' }
  | { kind: 'failures' }
  | { kind: 'failure'; index: number }
  | { kind: 'diagnostics' }
  | { kind: 'diagnostic'; index: number }
  | { kind: 'resolved' }
  | { kind: 'resolvedDiagnostic'; index: number }
  | { kind: 'loads' }
  | { kind: 'load'; index: number }
  | { kind: 'agent'; index: number }
  | { kind: 'entry'; agent: number; entryKind: EntryKind; index: number }
  | { kind: 'more'; agent: number; hidden: number };

/** Tasks shown per agent; the rest is counted (the CLI lists every one). */
export const ENTRIES_PER_AGENT = 500;

function sideText(s: TaskDiffSide): string {
  if (s.error) return `cannot be expanded: ${s.error}`;
  const bits = [plural(s.tasks, 'task')];
  if (s.failed)
    bits.push(`${count(s.failed)} failed${s.refused ? ` (${count(s.refused)} refused by pScheduler)` : ''}`);
  if (s.diagnostics) bits.push(`${plural(s.diagnostics.error, 'error')}, ${plural(s.diagnostics.warning, 'warning')}`);
  return bits.join(', ');
}

function entriesOf(a: TaskDiffAgent): { kind: EntryKind; entry: TaskDiffTask | TaskDiffChanged }[] {
  return [
    ...a.removed.map((entry) => ({ kind: 'removed' as const, entry })),
    ...a.added.map((entry) => ({ kind: 'added' as const, entry })),
    ...a.changed.map((entry) => ({ kind: 'changed' as const, entry })),
  ];
}

/** `−1 +2 ~3` */
export function agentCounts(a: TaskDiffAgent): string {
  const parts: string[] = [];
  if (a.removed.length) parts.push(`−${count(a.removed.length)}`);
  if (a.added.length) parts.push(`+${count(a.added.length)}`);
  if (a.changed.length) parts.push(`~${count(a.changed.length)}`);
  return parts.join(' ');
}

export class ComparisonTreeModel {
  constructor(readonly state: ComparisonState) {}

  get headline(): string | undefined {
    const s = this.state;
    return s.kind === 'result' && s.result.diff ? taskDiffHeadline(s.result.diff.summary) : undefined;
  }

  roots(): ComparisonNode[] {
    const s = this.state;
    if (s.kind === 'none')
      return [{ kind: 'message', id: 'none', text: 'No comparison yet: run Compare Tasks with HEAD.', icon: 'info' }];
    if (s.kind === 'loading')
      return [{ kind: 'message', id: 'loading', text: `Comparing with ${s.base}…`, icon: 'loading~spin' }];
    if (s.kind === 'failed')
      return [
        { kind: 'message', id: 'failed', text: `Cannot compare with ${s.base}`, icon: 'error', tooltip: s.message },
      ];
    const d = s.result.diff;
    if (!d || s.result.error)
      return [
        {
          kind: 'message',
          id: 'error',
          text: `Cannot compare with ${s.base}: ${s.result.error ?? 'no result'}`,
          icon: 'error',
        },
      ];
    const out: ComparisonNode[] = [{ kind: 'header' }];
    if (d.newFailures.length) out.push({ kind: 'failures' });
    if (d.newDiagnostics.length) out.push({ kind: 'diagnostics' });
    if (d.resolvedDiagnostics?.length) out.push({ kind: 'resolved' });
    if (d.hosts?.length) out.push({ kind: 'loads' });
    d.agents.forEach((_, index) => out.push({ kind: 'agent', index }));
    return out;
  }

  children(node: ComparisonNode): ComparisonNode[] {
    const d = this.state.kind === 'result' ? this.state.result.diff : undefined;
    if (!d) return [];
    if (node.kind === 'failures')
      return d.newFailures.slice(0, ENTRIES_PER_AGENT).map((_, index) => ({ kind: 'failure', index }));
    if (node.kind === 'diagnostics') return d.newDiagnostics.map((_, index) => ({ kind: 'diagnostic', index }));
    if (node.kind === 'resolved')
      return (d.resolvedDiagnostics ?? []).map((_, index) => ({ kind: 'resolvedDiagnostic', index }));
    if (node.kind === 'loads') return (d.hosts ?? []).map((_, index) => ({ kind: 'load', index }));
    if (node.kind !== 'agent') return [];
    const all = entriesOf(d.agents[node.index]);
    const counters = { removed: 0, added: 0, changed: 0 };
    const shown: ComparisonNode[] = all.slice(0, ENTRIES_PER_AGENT).map((e) => ({
      kind: 'entry',
      agent: node.index,
      entryKind: e.kind,
      index: counters[e.kind]++,
    }));
    if (all.length > ENTRIES_PER_AGENT)
      shown.push({ kind: 'more', agent: node.index, hidden: all.length - ENTRIES_PER_AGENT });
    return shown;
  }

  item(node: ComparisonNode): ComparisonItemView {
    const s = this.state;
    if (node.kind === 'message')
      return {
        id: `message:${node.id}`,
        label: node.text,
        icon: node.icon,
        collapsible: 'none',
        contextValue: 'message',
        tooltip: node.tooltip,
      };
    if (s.kind !== 'result' || !s.result.diff) throw new Error('no comparison');
    const d = s.result.diff;
    switch (node.kind) {
      case 'header':
        return {
          id: 'header',
          label: `${s.base} → working copy`,
          description: taskDiffHeadline(d.summary),
          tooltip: `${s.base}: ${sideText(d.old)}\nworking copy: ${sideText(d.new)}`,
          icon: 'git-compare',
          collapsible: 'none',
          contextValue: 'header',
        };
      case 'failures':
        return {
          id: 'failures',
          label: `New failures (${count(d.newFailures.length)})`,
          icon: 'error',
          collapsible: 'collapsed',
          contextValue: 'failures',
        };
      case 'failure': {
        const f = d.newFailures[node.index];
        return {
          id: `failure:${node.index}`,
          label: f.addresses ? f.addresses.join(' → ') : f.task,
          description: f.error,
          tooltip: f.error,
          icon: 'error',
          collapsible: 'none',
          contextValue: 'failure',
        };
      }
      case 'diagnostics':
        return {
          id: 'diagnostics',
          label: `New errors and warnings (${count(d.newDiagnostics.length)})`,
          icon: d.newDiagnostics.some((x) => x.severity === 'error') ? 'error' : 'warning',
          collapsible: 'collapsed',
          contextValue: 'diagnostics',
        };
      case 'diagnostic': {
        const x = d.newDiagnostics[node.index];
        return {
          id: `diagnostic:${node.index}`,
          label: x.message,
          description: `line ${x.line ?? '?'} · ${x.code}`,
          tooltip: x.message,
          icon: x.severity === 'error' ? 'error' : 'warning',
          collapsible: 'none',
          contextValue: 'diagnostic',
        };
      }
      case 'resolved':
        return {
          id: 'resolved',
          label: `Errors resolved (${count(d.resolvedDiagnostics.length)})`,
          icon: 'pass',
          collapsible: 'collapsed',
          contextValue: 'resolved',
        };
      case 'resolvedDiagnostic': {
        const x = d.resolvedDiagnostics[node.index];
        return {
          id: `resolved:${node.index}`,
          label: x.message,
          description: `old line ${x.line ?? '?'} · ${x.code}`,
          tooltip: x.message,
          icon: 'pass',
          collapsible: 'none',
          contextValue: 'resolvedDiagnostic',
        };
      }
      case 'loads': {
        const hosts = d.hosts ?? [];
        const up = hosts.filter((h) => h.exclusiveLoad.new > h.exclusiveLoad.old).length;
        return {
          id: 'loads',
          label: `Host load changes (${count(hosts.length)})`,
          description: up ? `${count(up)} busier` : undefined,
          tooltip:
            'Share of time each host spends in exclusive (throughput) and normal (latency) runs, before and after: ' +
            'the schedule model of both versions (psconfig-tools schedule simulates whether the runs fit).',
          icon: hosts.some((h) => h.exclusiveLoad.new > 1) ? 'warning' : 'pulse',
          collapsible: 'collapsed',
          contextValue: 'loads',
        };
      }
      case 'load': {
        const h = d.hosts![node.index];
        const over = h.exclusiveLoad.new > 1;
        return {
          id: `load:${h.host}`,
          label: h.host,
          description: hostLoadChangeText(h),
          tooltip: `${h.host}: ${hostLoadChangeText(h)}${over ? `\nExclusive runs would need ${loadPercent(h.exclusiveLoad.new)} of its time: some cannot run.` : ''}`,
          icon: over ? 'warning' : 'server',
          collapsible: 'none',
          contextValue: 'load',
        };
      }
      case 'agent': {
        const a = d.agents[node.index];
        return {
          id: `agent:${a.agent}`,
          label: a.agent,
          description: agentCounts(a),
          tooltip: `${a.agent}: ${plural(a.removed.length, 'task')} removed, ${count(a.added.length)} added, ${count(a.changed.length)} changed`,
          icon: 'server',
          collapsible: 'collapsed',
          contextValue: 'agent',
        };
      }
      case 'more':
        return {
          id: `more:${node.agent}`,
          label: `… ${count(node.hidden)} more tasks`,
          tooltip: 'psconfig-tools diff lists every task',
          icon: 'ellipsis',
          collapsible: 'none',
          contextValue: 'more',
        };
      case 'entry': {
        const a = d.agents[node.agent];
        const e = a[node.entryKind][node.index];
        const parts = 'parts' in e ? e.parts : [];
        // A removed task that is now a duplicate of another task of its agent: say which.
        const same = e.identicalTo ? identicalText(e.identicalTo) : undefined;
        const what = same ?? parts.map((p) => (p.part === 'task' ? 'renamed' : p.part)).join(', ');
        const verb = { removed: 'removed', added: 'added', changed: 'changed' }[node.entryKind];
        return {
          id: `entry:${a.agent}:${node.entryKind}:${node.index}`,
          label: e.task,
          description: `${e.addresses.join(' → ')}${what ? ` · ${what}` : ''}`,
          tooltip: [
            `${e.task} ${e.addresses.join(' → ')} (${verb}${same ? `: now ${same}` : ''})`,
            ...parts.map((p) => `${p.part}${p.note ? `: ${p.note}` : ''}`),
          ].join('\n'),
          icon:
            node.entryKind === 'removed' ? 'diff-removed' : node.entryKind === 'added' ? 'diff-added' : 'diff-modified',
          collapsible: 'none',
          contextValue: 'entry',
          open: {
            template: s.template,
            id: s.result.id,
            kind: node.entryKind,
            agent: a.agent,
            task: e.task,
            addresses: e.addresses,
          },
        };
      }
    }
  }
}

export interface ComparisonSnapshotNode extends ComparisonItemView {
  children?: ComparisonSnapshotNode[];
}

/** The tree's items `depth` levels deep (for tests). */
export function snapshotComparison(model: ComparisonTreeModel, depth: number): ComparisonSnapshotNode[] {
  const walk = (nodes: ComparisonNode[], level: number): ComparisonSnapshotNode[] =>
    nodes.map((n) => {
      const view: ComparisonSnapshotNode = { ...model.item(n) };
      if (view.collapsible !== 'none' && level < depth) view.children = walk(model.children(n), level + 1);
      return view;
    });
  return walk(model.roots(), 1);
}

/** What the status-bar item says for a diff, or undefined when it should not show (no task changes, no new errors). */
export function statusText(d: TaskDiffResult): { text: string; tooltip: string; warn: boolean } | undefined {
  const s = d.summary;
  const newErrors = d.newDiagnostics.filter((x) => x.severity === 'error').length + d.newFailures.length;
  if (!s.added && !s.removed && !s.changed && !newErrors) return undefined;
  const headline = s.added || s.removed || s.changed ? taskDiffHeadline(s) : 'tasks unchanged';
  const more = newErrors ? `, ${newErrors} new ${noun(newErrors, 'error')}` : '';
  return {
    text: `$(git-compare) ${headline}${more}`,
    tooltip: `pSConfig tasks against HEAD: ${d.old.tasks.toLocaleString('en-US')} → ${d.new.tasks.toLocaleString('en-US')} tasks${more}. Click to compare.`,
    warn: s.removed > 0 || newErrors > 0,
  };
}
