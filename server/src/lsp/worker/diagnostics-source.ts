// The one place the server asks for a template's diagnostics (the rules live in server/src/template).
import type { TemplateDiagnostic } from '../../template/rules/diagnostic';
import type { DiagnosticsFound } from '../jobs/jobs';
import {
  ChecksCancelled,
  checkJqExpressions,
  validateTemplateWithIncludes,
  type CheckSettings,
  type ValidationResult,
} from '../../template/diagnostics';
import { jqRunnerFor, type JqConfig } from '../../template/jq/config';
import { policyFor, type IncludeScope } from '../../template/includes/scope';
import { capDiagnostics, type CappedDiagnostics } from '../../template/diagnostic-cap';
import { applySeverityOverrides, type SeverityOverrides } from '../../template/severity-overrides';

/** A pass stopped because `isCancelled` said so (nothing to publish: whoever cancelled queues the next pass), or
 *  what it found (jobs.ts DiagnosticsFound; `later`: call it once). */
export type DiagnosticsPass = { kind: 'cancelled' } | DiagnosticsFound<() => Promise<TemplateDiagnostic[]>>;

/**
 * Includes are read under `scope` before the checks run. `isCancelled`: polled between the checks' passes and
 * while jq compiles; an edit makes this pass stale, and the rest of it is skipped (its jq processes killed).
 * The cap is applied here, where every problem is known, after `overrides` (an ignored code frees room, a code
 * raised to an error is kept first), so only the shown ones cross to the main thread. `early`: receives the early
 * phase's findings (ValidateOptions.early), capped the same way, before the slower checks run.
 */
export async function computeDiagnostics(
  text: string,
  jq: JqConfig | undefined,
  scope: IncludeScope,
  isCancelled?: () => boolean,
  overrides?: SeverityOverrides,
  checks: CheckSettings = {},
  early?: (found: CappedDiagnostics) => void,
): Promise<DiagnosticsPass> {
  let result: ValidationResult;
  // The early phase: after the parse and the symbol index, syntax errors and references to nothing go out at once,
  // under the same overrides and cap as the full pass (which has every one of them too); nothing when it found
  // nothing (the full pass follows anyway).
  const onEarly = early
    ? (found: TemplateDiagnostic[]): void => {
        const capped = capDiagnostics(applySeverityOverrides(found, overrides));
        if (capped.shown.length > 0) early(capped);
      }
    : undefined;
  try {
    result = await validateTemplateWithIncludes(text, await policyFor(scope), {
      ...checks,
      isCancelled,
      early: onEarly,
    });
  } catch (err) {
    if (!(err instanceof ChecksCancelled)) throw err;
    return { kind: 'cancelled' };
  }
  const includePaths: string[] = [];
  for (const e of result.includes.entries)
    if (e.outcome.kind === 'local' && e.outcome.target && !includePaths.includes(e.outcome.target))
      includePaths.push(e.outcome.target);
  const capped = capDiagnostics(applySeverityOverrides(result.diagnostics, overrides));
  return {
    kind: 'checked',
    diagnostics: capped.shown,
    omitted: capped.omitted,
    includePaths,
    later: async () => {
      try {
        const found = await checkJqExpressions(result.model, jqRunnerFor(jq).cancellable(isCancelled));
        return applySeverityOverrides(found, overrides);
      } finally {
        // Nothing reads this parse afterwards: its storage serves the next one (tree.ts).
        result.parsed.tree.release();
      }
    },
  };
}
