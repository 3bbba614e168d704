// Where the engine runs (the worker): the editor's task comparisons. The new side is the open document's full
// expansion, shared with the Tasks view and the lenses (expansion-shared.ts); the old side (HEAD's text, or a
// file's) is expanded and checked once per text and kept with its diagnostics, so the status bar's comparison after
// each edit costs the new side's checks and the diff. The latest comparison of each template is kept, so the task
// JSON of either side of any task opens without expanding again (psconfig/compareTaskJson).
import type {
  CompareTaskJsonParams,
  CompareTaskJsonResult,
  CompareTasksResult,
  ExpandedCombination,
  ExpandTasksResult,
  TaskDiffDiagnostic,
  TaskDiffResult,
} from '../../../../common/protocol';
import { STOPPED } from '../../../../common/protocol';
import { policyFor } from '../../template/includes/scope';
import { diagnosticsOf, diffExpansions, scheduleHostLoads, type LoadShares } from '../../template/task-diff';
import { includeScopeKey, type EngineInput } from '../jobs/engine-input';
import type { CompareJob } from '../jobs/jobs';
import { runEngine } from './expansion-engine';
import type { SharedExpansions } from './expansion-shared';

interface Base {
  text: string;
  key: string;
  result: Promise<ExpandTasksResult>;
  diagnostics: Promise<TaskDiffDiagnostic[]>;
  /** Its hosts' loads (the schedule model), made by the first full comparison with this base. */
  load?: Map<string, LoadShares>;
}

interface Kept {
  id: string;
  old: ExpandTasksResult;
  new: ExpandTasksResult;
}

/** What the editor is sent: part names and notes, not the values (a changed archive on 39,800 tasks is 20 MB). */
function withoutValues(d: TaskDiffResult, summaryOnly: boolean): TaskDiffResult {
  if (summaryOnly) return { ...d, agents: [] };
  return {
    ...d,
    agents: d.agents.map((a) => ({
      ...a,
      changed: a.changed.map((c) => ({
        ...c,
        parts: c.parts.map((p) => (p.note ? { part: p.part, note: p.note } : { part: p.part })),
      })),
    })),
  };
}

export class TaskComparisons {
  private readonly bases = new Map<string, Base>();
  private readonly kept = new Map<string, Kept>();
  private nextId = 1;
  /** Base texts expanded (for tests). */
  baseRuns = 0;

  constructor(private readonly expansions: SharedExpansions) {}

  async compare(job: CompareJob): Promise<CompareTasksResult> {
    const started = performance.now();
    const { input } = job;
    const answer = (r: Partial<CompareTasksResult>): CompareTasksResult => ({
      uri: input.uri,
      version: input.version,
      id: '',
      elapsedMs: performance.now() - started,
      ...r,
    });
    const base = this.baseOf(input, job.base.text);
    const current = await this.expansions.fullExpansion(input);
    if (current.cancelled) return answer({ ...STOPPED });
    const policy = await policyFor(input.includeScope);
    const [old, oldDiagnostics, newDiagnostics] = await Promise.all([
      base.result,
      base.diagnostics,
      diagnosticsOf(input.text, policy, input.jq),
    ]);
    // Host loads for the tree only: the status bar's summary after each edit does not show them.
    const loads = !job.summaryOnly;
    if (loads) base.load ??= scheduleHostLoads(old);
    const diff = diffExpansions(
      { result: old, source: job.base.source, diagnostics: oldDiagnostics, load: loads ? base.load : undefined },
      {
        result: current,
        source: input.uri,
        diagnostics: newDiagnostics,
        load: loads ? scheduleHostLoads(current) : undefined,
      },
    );
    // A summary (the status bar, after each edit) opens no task, so it is not kept: keeping it would replace the
    // comparison the Task Changes tree shows, and that tree's tasks would then no longer open.
    if (job.summaryOnly) return answer({ id: '', diff: withoutValues(diff, true) });
    const id = String(this.nextId++);
    this.kept.set(input.uri, { id, old, new: current });
    return answer({ id, diff: withoutValues(diff, false) });
  }

  /** One side of one task of the latest comparison of `uri`. */
  taskJson(p: CompareTaskJsonParams): CompareTaskJsonResult {
    const kept = this.kept.get(p.uri);
    if (!kept || kept.id !== p.id)
      return { error: 'This comparison is no longer kept: compare the tasks again to see this task.' };
    const list = p.side === 'old' ? kept.old.combinations : kept.new.combinations;
    const found = list.find((c) => matches(c, p));
    return found ? { combination: found } : {};
  }

  /** Comparison bases and comparisons kept (one of each per open document at most). */
  entryCounts(): Record<string, number> {
    return { comparisonBases: this.bases.size, comparisons: this.kept.size };
  }

  /** Closed, or settings changed: the base and the comparison go. */
  forget(uri: string): void {
    this.bases.delete(uri);
    this.kept.delete(uri);
  }

  /**
   * An edit: the comparison of the version before goes (its tree is stale), the base stays. The status bar compares
   * each new version with the same HEAD text; forgetting the base on every edit made it expand HEAD again each time.
   */
  edited(uri: string): void {
    this.kept.delete(uri);
  }

  /** The old side's expansion and checks, once per text and settings. */
  private baseOf(input: EngineInput, text: string): Base {
    const key = JSON.stringify([includeScopeKey(input.includeScope), input.jq]);
    const hit = this.bases.get(input.uri);
    if (hit && hit.text === text && hit.key === key) return hit;
    this.baseRuns++;
    const base: Base = {
      text,
      key,
      // No version: an old side is never the document's shared run.
      result: runEngine({ ...input, text, version: null, agentAddresses: [], limit: undefined }),
      diagnostics: policyFor(input.includeScope).then((policy) => diagnosticsOf(text, policy, input.jq)),
    };
    this.bases.set(input.uri, base);
    const drop = (): void => {
      if (this.bases.get(input.uri) === base) this.bases.delete(input.uri);
    };
    base.result.then((r) => r.cancelled && drop(), drop);
    base.diagnostics.catch(drop);
    return base;
  }
}

function matches(c: ExpandedCombination, p: CompareTaskJsonParams): boolean {
  return (
    c.task === p.task &&
    (c.agent ?? '') === p.agent &&
    c.addressValues.length === p.addresses.length &&
    c.addressValues.every((a, i) => a === p.addresses[i])
  );
}
