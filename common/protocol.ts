// The one typed definition of every custom message between the extension (client) and the language
// server. Both sides import this file; nothing here may import `vscode` or `vscode-languageserver`.

/**
 * A request or notification: its method name, with the parameter and result types carried as phantom
 * types. The client and the server each wrap their own jsonrpc library around it (they depend on
 * different vscode-jsonrpc majors, so a shared RequestType instance would not type-check on both sides).
 */
export interface RequestDef<P, R> {
  readonly method: string;
  /** Phantom fields: never set, only used by the type checker. */
  readonly _params?: P;
  readonly _result?: R;
}
export interface NotificationDef<P> {
  readonly method: string;
  readonly _params?: P;
}

/** A pScheduler task as the agent would submit it (psconfig.md §3.5). Opaque JSON beyond the keys we read. */
export interface PSchedulerTask {
  schema?: number;
  test: { type: string; spec: Record<string, unknown> } & Record<string, unknown>;
  archives: Record<string, unknown>[];
  schedule: Record<string, unknown>;
  contexts?: { contexts: unknown[][] } | Record<string, unknown>;
  tools?: string[];
  priority?: number;
  reference?: Record<string, unknown>;
}

/** One combination a group yields for one task, after scheduling, as the agent sees it. */
export interface ExpandedCombination {
  /** Task name in the template. */
  task: string;
  /** Names of the address objects in the combination (label/remote entries named by their parent), in order. */
  addresses: string[];
  /** The concrete `address` strings of the combination, in order (what `a → b` shows). */
  addressValues: string[];
  /** Effective address of the scheduling agent (the parent's address for label/remote entries). */
  agent?: string;
  /** True when the scheduler is not the `scheduled-by` member because that one is `no-agent`. */
  flip?: boolean;
  /** The task JSON; absent when the combination could not be expanded (`error` without `refused`). */
  pscheduler?: PSchedulerTask;
  /**
   * Why this combination yields no task: a pSConfig-worded expansion error, or, when `refused` is set, why
   * pScheduler would refuse the task the agent posts (`pScheduler would refuse this task: test throughput
   * (schema 1): ...`). Either way it is a failed combination: not created, left out of counts and exports.
   */
  error?: string;
  /** Set when the task JSON was built (`pscheduler` is there) but pScheduler would refuse it: each part it refuses. */
  refused?: PSchedulerRefusal[];
  /**
   * Set when the same agent already has an earlier combination whose task JSON is identical by pSConfig's checksum
   * (schema, tool, href, start, until, detail and private `_` values left out): the agent creates that task once
   * and skips this one. Not a failure (`error` is absent): not created, left out of counts and exports.
   */
  identicalTo?: IdenticalTaskRef;
}

/** The earlier combination of the same agent a duplicate is identical to (server/src/template/expand/identical-tasks.ts). */
export interface IdenticalTaskRef {
  task: string;
  /** Names of its address objects, in order. */
  addresses: string[];
  /** Its `address` strings, in order (what `a → b` shows). */
  addressValues: string[];
}

/** Whether the agent creates this combination's task: built, not refused, not a duplicate of an earlier one. */
export function isCreated(c: Pick<ExpandedCombination, 'error' | 'pscheduler' | 'identicalTo'>): boolean {
  return c.error === undefined && c.pscheduler !== undefined && c.identicalTo === undefined;
}

/** A part of a task pScheduler would refuse, checked offline against its plug-ins (docs/checks.md: pScheduler's own checks). */
export interface PSchedulerRefusal {
  /** The test (type and spec), one archive, one participant's context, or the choice of tool. */
  part: 'test' | 'archive' | 'context' | 'tools';
  /** The test type, archiver or context plug-in, when it names one. */
  plugin?: string;
  /** The schema version applied to the spec or data. */
  version?: number;
  /** The template object it comes from (archive or context name), when known. */
  name?: string;
  /** archive: its index in the task's `archives`; context: its index in the participant's list. */
  index?: number;
  /** context: the participant (0-based, in the combination's address order). */
  participant?: number;
  /** What pScheduler refuses, one sentence each, naming the field and what it expects. */
  problems: string[];
}

