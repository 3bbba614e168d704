// The one place the server asks for a template's diagnostics (the rules live in server/src/template).
import type { TemplateDiagnostic } from '../template/rules/diagnostic';
import { checkJqExpressions, validateTemplate, type ValidationResult } from '../template/diagnostics';
import { jqRunnerFor, type JqConfig } from '../template/jq/config';

export interface DiagnosticsPass {
  diagnostics: TemplateDiagnostic[];
  result: ValidationResult;
  /** Checks that need a process (jq compiling expressions), published after the first pass. */
  later: () => Promise<TemplateDiagnostic[]>;
}

/** `isCancelled`: polled while jq compiles; an edit makes this pass stale and its jq processes are killed. */
export function computeDiagnostics(
  text: string,
  jq: JqConfig | undefined,
  isCancelled?: () => boolean,
): DiagnosticsPass {
  const result = validateTemplate(text);
  return {
    diagnostics: result.diagnostics,
    result,
    later: () => checkJqExpressions(result.model, jqRunnerFor(jq).cancellable(isCancelled)),
  };
}
