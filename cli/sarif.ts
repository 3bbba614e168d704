// `psconfig-tools validate --format sarif`: SARIF 2.1.0 as GitHub code scanning reads it (one run, every diagnostic
// code as a rule, one result per diagnostic with a physical location; paths relative to the working directory
// under %SRCROOT%, so uploads from a checkout line up with the repository; columns in UTF-16 code units, as ours are).
import { relative, isAbsolute, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DIAGNOSTIC_CODES } from '../server/src/template/rules/codes';
import type { Severity } from '../server/src/template/rules/diagnostic';

export interface SarifDiagnostic {
  /** The input as given (file path, `-` or URL). */
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  severity: Severity;
  code: string;
  message: string;
}

const SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';

const LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = {
  error: 'error',
  warning: 'warning',
  information: 'note',
  hint: 'note',
};

interface ArtifactLocation {
  uri: string;
  uriBaseId?: string;
}

/** Where a file is, for SARIF: relative to the working directory when inside it, else a file: URI; URLs as they are. */
export function artifactLocation(file: string, cwd = process.cwd()): ArtifactLocation {
  if (/^https?:\/\//i.test(file)) return { uri: file };
  if (file === '-') return { uri: 'stdin' };
  const rel = relative(cwd, isAbsolute(file) ? file : `${cwd}${sep}${file}`);
  if (rel && !rel.startsWith('..') && !isAbsolute(rel))
    return { uri: rel.split(sep).map(encodeURIComponent).join('/'), uriBaseId: 'SRCROOT' };
  return { uri: pathToFileURL(isAbsolute(file) ? file : `${cwd}${sep}${file}`).toString() };
}

/** Rule text from the code itself (`psconfig/unknown-group` → "unknown group"); docs/checks.md's table explains each. */
function describe(code: string): string {
  const words = code.replace(/^psconfig\//, '').replace(/-/g, ' ');
  return `${words[0].toUpperCase()}${words.slice(1)}`;
}

export function toSarif(diagnostics: SarifDiagnostic[], cwd = process.cwd()): object {
  const ruleIndex = new Map<string, number>(DIAGNOSTIC_CODES.map((c, i) => [c, i]));
  return {
    $schema: SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'psconfig-tools',
            rules: DIAGNOSTIC_CODES.map((id) => ({
              id,
              name: id.replace(/^psconfig\//, ''),
              shortDescription: { text: describe(id) },
            })),
          },
        },
        originalUriBaseIds: { SRCROOT: { uri: pathToFileURL(cwd.endsWith(sep) ? cwd : `${cwd}${sep}`).toString() } },
        columnKind: 'utf16CodeUnits',
        results: diagnostics.map((d) => ({
          ruleId: d.code,
          ...(ruleIndex.has(d.code) ? { ruleIndex: ruleIndex.get(d.code) } : {}),
          level: LEVEL[d.severity],
          message: { text: d.message },
          locations: [
            {
              physicalLocation: {
                artifactLocation: artifactLocation(d.file, cwd),
                region: { startLine: d.line, startColumn: d.column, endLine: d.endLine, endColumn: d.endColumn },
              },
            },
          ],
        })),
      },
    ],
  };
}
