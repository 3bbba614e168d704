// The one entry point for template diagnostics: parse once, build the symbol index and model, run every check.
//
//   const { diagnostics, parsed, index, model } = await validateTemplateWithIncludes(text, policy);
//   const { diagnostics, model } = validateTemplate(text);   // the same without reading includes (each entry is
//                                                            // then reported as not read)
//   const diagnostics = validateModel(model);        // on a model already built (analyseTemplate, model.ts)
//   const slow = await checkJqExpressions(model);   // jq compile errors, published after the fast ones
//   const { shown, omitted } = capDiagnostics(all);  // worst first, cut to MAX_DIAGNOSTICS (diagnostic-cap.ts)
//
// Offsets are UTF-16 offsets into `text`; convert with positions.ts (LineIndex) or the LSP TextDocument.
import { analyseTemplate, type TemplateModel } from './model';
import type { ParsedTemplate } from './parse';
import { buildIncludeSet, includeEntries, unreadIncludeSet, type IncludeSet } from './includes/include-set';
import { loadIncludes, namesTemplate, type IncludePolicy } from './includes/loader';
import { checkIncludes } from './rules/includes';
import { checkAddressFormats } from './rules/address-format';
import { checkEmptySelections } from './rules/empty-selection';
import { checkAgentBehaviour } from './rules/agent-behaviour';
import { checkArchiveLocalhost } from './rules/archive-localhost';
import { checkArchiveAuth, type ArchiveCheckOptions } from './rules/archive-auth';
import { checkLegacyPlaceholders } from './rules/legacy-placeholders';
import { checkPscheduler } from './rules/pscheduler';
import { checkReferences } from './rules/references';
import { checkSemantics } from './rules/semantics';
import { checkSyntax } from './rules/syntax';
import { checkTemplateVariables } from './rules/template-variables';
import { checkUnused } from './rules/unused';
import { validateSchema } from './schema/validator';
import { isMeshConfig, meshConfigDiagnostics } from './meshconfig/detect';
import { grafanaDiagnostics } from './grafana/agent-view';
import type { Reference, SymbolIndex } from './symbols';
import type { TemplateDiagnostic } from './rules/diagnostic';

export type { TemplateDiagnostic, Severity, DiagnosticTag, DiagnosticData } from './rules/diagnostic';
export { closestName } from './rules/closest-name';
export { checkJqExpressions, collectJqSites } from './rules/jq-expressions';

export type { ArchiveCheckOptions } from './rules/archive-auth';

/** What the user's settings change in the checks (`psconfig.archives.ipAllowedHosts`; CLI: --ip-allowed-host). */
export type CheckSettings = ArchiveCheckOptions;

export interface ValidateOptions extends CheckSettings {
  /** Skip the official-schema check (e.g. for a fragment). Default: run it. */
  schema?: boolean;
  /** Report unused definitions (hints). Default true. */
  unused?: boolean;
  /** The template's includes, read (readIncludes). Absent: every entry is reported as not read. */
  includes?: IncludeSet;
  /** Check specs, archiver and context data the way pScheduler does (rules/pscheduler.ts). Default true. */
  pscheduler?: boolean;
  /** Polled between the passes: true stops the checks with ChecksCancelled (the text changed meanwhile). */
  isCancelled?: () => boolean;
  /**
   * Called once, before the slower checks, with the cheap and decisive ones' findings (EARLY_CHECKS: syntax errors,
   * references to nothing, includes), in document order. Each of them is also in what validateModel returns.
   */
  early?: (diagnostics: TemplateDiagnostic[]) => void;
}

/** What the early phase (ValidateOptions.early) checks: the syntax, references to nothing, the includes. */
export const EARLY_CHECKS = ['syntax', 'references', 'includes'] as const;

/** Thrown by the checks when `isCancelled` says their result is no longer wanted. */
export class ChecksCancelled extends Error {
  constructor() {
    super('checks cancelled: the text changed');
  }
}

export interface ValidationResult {
  diagnostics: TemplateDiagnostic[];
  parsed: ParsedTemplate;
  index: SymbolIndex;
  model: TemplateModel;
  includes: IncludeSet;
}

const MAX_SYNTAX_ERRORS = 100;

export function validateTemplate(text: string, opts: ValidateOptions = {}): ValidationResult {
  const model = analyseTemplate(text);
  const includes = opts.includes ?? unreadIncludeSet(model.parsed, NOT_READ_HERE);
  return {
    diagnostics: validateModel(model, { ...opts, includes }),
    parsed: model.parsed,
    index: model.index,
    model,
    includes,
  };
}

