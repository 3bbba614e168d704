// `psconfig-tools validate INPUT...`: the language server's checks on files, standard input or URLs.
// Exit 0 when no errors, 1 when any error, 2 when an input cannot be read or the arguments are wrong.
import {
  checkJqExpressions,
  validateTemplateWithIncludes,
  type CheckSettings,
  type TemplateDiagnostic,
} from '../server/src/template/diagnostics';
import { LineIndex } from '../server/src/template/positions';
import { DEFAULT_INCLUDE_LIMITS, type IncludePolicy } from '../server/src/template/includes/loader';
import { commandLineScope, policyFor } from '../server/src/template/includes/scope';
import {
  applySeverityOverrides,
  diagnosticCodeOf,
  severityLevelOf,
  type SeverityLevel,
  type SeverityOverrides,
} from '../server/src/template/severity-overrides';
import type { DiagnosticCode } from '../server/src/template/rules/codes';
import {
  capDiagnostics,
  countBySeverity,
  noCounts,
  withCapNote,
  type SeverityCounts,
} from '../server/src/template/diagnostic-cap';
import { DEFAULT_INPUT_LIMITS, InputError, readInput, type InputLimits } from './inputs';
import { toSarif } from './sarif';
import {
  allowRemoteOption,
  commandArgs,
  everyPositional,
  flag,
  formatOption,
  inputTimeoutOption,
  ipAllowedHostOption,
  type CommandOptions,
  type ValueOption,
} from './options';
import { plural } from '../common/text';

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

const USAGE = `usage: psconfig-tools validate INPUT... [options]

  INPUT                      a template file, - for standard input, or an http(s) URL
  --format text|json|sarif   text (default): file:line:col: severity code message; json: an array of diagnostics;
                             sarif: SARIF 2.1.0 for GitHub code scanning
  --quiet                    print errors only, and no summary line
  --ignore CODE              drop a diagnostic code (repeatable; CODE with or without psconfig/, commas allowed)
  --error CODE               report CODE as an error (also --warning, --info, --hint CODE)
  --severity CODE=LEVEL      LEVEL: error, warning, information, hint or off
  --no-jq                    skip the jq compile checks
  --allow-remote-includes    fetch http(s) includes
  --ip-allowed-host HOST     this archive host lets the testers post to /logstash by their address (Require ip):
                             its http archives need no Authorization header (repeatable; commas allowed)
  --timeout SECONDS          for URL inputs and remote includes (default 10)
`;

/** One template's diagnostics as shown, and how many of each severity were found in all. */
export interface ValidatedText {
  /**
   * Worst first (errors, warnings, information, hints; document order within each), at most MAX_DIAGNOSTICS,
   * then the note counting what was left out.
   */
  diagnostics: CliDiagnostic[];
  /** Every problem found, per severity (after the overrides; the cap's note not counted). */
  found: SeverityCounts;
}

/** Diagnostics of one template text with 1-based positions (jq compile checks included unless disabled). */
export async function validateText(
  file: string,
  text: string,
  includes: IncludePolicy,
  jq = true,
  overrides?: SeverityOverrides,
  checks: CheckSettings = {},
): Promise<ValidatedText> {
  const { diagnostics, model } = await validateTemplateWithIncludes(text, includes, checks);
  const all = applySeverityOverrides(
    jq ? [...diagnostics, ...(await checkJqExpressions(model))] : diagnostics,
    overrides,
  );
  // The note too can be overridden (--ignore too-many-problems).
  const shown = applySeverityOverrides(withCapNote(capDiagnostics(all)), overrides);
  const lines = new LineIndex(text);
  return {
    found: countBySeverity(all),
    diagnostics: shown.map((d) => {
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
    }),
  };
}

interface Args {
  inputs: string[];
  format: 'text' | 'json' | 'sarif';
  quiet: boolean;
  jq: boolean;
  allowRemote: boolean;
  overrides: Map<DiagnosticCode, SeverityLevel>;
  ipAllowedHosts: string[];
  limits: InputLimits;
}

