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
  /** The task JSON; absent when `error` is set. */
  pscheduler?: PSchedulerTask;
  /** pSConfig-worded error for this combination only. */
  error?: string;
}

export interface ExpandedTaskSummary {
  task: string;
  testType?: string;
  group?: string;
  groupType?: string;
  /** Combinations that would be created (errors excluded). */
  count: number;
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
  /** Stop after this many combinations (the tree view asks for a bounded number). */
  limit?: number;
}

export interface ExpandTasksResult {
  uri: string;
  version: number | null;
  /** Set when the template cannot be expanded at all (JSON syntax error, not an object, ...). */
  error?: string;
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
 */
export const ServerCommands = {
  expandTasks: 'psconfig.server.expandTasks',
  previewTasks: 'psconfig.server.previewTasks',
} as const;

export interface PreviewTasksText {
  uri: string;
  version: number | null;
  /** Agent → task → combination (`a → b`, `flip`, `✖ a → b  error`), then task errors and notes; one per line. */
  text: string;
  /** The task JSON of every successful combination, in pSConfig order, as `psconfig pscheduler-tasks` prints it. */
  tasks: PSchedulerTask[];
  /** Combinations that failed (listed in `text`, left out of `tasks`). */
  failed: number;
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