export interface ExpandedTaskSummary {
  task: string;
  testType?: string;
  group?: string;
  groupType?: string;
  /** Combinations that would be created: neither failed to expand, nor refused by pScheduler, nor identical to one
   *  the same agent creates already. */
  count: number;
  /** Of the combinations built, how many pScheduler would refuse (absent when none). */
  refused?: number;
  /** Of the combinations built, how many are identical to an earlier one of their agent (absent when none). */
  identical?: number;
  /** Distinct agents that schedule them. */
  agents: string[];
  /** A task-level error (for example scheduled-by too big) that stopped its iteration. */
  error?: string;
  disabled?: boolean;
}

/**
 * What a note depends on: the whole template (includes, address-class data sources), one task's plan (a missing
 * schedule, `priority: 0`, class filters), or the combinations that were built (a variable's value, per-participant
 * contexts) — only the last kind changes when an agent filter or a limit leaves combinations out.
 */
export type ExpansionNoteScope = 'template' | 'task' | 'combination';

/** Where pSConfig 5.x (Python) would behave differently from what we show (Perl 4.x / docs semantics), or why
 *  part of the template could not be read. */
export interface ExpansionNote {
  scope: ExpansionNoteScope;
  /** The task it concerns (always set for `task` and `combination` notes). */
  task?: string;
  message: string;
}

export interface ExpandTasksParams {
  /** Document URI; the server expands its current text. */
  uri: string;
  /** Agent match addresses; empty or absent means all agents (as `psconfig validate` expands). */
  agentAddresses?: string[];
  /** Stop after this many combinations (the tree view asks for a bounded number). A limited request is a preview:
   *  its answer also stops before 4 MB of task JSON (server/src/lsp/worker/expansion-slice.ts capAnswer). */
  limit?: number;
}

/**
 * An answer a newer version of the document or a newer request stopped before it was worked out: `cancelled` is what
 * callers branch on (never the text of `error`); `error` says it for anyone who only shows errors.
 */
export interface Stoppable {
  cancelled?: true;
}

/** The fields of a stopped answer (see Stoppable). */
export const STOPPED = { cancelled: true, error: 'stopped: a newer version or request replaced it' } as const;

export interface ExpandTasksResult extends Stoppable {
  uri: string;
  version: number | null;
  /** Set when the template cannot be expanded at all (JSON syntax error, not an object, ...). */
  error?: string;
  /**
   * Set with `error` when the template is read but pSConfig's agent rejects it whole (the official schema, an
   * include it cannot read, a reference to nothing): the agent creates no task from it. Tools report it as a
   * finding (no task), not as a file they could not read.
   */
  rejected?: boolean;
  tasks: ExpandedTaskSummary[];
  combinations: ExpandedCombination[];
  /** True when `limit` cut the list. */
  truncated: boolean;
  notes: ExpansionNote[];
  /** Agents that appear as schedulers, in first-seen order (for the agent picker). */
  agents: string[];
  elapsedMs: number;
}

/** A result with nothing expanded: `error` says why (the one builder of an empty result, server and client). */
export function emptyExpansionResult(uri: string, version: number | null, error?: string): ExpandTasksResult {
  const r: ExpandTasksResult = {
    uri,
    version,
    tasks: [],
    combinations: [],
    truncated: false,
    notes: [],
    agents: [],
    elapsedMs: 0,
  };
  if (error !== undefined) r.error = error;
  return r;
}

export const ExpandTasksRequest: RequestDef<ExpandTasksParams, ExpandTasksResult> = { method: 'psconfig/expandTasks' };

/**
 * Commands the server runs through `workspace/executeCommand`, for editors other than VS Code (Neovim, Emacs,
 * Helix). The one argument is ExpandTasksParams (or just the document URI as a string).
 * - expandTasks → ExpandTasksResult, exactly what the `psconfig/expandTasks` request answers;
 * - previewTasks → PreviewTasksText: the Tasks view as text and the bare pScheduler task JSON.
 * - openTranslation (argument: the URI of a translated template the code action created) → null, after asking the
 *   client to show it (`window/showDocument`; VS Code's client opens it beside the MeshConfig file instead);
 * - translateMeshConfig (argument: the MeshConfig document's URI), for clients that cannot create files through a
 *   WorkspaceEdit → TranslateMeshConfigResult, the file written beside it and shown.
 * The lens commands (every code lens the server lists carries one; they answer LensCommandResult):
 * - showTasks (ShowTasksArgs): the task preview as a text document the client opens (window/showDocument);
 * - showDashboard (OpenDashboardArgs): the task's configured pairs and archives as a text document;
 * - openArchive (OpenArchiveExplorerArgs): the archive's own search for the pair, opened in the browser;
 * - showGrafana (ShowTasksArgs): what perfSONAR 5's Grafana agent draws for the task and why, as a message.
 * A client without window/showDocument gets a window/showMessage naming the file or URL. The VS Code extension
 * shows its own views for these lenses instead (client/src/language/lens-commands.ts).
 */
