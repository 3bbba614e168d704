// Shared helpers for the template unit tests.
import { validateTemplate, type TemplateDiagnostic } from '../../../server/src/template/diagnostics';

export { examplesDir } from '../../fixtures';
import { repoRoot as findRoot } from '../../fixtures';

export const repoRoot = findRoot();

/** A minimal valid template, overridden section by section. */
export function template(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    addresses: { a: { address: 'a.example.net' }, b: { address: 'b.example.net' } },
    groups: { g: { type: 'mesh', addresses: [{ name: 'a' }, { name: 'b' }] } },
    tests: { t: { type: 'rtt', spec: { source: '{% address[0] %}', dest: '{% address[1] %}' } } },
    tasks: { task: { group: 'g', test: 't' } },
    ...overrides,
  };
}

export interface Found extends TemplateDiagnostic {
  /** The text the diagnostic covers. */
  text: string;
}

export function check(doc: unknown): Found[] {
  const text = typeof doc === 'string' ? doc : JSON.stringify(doc, null, 2);
  return validateTemplate(text).diagnostics.map((d) => ({ ...d, text: text.slice(d.start, d.end) }));
}

export function withCode(ds: Found[], code: string): Found[] {
  return ds.filter((d) => d.code === code);
}

export function errors(ds: Found[]): Found[] {
  return ds.filter((d) => d.severity === 'error');
}
