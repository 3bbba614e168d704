// JSON syntax errors (errors) and duplicate keys (warnings).
import type { ParsedTemplate } from '../parse';
import { LineIndex } from '../positions';
import { diag, type TemplateDiagnostic } from './diagnostic';

export function checkSyntax(parsed: ParsedTemplate): TemplateDiagnostic[] {
  const out: TemplateDiagnostic[] = parsed.syntaxErrors.map((e) =>
    diag(
      e.tooDeep ? 'psconfig/too-deep' : 'psconfig/syntax',
      e.tooDeep ?? 'error',
      e.message,
      e.start,
      Math.min(e.end, Math.max(parsed.text.length, e.start + 1)),
    ),
  );
  if (!parsed.root && parsed.syntaxErrors.length === 0)
    out.push(diag('psconfig/syntax', 'error', 'The file is empty: a template is one JSON object.', 0, 0));
  // Python's json (what pSConfig reads templates with) accepts duplicate keys and keeps the last value: legal,
  // but the earlier value is silently ignored, which is almost never what the author meant. A warning.
  // One line index for all of them (a fresh one per key made many duplicate keys quadratic).
  const lines = parsed.duplicateKeys.length ? new LineIndex(parsed.text) : undefined;
  for (const d of parsed.duplicateKeys) {
    const first = (lines as LineIndex).positionAt(d.first.offset).line + 1;
    const last = (lines as LineIndex).positionAt(d.node.offset).line + 1;
    out.push(
      diag(
        'psconfig/duplicate-key',
        'warning',
        `Duplicate key \`${d.key}\`: pSConfig (Python's json) accepts it silently and the last one wins, so the value on line ${last} is used and the earlier one on line ${first} is ignored. Remove or rename one of them.`,
        d.node.offset,
        d.node.offset + d.node.length,
      ),
    );
  }
  return out;
}