export const ServerCommands = {
  expandTasks: 'psconfig.server.expandTasks',
  previewTasks: 'psconfig.server.previewTasks',
  openTranslation: 'psconfig.server.openTranslation',
  translateMeshConfig: 'psconfig.server.translateMeshConfig',
  showTasks: 'psconfig.server.showTasks',
  showDashboard: 'psconfig.server.showDashboard',
  openArchive: 'psconfig.server.openArchive',
  /** A task's schedule lens (OpenScheduleArgs): the host timeline in VS Code, the schedule as text elsewhere. */
  showSchedule: 'psconfig.server.showSchedule',
  showGrafana: 'psconfig.server.showGrafana',
  /** A task's hosts lens (ShowTasksArgs), once the hosts were read: the Hosts view in VS Code, text elsewhere. */
  showHosts: 'psconfig.server.showHosts',
} as const;

export interface TranslateMeshConfigResult {
  /** The pSConfig template written (a file: URI), or undefined with `error`. */
  uri?: string;
  error?: string;
}

/** Argument of the task lens's command: the template and the task whose lens it is. */
export interface ShowTasksArgs {
  uri: string;
  task?: string;
}

/** What a lens command did. */
export interface LensCommandResult {
  /** `document`: the client opened `target` (window/showDocument); `message`: it was sent a message naming it. */
  shown: 'document' | 'message';
  /** The file written (file: URI) or the archive URL. */
  target?: string;
  /** One line: what the lens found (also the message, when that is how it was shown). */
  message: string;
}

export interface PreviewTasksText {
  uri: string;
  version: number | null;
  /** Agent → task → combination (`a → b`, `flip`, `✖ a → b  error`, `= a → b  identical to …`), then task errors
   *  and notes; one per line. */
  text: string;
  /** The task JSON of every combination the agent creates, in pSConfig order, as `psconfig pscheduler-tasks` prints it. */
  tasks: PSchedulerTask[];
  /** Combinations that failed (listed in `text`, left out of `tasks`), pScheduler's refusals included. */
  failed: number;
  /** Of `failed`, the combinations pScheduler would refuse. */
  refused: number;
  /** Combinations identical to an earlier one of their agent (listed in `text`, left out of `tasks`). */
  identical: number;
  /** Set when the template cannot be expanded at all. */
  error?: string;
}

/** Server → client: a template changed and previews of it are stale. */
export interface TemplateChangedParams {
  uri: string;
  version: number | null;
  /** `include`: the template's text did not change, a file it includes did (previews keyed by version are stale). */
  reason?: 'include';
}
export const TemplateChangedNotification: NotificationDef<TemplateChangedParams> = {
  method: 'psconfig/templateChanged',
};

/** Settings the client forwards to the server (workspace/configuration section `psconfig`). */
export interface ServerSettings {
  jqPath?: string;
  /** jq's memory limit per run in MB (`psconfig.jq.memoryLimitMb`; default 256, 0 = none). */
  jqMemoryLimitMb?: number;
  /** At most this many jq processes at once per server (`psconfig.jq.maxConcurrent`; default 2). */
  jqMaxConcurrent?: number;
  includesAllowRemote?: boolean;
  /** Folders besides the workspace folders and the template's own folder that local includes may be read from. */
  includesDirectories?: string[];
  /** Severity per diagnostic code (`psconfig.diagnostics.severity`): code → error|warning|information|hint|off. */
  diagnosticsSeverity?: Record<string, string>;
  agentAddresses?: string[];
  /** Archive hosts that let the testers post to /logstash by their address (`psconfig.archives.ipAllowedHosts`):
   *  their http archives need no `Authorization` header (check psconfig/archive-logstash-auth). */
  ipAllowedHosts?: string[];
  /**
   * false when the editor runs the workspace in restricted mode (VS Code's untrusted workspaces): no jq runs and
   * no remote include is fetched. Absent means trusted (editors without a trust model).
   */
  workspaceTrusted?: boolean;
}

