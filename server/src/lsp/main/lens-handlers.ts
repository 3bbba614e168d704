// Code lenses: a task's pScheduler task count and its runs a day in the simulated schedule, the mesh dashboard, what
// perfSONAR 5's Grafana agent draws, the archive explorer. Listed from the cached analysis; what needs an expansion or
// a simulation is completed on codeLens/resolve (or at once when this version's figures are known). Each carries one
// of the server's commands (command-handlers.ts, lens-commands.ts). After a hosts read (hosts-handlers.ts), each task
// also says how it went on its hosts.
import { CodeLensRefreshRequest, type CodeLens, type Command } from 'vscode-languageserver/node';
import {
  ServerCommands,
  type OpenDashboardArgs,
  type OpenScheduleArgs,
  type ScheduleTemplateTask,
  type ShowTasksArgs,
} from '../../../../common/protocol';
import {
  archiveLenses,
  dashboardLenses,
  grafanaLenses,
  scheduleLensTitle,
  taskLenses,
  taskLensTitle,
  type ArchiveExplorerArgs,
} from '../../template/navigation/code-lenses';
import type { ExpansionFacts, TaskFact } from '../../template/navigation/hover';
import { taskOnHosts } from '../../template/hosts';
import { openModel, type ServerContext } from './context';
import { runSafe, withTimeout } from './guard';
import { toRange } from './to-lsp';

/** Lens data carried from codeLens to codeLens/resolve. */
type LensData =
  | { uri: string; version: number; kind: 'task'; task: string }
  | { uri: string; version: number; kind: 'schedule'; task: string }
  | { uri: string; version: number; kind: 'archive'; archive: string };

