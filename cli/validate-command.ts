// `psconfig-tools validate FILE... [--format text|json] [--no-jq]`: the language server's checks on files.
// Exit 0 when no errors, 1 when any error, 2 when a file cannot be read or the arguments are wrong.
import { readFile } from 'node:fs/promises';
import {
  checkJqExpressions,
  validateTemplateWithIncludes,
  type TemplateDiagnostic,
} from '../server/src/template/diagnostics';
import { LineIndex } from '../server/src/template/positions';
import type { IncludePolicy } from '../server/src/template/includes/loader';
import { commandLineScope, policyFor } from '../server/src/template/includes/scope';

export interface CliDiagnostic {
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  severity: TemplateDiagnostic['severity'];
  code: string;
  message: string;
}

const USAGE = 'usage: psconfig-tools validate FILE... [--format text|json] [--no-jq] [--allow-remote-includes]\n';

/** Diagnostics of one template text with 1-based positions (jq compile checks included unless disabled). */
export async function validateText(
  file: string,
  text: string,
  includes: IncludePolicy,
  jq = true,
): Promise<CliDiagnostic[]> {
  const { diagnostics, model } = await validateTemplateWithIncludes(text, includes);
  const all = jq ? [...diagnostics, ...(await checkJqExpressions(model))] : diagnostics;
  all.sort((a, b) => a.start - b.start || a.end - b.end);
  const lines = new LineIndex(text);
  return all.map((d) => {
    const s = lines.positionAt(d.start);
    const e = lines.positionAt(d.end);
    return {
      file,
      line: s.line + 1,
      column: s.character + 1,
      endLine: e.line + 1,
      endColumn: e.character + 1,
      severity: d.severity,
      code: d.code,
      message: d.message,
    };
  });
}

export async function runValidateCommand(args: string[]): Promise<number> {
  let format = 'text';
  let jq = true;
  let allowRemote = false;
  const files: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--format') format = args[++i] ?? '';
    else if (a.startsWith('--format=')) format = a.slice('--format='.length);
    else if (a === '--no-jq') jq = false;
    else if (a === '--allow-remote-includes') allowRemote = true;
    else if (a === '-h' || a === '--help') {
      process.stdout.write(USAGE);
      return 0;
    } else if (a.startsWith('--')) {
      process.stderr.write(`psconfig-tools validate: unknown option ${a}\n${USAGE}`);
      return 2;
    } else files.push(a);
  }
  if (format !== 'text' && format !== 'json') {
    process.stderr.write(`psconfig-tools validate: --format must be text or json, not "${format}"\n`);
    return 2;
  }
  if (files.length === 0) {
    process.stderr.write(USAGE);
    return 2;
  }
  const results: CliDiagnostic[] = [];
  let unreadable = false;
  for (const file of files) {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (e) {
      process.stderr.write(
        `psconfig-tools validate: cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}\n`,
      );
      unreadable = true;
      continue;
    }
    const includes = await policyFor(commandLineScope(file, allowRemote));
    for (const d of await validateText(file, text, includes, jq)) results.push(d);
  }
  if (format === 'json') process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
  else
    for (const d of results)
      process.stdout.write(`${d.file}:${d.line}:${d.column}: ${d.severity} ${d.code} ${d.message}\n`);
  if (unreadable) return 2;
  return results.some((d) => d.severity === 'error') ? 1 : 0;
}