/**
 * One task's configured pairs, laid out as a dashboard grid (psconfig/dashboardPairs). Rows and columns are the
 * group's members (address objects, by name); a `list` group has one column; a `disjoint` group has its A side as
 * rows and its B side as columns. Numbers index into the task's tables so a 39,800-pair mesh stays small on the wire.
 */
export interface DashboardTaskPairs {
  task: string;
  testType?: string;
  groupType?: string;
  /** Member names of the rows and columns; labels are their addresses. */
  rows: string[];
  rowLabels: string[];
  cols: string[];
  colLabels: string[];
  /** True for a mesh: every direction a→b also fills the reverse half of cell (b, a). */
  square: boolean;
  /** Strings the test spec names as source and destination (what the archiver records as input-source/-destination). */
  endpoints: string[];
  /** esmond read URLs the combinations write to, as written in the task JSON (variables resolved). */
  archives: string[];
  archiveSets: number[][];
  /**
   * Configured directions, 6 numbers each: row, column, half (0: row → column, 1: column → row), source endpoint,
   * destination endpoint, archive set.
   */
  directions: number[];
  /** Spec facts the archiver writes into the metadata, from the task's first combination. */
  spec: { ipVersion?: number; udp?: boolean; tools?: string[] };
  /** Combinations that could not be expanded (not on the grid), and why the first one failed. */
  failed: number;
  error?: string;
  /** Combinations identical to an earlier task of their agent (not on this grid: the agent creates that task once),
   *  and what the first one is identical to; absent when none. */
  identical?: number;
  identicalTo?: IdenticalTaskRef;
  /**
   * Directions pScheduler would refuse (the agent posts them every run and nothing is created): their numbers (the
   * nth six of `directions`) and, in `refusedReason`, an index into `refusedReasons` for each; absent when none.
   */
  refusedDirections?: number[];
  refusedReason?: number[];
  refusedReasons?: string[];
}

export interface DashboardPairsParams {
  uri: string;
  /** Only these tasks (default: every task). */
  tasks?: string[];
}

export interface DashboardPairsResult {
  uri: string;
  version: number | null;
  /** Set when the template cannot be expanded at all. */
  error?: string;
  tasks: DashboardTaskPairs[];
  elapsedMs: number;
}

export const DashboardPairsRequest: RequestDef<DashboardPairsParams, DashboardPairsResult> = {
  method: 'psconfig/dashboardPairs',
};

/** One thread's V8 heap (MB), after a full garbage collection when `collected`. */
export interface HeapFigures {
  thread: 'main' | 'worker';
  collected: boolean;
  heapUsedMb: number;
  heapTotalMb: number;
  externalMb: number;
  /** Physical size of each of V8's heap spaces (new, old, code, large object, …), MB. */
  spacesMb?: Record<string, number>;
  /** Entries each per-document store of this thread holds (analyses, expansions, …): zero for a closed document. */
  entries?: Record<string, number>;
}

/**
 * What the server holds: resident size of the process and each thread's live heap after a full collection (which
 * this request forces). For leak checks (`npm run fuzz`) and diagnosis; no parameters.
 */
export interface ServerMemoryResult {
  rssMb: number;
  /** ArrayBuffers and Buffers of the process (both threads), MB. */
  arrayBuffersMb?: number;
  heaps: HeapFigures[];
}

export const ServerMemoryRequest: RequestDef<Record<string, never> | null, ServerMemoryResult> = {
  method: 'psconfig/serverMemory',
};

/**
 * Argument of the `psconfig.openArchiveExplorer` command (the archive code lens, the dashboard): the archive and
 * what to search for in it. `inputSource`/`inputDestination` are the strings a task spec names (exact match, no DNS
 * on the archive's side); `metadataKey` selects that measurement among the results; `time` is the range to plot.
 */
export interface OpenArchiveExplorerArgs {
  url: string;
  source?: string;
  destination?: string;
  inputSource?: string;
  inputDestination?: string;
  eventType?: string;
  toolName?: string;
  metadataKey?: string;
  /** UNIX seconds. */
  time?: { start: number; end: number };
  /** The task the pair belongs to (for titles and logs). */
  task?: string;
}

/** Argument of the `psconfig.openDashboard` command (the task code lens, the Tasks view). */
export interface OpenDashboardArgs {
  /** Template URI (default: the active pSConfig editor). */
  uri?: string;
  /** Only this task (default: every task, one grid each). */
  task?: string;
}

