// What each host runs, in words: one wording for the CLI's table and Markdown (cli/hosts-render.ts), the editor's
// Hosts view (client/src/hosts/) and a task's lens and hover (the language server), so they cannot disagree.
import type { HostReport, HostTaskEntry, HostsResult } from '../../../../common/protocol';
import { jsonText } from '../../../../common/json';

/** The task an entry is about: the template's name and addresses, or an extra task's test type and poster. */
export function entryName(e: HostTaskEntry): string {
  if (e.task !== undefined) return `${e.task} ${(e.addresses ?? []).join(' → ')}`.trim();
  const by = e.createdBy;
  const from = by ? ` (created by ${jsonText(by['agent-hostname'] ?? by.address ?? by.uuid ?? '?')})` : '';
  return `${e.testType ?? '?'} task${from}`;
}

/** The runs of the span counted by outcome, and the archivings; '' when the runs were not read. */
export function runsText(e: HostTaskEntry): string {
  const r = e.runs;
  if (!r) return '';
  const parts = [`${r.finished} finished`];
  if (r.failed) parts.push(`${r.failed} failed`);
  if (r.missed) parts.push(`${r.missed} missed`);
  if (r.nonStarters) parts.push(`${r.nonStarters} non-started`);
  if (r.other) parts.push(`${r.other} other`);
  const a = r.archivingsSucceeded + r.archivingsFailed + r.archivingsPending;
  if (a)
    parts.push(`archivings ${r.archivingsSucceeded} ok${r.archivingsFailed ? `, ${r.archivingsFailed} failed` : ''}`);
  if (r.truncated) parts.push('(not all read)');
  return parts.join(', ');
}

export function verdictText(e: HostTaskEntry): string {
  return e.lifetime && e.lifetime !== 'current' ? `${e.verdict} (${e.lifetime})` : e.verdict;
}

/** Why and what: the agent it belongs to, the parts that differ, the usual causes, each problem once with a count. */
export function entryDetails(e: HostTaskEntry): string[] {
  const out: string[] = [];
  if (e.agent) out.push(`for the agent at ${e.agent}`);
  for (const p of e.parts ?? [])
    out.push(`${p.part}: host ${JSON.stringify(p.old) ?? '(none)'} → template ${JSON.stringify(p.new) ?? '(none)'}`);
  for (const h of e.hints ?? []) out.push(h);
  // The same problem with the same reason once, with how often and when last.
  const same = new Map<string, { text: string; n: number; last?: string }>();
  for (const p of e.runs?.problems ?? []) {
    const text = `${p.kind === 'archiving-failed' ? `archiving to ${p.archiver} failed` : `run ${p.kind}`}: ${p.reason ?? '(no reason given)'}`;
    const hit = same.get(text);
    if (hit) {
      hit.n++;
      if (p.start && (!hit.last || p.start > hit.last)) hit.last = p.start;
    } else same.set(text, { text, n: 1, last: p.start });
  }
  for (const { text, n, last } of same.values())
    out.push(`${text}${n > 1 ? ` (${n}×, last at ${last ?? '?'})` : last ? ` (at ${last})` : ''}`);
  return out;
}

export function countsText(h: HostReport): string {
  const c = h.counts;
  const s = [`${c.present} present`, `${c.missing} missing`, `${c.different} different`, `${c.extra} extra`];
  if (c.expired) s.push(`${c.expired} expired`);
  if (c.renewing) s.push(`${c.renewing} renewing`);
  return s.join(', ');
}

/** An entry the operator should look at: not there, not as written, not renewed, or runs or archivings failing. */
export function entryHasProblem(e: HostTaskEntry): boolean {
  if (e.verdict !== 'present' || e.lifetime === 'expired') return true;
  const r = e.runs;
  return !!r && r.failed + r.missed + r.nonStarters + r.archivingsFailed > 0;
}

/** How one template task went on the hosts read: a lens's one line and a hover's lines. */
export interface TaskOnHosts {
  title: string;
  lines: string[];
}

/**
 * One template task across the hosts read (each agent's entries for it): how many of its pScheduler tasks are there,
 * and how their runs of the span went. undefined when no host read has an entry for the task.
 */
export function taskOnHosts(result: HostsResult, task: string): TaskOnHosts | undefined {
  const verdicts = new Map<string, number>();
  const total = { finished: 0, failed: 0, missed: 0, nonStarters: 0, archivingsFailed: 0 };
  const lines: string[] = [];
  for (const h of result.hosts)
    for (const e of h.entries) {
      if (e.task !== task) continue;
      const v = verdictText(e);
      verdicts.set(v, (verdicts.get(v) ?? 0) + 1);
      const r = e.runs;
      if (r) {
        total.finished += r.finished;
        total.failed += r.failed;
        total.missed += r.missed;
        total.nonStarters += r.nonStarters;
        total.archivingsFailed += r.archivingsFailed;
      }
      const runs = runsText(e);
      lines.push(`${h.host}: ${v}, ${entryName(e)}${runs ? ` (${runs})` : ''}`);
    }
  if (!lines.length) return undefined;
  const parts = [...verdicts].map(([v, n]) => `${n} ${v}`);
  const runs = [`${total.finished} finished`];
  if (total.failed) runs.push(`${total.failed} failed`);
  if (total.missed) runs.push(`${total.missed} missed`);
  if (total.nonStarters) runs.push(`${total.nonStarters} non-started`);
  if (total.archivingsFailed) runs.push(`${total.archivingsFailed} archivings failed`);
  return { title: `on its hosts: ${parts.join(', ')} · last ${result.since}: ${runs.join(', ')}`, lines };
}
