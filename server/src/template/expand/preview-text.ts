// The Tasks view as plain text, for editors without it (Neovim, Emacs, Helix call the server's
// `psconfig.server.previewTasks` command): agent → task → combination, in pSConfig order, plus the bare task JSON.
import { type ExpandTasksResult, type PreviewTasksText } from '../../../../common/protocol';
import { noun } from '../../../../common/text';
import { identicalText } from '../../../../common/combination-text';

export function previewText(r: ExpandTasksResult): PreviewTasksText {
  const out: PreviewTasksText = {
    uri: r.uri,
    version: r.version,
    text: '',
    tasks: [],
    failed: 0,
    refused: 0,
    identical: 0,
  };
  if (r.error) {
    out.error = r.error;
    out.text = `cannot expand: ${r.error}\n`;
    return out;
  }
  const summaries = new Map(r.tasks.map((t) => [t.task, t]));
  // agent → task → lines, in first-seen order.
  const byAgent = new Map<string, Map<string, string[]>>();
  const identical = new Map<string, number>(); // per agent: listed, left out of its count
  for (const c of r.combinations) {
    const agent = c.agent ?? '(failed)';
    let tasks = byAgent.get(agent);
    if (!tasks) byAgent.set(agent, (tasks = new Map<string, string[]>()));
    let lines = tasks.get(c.task);
    if (!lines) tasks.set(c.task, (lines = []));
    const pair = c.addressValues.join(' → ');
    if (c.error) {
      out.failed++;
      if (c.refused) out.refused++;
      lines.push(`    ✖ ${pair}  ${c.error}`);
    } else if (c.identicalTo) {
      // Listed, so a group naming an address twice can be seen, but not counted nor in `tasks`: never posted.
      out.identical++;
      identical.set(agent, (identical.get(agent) ?? 0) + 1);
      lines.push(`    = ${pair}  ${identicalText(c.identicalTo)}`);
    } else {
      lines.push(`    ${pair}${c.flip ? '  flip' : ''}`);
      if (c.pscheduler) out.tasks.push(c.pscheduler);
    }
  }
  const text: string[] = [];
  for (const [agent, tasks] of byAgent) {
    let count = -(identical.get(agent) ?? 0);
    for (const lines of tasks.values()) count += lines.length;
    const same = identical.get(agent) ? `, ${identical.get(agent)} identical (created once)` : '';
    text.push(`${agent}  ${count} ${noun(count, 'task')}${same}`);
    for (const [task, lines] of tasks) {
      const s = summaries.get(task);
      const what = [s?.testType, s?.group ? `group ${s.group}` : undefined].filter(Boolean).join(' · ');
      text.push(`  ${task}${what ? `  ${what}` : ''}`);
      text.push(...lines);
    }
  }
  for (const t of r.tasks) if (t.error) text.push(`error: task ${t.task}: ${t.error}`);
  for (const n of r.notes) text.push(`note: ${n.task ? `task ${n.task}: ` : ''}${n.message}`);
  if (r.truncated) text.push('… (cut at the requested limit)');
  out.text = text.length ? `${text.join('\n')}\n` : 'no tasks\n';
  return out;
}
