// What a code lens does in an editor without the VS Code extension (Neovim, Emacs with lsp-mode, Sublime LSP): every
// lens the server lists carries one of ServerCommands' lens commands, and the server runs it itself.
//  - task lens: the task preview (every agent's tasks, previewText) as a text file the client opens, on the task;
//  - Dashboard lens: the task's configured directions and archives as a text file (the latest results need the
//    archive, which the server never reads: the file names the `psconfig-tools dashboard` line that does);
//  - archive lens: the archive's own metadata search for the pair (esmond's REST interface), in the browser;
//  - schedule lens: the simulated schedule as a text file (runs a day per task, hosts' loads, the CLI line for runs).
//  - Grafana lens: what perfSONAR 5's Grafana agent draws for the task, and why not, as a message.
//  - hosts lens (once a client sent psconfig/compareHosts): how the task went on each host read, as a message.
// Files go to a private folder of this server process (mode 0700, removed at shutdown), one per template and view,
// rewritten each time. A client without window/showDocument gets a window/showMessage naming the file or the URL.
// The VS Code extension shows its own views for the same lenses (client/src/language/lens-commands.ts).
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { URI } from 'vscode-uri';
import {
  ErrorCodes,
  MessageType,
  ResponseError,
  ShowMessageNotification,
  type CancellationToken,
  type Connection,
} from 'vscode-languageserver/node';
import { normaliseArchiveUrl, searchParams, withQuery } from '../../../../archive-client/url';
import {
  ServerCommands,
  type DashboardPairsResult,
  type ExpandTasksParams,
  type ExpandTasksResult,
  type LensCommandResult,
  type OpenArchiveExplorerArgs,
  type OpenDashboardArgs,
  type OpenScheduleArgs,
  type ScheduleResult,
  type ShowTasksArgs,
} from '../../../../common/protocol';
import { dashboardText } from '../../template/expand/dashboard-text';
import { previewText } from '../../template/expand/preview-text';
import { scheduleLensTitle, taskLensTitle } from '../../template/navigation/code-lenses';
import { scheduleText } from '../../template/schedule-view';
import type { Logger } from './guard';
import { noun } from '../../../../common/text';

/** The preview a task lens shows stops here, as the Tasks view does (a limited request is also cut at 4 MB). */
export const LENS_PREVIEW_LIMIT = 10_000;

export const LENS_COMMANDS: readonly string[] = [
  ServerCommands.showTasks,
  ServerCommands.showDashboard,
  ServerCommands.openArchive,
  ServerCommands.showSchedule,
  ServerCommands.showGrafana,
  ServerCommands.showHosts,
];

export interface LensCommandDeps {
  connection: Connection;
  log: Logger;
  /** The client declared window.showDocument.support. */
  canShowDocument: () => boolean;
  expand: (params: ExpandTasksParams, token?: CancellationToken) => Promise<ExpandTasksResult>;
  dashboardPairs: (uri: string, tasks: string[]) => Promise<DashboardPairsResult>;
  schedule: (uri: string, token?: CancellationToken) => Promise<ScheduleResult>;
  /** What the Grafana agent draws for a task of an open template (grafanaExplanation), or undefined. */
  grafana: (uri: string, task: string) => string | undefined;
  /** How a task went on the hosts last read for an open template (one line per host), or undefined. */
  hosts: (uri: string, task: string) => string[] | undefined;
}

export class LensCommands {
  private folder: string | undefined;

  constructor(private readonly d: LensCommandDeps) {}

  /** Runs a lens command; `arg` is its one argument as the lens carries it. */
  async run(command: string, arg: unknown, token?: CancellationToken): Promise<LensCommandResult> {
    if (command === ServerCommands.showTasks) return this.showTasks(argOf<ShowTasksArgs>(arg, command), token);
    if (command === ServerCommands.showDashboard) return this.showDashboard(argOf<OpenDashboardArgs>(arg, command));
    if (command === ServerCommands.openArchive) return this.openArchive(argOf<OpenArchiveExplorerArgs>(arg, command));
    if (command === ServerCommands.showSchedule) return this.showSchedule(argOf<OpenScheduleArgs>(arg, command), token);
    if (command === ServerCommands.showGrafana) return this.showGrafana(argOf<ShowTasksArgs>(arg, command));
    if (command === ServerCommands.showHosts) return this.showHosts(argOf<ShowTasksArgs>(arg, command));
    throw new ResponseError(ErrorCodes.InvalidParams, `unknown command ${command}`);
  }