/** Adds each code of a comma-separated list at `level`; the problem with the first that is no code. */
function setCodes(a: Args, list: string, level: SeverityLevel): string | undefined {
  for (const item of list.split(',').filter((x) => x.trim() !== '')) {
    const c = diagnosticCodeOf(item);
    if ('error' in c) return c.error;
    a.overrides.set(c.code, level);
  }
  return undefined;
}

/** --ignore, --error, --warning, --info, --hint CODE. */
const levelOption = (level: SeverityLevel): ValueOption<Args> => ({
  value: (a, v, name) => {
    if (!v) return `${name} needs a diagnostic code`;
    const problem = setCodes(a, v, level);
    if (problem) return `${name}: ${problem}`;
  },
});

const OPTIONS: CommandOptions<Args> = {
  options: {
    '--format': formatOption(
      ['text', 'json', 'sarif'],
      (a, f) => (a.format = f),
      (v) => `"${v ?? ''}"`,
    ),
    '--quiet': flag((a) => (a.quiet = true)),
    '-q': flag((a) => (a.quiet = true)),
    '--no-jq': flag((a) => (a.jq = false)),
    '--allow-remote-includes': allowRemoteOption(),
    '--ignore': levelOption('off'),
    '--error': levelOption('error'),
    '--warning': levelOption('warning'),
    '--info': levelOption('information'),
    '--hint': levelOption('hint'),
    '--severity': {
      value: (a, v) => {
        const m = /^([^=]+)=(.+)$/.exec(v ?? '');
        const level = m ? severityLevelOf(m[2]) : undefined;
        if (!m || !level) return '--severity needs CODE=LEVEL (LEVEL: error, warning, information, hint or off)';
        const problem = setCodes(a, m[1], level);
        if (problem) return `--severity: ${problem}`;
      },
    },
    '--ip-allowed-host': ipAllowedHostOption(),
    '--timeout': inputTimeoutOption(),
  },
  positional: everyPositional(),
  done: (a) => (a.inputs.length ? undefined : 'no INPUT given'),
};

export async function runValidateCommand(argv: string[]): Promise<number> {
  const initial: Args = {
    inputs: [],
    format: 'text',
    quiet: false,
    jq: true,
    allowRemote: false,
    overrides: new Map(),
    ipAllowedHosts: [],
    limits: { ...DEFAULT_INPUT_LIMITS },
  };
  const args = commandArgs('validate', USAGE, argv, initial, OPTIONS);
  if (typeof args === 'number') return args;
  let results: CliDiagnostic[] = [];
  const found = noCounts();
  let unreadable = 0;
  for (const arg of args.inputs) {
    let input;
    try {
      input = await readInput(arg, args.limits);
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      process.stderr.write(`psconfig-tools validate: cannot read ${arg}: ${e.message}\n`);
      unreadable++;
      continue;
    }
    const includes = await policyFor(commandLineScope(input.path, args.allowRemote), {
      limits: { ...DEFAULT_INCLUDE_LIMITS, timeoutMs: args.limits.timeoutMs },
    });
    const checked = await validateText(input.name, input.text, includes, args.jq, args.overrides, {
      ipAllowedHosts: args.ipAllowedHosts,
    });
    for (const d of checked.diagnostics) results.push(d);
    for (const s of Object.keys(found) as (keyof SeverityCounts)[]) found[s] += checked.found[s];
  }
  // Counts, summary and exit code from every problem found, not only the shown ones.
  const errors = found.error;
  const summary = `psconfig-tools validate: ${plural(args.inputs.length - unreadable, 'template')} checked: ${plural(errors, 'error')}, ${plural(found.warning, 'warning')}, ${plural(found.information + found.hint, 'note')}${unreadable ? `; ${unreadable} could not be read` : ''}\n`;
  if (args.quiet) results = results.filter((d) => d.severity === 'error');
  if (args.format === 'json') process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
  else if (args.format === 'sarif') process.stdout.write(`${JSON.stringify(toSarif(results), null, 2)}\n`);
  else
    for (const d of results)
      process.stdout.write(`${d.file}:${d.line}:${d.column}: ${d.severity} ${d.code} ${d.message}\n`);
  if (!args.quiet) process.stderr.write(summary);
  if (unreadable) return 2;
  return errors > 0 ? 1 : 0;
}
