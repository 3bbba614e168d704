// The language server runs on two threads. The main thread (../main/) answers the editor from its parse cache; the
// worker thread (../worker/) does the heavy jobs: diagnostics, task counts, expansion, dashboard grids, the simulated
// schedule, task comparisons. Everything the main thread may ask of the worker is one entry of WorkerJobs below,
// with its argument and its answer: the main thread's BackgroundRunner.send (main/worker-client.ts) and the worker's
// JobDispatcher.run (worker/dispatcher.ts) are both typed by it, and the messages between them (JobMessage,
// WorkerReply) carry nothing else. Arguments and answers are structured-clone data; cancellation crosses as a shared
// cell (CancelFlag.buffer) the worker polls, since a message would wait until the worker's synchronous work is over.
import type {
  CompareTaskJsonParams,
  CompareTaskJsonResult,
  CompareTasksResult,
  DashboardPairsResult,
  ExpandTasksResult,
  HeapFigures,
  HostRead,
  HostsResult,
  ScheduleParams,
  ScheduleResult,
} from '../../../../common/protocol';
import type { TaskFact } from '../../template/navigation/hover';
import type { TemplateDiagnostic } from '../../template/rules/diagnostic';
import type { JqConfig } from '../../template/jq/config';
import type { IncludeScope } from '../../template/includes/scope';
import type { SeverityCounts } from '../../template/diagnostic-cap';
import type { SeverityOverrides } from '../../template/severity-overrides';
import type { CheckSettings } from '../../template/diagnostics';
import type { EngineInput } from './engine-input';

/** A CancelFlag's cell, as it crosses to the worker inside a job's argument. */
export type CancelCell = SharedArrayBuffer;

/**
 * Cancellation of a job that may run in the worker: a shared Int32 the job polls between its steps. The main thread
 * keeps the flag and sends its `buffer`; the worker (or the in-process fallback) reads it through `pollerOf`.
 */
export class CancelFlag {
  private readonly cell: Int32Array;
  constructor(readonly buffer: CancelCell = new SharedArrayBuffer(4)) {
    this.cell = new Int32Array(buffer);
  }
  cancel(): void {
    Atomics.store(this.cell, 0, 1);
  }
  get cancelled(): boolean {
    return Atomics.load(this.cell, 0) === 1;
  }
}

/** What a job polls: the flag behind `cell` (none: never cancelled). */
export function pollerOf(cell: CancelCell | undefined): (() => boolean) | undefined {
  if (!cell) return undefined;
  const flag = new CancelFlag(cell);
  return () => flag.cancelled;
}

export interface DiagnosticsJob {
  text: string;
  jq: JqConfig | undefined;
  includeScope: IncludeScope;
  /** Raised by the next edit: the pass stops between its checks (worker/diagnostics-source.ts). */
  cancel?: CancelCell;
  overrides?: SeverityOverrides;
  checks?: CheckSettings;
  /** Post the early phase's diagnostics (EarlyDiagnostics) as soon as the parse and the symbol index are done. */
  early?: boolean;
}

/**
 * The early phase of a diagnostics pass (asked for with DiagnosticsJob.early): the cheap, decisive checks (syntax
 * errors, references to nothing, includes) run right after the parse and the symbol index, capped and with the
 * severity overrides applied as the full pass's are. Every one of them is also in the full pass's answer, which
 * replaces them. Sent only when it found something.
 */
export interface EarlyDiagnostics {
  diagnostics: TemplateDiagnostic[];
  omitted: SeverityCounts;
}

/**
 * What a diagnostics pass found: the shown diagnostics (the cap is applied where the checks ran) and, `later`, what
 * jq's compile checks add. The worker's pass holds `later` as a function it calls once (the parse is released when
 * it finishes); the answer between the threads as the promise it returned (a second message of the worker).
 */
export interface DiagnosticsFound<Later> {
  kind: 'checked';
  /** The worst MAX_DIAGNOSTICS of every problem found (after the user's severity overrides), errors first. */
  diagnostics: TemplateDiagnostic[];
  /** Per severity, the problems the cap left out (the publisher's note counts them). */
  omitted: SeverityCounts;
  /** Local paths the template's includes name (read or not), for refreshing it when one of them changes. */
  includePaths: string[];
  later: Later;
}

/** A diagnostics pass stopped by its cancel flag (nothing to publish), or what it found, as answered. */
export type DiagnosticsOutcome = { kind: 'cancelled' } | DiagnosticsFound<Promise<TemplateDiagnostic[]>>;