// ---- Task diff: what a change to a template does to the tasks each agent creates (docs/task-diff.md) ----------

/**
 * A task as the diff identifies it, with the agent that schedules it (the entry's `agent`): the template's task
 * name and the combination's address strings in order, as pSConfig names a combination in its messages
 * (`task=T,addresses=a->b`, task_generator.py `_handle_next_error`).
 */
export interface TaskDiffTask {
  task: string;
  addresses: string[];
  /** A removed task whose new counterpart is identical to another task of its agent (created once, so this goes). */
  identicalTo?: IdenticalTaskRef;
}

/** One part of a task's JSON that differs: `test.type`, `test.spec.<key>`, `archives`, `schedule`, `tools`,
 *  `reference` (without the agent's own `psconfig` block), `contexts`, `priority`, or `task` (a renamed task whose
 *  JSON is the same). A side without the part has no `old` / `new`. */
export interface TaskDiffPart {
  part: string;
  old?: unknown;
  new?: unknown;
  /** What the agent does with this change when it is not plain replacement (private spec fields, renames). */
  note?: string;
}

export interface TaskDiffChanged extends TaskDiffTask {
  parts: TaskDiffPart[];
}

export interface TaskDiffAgent {
  agent: string;
  added: TaskDiffTask[];
  removed: TaskDiffTask[];
  changed: TaskDiffChanged[];
}

/** Diagnostic counts of one side, by severity. */
export interface TaskDiffDiagnosticCounts {
  error: number;
  warning: number;
  information: number;
  hint: number;
}

/** What one version yields as a whole. */
export interface TaskDiffSide {
  /** What was read: a file, a URL, `REV:PATH`, or the editor's document. */
  source?: string;
  /** Set when the template cannot be expanded at all (a JSON syntax error, ...): it yields no task. */
  error?: string;
  /** Combinations that create a task. */
  tasks: number;
  /** Combinations that create none: failed expansions and, of those, tasks pScheduler would refuse. */
  failed: number;
  refused: number;
  /** Combinations identical to an earlier one of their agent: no task of their own, no failure (absent when none). */
  identical?: number;
  /** Tasks whose iteration stopped (for example `scheduled-by` too big). */
  taskErrors: number;
  /** Absent when the diagnostics were not computed. */
  diagnostics?: TaskDiffDiagnosticCounts;
}

/** A combination that fails in the new version and did not fail that way in the old one, or a task that stopped. */
export interface TaskDiffFailure {
  task: string;
  /** Absent for a task-level error. */
  addresses?: string[];
  agent?: string;
  error: string;
  refused?: boolean;
}

/** A diagnostic of the new version that the old one did not have (matched by severity, code and message). */
export interface TaskDiffDiagnostic {
  severity: 'error' | 'warning' | 'information' | 'hint';
  code: string;
  message: string;
  /** 1-based line in its version (the new one; the old one for a resolved diagnostic). */
  line?: number;
  /** JSON path of what it is about (`tasks/x/tools`), `/`-joined: with the code and the message (positions left
   *  out), what makes it the same diagnostic in both versions wherever its line moved. */
  path?: string;
}

/** One host's load before and after (schedule model), only for hosts where it differs. */
export interface TaskDiffHostLoad {
  host: string;
  exclusiveLoad: { old: number; new: number };
  normalLoad: { old: number; new: number };
}

export interface TaskDiffResult {
  summary: { added: number; removed: number; changed: number; agentsAffected: number };
  /** Agents with at least one added, removed or changed task. */
  agents: TaskDiffAgent[];
  old: TaskDiffSide;
  new: TaskDiffSide;
  newFailures: TaskDiffFailure[];
  newDiagnostics: TaskDiffDiagnostic[];
  /** Errors of the old version the new one no longer has (lines in the old version). */
  resolvedDiagnostics: TaskDiffDiagnostic[];
  /** With the schedule model: hosts whose exclusive or normal load changes. */
  hosts?: TaskDiffHostLoad[];
}

// ---- Schedule (issue 19): pScheduler's scheduler simulated over a template (server/src/template/schedule/) ----

/** pScheduler's scheduling classes (pscheduler-server/pscheduler-server/database/scheduling_class.sql). */
export type SchedulingClassName = 'exclusive' | 'normal' | 'background' | 'background-multi';

/**
 * A simulated schedule, as `psconfig-tools schedule --format json` prints it and the host timeline panel reads it
 * (docs/schedule.md). Times are ISO 8601 UTC; counts cover the simulated span (the warm-up day left out).
 */
