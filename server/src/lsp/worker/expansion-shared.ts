// Where the engine runs (the background worker, or in-process without one): keeps the latest full expansion
// (all agents, no limit) per document and cuts filtered or limited requests from it there, so only the slice
// crosses to the main thread (a 39,800-combination result takes ~1 s to structured-clone).
import type { DashboardPairsResult, ExpandTasksResult, HostRead } from '../../../../common/protocol';
import { dashboardPairsOf } from '../../template/expand/dashboard-pairs';
import { compareHosts } from '../../template/hosts';
import type { HostsComparison } from '../jobs/jobs';
import { includeScopeKey, type EngineInput } from '../jobs/engine-input';
import { runEngine } from './expansion-engine';
import { capAnswer, sliceableText, sliceExpansion } from './expansion-slice';

interface FullRun {
  version: number | null;
  key: string;
  result: Promise<ExpandTasksResult>;
  settled: boolean;
  cancelled: boolean;
}

export class SharedExpansions {
  private readonly full = new Map<string, FullRun>();
  /** Engine runs started here (for tests and benches). */
  engineRuns = 0;

  /**
   * The expansion `input` asks for, from the shared full run of the same text and settings when it can be cut
   * from it exactly; otherwise from an engine run of its own (cancelled by `isCancelled`).
   */
  async expand(input: EngineInput, isCancelled?: () => boolean, firstsOnly = false): Promise<ExpandTasksResult> {
    const full = await this.fullRun(input);
    if (firstsOnly) return firstCombinations(full);
    const filtered = input.agentAddresses.length > 0 || input.limit !== undefined;
    // A cancelled full run was superseded by a newer version: the caller retries on it.
    if (!filtered || full.cancelled) return full;
    // A limited request is a preview: its answer is also bounded in size (capAnswer).
    const bounded = (r: ExpandTasksResult): ExpandTasksResult => (input.limit !== undefined ? capAnswer(r) : r);
    if (sliceableText(input.text, input.agentAddresses)) {
      const sliced = sliceExpansion(full, { agentAddresses: input.agentAddresses, limit: input.limit });
      if (sliced) return bounded(sliced);
    }
    this.engineRuns++;
    return runAlone(input, isCancelled);
  }

  /**
   * The dashboard's grids (configured directions per task), from the shared full run: a 39,800-pair mesh crosses to
   * the main thread as a few flat arrays instead of 17 MB of task JSON.
   */
  async pairs(input: EngineInput, tasks: readonly string[] | undefined): Promise<DashboardPairsResult> {
    const full = await this.fullRun(input);
    let template: unknown;
    try {
      template = JSON.parse(input.text);
    } catch {
      template = undefined; // disjoint groups then fall back to a square layout
    }
    return dashboardPairsOf(full, template, tasks);
  }

  /**
   * What each host read really runs, against the shared full run (template/hosts/): only the comparison crosses to
   * the main thread, not the task JSON of every combination.
   */
  async hosts(input: EngineInput, reads: HostRead[]): Promise<HostsComparison> {
    const full = await this.fullRun(input);
    const result = compareHosts({
      combinations: full.combinations,
      agents: full.agents,
      reads,
      template: input.uri,
      since: reads[0]?.since ?? 'P1D',
    });
    const answer: HostsComparison = { agents: full.agents, result };
    if (full.error !== undefined) answer.error = full.error;
    return answer;
  }

  /** What a full run of `input` depends on besides its text and version (for caches built on it). */
  keyOf(input: EngineInput): string {
    return runKey(input);
  }

  /** The full expansion (all agents, no limit) of this version and settings, shared with every other request. */
  fullExpansion(input: EngineInput): Promise<ExpandTasksResult> {
    return this.fullRun(input);
  }

  /** Full expansions kept (one per open document at most). */
  entryCounts(): Record<string, number> {
    return { fullExpansions: this.full.size };
  }

  forget(uri: string): void {
    const run = this.full.get(uri);
    if (run && !run.settled) run.cancelled = true;
    this.full.delete(uri);
  }

  /** The full run of this version and settings, settled or in flight, if one was started. */
  private fullRunOf(input: EngineInput): FullRun | undefined {
    const hit = this.full.get(input.uri);
    // Documents not open in the editor have no version: they are never shared.
    if (!hit || input.version === null || hit.version !== input.version) return undefined;
    return hit.key === runKey(input) ? hit : undefined;
  }

  private fullRun(input: EngineInput): Promise<ExpandTasksResult> {
    const key = runKey(input);
    const same = this.fullRunOf(input);
    if (same) return same.result;
    const hit = this.full.get(input.uri);
    if (hit && !hit.settled) hit.cancelled = true; // an older version: nobody needs it any more
    const run: FullRun = {
      version: input.version,
      key,
      settled: false,
      cancelled: false,
      result: Promise.resolve(undefined as unknown as ExpandTasksResult),
    };
    this.engineRuns++;
    run.result = runEngine({ ...input, agentAddresses: [], limit: undefined }, () => run.cancelled);
    this.full.set(input.uri, run);
    const done = (failed: boolean): void => {
      run.settled = true;
      if (this.full.get(input.uri) !== run) return;
      if (failed) this.full.delete(input.uri);
    };
    run.result.then(
      (r) => done(r.cancelled === true),
      () => done(true),
    );
    return run.result;
  }
}

/** One engine run for exactly `input`; with a limit, a preview: its answer bounded in size too (capAnswer). */
export async function runAlone(input: EngineInput, isCancelled?: () => boolean): Promise<ExpandTasksResult> {
  const r = await runEngine(input, isCancelled);
  return input.limit !== undefined ? capAnswer(r) : r;
}

/** What a full run depends on besides the text: how includes are read and the jq settings. */
function runKey(input: EngineInput): string {
  return JSON.stringify([includeScopeKey(input.includeScope), input.jq]);
}

/**
 * The full result with only the first combination of each task that has task JSON (pScheduler's refusals
 * included: their URLs and values are as real), in their order: what lenses and hovers look up (the first
 * combination of some tasks), at a fraction of the size to send between threads.
 */
export function firstCombinations(full: ExpandTasksResult): ExpandTasksResult {
  const seen = new Set<string>();
  const combinations = full.combinations.filter(
    (c) => c.pscheduler !== undefined && !seen.has(c.task) && seen.add(c.task),
  );
  return { ...full, combinations };
}
