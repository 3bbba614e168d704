// Severity per diagnostic code, as users set it: `psconfig.diagnostics.severity` in the editor, `--ignore CODE`,
// `--error CODE` (…) on the command line. One reading of the settings and one way of applying them, shared by both.
import { DIAGNOSTIC_CODES, type DiagnosticCode } from './rules/codes';
import { closestName } from './rules/closest-name';
import type { Severity, TemplateDiagnostic } from './rules/diagnostic';

/** A severity, or `off` to drop the diagnostic. */
export type SeverityLevel = Severity | 'off';
export type SeverityOverrides = ReadonlyMap<DiagnosticCode, SeverityLevel>;

const LEVELS: Record<string, SeverityLevel> = {
  error: 'error',
  warning: 'warning',
  warn: 'warning',
  information: 'information',
  info: 'information',
  hint: 'hint',
  off: 'off',
  ignore: 'off',
  none: 'off',
};

const KNOWN = new Set<string>(DIAGNOSTIC_CODES);

/** `psconfig/unused-definition` or just `unused-definition`; undefined (with the closest code) when unknown. */
export function diagnosticCodeOf(text: string): { code: DiagnosticCode } | { error: string } {
  const t = text.trim();
  const code = t.startsWith('psconfig/') ? t : `psconfig/${t}`;
  if (KNOWN.has(code)) return { code: code as DiagnosticCode };
  const near = closestName(code, DIAGNOSTIC_CODES);
  return { error: `unknown diagnostic code "${text}"${near ? ` (did you mean ${near}?)` : ''}` };
}

export function severityLevelOf(text: string): SeverityLevel | undefined {
  return LEVELS[text.trim().toLowerCase()];
}

/**
 * Reads `{ code: level }` (the editor setting; keys with or without `psconfig/`). Entries that cannot be used are
 * left out and said in `problems`.
 */
export function readSeverityOverrides(value: unknown): {
  overrides: Map<DiagnosticCode, SeverityLevel>;
  problems: string[];
} {
  const overrides = new Map<DiagnosticCode, SeverityLevel>();
  const problems: string[] = [];
  if (value === undefined || value === null) return { overrides, problems };
  if (typeof value !== 'object' || Array.isArray(value)) {
    problems.push('psconfig.diagnostics.severity must be an object of code → level');
    return { overrides, problems };
  }
  for (const [key, raw] of Object.entries(value as Record<string, unknown>)) {
    const code = diagnosticCodeOf(key);
    if ('error' in code) {
      problems.push(code.error);
      continue;
    }
    const level = typeof raw === 'string' ? severityLevelOf(raw) : undefined;
    if (!level) {
      problems.push(`${key}: "${String(raw)}" is not a level (error, warning, information, hint or off)`);
      continue;
    }
    overrides.set(code.code, level);
  }
  return { overrides, problems };
}

/** The diagnostics with their severity replaced where an override says so, `off` ones removed. */
export function applySeverityOverrides<T extends Pick<TemplateDiagnostic, 'code' | 'severity'>>(
  diagnostics: T[],
  overrides: SeverityOverrides | undefined,
): T[] {
  if (!overrides || overrides.size === 0) return diagnostics;
  const out: T[] = [];
  for (const d of diagnostics) {
    const level = overrides.get(d.code);
    if (level === undefined) out.push(d);
    else if (level !== 'off') out.push(level === d.severity ? d : { ...d, severity: level });
  }
  return out;
}