export interface ScheduleReport {
  hosts: ScheduleHostRow[];
  tasks: ScheduleTaskRow[];
  /** Every simulated run of the span; only when asked for (`--runs`). */
  runs?: ScheduleRunRow[];
}

export interface ScheduleHostRow {
  /** The string the tasks' participants name the host by (spec source/dest or *-node after expansion). */
  address: string;
  /** Sum of duration / repeat over the exclusive tasks the host takes part in (above 1: cannot all fit). */
  exclusiveLoad: number;
  /** The same over normal tasks (latency), which block exclusive runs on the host. */
  normalLoad: number;
  /** pScheduler tasks the host takes part in (every class). */
  tasks: number;
}

/** One pScheduler task an agent would create (one combination of a template task). */
export interface ScheduleTaskRow {
  task: string;
  /** Address names of the combination, as `psconfig-tools expand` prints them. */
  addresses: string[];
  agent: string;
  /** Runs the repeat grid asks for in the span. */
  wanted: number;
  scheduled: number;
  nonstart: number;
  /** The whole seconds pScheduler stores for every run (the tool's duration program). */
  durationSeconds: number;
  /** The tool pScheduler would pick; absent when no tool can run the test. */
  tool?: string;
  class: SchedulingClassName;
}

export interface ScheduleRunRow {
  task: string;
  addresses: string[];
  /** Host addresses of the run's participants, the lead first. */
  participants: string[];
  class: SchedulingClassName;
  start: string;
  end: string;
  state: 'scheduled' | 'nonstart';
  /** Non-starters: pScheduler's own reason ("No times available for this run."). */
  reason?: string;
}

/** Argument of the `psconfig.openSchedule` command (a task's lens, the Tasks view, the palette). */
export interface OpenScheduleArgs {
  /** Template URI (default: the active pSConfig editor, else the Tasks view's template). */
  uri?: string;
  /** Highlight this task, and show the hosts its runs occupy first. */
  task?: string;
  /** Show this agent's host first. */
  agent?: string;
}

export interface ScheduleParams {
  uri: string;
  /** With every simulated run (the timeline); without, the loads and per-task counts only. */
  runs?: boolean;
  /** Without the per-task entries (the Tasks view needs only the hosts' and agents' loads). */
  noTasks?: boolean;
  /** Runs only on these hosts (default: every host, within the answer's bound). */
  hosts?: string[];
  /** The hosts this task's runs occupy come first within the bound. */
  task?: string;
  /** This agent's hosts come first within the bound. */
  agent?: string;
}

/** One agent's load: the hosts that lead the tasks it creates, and the largest load among them. */
export interface ScheduleAgentLoad {
  agent: string;
  hosts: string[];
  exclusiveLoad: number;
  normalLoad: number;
}

/** One template task over the simulated span: its pScheduler tasks' runs summed, per day (for lenses and hovers). */
export interface ScheduleTemplateTask {
  task: string;
  /** pScheduler tasks (combinations) modelled. */
  combinations: number;
  /** Runs a day the repeat grid asks for, are scheduled and are posted as non-starters (averaged over the span). */
  wantedPerDay: number;
  scheduledPerDay: number;
  nonstartPerDay: number;
  /** Combinations that lose runs. */
  losing: number;
  /** Run duration in whole seconds (the picked tool's), the smallest and largest among the combinations. */
  durationSeconds: { min: number; max: number };
  tools: string[];
  /** pScheduler's scheduling classes among the combinations. */
  classes: string[];
  /** Combinations whose schedule has no repeat: pScheduler runs them once, when the task is created. */
  once: number;
}

/** psconfig/schedule: the simulated schedule of a template as the CLI prints it, with what the editor adds. */
export interface ScheduleResult extends ScheduleReport, Stoppable {
  uri: string;
  version: number | null;
  /** Set when the template cannot be expanded or simulated at all. */
  error?: string;
  /** The simulated span, after the warm-up (ISO 8601 UTC). */
  span?: { start: string; end: string };
  agents: ScheduleAgentLoad[];
  /** Per template task, in the template's order. */
  templateTasks: ScheduleTemplateTask[];
  /** Runs of the asked hosts left out of `runs` by the answer's bound. */
  runsLeftOut?: number;
  /** What the simulation assumed or left out that the reader should know, one sentence each. */
  notes: string[];
  elapsedMs: number;
}

