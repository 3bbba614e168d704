// Expansion of the current document text, for the ExpandTasks request, archive code lenses and hovers.
// One engine run per (uri, version, settings) serves them all: where the engine runs (the worker) the full
// expansion is kept and agent-filtered or limited requests are cut from it (worker/expansion-shared.ts); here the full
// result is cached for lenses and hovers. Identical requests in flight share one answer; runs superseded by a
// newer version of the document are cancelled.
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type {
  DashboardPairsResult,
  ExpandTasksParams,
  ExpandTasksResult,
  HostRead,
  ScheduleParams,
  ScheduleResult,
  ScheduleTemplateTask,
  ServerSettings,
} from '../../../../common/protocol';
import type { TaskFact } from '../../template/navigation/hover';
import type { IncludeScope } from '../../template/includes/scope';
import {
  CancelFlag,
  includeScopeKey,
  type EngineInput,
  type HostsComparison,
  type ScheduleDiagnosticsOutcome,
} from '../jobs';
import type { BackgroundRunner } from './worker-client';
import { jqConfigOf } from './settings';

/** How long a document rests after its checks before its schedule is simulated (the next edit would stop it). */
export const SCHEDULE_IDLE_MS = 1500;

/** The part of a request's cancellation token we use (an LSP CancellationToken fits). */
export interface Cancellable {
  readonly isCancellationRequested: boolean;
  onCancellationRequested(listener: () => void): unknown;
}

interface Run {
  uri: string;
  version: number;
  key: string;
  result: Promise<ExpandTasksResult>;
  value?: ExpandTasksResult;
  cancel: CancelFlag;
  /** Requests still waiting (direct runs only: the shared full run is never cancelled by one requester). */
  waiters: number;
}

/** How many times a request whose run was superseded by an edit retries on the newer text. */
const MAX_SUPERSEDED_RETRIES = 3;

export class ExpansionService {
  /** Latest firstCombinations answer per uri. */
  private readonly full = new Map<string, Run>();
  /** Filtered runs that could not be cut from the full one, while in flight (for sharing). */
  private readonly direct = new Map<string, Run>();
  /** Per open document: the flag that stops its version's simulation (scheduleFlag). */
  private readonly scheduleFlags = new Map<string, { version: number; flag: CancelFlag }>();
  /** Per open document: the runs a day per task of the last schedule answer (for hovers and lenses). */
  private scheduleSeen = new Map<string, { version: number; templateTasks: ScheduleTemplateTask[] }>();
  private countCache = new Map<string, { version: number; counts: Promise<TaskFact[]>; value?: TaskFact[] }>();
  /** Per uri: the last counts that arrived, whatever their version. */
  private readonly lastCounts = new Map<string, TaskFact[]>();
  /** Requests sent to where the engine runs (for tests). */
  runsStarted = 0;

  constructor(
    /** The settings in effect (the jq path already falls back to the server's default). */
    private readonly settings: () => ServerSettings,
    private readonly runner: BackgroundRunner,
    /** The open document's current state (to retry on it when an edit superseded a run). */
    private readonly current: (uri: string) => TextDocument | undefined = () => undefined,
    /** How a document's includes are read (include-tracker.ts). */
    private readonly includeScope: (uri: string) => IncludeScope = () => ({ remote: 'untrusted' }),
    /** Resolves once the client's settings are known: no run starts before (it could run jq untrusted). */
    private readonly ready: () => Promise<void> = () => Promise.resolve(),
  ) {}

  /** Per-task counts without jq (lenses, group hovers), computed off the main thread once per version. */
  counts(doc: TextDocument): Promise<TaskFact[]> {
    const hit = this.countCache.get(doc.uri);
    if (hit && hit.version === doc.version) return hit.counts;
    const counts = this.runner.send('counts', { text: doc.getText() });
    const entry: { version: number; counts: Promise<TaskFact[]>; value?: TaskFact[] } = {
      version: doc.version,
      counts,
    };
    this.countCache.set(doc.uri, entry);
    counts.then(
      (v) => {
        entry.value = v;
        // (Not for a document closed, or its settings changed, while they were counted: forget() ran.)
        if (this.countCache.has(doc.uri)) this.lastCounts.set(doc.uri, v);
      },
      () => this.countCache.get(doc.uri) === entry && this.countCache.delete(doc.uri),
    );
    return counts;
  }

  /** The counts of exactly this version if they have arrived (a lens can then be sent complete). */
  settledCounts(doc: TextDocument): TaskFact[] | undefined {
    const hit = this.countCache.get(doc.uri);
    return hit && hit.version === doc.version ? hit.value : undefined;
  }

  /** The counts of the newest version that has them (maybe older than the document), if any. */
  latestCounts(uri: string): TaskFact[] | undefined {
    const hit = this.countCache.get(uri);
    if (hit?.value) this.lastCounts.set(uri, hit.value);
    return this.lastCounts.get(uri);
  }

