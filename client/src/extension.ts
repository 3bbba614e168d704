// Extension entry point: wires the language client, template detection, the Tasks view and the archive explorer.
//
// Activation stays cheap (it runs for every JSON file, because of content detection): it registers listeners,
// views and commands and starts nothing heavy. The language server starts when the first pSConfig document is
// open, when the Tasks view needs an expansion, or when a command needs one.
//
// Command return values (for tests driving the extension through vscode.commands.executeCommand):
// - psconfig.previewTasks(uri?: Uri | string, options?: { treeDepth?: number }) → PreviewTasksSummary | undefined:
//   { template, agentAddresses, result?: ExpandTasksResult, error?, tree: TreeSnapshotNode[] } — the expansion the
//   Tasks view now shows and its items `treeDepth` levels deep (default 2: agents → tasks). Focuses the view.
//   undefined when there is no template (no argument, no active pSConfig editor, nothing shown before).
// - psconfig.showTasksForAgent(addresses?: string | string[], options?) → PreviewTasksSummary | undefined:
//   with an argument no quick pick is shown ("a, b" or ["a","b"]; "" or [] = all agents); saves the choice to
//   `psconfig.preview.agentAddresses`, then previews as above. undefined when the user cancels the pick.
// - psconfig.exportTasks(target?: Uri | string, template?: Uri | string) → string | undefined: writes the bare
//   array of pScheduler task JSON (as `psconfig pscheduler-tasks` prints it, pSConfig order, current agent scope)
//   and returns the written file's path (fsPath for file URIs). With a target there is no dialog and failures
//   throw; without one a save dialog is shown and failures are reported in a notification.
// - psconfig.openTaskJson(arg: TaskDocumentAddress | { task: string; index?: number }) → Uri | undefined: opens the
//   read-only JSON document of a combination (the index counts the task's combinations in the tree's expansion).
// - psconfig.openDashboard(arg?: OpenDashboardArgs | Uri | Tasks view task node) → DashboardOpened | undefined
//   (client/src/dashboard/panel.ts): the mesh dashboard of a template (or one task), after its first refresh.
// - psconfig.openSchedule(arg?: OpenScheduleArgs | Uri | Tasks view agent or task node) → ScheduleOpened | undefined
//   (client/src/schedule/panel.ts): the host timeline of a template's simulated schedule, after its first answer.
// - psconfig.compareTasksWithHead, psconfig.compareTasksWithFile, psconfig.openTaskComparison: see
//   client/src/compare/compare.ts.
// - psconfig.readHosts, psconfig.showHosts: see client/src/hosts/hosts-view.ts (what each agent's pScheduler runs).
// activate() returns PsconfigExtensionApi (below) as the extension's `exports`.
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import type { ArchiveExplorer } from './explorer/provider';
import type { TaskComparison } from './compare/compare';
import { LANGUAGE_ID } from './language/language-id';
import { TemplateLanguageSwitch } from './language/template-language-switch';
import { ExpansionClient } from './preview/expansion-client';
import { registerPreviewCommands } from './preview/preview-commands';
import { TaskDocuments } from './preview/task-documents';
import { snapshotTree, type TreeSnapshotNode } from './preview/task-tree-model';
import { TasksView } from './preview/tasks-view';
import { HostsView } from './hosts/hosts-view';

export interface PsconfigExtensionApi {
  /** Milliseconds activate() took. */
  activationMs: number;
  /** Starts the language server if needed and resolves when it is running. */
  languageClient(): Promise<LanguageClient>;
  /** The Tasks view's current items, `depth` levels deep (1: roots only), as it is rendered now (nothing loaded). */
  tasksTree(depth: number): TreeSnapshotNode[];
  /** The same, fetched as the view fetches them: agents of a large template are expanded on the way. */
  walkTasksTree(depth: number): Promise<TreeSnapshotNode[]>;
  /** URI of the template the Tasks view follows. */
  tasksTemplate(): string | undefined;
}

let client: LanguageClient | undefined;