export const ScheduleRequest: RequestDef<ScheduleParams, ScheduleResult> = { method: 'psconfig/schedule' };

/** A psconfig/schedule answer with nothing simulated: why not. */
export function emptyScheduleResult(uri: string, error: string): ScheduleResult {
  return { uri, version: null, error, hosts: [], tasks: [], agents: [], templateTasks: [], notes: [], elapsedMs: 0 };
}

// ---- Task comparison in the editor (docs/task-diff.md#in-the-editor) ----------------------------------------

/** Compare the tasks of an open template with another version of it (the editor's "Compare Tasks with HEAD"). */
export interface CompareTasksParams {
  /** The template: the new side is its current text (or the file on disk when it is not open). */
  uri: string;
  /** The old side's text and how to name it (`HEAD`, a file's path). Its includes are read as the template's. */
  base: { text: string; source: string };
  /** Only the summary and each side's figures (the status bar): `agents` is left empty. */
  summaryOnly?: boolean;
}

export interface CompareTasksResult extends Stoppable {
  uri: string;
  version: number | null;
  /**
   * Names this comparison in psconfig/compareTaskJson (the server keeps the latest full comparison per template;
   * a summary-only one is not kept and its id is empty).
   */
  id: string;
  /** Set when nothing could be compared (the template cannot be read, ...). */
  error?: string;
  /** The diff; the parts of a changed task carry their names and notes only (their JSON opens side by side). */
  diff?: TaskDiffResult;
  elapsedMs: number;
}

export const CompareTasksRequest: RequestDef<CompareTasksParams, CompareTasksResult> = {
  method: 'psconfig/compareTasks',
};

/** One side of one task of a comparison, to show its task JSON. */
export interface CompareTaskJsonParams {
  uri: string;
  id: string;
  side: 'old' | 'new';
  agent: string;
  task: string;
  addresses: string[];
}

export interface CompareTaskJsonResult {
  /** The combination on that side (its task JSON, or why it fails); absent when that side has none. */
  combination?: ExpandedCombination;
  /** Set when the comparison is no longer kept (a newer one replaced it, or the template was closed). */
  error?: string;
}

export const CompareTaskJsonRequest: RequestDef<CompareTaskJsonParams, CompareTaskJsonResult> = {
  method: 'psconfig/compareTaskJson',
};

// ---- What each host really runs (issue 28): a pScheduler host read, and the template compared with it ----
// The reader is pscheduler-client/ (GET only, bounded); the comparison is server/src/template/hosts/ (pure).

/** One archiving of a run, as pScheduler's `archiving_json` gives it (database/archiving.sql). */
export interface ObservedArchiving {
  /** The archiver's name (`archiver.name` in pScheduler's answer), e.g. `http`, `bitbucket`. */
  archiver: string;
  /** `completed` and `archived` both true: succeeded; completed without archived: failed (gave up); else pending. */
  outcome: 'succeeded' | 'failed' | 'pending';
  /** The last attempt's `stderr` (the archiver's `error` text), when there was one. */
  message?: string;
  attempts: number;
}

/** One run of a task within the span read (runs.py `GET /tasks/T/runs?start=&end=`, then each run). */
export interface ObservedRun {
  href: string;
  /** pScheduler's run state enum (run_state.sql): finished, failed, missed, nonstart, overdue, preempted, ... */
  state: string;
  start?: string;
  end?: string;
  /** Why a non-starter was not scheduled (`errors`), or a failed run's error text from its result. */
  reason?: string;
  archivings: ObservedArchiving[];
}

/** A task as pScheduler lists it (`GET /tasks?expanded=true&detail=true`), with its runs. */
export interface ObservedTask {
  href: string;
  uuid: string;
  /** The task JSON as pScheduler answers it (with `detail`, `href`, `tool`, `schedule.start/until`). */
  json: Record<string, unknown>;
  runs: ObservedRun[];
  /** The runs could not be read (the task itself was). */
  runsError?: string;
  /** More runs exist in the span than were read (`maxRunsPerTask`). */
  runsTruncated?: boolean;
}