  /** Removes the files this server wrote. */
  dispose(): void {
    if (this.folder) rmSync(this.folder, { recursive: true, force: true });
    this.folder = undefined;
  }

  private async showTasks(args: ShowTasksArgs, token?: CancellationToken): Promise<LensCommandResult> {
    const uri = needUri(args.uri, ServerCommands.showTasks);
    const result = await this.d.expand({ uri, limit: LENS_PREVIEW_LIMIT }, token);
    const preview = previewText(result);
    const what = result.error
      ? `cannot expand: ${result.error}`
      : args.task !== undefined
        ? `${args.task}: ${taskLensTitle(args.task, {
            tasks: result.tasks.map((t) => ({ ...t, agents: t.agents.length })),
            combinations: [],
          })}`
        : `${result.tasks.reduce((n, t) => n + t.count, 0)} tasks`;
    const header = `# Tasks each agent would create from ${displayPath(uri)} (version ${result.version ?? 'on disk'}; written when its lens ran)\n`;
    const text = header + preview.text;
    const file = await this.write(uri, 'tasks.txt', text);
    // On the task's first line in the preview (under its first agent).
    const line = args.task === undefined ? -1 : taskLine(text, args.task);
    const selection = line >= 0 ? { start: { line, character: 2 }, end: { line, character: 2 } } : undefined;
    return this.show(file, what, { selection });
  }

  private async showDashboard(args: OpenDashboardArgs): Promise<LensCommandResult> {
    const uri = needUri(args.uri, ServerCommands.showDashboard);
    const task = typeof args.task === 'string' ? args.task : undefined;
    const result = await this.d.dashboardPairs(uri, task !== undefined ? [task] : []);
    const path = displayPath(uri);
    const text = result.error
      ? `Dashboard of ${path}: cannot expand: ${result.error}\n`
      : result.tasks.map((t) => dashboardText(t, path)).join('\n');
    const directions = result.tasks.reduce((n, t) => n + t.directions.length / 6, 0);
    const what = result.error
      ? `cannot expand: ${result.error}`
      : `${task ?? 'every task'}: ${directions.toLocaleString('en-US')} configured ${noun(directions, 'direction')}`;
    const file = await this.write(uri, `${task ? `${safeName(task)}.` : ''}dashboard.txt`, text || 'no tasks\n');
    return this.show(file, what, {});
  }

  private async showSchedule(args: OpenScheduleArgs, token?: CancellationToken): Promise<LensCommandResult> {
    const uri = needUri(args.uri, ServerCommands.showSchedule);
    const task = typeof args.task === 'string' ? args.task : undefined;
    const result = await this.d.schedule(uri, token);
    const text = scheduleText(result, displayPath(uri), task);
    const what = result.error
      ? `no schedule: ${result.error}`
      : task !== undefined
        ? `${task}: ${scheduleLensTitle(task, result.templateTasks).replace(/^schedule: /, '')}`
        : `${result.templateTasks.length} tasks simulated`;
    const file = await this.write(uri, 'schedule.txt', text);
    return this.show(file, what, {});
  }