  /**
   * All agents, no limit, but only the first successful combination of each task (what lenses and hovers use):
   * cached per version and settings.
   */
  firstCombinations(doc: TextDocument): Promise<ExpandTasksResult> {
    const key = this.settingsKey(doc.uri);
    const hit = this.full.get(doc.uri);
    if (hit && hit.version === doc.version && hit.key === key) return hit.result;
    this.supersede(doc.uri, doc.version);
    const run = this.start(doc, [], undefined, key, true, true);
    this.full.set(doc.uri, run);
    run.result.then(
      (v) => {
        // A cancelled or failed run is not kept: the next request tries again.
        if (v.cancelled && this.full.get(doc.uri) === run) this.full.delete(doc.uri);
      },
      () => this.full.get(doc.uri) === run && this.full.delete(doc.uri),
    );
    return run.result;
  }

  /** firstCombinations only if it has already finished for this version (for cheap hovers). */
  settled(doc: TextDocument): ExpandTasksResult | undefined {
    const hit = this.full.get(doc.uri);
    return hit && hit.version === doc.version && hit.key === this.settingsKey(doc.uri) ? hit.value : undefined;
  }

  /** The ExpandTasks request on an open document. */
  async expand(doc: TextDocument, params: ExpandTasksParams, token?: Cancellable): Promise<ExpandTasksResult> {
    let r = await this.expandOnce(doc, params, token);
    // (Open documents are updated in place, so the version the run was for is the result's, not doc.version.)
    for (let i = 0; i < MAX_SUPERSEDED_RETRIES && r.cancelled && !token?.isCancellationRequested; i++) {
      const now = this.current(doc.uri);
      if (!now || now.version === r.version) break;
      doc = now;
      r = await this.expandOnce(doc, params, token);
    }
    return r;
  }

  /** A document that is not open (read from disk): nothing is cached, since its version says nothing. */
  expandUncached(doc: TextDocument, params: ExpandTasksParams): Promise<ExpandTasksResult> {
    return this.start(doc, params.agentAddresses ?? [], params.limit, this.settingsKey(doc.uri), false).result;
  }

  /**
   * The document changed: runs for older versions are cancelled now (their jq processes killed), not when the
   * next request for the new version arrives, which may never come.
   */
  documentChanged(uri: string, version: number): void {
    this.supersede(uri, version);
    this.stopSchedule(uri);
    this.runner.forget(uri, true);
  }

  /** What is kept per document (none for a closed one; direct runs only while in flight). */
  entryCounts(): Record<string, number> {
    return {
      expansions: this.full.size,
      directExpansions: this.direct.size,
      scheduleFlags: this.scheduleFlags.size,
      schedulesSeen: this.scheduleSeen.size,
      taskCounts: this.countCache.size,
      lastTaskCounts: this.lastCounts.size,
    };
  }

  forget(uri: string): void {
    this.supersede(uri, Infinity);
    this.stopSchedule(uri);
    this.runner.forget(uri);
    this.full.delete(uri);
    this.countCache.delete(uri);
    this.lastCounts.delete(uri);
    this.scheduleSeen.delete(uri);
  }

  private async expandOnce(
    doc: TextDocument,
    params: ExpandTasksParams,
    token: Cancellable | undefined,
  ): Promise<ExpandTasksResult> {
    const agents = params.agentAddresses ?? [];
    return this.directRun(doc, agents, params.limit, token);
  }

  /**
   * A filtered request, shared by identical requests in flight. Where the engine runs it is cut from the full
   * expansion of this version when exact (worker/expansion-shared.ts); a run of its own is cancelled when nobody waits.
   */
  private directRun(
    doc: TextDocument,
    agents: string[],
    limit: number | undefined,
    token: Cancellable | undefined,
  ): Promise<ExpandTasksResult> {
    const settingsKey = this.settingsKey(doc.uri);
    const key = JSON.stringify([doc.uri, doc.version, settingsKey, agents, limit ?? null]);
    let run = this.direct.get(key);
    if (!run || run.cancel.cancelled) {
      const started = this.start(doc, agents, limit, settingsKey, true);
      run = started;
      this.direct.set(key, started);
      const drop = (): void => {
        if (this.direct.get(key) === started) this.direct.delete(key);
      };
      started.result.then(drop, drop);
    }
    const mine = run;
    mine.waiters++;
    let waiting = true;
    const leave = (): void => {
      if (!waiting) return;
      waiting = false;
      if (--mine.waiters === 0 && mine.value === undefined) mine.cancel.cancel();
    };
    token?.onCancellationRequested(leave);
    return mine.result.finally(() => (waiting = false));
  }

  /**
   * Dashboard grids of a document (all agents): an open document shares the full expansion of its version with the
   * Tasks view and the lenses; a file that is not open is expanded for this request alone.
   */
  dashboardPairs(doc: TextDocument, tasks: string[] | undefined, open: boolean): Promise<DashboardPairsResult> {
    return this.runner.send('pairs', { input: this.fullInput(doc, open), tasks });
  }

  /** What the hosts read run, against the document's full expansion (psconfig/compareHosts; template/hosts/). */
  hosts(doc: TextDocument, reads: HostRead[], open: boolean): Promise<HostsComparison> {
    return this.runner.send('hosts', { input: this.fullInput(doc, open), reads });
  }

