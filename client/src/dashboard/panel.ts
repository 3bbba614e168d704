// VS Code side of the mesh dashboard: one webview panel per (template, task filter), its pure host (host.ts) wired to
// the language server's grids, the explorer's tokens and command, the `psconfig.dashboard.*` settings and template
// edits. Loaded on first use (extension.ts imports it lazily), so activation does not pay for it.
//
// psconfig.openDashboard(arg?) → DashboardOpened | undefined, where arg is OpenDashboardArgs ({ uri?, task? }), a
// template Uri, or a Tasks view task node; resolves after the panel's first refresh with what it shows.
import * as vscode from 'vscode';
import type { DashboardPairsResult, OpenDashboardArgs } from '../../../common/protocol';
import { createDashboardHost, type DashboardDefaults, type DashboardHost } from './host';
import { buildDashboardHtml } from './html';
import type { DashboardToHost, HostToDashboard } from './messages';
import { fileName, logTo, onTemplateEdited, PanelSet, templateOf, type TemplatePanelDeps } from '../panel-kit/panel';

export interface DashboardDeps extends TemplatePanelDeps {
  pairs(template: vscode.Uri, tasks: string[] | undefined): Promise<DashboardPairsResult>;
  credentials: (url: string) => Promise<{ token?: string; tokenOnReads: boolean }>;
}

/** What an opened dashboard shows after its first refresh (for tests driving the command). */
export interface DashboardOpened {
  template: string;
  grids: { task: string; metric?: string; directions: number; states: Record<string, number> }[];
  requests?: number;
  error?: string;
}

const WINDOWS: Record<string, number> = { '1h': 3600, '12h': 43200, '1d': 86400, '3d': 259200, '1w': 604800 };

function readDefaults(): DashboardDefaults {
  const c = vscode.workspace.getConfiguration('psconfig.dashboard');
  const w = c.get<string>('window', 'auto');
  const num = (key: string, dflt: number): number => {
    const v = c.get<unknown>(key, dflt);
    return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : dflt;
  };
  return {
    thresholds: c.get<unknown>('thresholds', {}),
    window: WINDOWS[w] ?? 'auto',
    autoRefreshSeconds: num('refreshSeconds', 300),
    maxReads: num('maxReads', 40000),
    archive: c.get<string>('archive', '') ?? '',
  };
}

function readArchives(): { name: string; url: string }[] {
  const raw = vscode.workspace.getConfiguration('psconfig').get<unknown>('archives', []);
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((a: unknown) => {
    if (!a || typeof a !== 'object') return [];
    const { name, url } = a as { name?: unknown; url?: unknown };
    return typeof url === 'string' ? [{ name: typeof name === 'string' ? name : url, url }] : [];
  });
}

function isTaskNode(a: unknown): a is { kind: 'task'; task: string } {
  return (
    !!a &&
    typeof a === 'object' &&
    (a as { kind?: unknown }).kind === 'task' &&
    typeof (a as { task?: unknown }).task === 'string'
  );
}

/** The template and task an argument names (lens, palette, Tasks view). */
function targetOf(arg: unknown, deps: DashboardDeps): { uri?: vscode.Uri; task?: string } {
  if (arg instanceof vscode.Uri) return { uri: arg };
  if (isTaskNode(arg)) return { uri: deps.tasksTemplate(), task: arg.task };
  if (arg && typeof arg === 'object') {
    const a = arg as OpenDashboardArgs;
    return {
      uri: typeof a.uri === 'string' ? vscode.Uri.parse(a.uri) : undefined,
      task: typeof a.task === 'string' && a.task ? a.task : undefined,
    };
  }
  return {};
}

const panels = new PanelSet<DashboardHost, DashboardToHost, HostToDashboard>();

export async function openDashboard(arg: unknown, deps: DashboardDeps): Promise<DashboardOpened | undefined> {
  const target = targetOf(arg, deps);
  const uri = templateOf(target.uri, deps, 'Open a pSConfig template first: the dashboard shows its configured pairs.');
  if (!uri) return undefined;
  const tasks = target.task ? [target.task] : undefined;
  const key = `${uri.toString()}\u0000${target.task ?? ''}`;
  const name = fileName(uri);
  const title = `Dashboard: ${target.task ?? name}`;

  let resolveFirst!: (v: DashboardOpened) => void;
  const first = new Promise<DashboardOpened>((r) => (resolveFirst = r));
  const existing = panels.reveal(key);
  if (existing) {
    const stats = await existing.host.refresh();
    return summaryOf(existing.host, name, stats?.requests);
  }

  panels.create({
    extensionUri: deps.context.extensionUri,
    key,
    viewType: 'psconfig.dashboard',
    title,
    script: 'dashboard.js',
    style: 'dashboard.css',
    html: buildDashboardHtml,
    host: (post) => {
      let host: DashboardHost | undefined = undefined;
      host = createDashboardHost({
        post: (m: HostToDashboard) => {
          post(m);
          if (m.type === 'status' && !m.refreshing && host)
            resolveFirst(summaryOf(host, name, m.summary?.requests, m.error));
        },
        pairs: () => deps.pairs(uri, tasks),
        template: target.task ? `${name} · ${target.task}` : name,
        defaults: readDefaults,
        archives: readArchives,
        credentials: deps.credentials,
        openExplorer: (args) => Promise.resolve(vscode.commands.executeCommand('psconfig.openArchiveExplorer', args)),
        log: logTo(deps.log),
        maxResponseBytes: () => {
          const mb = vscode.workspace.getConfiguration('psconfig').get<number>('archive.maxResponseMb');
          return typeof mb === 'number' && mb > 0 ? mb * 1024 * 1024 : undefined;
        },
      });
      return host;
    },
    listen: (h) => [
      onTemplateEdited(deps, uri, () => h.templateChanged()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('psconfig.dashboard')) h.settingsChanged();
      }),
    ],
  });
  return first;
}

function summaryOf(host: DashboardHost, template: string, requests?: number, error?: string): DashboardOpened {
  const s = host.session();
  return {
    template,
    requests,
    error,
    grids: (s?.grids ?? []).map((g, gi) => {
      const states: Record<string, number> = {};
      for (const r of s!.results[gi]) states[r.state] = (states[r.state] ?? 0) + 1;
      return { task: g.task, metric: s!.shown[gi].metric, directions: g.directions.length, states };
    }),
  };
}