export function activate(context: vscode.ExtensionContext): PsconfigExtensionApi {
  const started = performance.now();
  const output = vscode.window.createOutputChannel('pSConfig', { log: true });
  context.subscriptions.push(output);

  // The language client (vscode-languageclient, a third of the extension's code) loads with the first template, not
  // at activation, which also runs for every plain JSON file: ./language/language-client is its own bundle.
  let starting: { ready: Promise<LanguageClient>; client?: LanguageClient } | undefined;
  const expansion = new ExpansionClient(() => startClient());
  const startClient = (): Promise<LanguageClient> => {
    if (!starting) {
      const t = performance.now();
      const s: { ready?: Promise<LanguageClient>; client?: LanguageClient } = {};
      s.ready = (async () => {
        const { createLanguageClient } = await import('./language/language-client');
        const c = createLanguageClient(context, output);
        s.client = client = c;
        expansion.attach(c);
        await c.start();
        output.appendLine(`Language server running (${(performance.now() - t).toFixed(0)} ms to load and start)`);
        return c;
      })();
      s.ready.catch((err: unknown) =>
        output.appendLine(`Language server failed to start: ${err instanceof Error ? err.message : String(err)}`),
      );
      starting = s as { ready: Promise<LanguageClient>; client?: LanguageClient };
    }
    return starting.ready;
  };
  // The document selector lists the `psconfig.files` globs: a changed list needs a new client.
  const restartClient = async (): Promise<void> => {
    const old = starting;
    if (!old) return;
    starting = undefined;
    await old.ready.catch(() => undefined);
    if (client === old.client) client = undefined;
    await old.client?.stop().catch(() => undefined);
    output.appendLine('psconfig.files changed: restarting the language server');
    await startClient().catch(() => undefined);
  };
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('psconfig.files')) void restartClient();
    }),
  );
  const startForTemplate = (doc: vscode.TextDocument): void => {
    if (doc.languageId !== LANGUAGE_ID) return;
    startClient().catch(() => undefined);
    // The status bar's comparison with HEAD follows pSConfig documents: it loads with the first one.
    void comparison?.load().catch(() => undefined);
  };

  // eslint-disable-next-line prefer-const -- read by the closure above (undefined until assigned below)
  let comparison: { load: () => Promise<TaskComparison> } | undefined;
  const languageSwitch = new TemplateLanguageSwitch(output);
  const tasks = new TasksView(expansion, output);
  const documents = new TaskDocuments(tasks, expansion);
  context.subscriptions.push(
    expansion,
    languageSwitch,
    tasks,
    documents,
    vscode.workspace.onDidOpenTextDocument(startForTemplate),
  );
  registerPreviewCommands(context, tasks, documents, expansion, languageSwitch);
  const hosts = new HostsView({ expansion, output, tasksTemplate: () => tasks.template });
  context.subscriptions.push(hosts);
  const explorer = registerLazyArchiveExplorer(context, output);
  context.subscriptions.push(...explorer.disposables);
  context.subscriptions.push(...registerLazyDashboard(context, expansion, tasks, explorer.load));
  context.subscriptions.push(...registerLazySchedule(context, expansion, tasks, hosts));
  const lazyComparison = registerLazyComparison(context, output, startClient, documents, tasks);
  comparison = lazyComparison;
  context.subscriptions.push(...lazyComparison.disposables);

  vscode.workspace.textDocuments.forEach(startForTemplate);
  languageSwitch.checkAll();

  const activationMs = performance.now() - started;
  output.appendLine(`pSConfig extension activated in ${activationMs.toFixed(1)} ms`);
  return {
    activationMs,
    languageClient: startClient,
    tasksTree: (depth) => snapshotTree(tasks.model, depth),
    walkTasksTree: (depth) => tasks.walk(depth),
    tasksTemplate: () => tasks.template?.toString(),
  };
}

/** The archive explorer's view id (package.json `views`). */
const ARCHIVE_EXPLORER_VIEW = 'psconfig.archiveExplorer';

/**
 * The archive explorer and the archive client behind it (undici: half of the extension's code) load when the view
 * is first shown or one of its commands first runs, not at activation: the view and commands are registered here
 * with stand-ins that load `./explorer/provider` (its own bundle, dist/archive-explorer.js) and delegate.
 */
function registerLazyArchiveExplorer(
  context: vscode.ExtensionContext,
  output: vscode.LogOutputChannel,
): { disposables: vscode.Disposable[]; load: () => Promise<ArchiveExplorer> } {
  let loading: Promise<ArchiveExplorer> | undefined;
  const load = (): Promise<ArchiveExplorer> =>
    (loading ??= (async () => {
      const t = performance.now();
      const { createArchiveExplorer } = await import('./explorer/provider');
      const explorer = createArchiveExplorer(context);
      context.subscriptions.push(...explorer.disposables);
      output.appendLine(`Archive explorer loaded in ${(performance.now() - t).toFixed(1)} ms`);
      return explorer;
    })());
  const provider: vscode.WebviewViewProvider = {
    resolveWebviewView: async (view, resolveContext, token) =>
      (await load()).provider.resolveWebviewView(view, resolveContext, token),
  };
  const disposables = [
    vscode.window.registerWebviewViewProvider(ARCHIVE_EXPLORER_VIEW, provider, {
      webviewOptions: { retainContextWhenHidden: true },
    }),
    vscode.commands.registerCommand('psconfig.addArchive', async () => (await load()).addArchive()),
    vscode.commands.registerCommand('psconfig.setArchiveToken', async (archive?: unknown) =>
      (await load()).setArchiveToken(archive),
    ),
    vscode.commands.registerCommand('psconfig.openArchiveExplorer', async (arg?: unknown) => (await load()).open(arg)),
  ];
  return { disposables, load };
}

