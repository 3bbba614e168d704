// The task diff's wording, one for the command line (`psconfig-tools diff`), the status bar and the comparison
// tree: the headline and each host's load change. The result's types are in protocol.ts (the editor receives them).
import type { TaskDiffHostLoad, TaskDiffResult } from './protocol';
import { count, noun, plural } from './text';

/** `−1,204 +12 ~3 tasks on 37 agents` (removed, added, changed), or `no task changes`. */
export function taskDiffHeadline(s: TaskDiffResult['summary']): string {
  const parts: string[] = [];
  if (s.removed) parts.push(`−${count(s.removed)}`);
  if (s.added) parts.push(`+${count(s.added)}`);
  if (s.changed) parts.push(`~${count(s.changed)}`);
  if (!parts.length) return 'no task changes';
  const total = s.removed + s.added + s.changed;
  return `${parts.join(' ')} ${noun(total, 'task')} on ${plural(s.agentsAffected, 'agent')}`;
}

/** A share of time as a percentage with one decimal (`12.5%`). */
export function loadPercent(x: number): string {
  return `${(x * 100).toFixed(1)}%`;
}

/** `exclusive 12.5% → 15.0%, normal 0.0% → 0.0%`. */
export function hostLoadChangeText(h: TaskDiffHostLoad): string {
  const p = loadPercent;
  return `exclusive ${p(h.exclusiveLoad.old)} → ${p(h.exclusiveLoad.new)}, normal ${p(h.normalLoad.old)} → ${p(h.normalLoad.new)}`;
}
