// psconfig-tools hosts as text: a table per host (terminal) or Markdown (an issue, a pull request, a wiki page).
import {
  countsText,
  entryDetails as details,
  entryName as what,
  runsText,
  verdictText,
  type HostsResult,
} from '../server/src/template/hosts';

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