  /**
   * The simulated schedule of a document (psconfig/schedule): an open document's is simulated once per version, from
   * the full expansion its previews share; a file that is not open is simulated for this request alone.
   */
  async schedule(
    doc: TextDocument,
    params: ScheduleParams,
    open: boolean,
    token?: Cancellable,
  ): Promise<ScheduleResult> {
    await this.ready();
    // An open document's simulation is shared by every request for its version: only an edit stops it, through the
    // shared flag the simulation polls (a request's cancellation does not: other requests wait for the same run).
    let cancel: CancelFlag;
    if (open) cancel = this.scheduleFlag(doc);
    else {
      cancel = new CancelFlag();
      token?.onCancellationRequested(() => cancel.cancel());
    }
    const r = await this.runner.send('schedule', { input: this.fullInput(doc, open), params, cancel: cancel.buffer });
    // (Its flag still standing: not for a document closed, or edited, while it was simulated.)
    if (open && !r.error && r.version === doc.version && this.scheduleFlags.get(doc.uri)?.flag === cancel)
      this.scheduleSeen.set(doc.uri, { version: doc.version, templateTasks: r.templateTasks });
    return r;
  }

  /**
   * The simulated schedule's findings on an open document, stopped by `cancel` (the next edit). It starts only after
   * the document has rested SCHEDULE_IDLE_MS: while typing, each simulation would be stopped by the next key.
   */
  async scheduleDiagnostics(doc: TextDocument, cancel: CancelFlag): Promise<ScheduleDiagnosticsOutcome> {
    await this.ready();
    await new Promise((r) => setTimeout(r, SCHEDULE_IDLE_MS));
    if (cancel.cancelled) return { kind: 'cancelled' };
    return this.runner.send('scheduleDiagnostics', { input: this.fullInput(doc, true), cancel: cancel.buffer });
  }

  /** The flag that stops the simulation of this version of an open document (raised by its next edit). */
  private scheduleFlag(doc: TextDocument): CancelFlag {
    let hit = this.scheduleFlags.get(doc.uri);
    if (!hit || hit.version !== doc.version) {
      hit?.flag.cancel();
      hit = { version: doc.version, flag: new CancelFlag() };
      this.scheduleFlags.set(doc.uri, hit);
    }
    return hit.flag;
  }

  private stopSchedule(uri: string): void {
    this.scheduleFlags.get(uri)?.flag.cancel();
    this.scheduleFlags.delete(uri);
  }

  /** The runs a day per task of this version's schedule, if an answer for it came already (hovers do not wait). */
  scheduleSettled(doc: TextDocument): ScheduleTemplateTask[] | undefined {
    const hit = this.scheduleSeen.get(doc.uri);
    return hit && hit.version === doc.version ? hit.templateTasks : undefined;
  }

  /**
   * What the engine needs for the full expansion of `doc` (all agents, no limit): an open document's is shared with
   * the Tasks view and the lenses. Waits for the client's settings, like every run that may start jq.
   */
  async engineInput(doc: TextDocument, open: boolean): Promise<EngineInput> {
    await this.ready();
    return this.fullInput(doc, open);
  }

  private fullInput(doc: TextDocument, open: boolean): EngineInput {
    const settings = this.settings();
    return {
      uri: doc.uri,
      version: open ? doc.version : null,
      text: doc.getText(),
      includeScope: this.includeScope(doc.uri),
      agentAddresses: [],
      limit: undefined,
      settings,
      jq: jqConfigOf(settings),
    };
  }

  private start(
    doc: TextDocument,
    agentAddresses: string[],
    limit: number | undefined,
    key: string,
    shared: boolean,
    firstsOnly = false,
  ): Run {
    const cancel = new CancelFlag();
    this.runsStarted++;
    const text = doc.getText();
    const version = doc.version;
    const result = this.ready().then(() => {
      const settings = this.settings();
      const input: EngineInput = {
        uri: doc.uri,
        version,
        text,
        includeScope: this.includeScope(doc.uri),
        agentAddresses,
        limit,
        settings,
        jq: jqConfigOf(settings),
      };
      return this.runner.send('expand', { input, cancel: cancel.buffer, shared, firstsOnly });
    });
    const run: Run = { uri: doc.uri, version: doc.version, key, result, cancel, waiters: 0 };
    result.then(
      (v) => (run.value = v),
      () => undefined,
    );
    return run;
  }

  /** Cancels runs of older versions of `uri` that have not finished: their text is gone. */
  private supersede(uri: string, version: number): void {
    const old = this.full.get(uri);
    if (old && old.version < version && old.value === undefined) old.cancel.cancel();
    for (const run of this.direct.values())
      if (run.uri === uri && run.version < version && run.value === undefined) run.cancel.cancel();
  }

  private settingsKey(uri: string): string {
    return JSON.stringify([jqConfigOf(this.settings()), includeScopeKey(this.includeScope(uri))]);
  }
}