export interface ExpandJob {
  input: EngineInput;
  cancel?: CancelCell;
  /** Served from (or cut from) the full expansion kept where the engine runs (open documents); otherwise one
   *  engine run for exactly this input. */
  shared: boolean;
  /** The first combination of each task only (lenses and hovers). */
  firstsOnly: boolean;
}

export interface CompareJob {
  input: EngineInput;
  base: { text: string; source: string };
  summaryOnly: boolean;
}

/** The simulated schedule's findings as diagnostics, or stopped by the cancel flag (the next edit). */
export type ScheduleDiagnosticsOutcome = { kind: 'cancelled' } | { kind: 'found'; diagnostics: TemplateDiagnostic[] };

/** The hosts read compared with a full expansion: its agents, why it made nothing (if so), the comparison. */
export interface HostsComparison {
  agents: string[];
  error?: string;
  result: HostsResult;
}

/** Every job of the worker: what it is sent with and what it answers. */
export interface WorkerJobs {
  /** `early`: what a job may post before its answer (WorkerReply phase 'early'). */
  diagnostics: { arg: DiagnosticsJob; answer: DiagnosticsOutcome; early: EarlyDiagnostics };
  /** Task counts without jq or includes (lenses, group hovers). */
  counts: { arg: { text: string }; answer: TaskFact[] };
  expand: { arg: ExpandJob; answer: ExpandTasksResult };
  /** The dashboard grids of a document, from the full expansion kept where the engine runs. */
  pairs: { arg: { input: EngineInput; tasks: string[] | undefined }; answer: DashboardPairsResult };
  /** psconfig/compareHosts: the hosts read compared with the full expansion kept where the engine runs. */
  hosts: { arg: { input: EngineInput; reads: HostRead[] }; answer: HostsComparison };
  /** psconfig/schedule. `cancel` stops only a simulation made for this request alone (a file that is not open). */
  schedule: { arg: { input: EngineInput; params: ScheduleParams; cancel?: CancelCell }; answer: ScheduleResult };
  scheduleDiagnostics: { arg: { input: EngineInput; cancel: CancelCell }; answer: ScheduleDiagnosticsOutcome };
  /** The tasks of `input` (its shared full expansion) compared with another version's text. */
  compare: { arg: CompareJob; answer: CompareTasksResult };
  /** One side of one task of the latest comparison of a template. */
  compareTask: { arg: CompareTaskJsonParams; answer: CompareTaskJsonResult };
  /** The worker's heap after a full collection (psconfig/serverMemory). */
  memory: { arg: Record<string, never>; answer: HeapFigures };
}

export type JobName = keyof WorkerJobs;
export type JobArg<K extends JobName> = WorkerJobs[K]['arg'];
export type JobAnswer<K extends JobName> = WorkerJobs[K]['answer'];
/** What job K posts before its answer (never, for most jobs). */
export type JobEarly<K extends JobName> = WorkerJobs[K] extends { early: infer E } ? E : never;
/** Where a job's early part goes. */
export type EarlySink<K extends JobName> = (value: JobEarly<K>) => void;

/**
 * What the worker is told without an answer: drop the full expansion, the comparison and the simulated schedule
 * kept for `uri`; and, unless it was `edited` (closed, or settings changed), the base text's expansion.
 */
export interface ForgetNotice {
  uri: string;
  edited: boolean;
}

/** Jobs that give way to requests between their slices (worker/job-priority.ts): their time limit is not a stuck
 *  worker's while the worker keeps answering (main/worker-client.ts). */
export const BACKGROUND_JOBS: ReadonlySet<JobName> = new Set<JobName>(['schedule', 'scheduleDiagnostics']);

/** A message to the worker. */
export type ToWorker = JobMessage | { notice: 'forget'; arg: ForgetNotice };

export interface JobMessage<K extends JobName = JobName> {
  id: number;
  job: K;
  arg: JobArg<K>;
}

/**
 * The worker's answers: `early` (before the answer: the diagnostics' early phase), `result` (with `later` when a
 * second part follows: the diagnostics' jq checks), `later` (that part), `error` (the job failed: an exception's
 * stack).
 */
export type WorkerReply =
  | { id: number; phase: 'early'; value: unknown }
  | { id: number; phase: 'result'; value: unknown; later?: true }
  | { id: number; phase: 'later'; value: unknown }
  | { id: number; phase: 'error'; message: string };

/** The worker is the same bundle (dist/server.js) started with this as its workerData (server/src/server.ts). */
export const WORKER_DATA = { psconfigWorker: true } as const;
