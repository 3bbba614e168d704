// The Hosts view's tree (pure: no vscode import): host → the template's tasks as its pScheduler holds them (present,
// missing, different, extra; expired or renewing) → why, and the recent runs read. Item texts come from the one
// wording of template/hosts/wording.ts (the CLI and the lenses use it too).
import type { HostRead, HostReport, HostTaskEntry, HostsResult, ObservedRun } from '../../../common/protocol';
import {
  countsText,
  entryDetails,
  entryHasProblem,
  entryName,
  runsText,
  verdictText,
} from '../../../server/src/template/hosts/wording';

/** Runs listed under a task, newest first (the counts cover all of them). */
export const MAX_RUNS_LISTED = 50;

export type HostsState =
  | { kind: 'none' }
  | { kind: 'reading'; template: string; hosts: string[] }
  | { kind: 'error'; template: string; error: string }
  | { kind: 'read'; template: string; result: HostsResult; reads: HostRead[]; at: string };

export type HostsNode =
  | { kind: 'message'; text: string; icon: HostsIcon }
  | { kind: 'host'; report: HostReport }
  | { kind: 'entry'; host: string; entry: HostTaskEntry; index: number }
  | { kind: 'detail'; text: string; problem: boolean }
  | { kind: 'run'; host: string; run: ObservedRun; task?: string };

/** Theme icon ids (codicons) the view maps to vscode.ThemeIcon. */
export type HostsIcon =
  | 'server'
  | 'error'
  | 'warning'
  | 'pass'
  | 'diff'
  | 'question'
  | 'sync'
  | 'info'
  | 'loading~spin'
  | 'check'
  | 'circle-slash'
  | 'close'
  | 'circle-outline';

export interface HostsItemView {
  label: string;
  description?: string;
  tooltip?: string;
  icon: HostsIcon;
  /** Colour of the icon: a problem (error), a warning, or none. */
  tone?: 'error' | 'warning' | 'ok';
  collapsible: 'none' | 'collapsed' | 'expanded';
  contextValue?: string;
}

export interface HostsSnapshotNode {
  label: string;
  description?: string;
  icon: HostsIcon;
  children?: HostsSnapshotNode[];
}

const RUN_ICON: Record<string, { icon: HostsIcon; tone?: 'error' | 'warning' | 'ok' }> = {
  finished: { icon: 'check', tone: 'ok' },
  failed: { icon: 'close', tone: 'error' },
  missed: { icon: 'circle-slash', tone: 'warning' },
  nonstart: { icon: 'circle-slash', tone: 'error' },
};

/** `2026-11-28T06:54:10Z` → `11-28 06:54:10 UTC` (a day's runs differ in the time; the date says which day). */
function shortTime(iso: string | undefined): string {
  if (!iso) return '(no time)';
  const m = /^\d{4}-(\d\d-\d\d)T(\d\d:\d\d:\d\d)/.exec(iso);
  return m ? `${m[1]} ${m[2]} UTC` : iso;
}

export class HostsTreeModel {
  constructor(readonly state: HostsState) {}

  roots(): HostsNode[] {
    const s = this.state;
    if (s.kind === 'none') return [];
    if (s.kind === 'reading')
      return [
        { kind: 'message', text: `Reading ${s.hosts.length} host(s): ${s.hosts.join(', ')}…`, icon: 'loading~spin' },
      ];
    if (s.kind === 'error') return [{ kind: 'message', text: s.error, icon: 'error' }];
    if (!s.result.hosts.length) return [{ kind: 'message', text: 'No host was read.', icon: 'info' }];
    return s.result.hosts.map((report) => ({ kind: 'host', report }));
  }

  children(node: HostsNode): HostsNode[] {
    if (node.kind === 'host') {
      if (node.report.error !== undefined) return [{ kind: 'detail', text: node.report.error, problem: true }];
      return node.report.entries.map((entry, index) => ({ kind: 'entry', host: node.report.host, entry, index }));
    }
    if (node.kind !== 'entry') return [];
    const out: HostsNode[] = entryDetails(node.entry).map((text) => ({ kind: 'detail', text, problem: false }));
    for (const run of this.runsOf(node.host, node.entry))
      out.push({ kind: 'run', host: node.host, run, task: node.entry.task });
    return out;
  }

  /** The runs read for an entry's pScheduler tasks, newest first, at most MAX_RUNS_LISTED. */
  runsOf(host: string, entry: HostTaskEntry): ObservedRun[] {
    if (this.state.kind !== 'read' || !entry.hrefs?.length) return [];
    const hrefs = new Set(entry.hrefs);
    const read = this.state.reads.find((r) => r.host === host);
    const runs = (read?.tasks ?? []).filter((t) => hrefs.has(t.href)).flatMap((t) => t.runs);
    return runs
      .filter((r) => r.start !== undefined)
      .sort((a, b) => (a.start! < b.start! ? 1 : a.start! > b.start! ? -1 : 0))
      .slice(0, MAX_RUNS_LISTED);
  }

