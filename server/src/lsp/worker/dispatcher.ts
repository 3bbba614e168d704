// The worker's one dispatcher: each job of WorkerJobs (jobs/jobs.ts) to the code that answers it, at its priority.
// Requests a user waits for (a diagnostics pass, a preview, a grid, a comparison) run through JobPriority.request;
// the simulated schedule runs in slices that wait while any of them is in flight (job-priority.ts). The worker thread
// (thread.ts) serves it to the main thread's messages; without a worker thread the main thread runs one of its own
// (main/worker-client.ts), so both paths answer with the same code at the same priorities.
import { emptyExpansionResult, STOPPED } from '../../../../common/protocol';
import { heapFigures } from '../jobs/memory-report';
import {
  pollerOf,
  type DiagnosticsOutcome,
  type EarlySink,
  type ForgetNotice,
  type JobAnswer,
  type JobArg,
  type JobName,
} from '../jobs/jobs';
import { computeDiagnostics, type DiagnosticsPass } from './diagnostics-source';
import { runAlone, SharedExpansions } from './expansion-shared';
import { JobPriority } from './job-priority';
import { SharedSchedules } from './schedule-shared';
import { TaskComparisons } from './task-comparison';
import { countTasks } from './task-counts';

type Handlers = {
  [K in JobName]: (arg: JobArg<K>, early: EarlySink<K> | undefined) => JobAnswer<K> | Promise<JobAnswer<K>>;
};

export class JobDispatcher {
  private readonly expansions = new SharedExpansions();
  private readonly priority = new JobPriority();
  private readonly schedules = new SharedSchedules(this.expansions, this.priority.pause);
  private readonly comparisons = new TaskComparisons(this.expansions);

  private readonly handlers: Handlers = {
    diagnostics: async (a, early) =>
      outcomeOf(
        await this.priority.request(() =>
          computeDiagnostics(
            a.text,
            a.jq,
            a.includeScope,
            pollerOf(a.cancel),
            a.overrides,
            a.checks,
            a.early && early ? (c) => early({ diagnostics: c.shown, omitted: c.omitted }) : undefined,
          ),
        ),
      ),
    counts: (a) => countTasks(a.text),
    expand: (a) => {
      const isCancelled = pollerOf(a.cancel);
      return this.priority.request(() => {
        // Cancelled while it waited for its turn (its document was edited or closed, and the forget notice came
        // first): a shared run started now would be kept for a document the editor no longer has.
        if (isCancelled?.())
          return Promise.resolve({
            ...emptyExpansionResult(a.input.uri, a.input.version, STOPPED.error),
            cancelled: true,
          });
        if (a.shared) return this.expansions.expand(a.input, isCancelled, a.firstsOnly);
        this.expansions.engineRuns++;
        return runAlone(a.input, isCancelled);
      });
    },
    pairs: (a) => this.priority.request(() => this.expansions.pairs(a.input, a.tasks)),
    hosts: (a) => this.priority.request(() => this.expansions.hosts(a.input, a.reads)),
    schedule: (a) => this.schedules.answer(a.input, a.params, pollerOf(a.cancel)),
    scheduleDiagnostics: (a) => this.schedules.diagnostics(a.input, pollerOf(a.cancel) ?? (() => false)),
    compare: (a) => this.priority.request(() => this.comparisons.compare(a)),
    compareTask: (a) => this.comparisons.taskJson(a),
    memory: () => heapFigures('worker', this.entryCounts()),
  };

  /** Answers one job (an exception, even a synchronous one, rejects); `early` receives what it posts before. */
  run<K extends JobName>(job: K, arg: JobArg<K>, early?: EarlySink<K>): Promise<JobAnswer<K>> {
    try {
      return Promise.resolve(this.handlers[job](arg, early));
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
  }

  forget(n: ForgetNotice): void {
    this.expansions.forget(n.uri);
    this.schedules.forget(n.uri);
    if (n.edited) this.comparisons.edited(n.uri);
    else this.comparisons.forget(n.uri);
  }

  /** What the per-document stores hold (psconfig/serverMemory: none for a closed document). */
  entryCounts(): Record<string, number> {
    return { ...this.expansions.entryCounts(), ...this.schedules.entryCounts(), ...this.comparisons.entryCounts() };
  }

  /** Engine runs started here (tests of the in-process fallback). */
  get engineRuns(): number {
    return this.expansions.engineRuns;
  }

  /** Comparison bases expanded here (tests of the in-process fallback). */
  get baseRuns(): number {
    return this.comparisons.baseRuns;
  }
}

/**
 * The pass as it is answered: jq's compile checks start once the first part is on its way (a turn of the event loop
 * later), so they never delay it.
 */
function outcomeOf(pass: DiagnosticsPass): DiagnosticsOutcome {
  if (pass.kind === 'cancelled') return pass;
  const later = new Promise<void>((resolve) => setImmediate(resolve)).then(pass.later);
  // Whoever stops waiting (the document changed) leaves it unread: not an unhandled rejection.
  later.catch(() => undefined);
  return {
    kind: 'checked',
    diagnostics: pass.diagnostics,
    omitted: pass.omitted,
    includePaths: pass.includePaths,
    later,
  };
}
