// The simulated schedule as the language server gives it to an editor without the extension's host timeline (the
// schedule lens in Neovim, Emacs, Helix): each task's runs a day, the hosts' loads, the agents' loads, and the
// psconfig-tools line that lists every run.
import type { ScheduleResult } from '../../../../common/protocol';
import { shellWord } from '../expand/dashboard-text';
import { scheduleLensTitle } from '../navigation/code-lenses';

/** Hosts listed at most (busiest first; a 200-address mesh has 200). */
export const MAX_HOST_LINES = 500;

const load = (x: number): string => x.toFixed(3);

/** The text document of a template's schedule; `task` (a lens's) is listed first. */
export function scheduleText(r: ScheduleResult, templatePath: string, task?: string): string {
  const lines = [`Simulated schedule of ${templatePath}`];
  if (r.error) return `${lines[0]}\n\n${r.error}\n`;
  if (r.span) lines.push(`Span: ${r.span.start} to ${r.span.end} (after a warm-up day; seed 1)`);
  for (const n of r.notes) lines.push(n);
  lines.push('', 'Runs a day per task (summed over its pScheduler tasks):');
  const tasks = [...r.templateTasks].sort((a, b) => Number(b.task === task) - Number(a.task === task));
  const width = Math.max(4, ...tasks.map((t) => t.task.length));
  for (const t of tasks)
    lines.push(`  ${t.task.padEnd(width)}  ${scheduleLensTitle(t.task, r.templateTasks).replace(/^schedule: /, '')}`);
  lines.push('', 'Hosts by exclusive load (the share of the day their exclusive runs take; over 1 cannot fit):');
  const hosts = [...r.hosts].sort((a, b) => b.exclusiveLoad - a.exclusiveLoad || b.normalLoad - a.normalLoad);
  const hw = Math.max(7, ...hosts.slice(0, MAX_HOST_LINES).map((h) => h.address.length));
  lines.push(`  ${'address'.padEnd(hw)}  exclusive  normal  tasks`);
  for (const h of hosts.slice(0, MAX_HOST_LINES))
    lines.push(
      `  ${h.address.padEnd(hw)}  ${load(h.exclusiveLoad).padStart(9)}  ${load(h.normalLoad).padStart(6)}  ${h.tasks}`,
    );
  if (hosts.length > MAX_HOST_LINES) lines.push(`  … and ${hosts.length - MAX_HOST_LINES} more hosts`);
  lines.push('', 'Every run and non-starter, with its reason:');
  lines.push(`  psconfig-tools schedule ${shellWord(templatePath)} --runs --format json`);
  return `${lines.join('\n')}\n`;
}
