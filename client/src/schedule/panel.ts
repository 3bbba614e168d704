// VS Code side of the host timeline: one webview panel per template, its pure host (host.ts) fed by the language
// server's simulation (psconfig/schedule, run in the server's worker), reloaded when the template changes, a
// clicked run revealing its task in the template. Loaded on first use (extension.ts imports it lazily).
//
// psconfig.openSchedule(arg?) → ScheduleOpened | undefined, where arg is OpenScheduleArgs ({ uri?, task?, agent? }),
// a template Uri, or a Tasks view agent or task node; resolves once the panel has its first answer.
import * as vscode from 'vscode';
import type { HostRead, HostsResult, OpenScheduleArgs, ScheduleResult } from '../../../common/protocol';
import { createScheduleHost, type ScheduleHost, type TimelineSource } from './host';
import { buildTimelineHtml } from './html';
import type { HostToTimeline, TimelineFocus, TimelineToHost } from './messages';
import { fileName, logTo, onTemplateEdited, PanelSet, templateOf, type TemplatePanelDeps } from '../panel-kit/panel';

export interface SchedulePanelDeps extends TemplatePanelDeps {
  schedule(template: vscode.Uri, focus: { task?: string; agent?: string }): Promise<ScheduleResult>;
  /** The last hosts read of the template (the Hosts view's reads and their comparison), asked on every load: its
   *  real runs are drawn under each host's simulated row. */
  observed?: (template: vscode.Uri) => { reads: HostRead[]; result?: HostsResult } | undefined;
}

/** What an opened timeline shows after its first answer (for tests driving the command). */
export interface ScheduleOpened {
  template: string;
  hosts: number;
  tasks: number;
  runs: number;
  nonstart: number;
  /** Runs read from the hosts' pScheduler drawn beside the simulated ones. */
  realRuns: number;
  focus?: TimelineFocus;
  error?: string;
}

interface Target {
  uri?: vscode.Uri;
  task?: string;
  agent?: string;
}

function targetOf(arg: unknown, deps: SchedulePanelDeps): Target {
  if (arg instanceof vscode.Uri) return { uri: arg };
  if (!arg || typeof arg !== 'object') return {};
  const a = arg as { kind?: unknown; task?: unknown; agent?: unknown; uri?: unknown };
  const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);
  // Tasks view nodes: { kind: 'task', agent, task } and { kind: 'agent', agent }.
  if (a.kind === 'task' || a.kind === 'agent')
    return { uri: deps.tasksTemplate(), task: a.kind === 'task' ? str(a.task) : undefined, agent: str(a.agent) };
  const args = arg as OpenScheduleArgs;
  return { uri: str(args.uri) ? vscode.Uri.parse(args.uri!) : undefined, task: str(args.task), agent: str(args.agent) };
}

/** The schedule as the page's source; an agent's focus becomes the host that leads its tasks. */
function sourceOf(r: ScheduleResult, target: Target): TimelineSource {
  if (r.error) return { error: r.error, ...(r.cancelled ? { cancelled: true } : {}) };
  const notes = [...r.notes];
  if (r.runsLeftOut)
    notes.push(
      `${r.runsLeftOut.toLocaleString('en')} runs on further hosts are left out of this view; psconfig-tools schedule --runs lists them all.`,
    );
  const agentHost = target.agent ? r.agents.find((a) => a.agent === target.agent)?.hosts[0] : undefined;
  return {
    report: r,
    span: r.span,
    notes,
    focus: { task: target.task, host: agentHost ?? target.agent },
  };
}

const panels = new PanelSet<ScheduleHost, TimelineToHost, HostToTimeline>();

/** The template's hosts were read again (the Hosts view): an open timeline of it draws the new real runs on the
 *  simulation it shows, without simulating again. Returns whether one was open. */
export function observedChanged(
  template: vscode.Uri,
  observed: { reads: HostRead[]; result?: HostsResult } | undefined,
): boolean {
  const open = panels.get(template.toString());
  open?.host.setObserved(observed);
  return !!open;
}

export async function openSchedule(arg: unknown, deps: SchedulePanelDeps): Promise<ScheduleOpened | undefined> {
  const target = targetOf(arg, deps);
  const uri = templateOf(
    target.uri,
    deps,
    'Open a pSConfig template first: the timeline shows its simulated schedule.',
  );
  if (!uri) return undefined;
  target.uri = uri;
  const key = uri.toString();
  const name = fileName(uri);
  const existing = panels.reveal(key);
  if (existing) {
    // One timeline per template: opening it again from a task or agent moves the highlight.
    existing.host.setFocus({ task: target.task, host: target.agent });
    const data = existing.host.current() ?? (await existing.host.refresh());
    return summaryOf(name, data, existing.host);
  }

  let lastError: string | undefined;
  let resolveFirst!: () => void;
  const first = new Promise<void>((r) => (resolveFirst = r));
  // Edits come in bursts: reload once they pause.
  let timer: ReturnType<typeof setTimeout> | undefined;
  const { host } = panels.create({
    extensionUri: deps.context.extensionUri,
    key,
    viewType: 'psconfig.schedule',
    title: `Schedule: ${name}`,
    script: 'schedule.js',
    style: 'schedule.css',
    html: buildTimelineHtml,
    host: (post) =>
      createScheduleHost({
        post: (m) => {
          post(m);
          if (m.type === 'status' && !m.loading) {
            lastError = m.error;
            resolveFirst();
          }
        },
        load: async () => {
          const source = sourceOf(await deps.schedule(uri, { task: target.task, agent: target.agent }), target);
          const observed = deps.observed?.(uri);
          if (observed) source.observed = observed;
          return source;
        },
        title: name,
        focus: { task: target.task, host: target.agent },
        open: (task, addresses) => revealTask(uri, task, addresses),
        log: logTo(deps.log),
      }),
    listen: (h) => [
      onTemplateEdited(deps, uri, () => {
        if (timer) clearTimeout(timer);
        timer = setTimeout(() => void h.refresh(), 600);
      }),
    ],
    onDispose: () => {
      if (timer) clearTimeout(timer);
    },
  });
  await first;
  return summaryOf(name, host.current(), host, lastError);
}

function summaryOf(
  template: string,
  data: ReturnType<ScheduleHost['current']>,
  host: ScheduleHost,
  error?: string,
): ScheduleOpened {
  const d = data ?? host.current();
  return {
    template,
    hosts: d?.hosts.length ?? 0,
    tasks: d?.comboTask.length ?? 0,
    runs: d?.runCombination.length ?? 0,
    nonstart: d ? d.runState.reduce((n, s) => n + s, 0) : 0,
    realRuns: d?.real?.host.length ?? 0,
    focus: d?.focus,
    error,
  };
}

/** Shows the task's definition in the template, found through the language server's outline (tasks → name). */
async function revealTask(uri: vscode.Uri, task: string, addresses: string[]): Promise<void> {
  const doc = await vscode.workspace.openTextDocument(uri);
  const symbols =
    (await vscode.commands.executeCommand<vscode.DocumentSymbol[] | undefined>(
      'vscode.executeDocumentSymbolProvider',
      uri,
    )) ?? [];
  const found = symbols.find((s) => s.name === 'tasks')?.children.find((s) => s.name === task);
  const editor = await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.One, preview: false });
  if (!found) {
    void vscode.window.showInformationMessage(
      `Task ${task} (${addresses.join(' → ')}) is not in this template's text.`,
    );
    return;
  }
  editor.selection = new vscode.Selection(found.selectionRange.start, found.selectionRange.end);
  editor.revealRange(found.range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
}