  item(node: HostsNode): HostsItemView {
    switch (node.kind) {
      case 'message':
        return {
          label: node.text,
          icon: node.icon,
          collapsible: 'none',
          tone: node.icon === 'error' ? 'error' : undefined,
        };
      case 'host': {
        const r = node.report;
        if (r.error !== undefined)
          return {
            label: r.host,
            description: `cannot read: ${r.errorKind ?? 'error'}`,
            tooltip: `${r.url}\n${r.error}`,
            icon: 'error',
            tone: 'error',
            collapsible: 'expanded',
            contextValue: 'host',
          };
        const problem = r.entries.some(entryHasProblem);
        return {
          label: r.host,
          description: `${countsText(r)}${r.notAnAgent ? ' · not an agent of the template' : ''}${r.tasksTruncated ? ' · not all tasks read' : ''}`,
          tooltip: `${r.url}${this.state.kind === 'read' ? `\nread ${shortTime(this.state.at)}` : ''}`,
          icon: 'server',
          tone: problem ? 'warning' : 'ok',
          collapsible: 'expanded',
          contextValue: 'host',
        };
      }
      case 'entry': {
        const e = node.entry;
        const runs = runsText(e);
        const icon: HostsIcon =
          e.verdict === 'missing'
            ? 'error'
            : e.verdict === 'different'
              ? 'diff'
              : e.verdict === 'extra'
                ? 'question'
                : e.lifetime === 'expired'
                  ? 'warning'
                  : e.lifetime === 'renewing'
                    ? 'sync'
                    : 'pass';
        const problem = entryHasProblem(e);
        return {
          label: entryName(e),
          description: `${verdictText(e)}${runs ? ` · ${runs}` : ''}`,
          tooltip: [`${verdictText(e)}: ${entryName(e)}`, ...entryDetails(e)].join('\n'),
          icon,
          tone: e.verdict === 'missing' ? 'error' : problem ? 'warning' : 'ok',
          collapsible: entryDetails(e).length || this.runsOf(node.host, e).length ? 'collapsed' : 'none',
          contextValue: e.task !== undefined ? 'templateTask' : 'extraTask',
        };
      }
      case 'detail':
        return {
          label: node.text,
          icon: node.problem ? 'error' : 'info',
          tone: node.problem ? 'error' : undefined,
          collapsible: 'none',
        };
      case 'run': {
        const r = node.run;
        const look = RUN_ICON[r.state] ?? { icon: 'circle-outline' };
        const arch = r.archivings.map((a) => `${a.archiver} ${a.outcome}`).join(', ');
        const why = r.reason ?? r.archivings.find((a) => a.outcome === 'failed')?.message;
        return {
          label: `${r.state} ${shortTime(r.start)}`,
          description: [arch && `archivings: ${arch}`, why].filter(Boolean).join(' · '),
          tooltip: [
            `${r.href}`,
            `${r.state} ${r.start ?? ''} → ${r.end ?? ''}`,
            ...(r.reason ? [`reason: ${r.reason}`] : []),
            ...r.archivings.map((a) => `archiving to ${a.archiver}: ${a.outcome}${a.message ? ` — ${a.message}` : ''}`),
          ].join('\n'),
          icon: look.icon,
          tone: r.archivings.some((a) => a.outcome === 'failed') && look.tone === 'ok' ? 'warning' : look.tone,
          collapsible: 'none',
          contextValue: 'run',
        };
      }
    }
  }

  /** The entries (host, index) of a template task, for revealing it. */
  entriesOf(task: string): HostsNode[] {
    return this.roots()
      .filter((n) => n.kind === 'host')
      .flatMap((n) => this.children(n))
      .filter((n) => n.kind === 'entry' && n.entry.task === task);
  }
}

/** The tree as plain data, `depth` levels deep (tests, the command's answer). */
export function snapshotHosts(model: HostsTreeModel, depth: number): HostsSnapshotNode[] {
  const walk = (nodes: HostsNode[], level: number): HostsSnapshotNode[] =>
    nodes.map((n) => {
      const v = model.item(n);
      const s: HostsSnapshotNode = { label: v.label, icon: v.icon };
      if (v.description) s.description = v.description;
      if (level < depth && v.collapsible !== 'none') s.children = walk(model.children(n), level + 1);
      return s;
    });
  return walk(model.roots(), 1);
}
