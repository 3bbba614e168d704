// Expansion of the current document text, for the ExpandTasks request, task code lenses and hovers. The full
// expansion (all agents, no limit) is computed at most once per document version and shared.
import { URI } from 'vscode-uri';
import { dirname } from 'node:path';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { ExpandTasksParams, ExpandTasksResult, ServerSettings } from '../../../common/protocol';
import type { BackgroundRunner } from './background-worker';
import type { TaskFact } from '../template/navigation/hover';
import { effectiveJqPath } from './settings';

function baseDirOf(uri: string): string | undefined {
  try {
    const u = URI.parse(uri);
    return u.scheme === 'file' ? dirname(u.fsPath) : undefined;
  } catch {
    return undefined;
  }
}

export class ExpansionService {
  private full = new Map<string, { version: number; result: Promise<ExpandTasksResult>; value?: ExpandTasksResult }>();

  private countCache = new Map<string, { version: number; counts: Promise<TaskFact[]>; value?: TaskFact[] }>();

  constructor(
    private readonly settings: () => ServerSettings,
    private readonly runner: BackgroundRunner,
  ) {}

  /** Per-task counts without jq (lenses, group hovers), computed off the main thread once per version. */
  counts(doc: TextDocument): Promise<TaskFact[]> {
    const hit = this.countCache.get(doc.uri);
    if (hit && hit.version === doc.version) return hit.counts;
    const counts = this.runner.counts(doc.getText());
    const entry: { version: number; counts: Promise<TaskFact[]>; value?: TaskFact[] } = { version: doc.version, counts };
    this.countCache.set(doc.uri, entry);
    counts.then(
      (v) => (entry.value = v),
      () => this.countCache.get(doc.uri) === entry && this.countCache.delete(doc.uri),
    );
    return counts;
  }

  /** All agents, no limit: cached per version (lenses and hovers ask for it repeatedly). */
  fullExpansion(doc: TextDocument): Promise<ExpandTasksResult> {
    const hit = this.full.get(doc.uri);
    if (hit && hit.version === doc.version) return hit.result;
    const result = this.run(doc, [], undefined);
    const entry: { version: number; result: Promise<ExpandTasksResult>; value?: ExpandTasksResult } = { version: doc.version, result };
    this.full.set(doc.uri, entry);
    result.then(
      (v) => (entry.value = v),
      // A failure is not cached: the next request tries again.
      () => this.full.get(doc.uri) === entry && this.full.delete(doc.uri),
    );
    return result;
  }

  /** The full expansion only if it has already finished for this version (for cheap hovers). */
  settled(doc: TextDocument): ExpandTasksResult | undefined {
    const hit = this.full.get(doc.uri);
    return hit && hit.version === doc.version ? hit.value : undefined;
  }

  expand(doc: TextDocument, params: ExpandTasksParams): Promise<ExpandTasksResult> {
    const agents = params.agentAddresses ?? [];
    if (agents.length === 0 && params.limit === undefined) return this.fullExpansion(doc);
    return this.run(doc, agents, params.limit);
  }

  forget(uri: string): void {
    this.full.delete(uri);
    this.countCache.delete(uri);
  }

  private run(doc: TextDocument, agentAddresses: string[], limit: number | undefined): Promise<ExpandTasksResult> {
    const settings = this.settings();
    return this.runner.expand({
      uri: doc.uri,
      version: doc.version,
      text: doc.getText(),
      baseDir: baseDirOf(doc.uri),
      agentAddresses,
      limit,
      settings,
      jqPath: effectiveJqPath(settings),
    });
  }
}