/**
 * The task comparison (Compare Tasks with HEAD / with File…, the Task Changes view, the status-bar item) is a bundle
 * of its own (dist/compare.js), loaded when one of its commands first runs or the first pSConfig document opens.
 */
function registerLazyComparison(
  context: vscode.ExtensionContext,
  output: vscode.LogOutputChannel,
  startClient: () => Promise<LanguageClient>,
  documents: TaskDocuments,
  tasks: TasksView,
): { disposables: vscode.Disposable[]; load: () => Promise<TaskComparison> } {
  let loading: Promise<TaskComparison> | undefined;
  const load = (): Promise<TaskComparison> =>
    (loading ??= (async () => {
      const t = performance.now();
      const { createTaskComparison } = await import('./compare/compare');
      const comparison = createTaskComparison({
        startClient,
        documents,
        defaultTemplate: () => {
          const active = vscode.window.activeTextEditor?.document;
          return active?.languageId === LANGUAGE_ID ? active.uri : tasks.template;
        },
      });
      context.subscriptions.push(...comparison.disposables);
      output.appendLine(`Task comparison loaded in ${(performance.now() - t).toFixed(1)} ms`);
      return comparison;
    })());
  return {
    load,
    disposables: [
      vscode.commands.registerCommand(
        'psconfig.compareTasksWithHead',
        async (arg?: unknown, options?: { treeDepth?: number }) => (await load()).compareWithHead(arg, options),
      ),
      vscode.commands.registerCommand(
        'psconfig.compareTasksWithFile',
        async (arg?: unknown, file?: unknown, options?: { treeDepth?: number }) =>
          (await load()).compareWithFile(arg, file, options),
      ),
      vscode.commands.registerCommand(
        'psconfig.openTaskComparison',
        async (ref: Parameters<TaskComparison['openTask']>[0]) => (await load()).openTask(ref),
      ),
      vscode.commands.registerCommand('psconfig.taskComparisonStatus', async () => (await load()).statusBar()),
    ],
  };
}

/**
 * A panel command whose code is a bundle of its own, loaded when the command first runs, with its log channel made
 * then too (the dashboard and the host timeline).
 */
function lazyPanelCommand(
  command: string,
  channel: string,
  run: (arg: unknown, log: vscode.LogOutputChannel) => Promise<unknown>,
): vscode.Disposable[] {
  let log: vscode.LogOutputChannel | undefined;
  return [
    { dispose: () => log?.dispose() },
    vscode.commands.registerCommand(command, async (arg?: unknown) => {
      log ??= vscode.window.createOutputChannel(channel, { log: true });
      return run(arg, log);
    }),
  ];
}

/**
 * The mesh dashboard (its host, the archive reads, the panel) is a bundle of its own too (dist/dashboard.js), loaded
 * when `psconfig.openDashboard` first runs; archive tokens come from the explorer, which loads with it.
 */
function registerLazyDashboard(
  context: vscode.ExtensionContext,
  expansion: ExpansionClient,
  tasks: TasksView,
  explorer: () => Promise<ArchiveExplorer>,
): vscode.Disposable[] {
  return lazyPanelCommand('psconfig.openDashboard', 'pSConfig Dashboard', async (arg, log) => {
    const { openDashboard } = await import('./dashboard/panel');
    return openDashboard(arg, {
      context,
      log,
      pairs: (template, only) => expansion.dashboardPairs(template, only),
      serverUri: (template) => expansion.serverUri(template),
      onTemplateChanged: expansion.onTemplateChanged,
      credentials: async (url) => (await explorer()).credentials(url),
      tasksTemplate: () => tasks.template,
    });
  });
}

/**
 * The host timeline (the simulated schedule of a template) is a bundle of its own too (dist/schedule.js), loaded when
 * `psconfig.openSchedule` first runs; the simulation itself runs in the language server's worker.
 */
function registerLazySchedule(
  context: vscode.ExtensionContext,
  expansion: ExpansionClient,
  tasks: TasksView,
  hosts: HostsView,
): vscode.Disposable[] {
  let loaded: typeof import('./schedule/panel') | undefined;
  // A new hosts read redraws the real runs of an open timeline of that template (never loads the bundle for it).
  const reads = hosts.onDidRead((e) => loaded?.observedChanged(e.template, e.observed));
  return [
    reads,
    ...lazyPanelCommand('psconfig.openSchedule', 'pSConfig Schedule', async (arg, log) => {
      const panel = (loaded ??= await import('./schedule/panel'));
      const { openSchedule } = panel;
      return openSchedule(arg, {
        observed: (template) => hosts.observed(template),
        context,
        log,
        schedule: (template, focus) => expansion.schedule(template, { runs: true, ...focus }),
        serverUri: (template) => expansion.serverUri(template),
        onTemplateChanged: expansion.onTemplateChanged,
        tasksTemplate: () => tasks.template,
      });
    }),
  ];
}

export async function deactivate(): Promise<void> {
  await client?.stop();
}
