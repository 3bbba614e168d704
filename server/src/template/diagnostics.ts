// The one entry point for template diagnostics: parse once, build the symbol index and model, run every check.
//
//   const { diagnostics, parsed, index, model } = validateTemplate(text);
//   const slow = await checkJqExpressions(model);   // jq compile errors, published after the fast ones
//
// Offsets are UTF-16 offsets into `text`; convert with positions.ts (LineIndex) or the LSP TextDocument.
import { buildModel, type TemplateModel } from './model';
import { parseTemplate, propertyValue, itemsOf, type ParsedTemplate } from './parse';
import { checkReferences } from './rules/references';
import { checkSemantics } from './rules/semantics';
import { checkSyntax } from './rules/syntax';
import { checkTemplateVariables } from './rules/template-variables';
import { checkUnused } from './rules/unused';
import { validateSchema } from './schema/validator';
import { buildSymbolIndex, type SymbolIndex } from './symbols';
import type { TemplateDiagnostic } from './rules/diagnostic';

export type { TemplateDiagnostic, Severity, DiagnosticTag, DiagnosticData } from './rules/diagnostic';
export { closestName } from './rules/closest-name';
export { checkJqExpressions, collectJqSites } from './rules/jq-expressions';

export interface ValidateOptions {
  /** Skip the official-schema check (e.g. for a fragment). Default: run it. */
  schema?: boolean;
  /** Report unused definitions (hints). Default true. */
  unused?: boolean;
}

export interface ValidationResult {
  diagnostics: TemplateDiagnostic[];
  parsed: ParsedTemplate;
  index: SymbolIndex;
  model: TemplateModel;
}

const MAX_SYNTAX_ERRORS = 100;

export function validateTemplate(text: string, opts: ValidateOptions = {}): ValidationResult {
  const parsed = parseTemplate(text);
  const index = buildSymbolIndex(parsed.root);
  const model = buildModel(parsed, index);
  const out: TemplateDiagnostic[] = [];
  const syntax = checkSyntax(parsed);
  out.push(...syntax.slice(0, MAX_SYNTAX_ERRORS));
  if (syntax.length > MAX_SYNTAX_ERRORS) {
    const last = syntax[MAX_SYNTAX_ERRORS - 1];
    out.push({ code: 'psconfig/syntax', severity: 'error', message: `${syntax.length - MAX_SYNTAX_ERRORS} more syntax errors not shown.`, start: last.start, end: last.end });
  }
  if (parsed.root) {
    if (opts.schema !== false) out.push(...validateSchema(parsed.root, text));
    const refs = checkReferences(model);
    // Names may come from included files: a missing one is then only a warning.
    const hasIncludes = itemsOf(propertyValue(parsed.root, 'includes')).length > 0;
    for (const d of refs) {
      if (hasIncludes && d.severity === 'error') out.push({ ...d, severity: 'warning', message: `${d.message} (It may come from an included file.)` });
      else out.push(d);
    }
    out.push(...checkTemplateVariables(model));
    out.push(...checkSemantics(model));
    if (opts.unused !== false) out.push(...checkUnused(model));
  }
  out.sort((a, b) => a.start - b.start || a.end - b.end);
  return { diagnostics: out, parsed, index, model };
}
