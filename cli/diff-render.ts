// Text and Markdown forms of a task diff (`psconfig-tools diff --format text|markdown`). The Markdown is what a
// GitHub Actions job writes to its job summary or posts as a pull-request comment: a summary, a table per task
// (what changed, with the value when every task changed the same way), new errors and failures, then the details
// per agent, folded, cut to stay under a comment's size limit (GitHub refuses comments over 65,536 characters).
// Every name and value comes from a template someone else wrote: Markdown and HTML in them are escaped.
import type { TaskDiffPart, TaskDiffResult, TaskDiffSide } from '../server/src/template/task-diff';
import { hostLoadChangeText, loadPercent, taskDiffHeadline } from '../common/task-diff-text';
import { canonicalJson } from '../server/src/template/expand/template-view';

import { count, plural, noun } from '../common/text';
import { identicalText } from '../common/combination-text';

/** A value in one line, cut to `max` characters. */
export function shortValue(v: unknown, max = 80): string {
  if (v === undefined) return '(none)';
  const s = JSON.stringify(v) ?? 'null';
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

function partText(p: TaskDiffPart): string {
  if (p.part === 'task') return `renamed from ${shortValue(p.old)}`;
  return `${p.part}: ${shortValue(p.old)} → ${shortValue(p.new)}`;
}

/** Per task: how many added, removed, changed, on how many agents, and each changed part (with its value when
 *  every task changed it the same way). */
export interface TaskRow {
  task: string;
  added: number;
  removed: number;
  changed: number;
  agents: number;
  parts: { part: string; same?: TaskDiffPart; count: number }[];
}

export function rowsByTask(d: TaskDiffResult): TaskRow[] {
  const rows = new Map<
    string,
    TaskRow & {
      agentSet: Set<string>;
      partMap: Map<string, { key?: string; p: TaskDiffPart; count: number; mixed: boolean }>;
    }
  >();
  const row = (task: string) => {
    let r = rows.get(task);
    if (!r) {
      r = { task, added: 0, removed: 0, changed: 0, agents: 0, parts: [], agentSet: new Set(), partMap: new Map() };
      rows.set(task, r);
    }
    return r;
  };
  for (const a of d.agents) {
    for (const e of a.added) {
      row(e.task).added++;
      row(e.task).agentSet.add(a.agent);
    }
    for (const e of a.removed) {
      row(e.task).removed++;
      row(e.task).agentSet.add(a.agent);
    }
    for (const e of a.changed) {
      const r = row(e.task);
      r.changed++;
      r.agentSet.add(a.agent);
      for (const p of e.parts) {
        const key = canonicalJson([p.old ?? null, p.new ?? null, p.old === undefined, p.new === undefined]);
        const hit = r.partMap.get(p.part);
        if (!hit) r.partMap.set(p.part, { key, p, count: 1, mixed: false });
        else {
          hit.count++;
          if (hit.key !== key) hit.mixed = true;
        }
      }
    }
  }
  return [...rows.values()].map(({ agentSet, partMap, ...r }) => ({
    ...r,
    agents: agentSet.size,
    parts: [...partMap.entries()].map(([part, h]) => ({ part, count: h.count, ...(h.mixed ? {} : { same: h.p }) })),
  }));
}

function sideLine(name: string, s: TaskDiffSide): string {
  const bits = [plural(s.tasks, 'task')];
  if (s.failed)
    bits.push(`${count(s.failed)} failed${s.refused ? ` (${count(s.refused)} refused by pScheduler)` : ''}`);
  if (s.identical) bits.push(`${count(s.identical)} identical (created once)`);
  if (s.taskErrors) bits.push(`${count(s.taskErrors)} ${noun(s.taskErrors, 'task')} stopped`);
  if (s.diagnostics) bits.push(`${plural(s.diagnostics.error, 'error')}, ${plural(s.diagnostics.warning, 'warning')}`);
  return `${name} ${s.source ?? ''}: ${s.error ? `cannot be expanded: ${s.error}` : bits.join(', ')}`;
}

export function renderText(d: TaskDiffResult): string {
  const out: string[] = [];
  out.push(taskDiffHeadline(d.summary));
  out.push(sideLine('old', d.old), sideLine('new', d.new));
  for (const h of d.hosts ?? []) out.push(`load ${h.host}: ${hostLoadChangeText(h)}`);
  for (const a of d.agents) {
    out.push('', `agent ${a.agent}: ${agentHeadline(a)}`);
    for (const e of a.removed)
      out.push(
        `  - ${e.task}  ${e.addresses.join(' → ')}${e.identicalTo ? `  now ${identicalText(e.identicalTo)}` : ''}`,
      );
    for (const e of a.added) out.push(`  + ${e.task}  ${e.addresses.join(' → ')}`);
    for (const e of a.changed)
      out.push(`  ~ ${e.task}  ${e.addresses.join(' → ')}  ${e.parts.map(partText).join('; ')}`);
  }
  if (d.newFailures.length) {
    out.push('', `new failures (${count(d.newFailures.length)}):`);
    for (const f of d.newFailures) out.push(`  ✖ ${f.addresses ? '' : `task ${f.task}: `}${f.error}`);
  }
  if (d.newDiagnostics.length) {
    out.push('', `new diagnostics (${count(d.newDiagnostics.length)}):`);
    for (const x of d.newDiagnostics) out.push(`  ${x.line ?? '?'}: ${x.severity} ${x.code} ${x.message}`);
  }
  if (d.resolvedDiagnostics.length) {
    out.push('', `resolved errors (${count(d.resolvedDiagnostics.length)}, lines of the old version):`);
    for (const x of d.resolvedDiagnostics) out.push(`  ${x.line ?? '?'}: ${x.code} ${x.message}`);
  }
  return out.join('\n') + '\n';
}

/** `−17 ~19 tasks`: the headline of one agent. */
const agentHeadline = (a: TaskDiffResult['agents'][number]): string =>
  taskDiffHeadline({
    added: a.added.length,
    removed: a.removed.length,
    changed: a.changed.length,
    agentsAffected: 1,
  }).replace(/ on 1 agent$/, '');

const cut = (s: string, max: number): string => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

// ---- Markdown ------------------------------------------------------------------------------------------------

/**
 * Prose that may quote a template (diagnostic messages, errors) in Markdown, a table cell too: HTML and the
 * characters that start inline Markdown escaped, one line, and `@` followed by a zero-width space so a name in a
 * template cannot mention (notify) someone in a pull-request comment. Names and addresses go in `mdCode` instead.
 */
export function mdText(s: string): string {
  return s
    .replace(/[\r\n]+/g, ' ')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\|/g, '&#124;')
    .replace(/([\\`*_[\]~])/g, '\\$1')
    .replace(/@/g, '@\u200b');
}

/** A diagnostic message: its `quoted` names as code, the prose around them as text. */
export function mdMessage(s: string): string {
  return s
    .split('`')
    .map((piece, i, all) => (i % 2 === 1 && i < all.length - 1 ? mdCode(piece) : mdText(piece)))
    .join('');
}

/** A value as inline code: `<code>` with HTML escapes (a backtick in the value cannot end it). */
export function mdCode(s: string): string {
  const escaped = s
    .replace(/[\r\n]+/g, ' ')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\|/g, '&#124;');
  return `<code>${escaped}</code>`;
}

/** Rows of the per-task table (a template with thousands of tasks still fits a comment). */
const MAX_TASK_ROWS = 100;

/** GitHub refuses a comment longer than 65,536 characters; the rest of the budget leaves room for a header. */
export const MARKDOWN_BUDGET = 60_000;

export function renderMarkdown(d: TaskDiffResult, budget = MARKDOWN_BUDGET): string {
  const out: string[] = [];
  const src = (s: TaskDiffSide): string => (s.source ? mdCode(s.source) : 'version');
  out.push(`### pSConfig task changes: ${src(d.old)} → ${src(d.new)}`, '');
  const lose =
    d.summary.removed > 0 || d.newFailures.length > 0 || d.newDiagnostics.some((x) => x.severity === 'error');
  out.push(`${lose ? '⚠️ ' : ''}**${mdText(taskDiffHeadline(d.summary))}**`, '');
  for (const s of [d.old, d.new])
    if (s.error)
      out.push(`> ${s === d.old ? 'The old' : 'The new'} version cannot be expanded: ${mdText(s.error)}`, '');
  out.push('| | old | new |', '|---|---:|---:|');
  const line = (what: string, a: number | undefined, b: number | undefined): void => {
    if (a === undefined || b === undefined) return;
    out.push(`| ${what} | ${count(a)} | ${a === b ? count(b) : `**${count(b)}**`} |`);
  };
  line('tasks', d.old.tasks, d.new.tasks);
  line('failed combinations', d.old.failed, d.new.failed);
  line('of those, refused by pScheduler', d.old.refused, d.new.refused);
  line('tasks stopped', d.old.taskErrors, d.new.taskErrors);
  line('errors', d.old.diagnostics?.error, d.new.diagnostics?.error);
  line('warnings', d.old.diagnostics?.warning, d.new.diagnostics?.warning);
  out.push('');
  const rows = rowsByTask(d);
  if (rows.length) {
    out.push(
      '#### By task',
      '',
      '| task | removed | added | changed | agents | what changed |',
      '|---|---:|---:|---:|---:|---|',
    );
    for (const r of rows.slice(0, MAX_TASK_ROWS)) {
      const what = r.parts
        .slice(0, 10)
        .map((p) =>
          p.same
            ? p.part === 'task'
              ? `renamed from ${mdCode(shortValue(p.same.old, 60))}`
              : `${mdCode(p.part)}: ${mdCode(shortValue(p.same.old, 60))} → ${mdCode(shortValue(p.same.new, 60))}`
            : `${mdCode(p.part)} (${count(p.count)}, values differ)`,
        )
        .concat(r.parts.length > 10 ? [`… ${r.parts.length - 10} more parts`] : [])
        .join('<br>');
      out.push(
        `| ${mdCode(r.task)} | ${r.removed ? `**−${count(r.removed)}**` : 0} | ${r.added ? `+${count(r.added)}` : 0} | ${r.changed ? `\\~${count(r.changed)}` : 0} | ${count(r.agents)} | ${what} |`,
      );
    }
    if (rows.length > MAX_TASK_ROWS) out.push(`| … ${count(rows.length - MAX_TASK_ROWS)} more tasks | | | | | |`);
    out.push('');
  }
  if (d.hosts?.length) {
    out.push(
      '#### Host load (share of time in exclusive runs)',
      '',
      '| host | exclusive | normal |',
      '|---|---:|---:|',
    );
    for (const h of d.hosts.slice(0, 50))
      out.push(
        `| ${mdCode(h.host)} | ${loadPercent(h.exclusiveLoad.old)} → ${loadPercent(h.exclusiveLoad.new)} | ${loadPercent(h.normalLoad.old)} → ${loadPercent(h.normalLoad.new)} |`,
      );
    if (d.hosts.length > 50) out.push(`| … ${count(d.hosts.length - 50)} more hosts | | |`);
    out.push('');
  }
  const list = (title: string, items: string[], max: number): void => {
    if (!items.length) return;
    out.push(`#### ${title} (${count(items.length)})`, '');
    for (const i of items.slice(0, max)) out.push(`- ${i}`);
    if (items.length > max) out.push(`- … ${count(items.length - max)} more`);
    out.push('');
  };
  list(
    'New errors and warnings',
    d.newDiagnostics.map(
      (x) => `${x.severity === 'error' ? '❌' : '⚠️'} line ${x.line ?? '?'} ${mdCode(x.code)}: ${mdMessage(x.message)}`,
    ),
    30,
  );
  list(
    'Errors resolved',
    d.resolvedDiagnostics.map((x) => `✅ old line ${x.line ?? '?'} ${mdCode(x.code)}: ${mdMessage(x.message)}`),
    30,
  );
  list(
    'New failures',
    d.newFailures.map((f) =>
      f.addresses ? mdCode(cut(f.error, 300)) : `task ${mdCode(f.task)} stopped: ${mdCode(cut(f.error, 300))}`,
    ),
    30,
  );
  // Per agent, folded, within what is left of the budget.
  if (d.agents.length) {
    const head = out.join('\n');
    const details: string[] = [];
    let used = head.length + 200;
    let shown = 0;
    for (const a of d.agents) {
      const block: string[] = [`${mdCode(a.agent)}: ${mdText(agentHeadline(a))}`, ''];
      for (const e of a.removed)
        block.push(
          `- − ${mdCode(e.task)} ${mdCode(e.addresses.join(' → '))}${e.identicalTo ? `: now ${mdText(identicalText(e.identicalTo))}` : ''}`,
        );
      for (const e of a.added) block.push(`- \\+ ${mdCode(e.task)} ${mdCode(e.addresses.join(' → '))}`);
      for (const e of a.changed)
        block.push(
          `- \\~ ${mdCode(e.task)} ${mdCode(e.addresses.join(' → '))}: ${e.parts.map((p) => mdCode(partText(p))).join(', ')}`,
        );
      block.push('');
      const text = block.join('\n');
      if (used + text.length > budget) break;
      used += text.length + 1;
      details.push(text);
      shown++;
    }
    out.push(`<details><summary>Per agent (${count(d.agents.length)})</summary>`, '');
    out.push(...details);
    if (shown < d.agents.length)
      out.push(
        `… ${count(d.agents.length - shown)} more agents not shown here (\`psconfig-tools diff --format json\` lists every task).`,
        '',
      );
    out.push('</details>', '');
  }
  return out.join('\n');
}
