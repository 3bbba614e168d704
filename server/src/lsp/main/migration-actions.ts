// The perfSONAR 5 fixes (template/fixes/) as LSP code actions with WorkspaceEdits, so every editor gets them: one
// quick fix per diagnostic (two or more for a localhost archive: `{% scheduled_by_address %}` or one of the
// template's archive hosts), and a "fix all of this kind in the file" action when the document has more than one,
// built from the diagnostics published for this very version (offsets of another version would edit the wrong
// text).
import { CodeActionKind, type CodeAction, type Diagnostic } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { TemplateModel } from '../../template/model';
import type { TemplateDiagnostic } from '../../template/rules/diagnostic';
import {
  archiveHostCandidates,
  fixAll,
  isFixableCode,
  migrationFixes,
  SCHEDULED_BY,
  type FixableCode,
  type LocalhostChoice,
} from '../../template/fixes/fixes';
import type { TextEditOffsets } from '../../template/fixes/json-text';
import { toRange } from './to-lsp';

const ALL_TITLES: Record<FixableCode, (n: number) => string> = {
  'psconfig/esmond-archiver': (n) => `Convert all ${n} esmond archives in this file to logstash http archives`,
  'psconfig/archiver-data-unknown-property': (n) => `Move "_meta" up out of "data" in all ${n} archives in this file`,
  'psconfig/spec-unknown-property': (n) => `Move "_meta" up out of "spec" in all ${n} tests in this file`,
  'psconfig/context-data-unknown-property': (n) => `Move "_meta" up out of "data" in all ${n} contexts in this file`,
  'psconfig/legacy-placeholder': (n) => `Replace all ${n} draft placeholders in this file with pSConfig variables`,
  'psconfig/archive-localhost': (n) => `Archive to {% scheduled_by_address %} in all ${n} localhost archives`,
};

export function migrationCodeActions(
  doc: TextDocument,
  model: TemplateModel,
  diagnostics: readonly Diagnostic[],
  published: readonly TemplateDiagnostic[] | undefined,
): CodeAction[] {
  const out: CodeAction[] = [];
  const offeredAll = new Set<string>();
  let hosts: string[] | undefined;
  const edit = (list: TextEditOffsets[]): CodeAction['edit'] => ({
    changes: { [doc.uri]: list.map((e) => ({ range: toRange(doc, e.start, e.end), newText: e.newText })) },
  });
  for (const diag of diagnostics) {
    const code = typeof diag.code === 'string' ? diag.code : undefined;
    if (diag.source !== 'psconfig' || !isFixableCode(code)) continue;
    const choices: LocalhostChoice[] = [SCHEDULED_BY];
    if (code === 'psconfig/archive-localhost')
      for (const host of (hosts ??= archiveHostCandidates(model))) choices.push({ kind: 'host', host });
    const request = { start: doc.offsetAt(diag.range.start), end: doc.offsetAt(diag.range.end), code };
    const outcome = migrationFixes(model, request, choices);
    outcome.fixes.forEach((fix, i) => {
      out.push({
        title: fix.title,
        kind: CodeActionKind.QuickFix,
        diagnostics: [diag],
        isPreferred: fix.preferred,
        edit: edit(fix.edits),
      });
      const key = `${code} ${i}`;
      if (!published || offeredAll.has(key)) return;
      offeredAll.add(key);
      const all = fixAll(model, published, code, choices[i]);
      if (all.count < 2) return;
      const choice = choices[i];
      out.push({
        title:
          choice.kind === 'host'
            ? `Archive to ${choice.host} in all ${all.count} localhost archives`
            : ALL_TITLES[code](all.count),
        kind: CodeActionKind.QuickFix,
        diagnostics: [diag],
        edit: edit(all.edits),
      });
    });
  }
  return out;
}