export function registerLensHandlers(ctx: ServerContext): void {
  const { connection, documents, log, expansion } = ctx;
  const modelOf = (uri: string) => openModel(ctx, uri);

  connection.onCodeLens((params, token) =>
    runSafe<CodeLens[]>(log, 'codeLens', [], token, () => {
      const m = modelOf(params.textDocument.uri);
      if (!m) return [];
      const base = { uri: m.doc.uri, version: m.doc.version };
      // Task lenses are complete when this version's counts are known (VS Code asks for lenses again each time the
      // editor gains focus): a lens sent complete needs no resolve, and VS Code's clickable links of the lenses it
      // replaces stay stale only until the resolve round ends (a click then says "Actual command not found").
      // The schedule lens likewise, once an answer of this version brought the runs a day.
      const counts = expansion.settledCounts(m.doc);
      const schedule = expansion.scheduleSettled(m.doc);
      const lenses: CodeLens[] = [];
      for (const l of taskLenses(m.model)) {
        const range = toRange(m.doc, l.start, l.end);
        lenses.push(
          counts
            ? { range, command: taskLensCommand(m.doc.uri, l.task, counts) }
            : { range, data: { ...base, kind: 'task', task: l.task } satisfies LensData },
        );
        lenses.push(
          schedule
            ? { range, command: scheduleLensCommand(m.doc.uri, l.task, schedule) }
            : { range, data: { ...base, kind: 'schedule', task: l.task } satisfies LensData },
        );
      }
      // The dashboard lens needs nothing from an expansion: its command is complete now.
      // How the task went on its hosts, once the Hosts view read them (never read for a lens: reads are asked for).
      const hosts = ctx.hostsResults.get(m.doc.uri);
      if (hosts)
        for (const l of taskLenses(m.model)) {
          const on = taskOnHosts(hosts, l.task);
          if (!on) continue;
          const args: ShowTasksArgs = { uri: m.doc.uri, task: l.task };
          lenses.push({
            range: toRange(m.doc, l.start, l.end),
            command: { title: on.title, command: ServerCommands.showHosts, arguments: [args] },
          });
        }
      for (const l of dashboardLenses(m.model)) {
        const args: OpenDashboardArgs = { uri: m.doc.uri, task: l.task };
        lenses.push({
          range: toRange(m.doc, l.start, l.end),
          command: { title: l.title, command: ServerCommands.showDashboard, arguments: [args] },
        });
      }
      // What perfSONAR 5's Grafana agent draws: known from the template alone, complete now; run, it says why.
      for (const l of grafanaLenses(m.model)) {
        const args: ShowTasksArgs = { uri: m.doc.uri, task: l.task };
        lenses.push({
          range: toRange(m.doc, l.start, l.end),
          command: { title: l.title, command: ServerCommands.showGrafana, arguments: [args] },
        });
      }
      // Archive lenses are listed now (without pair) and completed with the first pair on resolve.
      for (const l of archiveLenses(m.model))
        lenses.push({
          range: toRange(m.doc, l.start, l.end),
          data: { ...base, kind: 'archive', archive: l.archive } satisfies LensData,
        });
      return lenses;
    }),
  );

  const refreshLenses = lensRefresher(ctx);
  connection.onCodeLensResolve((lens, token) =>
    runSafe<CodeLens>(log, 'codeLens/resolve', { ...lens, command: { title: '', command: '' } }, token, async () => {
      const data = lens.data as LensData | undefined;
      if (!data) return lens; // listed complete (the dashboard lens)
      const doc = documents.get(data.uri);
      const m = modelOf(data.uri);
      if (!doc || !m || doc.version !== data.version) return { ...lens, command: { title: '(outdated)', command: '' } };
      if (data.kind === 'task') {
        return { ...lens, command: taskLensCommand(data.uri, data.task, await expansion.counts(doc)) };
      }
      if (data.kind === 'schedule') {
        // The simulation takes seconds on a large mesh and gives way to requests in the worker. VS Code keeps drawing the links of the
        // lenses it is replacing until every lens of its resolve round is back, and those links' commands are
        // already released (a click on the line's Dashboard lens then does nothing): so the wait is bounded, the
        // lens says the simulation is running, and the client is asked for lenses again once it is done.
        const pending = expansion.schedule(doc, { uri: data.uri, noTasks: true }, true, token);
        const r = await withTimeout(pending, ctx.options.scheduleLensWaitMs);
        if (!r) {
          void pending.then(refreshLenses, () => undefined);
          return { ...lens, command: scheduleLensCommand(data.uri, data.task, [], 'simulating…') };
        }
        // Stopped by an edit: the client asks for the new version's lenses.
        if (r.cancelled) return { ...lens, command: { title: '(outdated)', command: '' } };
        return { ...lens, command: scheduleLensCommand(data.uri, data.task, r.templateTasks, r.error) };
      }
      const result = await expansion.firstCombinations(doc).catch(() => undefined);
      const facts: ExpansionFacts | undefined =
        result && !result.error ? { tasks: [], combinations: result.combinations } : undefined;
      if (m.model.parsed.tree.released) return { ...lens, command: { title: '(outdated)', command: '' } };
      const found = archiveLenses(m.model, facts).find((a) => a.archive === data.archive);
      if (!found)
        return { ...lens, command: { title: 'Open in Archive Explorer (URL needs an expansion)', command: '' } };
      const args: ArchiveExplorerArgs = found.args;
      return { ...lens, command: { title: found.title, command: ServerCommands.openArchive, arguments: [args] } };
    }),
  );
}

/** The schedule lens: runs a day in the simulated schedule, opening the host timeline on the task. */
function scheduleLensCommand(uri: string, task: string, schedule: ScheduleTemplateTask[], error?: string): Command {
  const args: OpenScheduleArgs = { uri, task };
  return { title: scheduleLensTitle(task, schedule, error), command: ServerCommands.showSchedule, arguments: [args] };
}

/** A task lens's command: its counts as the title, the server's Show Tasks command on click. */
function taskLensCommand(uri: string, task: string, counts: TaskFact[]): Command {
  const args: ShowTasksArgs = { uri, task };
  return {
    title: taskLensTitle(task, { tasks: counts, combinations: [] }),
    command: ServerCommands.showTasks,
    arguments: [args],
  };
}

/** One `workspace/codeLens/refresh` for the simulations that settle together (a burst of lenses waited for them). */
function lensRefresher(ctx: ServerContext): () => void {
  let queued = false;
  return () => {
    if (queued || !ctx.client.lensRefresh) return;
    queued = true;
    setTimeout(() => {
      queued = false;
      ctx.connection.sendRequest(CodeLensRefreshRequest.type).catch(() => undefined);
    }, 100);
  };
}
