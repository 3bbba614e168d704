// The one place the server asks for a template's diagnostics (the rules live in server/src/template).
import type { TemplateDiagnostic } from '../template/rules/diagnostic';
import {
  ChecksCancelled,
  checkJqExpressions,
  validateTemplateWithIncludes,
  type ValidationResult,
} from '../template/diagnostics';
import { jqRunnerFor, type JqConfig } from '../template/jq/config';
import { policyFor, type IncludeScope } from '../template/includes/scope';

export interface DiagnosticsPass {
  diagnostics: TemplateDiagnostic[];
  /** Stopped because `isCancelled` said so: nothing to publish (whoever cancelled schedules the next pass). */
  cancelled?: true;
  /** Local paths the template's includes name (read or not), for refreshing it when one of them changes. */
  includePaths: string[];
  /** Checks that need a process (jq compiling expressions), published after the first pass. Call it once: the
   *  parse is released when it finishes. */
  later: () => Promise<TemplateDiagnostic[]>;
}

/**
 * Includes are read under `scope` before the checks run. `isCancelled`: polled between the checks' passes and
 * while jq compiles; an edit makes this pass stale, and the rest of it is skipped (its jq processes killed).
 */
export async function computeDiagnostics(
  text: string,
  jq: JqConfig | undefined,
  scope: IncludeScope,
  isCancelled?: () => boolean,
): Promise<DiagnosticsPass> {
  let result: ValidationResult;
  try {
    result = await validateTemplateWithIncludes(text, await policyFor(scope), { isCancelled });
  } catch (err) {
    if (!(err instanceof ChecksCancelled)) throw err;
    return { diagnostics: [], cancelled: true, includePaths: [], later: () => Promise.resolve([]) };
  }
  const includePaths: string[] = [];
  for (const e of result.includes.entries)
    if (e.outcome.kind === 'local' && e.outcome.target && !includePaths.includes(e.outcome.target))
      includePaths.push(e.outcome.target);
  return {
    diagnostics: result.diagnostics,
    includePaths,
    later: async () => {
      try {
        return await checkJqExpressions(result.model, jqRunnerFor(jq).cancellable(isCancelled));
      } finally {
        // Nothing reads this parse afterwards: its storage serves the next one (tree.ts).
        result.parsed.tree.release();
      }
    },
  };
}