  private async openArchive(args: OpenArchiveExplorerArgs): Promise<LensCommandResult> {
    if (typeof args.url !== 'string' || !/^https?:\/\//i.test(args.url))
      throw new ResponseError(ErrorCodes.InvalidParams, `${ServerCommands.openArchive} needs an http(s) archive url`);
    // esmond's metadata search with the pair's filters (the archive's own REST interface; a browser gets its page).
    const url = withQuery(
      normaliseArchiveUrl(args.url),
      searchParams({
        source: str(args.source),
        destination: str(args.destination),
        'input-source': str(args.inputSource),
        'input-destination': str(args.inputDestination),
        'event-type': str(args.eventType),
        'tool-name': str(args.toolName),
        'metadata-key': str(args.metadataKey),
      }),
    );
    const pair = [str(args.inputSource) ?? str(args.source), str(args.inputDestination) ?? str(args.destination)];
    const what = `archive search${args.task ? ` for ${args.task}` : ''}${pair[0] && pair[1] ? ` ${pair[0]} → ${pair[1]}` : ''}`;
    return this.show(url, what, { external: true });
  }

  private showGrafana(args: ShowTasksArgs): LensCommandResult {
    const uri = needUri(args.uri, ServerCommands.showGrafana);
    const message =
      (typeof args.task === 'string' ? this.d.grafana(uri, args.task) : undefined) ??
      `${displayPath(uri)}: no such task, or the template is not open`;
    void this.d.connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Info, message });
    return { shown: 'message', message };
  }

  private showHosts(args: ShowTasksArgs): LensCommandResult {
    const uri = needUri(args.uri, ServerCommands.showHosts);
    const lines = typeof args.task === 'string' ? this.d.hosts(uri, args.task) : undefined;
    const message = lines
      ? `${args.task} on its hosts:\n${lines.join('\n')}`
      : `${displayPath(uri)}: no hosts read for this task, or the template is not open`;
    void this.d.connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Info, message });
    return { shown: 'message', message };
  }

  /** Opens `target` in the client when it can (window/showDocument), else names it in a message. */
  private async show(
    target: string,
    what: string,
    options: { external?: boolean; selection?: { start: Position; end: Position } },
  ): Promise<LensCommandResult> {
    const named = target.startsWith('file:') ? URI.parse(target).fsPath : target;
    if (this.d.canShowDocument()) {
      const r = await this.d.connection.window
        .showDocument({ uri: target, takeFocus: true, ...options })
        .catch((err: unknown) => {
          this.d.log.warn(`window/showDocument ${target} failed: ${String(err)}`);
          return { success: false };
        });
      if (r.success) return { shown: 'document', target, message: what };
    }
    const message = `${what} — ${options.external ? 'open' : 'see'} ${named}`;
    // A notification (showInformationMessage would be a showMessageRequest, which Neovim answers with a prompt).
    void this.d.connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Info, message });
    return { shown: 'message', target, message };
  }

  /** Writes one view of a template to this server's folder; its file: URI. */
  private async write(templateUri: string, suffix: string, text: string): Promise<string> {
    this.folder ??= mkdtempSync(join(tmpdir(), 'psconfig-language-server-'));
    // The template's name, and a hash of its URI: two `mesh.json` in different folders get different files.
    const hash = createHash('sha256').update(templateUri).digest('hex').slice(0, 8);
    const name = `${safeName(basename(URI.parse(templateUri).path) || 'template')}-${hash}.${suffix}`;
    const path = join(this.folder, name);
    await writeFile(path, text, { mode: 0o600 });
    return URI.file(path).toString();
  }
}

interface Position {
  line: number;
  character: number;
}

function argOf<T>(arg: unknown, command: string): T {
  if (typeof arg === 'string') return { uri: arg } as T;
  if (typeof arg === 'object' && arg !== null) return arg as T;
  throw new ResponseError(ErrorCodes.InvalidParams, `${command} needs an argument (its lens carries it)`);
}

function needUri(uri: unknown, command: string): string {
  if (typeof uri !== 'string' || uri === '')
    throw new ResponseError(ErrorCodes.InvalidParams, `${command} needs { uri }`);
  return uri;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** A file name part made of safe characters, not too long. */
function safeName(s: string): string {
  return s.replace(/[^\w.-]+/g, '_').slice(0, 80);
}

function displayPath(uri: string): string {
  const u = URI.parse(uri);
  return u.scheme === 'file' ? u.fsPath : uri;
}

/** The line of the preview where `task` first appears (`  task  test · group g` under an agent), or -1. */
function taskLine(text: string, task: string): number {
  const lines = text.split('\n');
  return lines.findIndex((l) => l === `  ${task}` || l.startsWith(`  ${task}  `));
}
