// The one place the server asks for a template's diagnostics (the rules live in server/src/template).
import type { TemplateDiagnostic } from '../template/rules/diagnostic';
import { checkJqExpressions, validateTemplate, type ValidationResult } from '../template/diagnostics';
import { jqRunnerFor } from '../template/expand/from-text';

export interface DiagnosticsPass {
  diagnostics: TemplateDiagnostic[];
  result: ValidationResult;
  /** Checks that need a process (jq compiling expressions), published after the first pass. */
  later: () => Promise<TemplateDiagnostic[]>;
}

export function computeDiagnostics(text: string, jqPath: string | undefined): DiagnosticsPass {
  const result = validateTemplate(text);
  return {
    diagnostics: result.diagnostics,
    result,
    later: () => checkJqExpressions(result.model, jqRunnerFor(jqPath)),
  };
}
