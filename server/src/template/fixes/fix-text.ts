// Every fix a template needs, applied to its text: `psconfig-tools fix` (and its tests) on the same fixes the
// language server offers. A pass checks the text (the diagnostics every editor shows), takes the fix of each fixable
// diagnostic in FIXABLE_CODES order, skipping one whose edits would overlap a fix already taken, and applies them;
// the next pass checks the new text. It stops when a pass has nothing left to apply, so running it on its own output
// changes nothing. What stays unfixed is listed with the reason.
import { analyseTemplate } from '../model';
import { LineIndex } from '../positions';
import { validateModel } from '../diagnostics';
import type { TemplateDiagnostic } from '../rules/diagnostic';
import type { TemplateModel } from '../model';
import { loopbackArchives } from '../rules/archive-localhost';
import { logstashAuthNeeds, logstashAuthTodo, type ArchiveCheckOptions } from '../rules/archive-auth';
import { applyEdits, editsDisjoint, type TextEditOffsets } from './json-text';
import { FIXABLE_CODES, migrationFixes, SCHEDULED_BY, type FixableCode, type LocalhostChoice } from './fixes';

export interface FixTextOptions extends ArchiveCheckOptions {
  /** Only these codes (default: every fixable code). */
  only?: ReadonlySet<FixableCode>;
  /** Where loopback archive hosts go (default `{% scheduled_by_address %}`). */
  localhost?: LocalhostChoice;
}

export interface FixReport {
  code: FixableCode;
  /** 1-based line and column of the diagnostic in the text of the pass that handled it. */
  line: number;
  column: number;
  /** The fix's title, or the diagnostic's message when unfixed. */
  what: string;
  /** Notes of an applied fix; the reason of an unfixed one. */
  notes: string[];
}

/** What the operator must still do so the fixed template's archives deliver (no fix can: it needs a credential or
 *  a rule on the archive host), or why an archive was left as it is. */
export interface TodoReport {
  code: 'psconfig/archive-logstash-auth' | 'psconfig/archive-loopback-credentials';
  /** 1-based line and column in the fixed text. */
  line: number;
  column: number;
  what: string;
}

export interface FixTextResult {
  text: string;
  applied: FixReport[];
  unfixed: FixReport[];
  /** In the fixed text: archives that need the operator (credentials, IP rules) or were left on localhost. */
  todo: TodoReport[];
  /** The template does not parse: nothing was changed. */
  syntaxError?: { line: number; column: number; message: string };
  passes: number;
}

/** More passes than any fix chain needs (an esmond archive with a loopback URL takes two). */
const MAX_PASSES = 8;

export function fixText(input: string, opts: FixTextOptions = {}): FixTextResult {
  const wanted = (code: string): code is FixableCode =>
    (FIXABLE_CODES as readonly string[]).includes(code) && (!opts.only || opts.only.has(code as FixableCode));
  const choice = opts.localhost ?? SCHEDULED_BY;
  const applied: FixReport[] = [];
  let text = input;
  for (let pass = 1; ; pass++) {
    const model = analyseTemplate(text);
    const lines = new LineIndex(text);
    const at = (offset: number): { line: number; column: number } => {
      const p = lines.positionAt(offset);
      return { line: p.line + 1, column: p.character + 1 };
    };
    const syntax = model.parsed.syntaxErrors[0];
    if (syntax) {
      const where = at(syntax.start);
      return {
        text: input,
        applied: [],
        unfixed: [],
        todo: [],
        syntaxError: { ...where, message: syntax.message },
        passes: pass,
      };
    }
    const edits: TextEditOffsets[] = [];
    const unfixed: FixReport[] = [];
    for (const d of fixable(validateModel(model, { unused: false, ipAllowedHosts: opts.ipAllowedHosts }), wanted)) {
      const outcome = migrationFixes(model, d, [choice]);
      const fix = outcome.fixes[0];
      if (!fix) {
        // no reason: not one of ours (another unknown property than `_meta`)
        if (outcome.reason) unfixed.push({ code: d.code, ...at(d.start), what: d.message, notes: [outcome.reason] });
      } else if (pass > MAX_PASSES) {
        unfixed.push({
          code: d.code,
          ...at(d.start),
          what: d.message,
          notes: [`still fixable after ${MAX_PASSES} passes`],
        });
      } else if (editsDisjoint(fix.edits, edits)) {
        edits.push(...fix.edits);
        applied.push({ code: fix.code, ...at(d.start), what: fix.title, notes: fix.notes });
      } // else: it overlaps a fix of this pass; the next pass looks again
    }
    if (edits.length === 0) return { text, applied, unfixed, todo: todoOf(model, opts, at), passes: pass };
    text = applyEdits(text, edits);
  }
}

/** The diagnostics of the wanted codes, in FIXABLE_CODES order (then by position). */
function fixable(
  diagnostics: TemplateDiagnostic[],
  wanted: (code: string) => code is FixableCode,
): (TemplateDiagnostic & { code: FixableCode })[] {
  const rank = (c: string): number => (FIXABLE_CODES as readonly string[]).indexOf(c);
  return diagnostics
    .filter((d): d is TemplateDiagnostic & { code: FixableCode } => wanted(d.code))
    .sort((a, b) => rank(a.code) - rank(b.code) || a.start - b.start);
}

/** The archives of the fixed text the operator must still see to (rules/archive-auth.ts), and those left on
 *  localhost because their user works only over loopback (rules/archive-localhost.ts). */
function todoOf(
  model: TemplateModel,
  opts: ArchiveCheckOptions,
  at: (offset: number) => { line: number; column: number },
): TodoReport[] {
  const out: TodoReport[] = [];
  for (const n of logstashAuthNeeds(model, opts))
    out.push({ code: 'psconfig/archive-logstash-auth', ...at(n.value.offset), what: logstashAuthTodo(n) });
  for (const a of loopbackArchives(model))
    if (a.loopbackOnly)
      out.push({
        code: 'psconfig/archive-loopback-credentials',
        ...at(a.value.offset),
        what: `archive \`${a.archive}\` left on ${a.url?.host ?? 'localhost'}: RabbitMQ's guest user works only over loopback (its default loopback_users), so each run stays on the broker of the host that archives it; for a central archive, create a user on its broker and write that URL`,
      });
  return out.sort((x, y) => x.line - y.line || x.column - y.column);
}
