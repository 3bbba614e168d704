// psconfig-tools hosts as text: a table per host (terminal) or Markdown (an issue, a pull request, a wiki page).
import type { HostReport, HostTaskEntry, HostsResult } from '../server/src/template/hosts';

function what(e: HostTaskEntry): string {
  if (e.task !== undefined) return `${e.task} ${(e.addresses ?? []).join(' → ')}`.trim();
  const by = e.createdBy;
  const from = by ? ` (created by ${String(by['agent-hostname'] ?? by.address ?? by.uuid ?? '?')})` : '';
  return `${e.testType ?? '?'} task${from}`;
}

function runsText(e: HostTaskEntry): string {
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

function verdictText(e: HostTaskEntry): string {
  return e.lifetime && e.lifetime !== 'current' ? `${e.verdict} (${e.lifetime})` : e.verdict;
}

function details(e: HostTaskEntry): string[] {
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

function countsText(h: HostReport): string {
  const c = h.counts;
  const s = [`${c.present} present`, `${c.missing} missing`, `${c.different} different`, `${c.extra} extra`];
  if (c.expired) s.push(`${c.expired} expired`);
  if (c.renewing) s.push(`${c.renewing} renewing`);
  return s.join(', ');
}

function table(r: HostsResult): string {
  const out: string[] = [];
  for (const h of r.hosts) {
    out.push(`${h.host}  ${h.url}${h.notAnAgent ? '  (not an agent of the template)' : ''}`);
    if (h.error !== undefined) {
      out.push(`  cannot read: ${h.error}`, '');
      continue;
    }
    out.push(`  ${countsText(h)}${h.tasksTruncated ? ' (not all tasks read: --max-tasks)' : ''}`);
    const w = Math.max(8, ...h.entries.map((e) => verdictText(e).length));
    for (const e of h.entries) {
      out.push(`  ${verdictText(e).padEnd(w)}  ${what(e)}${e.runs ? `  [${runsText(e)}]` : ''}`);
      for (const d of details(e)) out.push(`  ${' '.repeat(w)}    ${d}`);
    }
    out.push('');
  }
  out.push(
    r.problems
      ? `problems found (runs since ${r.since} ago)`
      : `every host runs what the template makes (runs since ${r.since} ago)`,
  );
  return `${out.join('\n')}\n`;
}

const md = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function markdown(r: HostsResult): string {
  const out: string[] = [`## What each host runs${r.template ? `: \`${r.template}\`` : ''}`, ''];
  out.push(`Runs of the last ${r.since}. ${r.problems ? '**Problems found.**' : 'No problems.'}`, '');
  for (const h of r.hosts) {
    out.push(`### ${h.host}`, '', `<${h.url}>${h.notAnAgent ? ' (not an agent of the template)' : ''}`, '');
    if (h.error !== undefined) {
      out.push(`**Cannot read:** ${md(h.error)}`, '');
      continue;
    }
    out.push(countsText(h), '');
    if (!h.entries.length) continue;
    out.push('| verdict | task | runs | details |', '|---|---|---|---|');
    for (const e of h.entries)
      out.push(`| ${verdictText(e)} | ${md(what(e))} | ${md(runsText(e))} | ${details(e).map(md).join('<br>')} |`);
    out.push('');
  }
  return `${out.join('\n')}\n`;
}

export function renderHosts(r: HostsResult, format: 'table' | 'markdown' | 'json'): string {
  return format === 'markdown' ? markdown(r) : table(r);
}