/** validateTemplate after reading the template's includes under `policy` (never throws for an include). */
export async function validateTemplateWithIncludes(
  text: string,
  policy: IncludePolicy,
  opts: Omit<ValidateOptions, 'includes'> = {},
): Promise<ValidationResult> {
  const model = analyseTemplate(text);
  if (opts.isCancelled?.()) throw new ChecksCancelled();
  const includes = await readIncludes(model.parsed, policy);
  return {
    diagnostics: validateModel(model, { ...opts, includes }),
    parsed: model.parsed,
    index: model.index,
    model,
    includes,
  };
}

/** The template's includes, read under `policy`, parsed and indexed for the checks. */
export async function readIncludes(parsed: ParsedTemplate, policy: IncludePolicy): Promise<IncludeSet> {
  const entries = includeEntries(parsed);
  const outcomes = await loadIncludes(
    entries.map((e) => e.ref),
    policy,
  );
  const includes = buildIncludeSet(entries, outcomes);
  for (const e of includes.entries) e.nestedBack = e.nested.some((n) => namesTemplate(n, policy));
  return includes;
}

const NOT_READ_HERE = 'includes are not read by this check';

/**
 * Every synchronous check on one analysis, in document order, all of them: whoever shows them orders them by
 * severity and caps them (diagnostic-cap.ts), after the user's severity overrides, so counts and exit codes see
 * every problem and no error hides behind hints.
 */
export function validateModel(model: TemplateModel, opts: ValidateOptions = {}): TemplateDiagnostic[] {
  const { parsed } = model;
  const includes = opts.includes ?? unreadIncludeSet(parsed, NOT_READ_HERE);
  const out: TemplateDiagnostic[] = [];
  // Between the passes: on a large template each takes tens of milliseconds, and a pass no one will publish
  // would take the CPU the editor needs for the next keystroke's completion.
  const { isCancelled } = opts;
  const append = (items: TemplateDiagnostic[]): void => {
    for (const d of items) out.push(d);
    if (isCancelled?.()) throw new ChecksCancelled();
  };
  const syntax = checkSyntax(parsed);
  const shownSyntax = syntax.slice(0, MAX_SYNTAX_ERRORS);
  if (syntax.length > MAX_SYNTAX_ERRORS) {
    const last = syntax[MAX_SYNTAX_ERRORS - 1];
    shownSyntax.push({
      code: 'psconfig/syntax',
      severity: 'error',
      message: `${syntax.length - MAX_SYNTAX_ERRORS} more syntax errors not shown.`,
      start: last.start,
      end: last.end,
    });
  }
  append(shownSyntax);
  const meshConfig = parsed.root !== undefined && isMeshConfig(parsed);
  // The early phase: the references and includes checks run before the schema's (their findings are appended in
  // the same order as always, so the result does not depend on whether anyone asked for them early).
  let references: TemplateDiagnostic[] = [];
  let includeFindings: TemplateDiagnostic[] = [];
  if (parsed.root && !meshConfig) {
    // Names resolve against the template merged with its includes; those that may come from an unread include
    // are listed once, on that include's entry.
    const unresolved: Reference[] = [];
    references = checkReferences(model, includes, unresolved);
    includeFindings = checkIncludes(model, includes, unresolved);
  }
  if (opts.early) {
    const found = [...shownSyntax, ...references, ...includeFindings];
    found.sort((a, b) => a.start - b.start || a.end - b.end);
    opts.early(found);
    if (isCancelled?.()) throw new ChecksCancelled();
  }
  if (parsed.root && meshConfig) {
    // Not a template: one diagnostic saying what it is, and what a translation would not carry over.
    append(meshConfigDiagnostics(parsed));
  } else if (parsed.root) {
    if (opts.schema !== false) append(validateSchema(parsed.root));
    append(references);
    append(includeFindings);
    append(checkTemplateVariables(model));
    append(checkLegacyPlaceholders(model));
    append(checkArchiveLocalhost(model));
    append(checkArchiveAuth(model, opts));
    append(checkSemantics(model));
    append(checkAddressFormats(model));
    append(checkEmptySelections(model, includes));
    append(checkAgentBehaviour(model));
    if (opts.pscheduler !== false) append(checkPscheduler(model));
    append(grafanaDiagnostics(model));
    // While the text does not parse, a half-typed reference would make its target look unused: no hints then.
    if (opts.unused !== false && parsed.syntaxErrors.every((e) => e.tooDeep)) append(checkUnused(model, includes));
  }
  out.sort((a, b) => a.start - b.start || a.end - b.end);
  return out;
}
