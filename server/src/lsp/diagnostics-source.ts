// The one place the server asks for a template's diagnostics (the rules live in server/src/template).
import type { TemplateDiagnostic } from '../template/rules/diagnostic';
import { parseTemplate } from '../template/parse';

export interface DiagnosticsPass {
  diagnostics: TemplateDiagnostic[];
  /** Checks that need a process (jq compiling expressions), run after the first publication. */
  later?: () => Promise<TemplateDiagnostic[]>;
}

export function computeDiagnostics(text: string): DiagnosticsPass {
  const parsed = parseTemplate(text);
  const diagnostics: TemplateDiagnostic[] = parsed.syntaxErrors.map((e) => ({ code: 'psconfig/json-syntax', severity: 'error', message: e.message, start: e.start, end: e.end }));
  for (const d of parsed.duplicateKeys) {
    diagnostics.push({ code: 'psconfig/duplicate-key', severity: 'warning', message: `Duplicate key "${d.key}".`, start: d.node.offset, end: d.node.offset + d.node.length });
  }
  return { diagnostics };
}