/** Everything read from one host's pScheduler. */
export interface HostRead {
  /** The host as the template names it (an agent's address) or as `--host` gave it. */
  host: string;
  /** The pScheduler API base URL read, e.g. https://ADDRESS/pscheduler */
  url: string;
  /** The host could not be read at all: why (unreachable, slow, TLS, 404, too large, malformed). */
  error?: string;
  errorKind?: string;
  /** Tasks pSConfig's agent created (reference.psconfig.created-by.user-agent = psconfig-pscheduler-agent). */
  tasks: ObservedTask[];
  /** More such tasks exist than were read (`maxTasks`). */
  tasksTruncated?: boolean;
  /** ISO 8601 time of the read (the comparison judges expiry against it). */
  readAt: string;
  /** The span whose runs were read (ISO 8601 duration, e.g. P1D). */
  since: string;
}

export type HostTaskVerdict = 'present' | 'missing' | 'extra' | 'different';

/** The runs of one task within the span, counted by outcome. */
export interface HostRunSummary {
  finished: number;
  failed: number;
  missed: number;
  nonStarters: number;
  /** Pending, on deck, running, cleanup, overdue, preempted, canceled. */
  other: number;
  archivingsSucceeded: number;
  archivingsFailed: number;
  archivingsPending: number;
  /** Each failed or non-started run and each failed archiving, with pScheduler's reason (at most 20 per task). */
  problems: HostRunProblem[];
  truncated?: boolean;
}

export interface HostRunProblem {
  kind: 'failed' | 'missed' | 'nonstart' | 'archiving-failed';
  run: string;
  start?: string;
  /** pScheduler's reason, or the archiver's message; the archiver's name for archivings. */
  reason?: string;
  archiver?: string;
}

/** One task of one host: what the template expects and what pScheduler has. */
export interface HostTaskEntry {
  verdict: HostTaskVerdict;
  /** The template's task name and address strings (present, missing, different). */
  task?: string;
  addresses?: string[];
  /** The agent the template gives the task to, when another than the host read (the lead's pScheduler holds it). */
  agent?: string;
  /** The pScheduler task(s) this entry is about (present, extra, different): the newest first. */
  hrefs?: string[];
  /** The test type (from the template, else from pScheduler). */
  testType?: string;
  /** extra: the created-by block pScheduler holds (uuid, agent-hostname, address) saying which agent posted it. */
  createdBy?: Record<string, unknown>;
  /** different: the parts that differ, named as the task diff names them (old: on the host, new: the template). */
  parts?: TaskDiffPart[];
  /** missing: what usually causes it and what the template expects. */
  hints?: string[];
  /** The template's task JSON (missing), so a viewer can show what was expected. */
  expected?: PSchedulerTask;
  /**
   * present: `expired` when the newest task's `schedule.until` has passed (the agent has not renewed it), `renewing`
   * when a newer copy with the same JSON waits to take over (the agent posts it before the old one's `until`).
   */
  lifetime?: 'current' | 'expired' | 'renewing';
  until?: string;
  runs?: HostRunSummary;
}

export interface HostReport {
  host: string;
  url: string;
  error?: string;
  errorKind?: string;
  /** The template's tasks in the template's order (of its combinations), then the extra ones in pScheduler's. */
  entries: HostTaskEntry[];
  counts: Record<HostTaskVerdict, number> & { expired: number; renewing: number };
  tasksTruncated?: boolean;
  /** The host is not an agent of the template (it was given with --host). */
  notAnAgent?: boolean;
}

export interface HostsResult {
  template?: string;
  since: string;
  hosts: HostReport[];
  /** Exit status 1 in the CLI: a host could not be read, lacks tasks, or has failed runs or archivings. */
  problems: boolean;
}

/**
 * psconfig/compareHosts: the editor's Hosts view. The client reads the hosts (pscheduler-client/, in the extension
 * host, on demand) and sends what it read; the server compares it with the document's full expansion where the engine
 * runs, keeps the answer for the task lenses and hovers of that document, and answers it. Without `reads` it answers
 * only the agents to read (the hosts of the template).
 */
export interface CompareHostsParams {
  uri: string;
  reads?: HostRead[];
}

export interface CompareHostsResult {
  uri: string;
  version: number | null;
  /** The template's agents, in first-seen order (the hosts the view reads unless told otherwise). */
  agents: string[];
  /** With `reads`: the comparison. */
  result?: HostsResult;
  /** The template could not be expanded, or pSConfig's agent rejects it (then `result` says each task is missing). */
  error?: string;
  elapsedMs: number;
}

export const CompareHostsRequest: RequestDef<CompareHostsParams, CompareHostsResult> = {
  method: 'psconfig/compareHosts',
};
