// Two template texts → their task diff: each version expanded by the engine (expand/from-text.ts, the one entry
// point the CLI and the language server share) and checked by the same checks as the editor's diagnostics, then
// compared (diff.ts). Used by `psconfig-tools diff` and by the language server's worker.
import type { ExpandTasksResult, TaskDiffDiagnostic, TaskDiffResult } from '../../../../common/protocol';
import { checkJqExpressions, validateTemplateWithIncludes } from '../diagnostics';
import { expandText } from '../expand/from-text';
import type { IncludePolicy } from '../includes/loader';
import { jqRunnerFor, type JqConfig } from '../jq/config';
import { LineIndex } from '../positions';
import { nodeAtOffset, nodePath } from '../parse';
import { diffExpansions, type LoadShares } from './diff';
import { scheduleHostLoads } from './host-loads';

export interface CompareSide {
  text: string;
  /** Names the version in messages and in the result's `source`. */
  source: string;
  /** The URI the engine reports (file URI, URL, `git:REV:PATH`...). */
  uri: string;
  /** How this version's `includes` are read. */
  includes: IncludePolicy;
}

export interface CompareOptions {
  /** Only tasks these agents schedule (empty: every agent). */
  agentAddresses?: string[];
  jq?: JqConfig;
  /** Count each version's diagnostics and report the new ones (default true). */
  diagnostics?: boolean;
  /** Host loads of one expansion; default: the schedule model's (host-loads.ts); `null`: no load figures. */
  loadOf?: ((r: ExpandTasksResult) => Map<string, LoadShares>) | null;
  isCancelled?: () => boolean;
}

/** The checks of one version (jq compile checks included), with 1-based lines, as `psconfig-tools validate` runs them. */
export async function diagnosticsOf(
  text: string,
  includes: IncludePolicy,
  jq: JqConfig | undefined,
): Promise<TaskDiffDiagnostic[]> {
  const { diagnostics, model } = await validateTemplateWithIncludes(text, includes);
  const all = [...diagnostics, ...(await checkJqExpressions(model, jqRunnerFor(jq)))];
  const lines = new LineIndex(text);
  return all.map((d) => {
    const node = nodeAtOffset(model.parsed.root, d.start);
    return {
      severity: d.severity,
      code: d.code,
      message: d.message,
      line: lines.positionAt(d.start).line + 1,
      ...(node ? { path: nodePath(node).join('/') } : {}),
    };
  });
}

export async function compareTemplates(
  old: CompareSide,
  next: CompareSide,
  options: CompareOptions = {},
): Promise<TaskDiffResult> {
  const expand = (s: CompareSide): Promise<ExpandTasksResult> =>
    expandText({
      uri: s.uri,
      version: null,
      text: s.text,
      includes: s.includes,
      agentAddresses: options.agentAddresses,
      jq: options.jq,
      isCancelled: options.isCancelled,
    });
  // One after the other: the engine is synchronous between its jq runs, so running both at once gains nothing on
  // one thread and would hold both in memory while neither is finished.
  const oldResult = await expand(old);
  const newResult = await expand(next);
  const loadOf = options.loadOf === null ? undefined : (options.loadOf ?? scheduleHostLoads);
  const wantDiagnostics = options.diagnostics !== false;
  const oldDiagnostics = wantDiagnostics ? await diagnosticsOf(old.text, old.includes, options.jq) : undefined;
  const newDiagnostics = wantDiagnostics ? await diagnosticsOf(next.text, next.includes, options.jq) : undefined;
  return diffExpansions(
    {
      result: oldResult,
      source: old.source,
      diagnostics: oldDiagnostics,
      load: loadOf?.(oldResult),
    },
    {
      result: newResult,
      source: next.source,
      diagnostics: newDiagnostics,
      load: loadOf?.(newResult),
    },
  );
}
