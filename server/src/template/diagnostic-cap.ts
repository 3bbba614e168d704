// The worst problems are never hidden behind lesser ones. Diagnostics are ordered by severity (errors, warnings,
// information, hints; document order within one severity) before anything is cut, and a cut list ends with one
// note that says how many of each severity it left out. The CLI, the worker and the LSP publisher all cap here.
import type { Severity, TemplateDiagnostic } from './rules/diagnostic';

/** More than this many problems helps nobody and would swamp the editor: the rest is counted in one note. */
export const MAX_DIAGNOSTICS = 5000;

/** Worst first. */
export const SEVERITIES: readonly Severity[] = ['error', 'warning', 'information', 'hint'];
const RANK: Record<Severity, number> = { error: 0, warning: 1, information: 2, hint: 3 };

export type SeverityCounts = Record<Severity, number>;

export function noCounts(): SeverityCounts {
  return { error: 0, warning: 0, information: 0, hint: 0 };
}

export function countBySeverity(list: readonly Pick<TemplateDiagnostic, 'severity'>[]): SeverityCounts {
  const out = noCounts();
  for (const d of list) out[d.severity]++;
  return out;
}

/** Errors, then warnings, information, hints; within one severity, document order. */
export function bySeverityThenPosition(
  a: Pick<TemplateDiagnostic, 'severity' | 'start' | 'end'>,
  b: Pick<TemplateDiagnostic, 'severity' | 'start' | 'end'>,
): number {
  return RANK[a.severity] - RANK[b.severity] || a.start - b.start || a.end - b.end;
}

export interface CappedDiagnostics {
  /** What is shown: at most the limit, worst first (the note is not among them: see withCapNote). */
  shown: TemplateDiagnostic[];
  /** Per severity, how many were left out. */
  omitted: SeverityCounts;
}

/**
 * `all` ordered by severity and cut to `limit`. `omitted`: what an earlier cut of the same document left out (the
 * publisher merges jq's later diagnostics into a capped first pass: the first pass kept the worst, so merging into
 * what it showed and cutting again gives what one cut of everything would).
 */
export function capDiagnostics(
  all: readonly TemplateDiagnostic[],
  limit = MAX_DIAGNOSTICS,
  omitted: SeverityCounts = noCounts(),
): CappedDiagnostics {
  const shown = [...all].sort(bySeverityThenPosition);
  const left = { ...omitted };
  if (shown.length > limit) {
    for (let i = limit; i < shown.length; i++) left[shown[i].severity]++;
    shown.length = limit;
  }
  return { shown, omitted: left };
}

export function omittedTotal(omitted: SeverityCounts): number {
  return omitted.error + omitted.warning + omitted.information + omitted.hint;
}

const NOUN: Record<Severity, [string, string]> = {
  error: ['error', 'errors'],
  warning: ['warning', 'warnings'],
  information: ['information', 'information'],
  hint: ['hint', 'hints'],
};

function count(n: number, s: Severity): string {
  return `${n.toLocaleString('en-US')} ${NOUN[s][n === 1 ? 0 : 1]}`;
}

/** "65,012 more problems are not shown (12 warnings, 65,000 hints); …", or undefined when nothing was left out. */
export function capNoteMessage(c: CappedDiagnostics): string | undefined {
  const total = omittedTotal(c.omitted);
  if (total === 0) return undefined;
  const parts = SEVERITIES.filter((s) => c.omitted[s] > 0).map((s) => count(c.omitted[s], s));
  return (
    `${total.toLocaleString('en-US')} more ${total === 1 ? 'problem is' : 'problems are'} not shown (${parts.join(', ')}); ` +
    `the ${c.shown.length.toLocaleString('en-US')} shown are the most severe, errors first.`
  );
}

/**
 * The shown diagnostics and, when some were left out, the note counting them (information, at the start of the
 * document, where it is seen first).
 */
export function withCapNote(c: CappedDiagnostics): TemplateDiagnostic[] {
  const message = capNoteMessage(c);
  if (message === undefined) return c.shown;
  return [...c.shown, { code: 'psconfig/too-many-problems', severity: 'information', message, start: 0, end: 1 }];
}
