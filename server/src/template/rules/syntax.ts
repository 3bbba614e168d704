// JSON syntax errors and duplicate keys.
import type { ParsedTemplate } from '../parse';
import { LineIndex } from '../positions';
import { diag, type TemplateDiagnostic } from './diagnostic';

export function checkSyntax(parsed: ParsedTemplate): TemplateDiagnostic[] {
  const out: TemplateDiagnostic[] = parsed.syntaxErrors.map((e) => diag('psconfig/syntax', 'error', e.message, e.start, Math.min(e.end, Math.max(parsed.text.length, e.start + 1))));
  if (!parsed.root && parsed.syntaxErrors.length === 0) out.push(diag('psconfig/syntax', 'error', 'The file is empty: a template is one JSON object.', 0, 0));
  for (const d of parsed.duplicateKeys) {
    const line = new LineIndex(parsed.text.slice(0, d.first.offset)).lineCount;
    out.push(
      diag(
        'psconfig/duplicate-key',
        'error',
        `Duplicate key \`${d.key}\`: pSConfig keeps only the last one and silently drops the earlier value (first on line ${line}). Rename or merge them.`,
        d.node.offset,
        d.node.offset + d.node.length,
      ),
    );
  }
  return out;
}
