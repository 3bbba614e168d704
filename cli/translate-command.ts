// `psconfig-tools translate INPUT [-o OUT]`: a MeshConfig file (perfSONAR 4.0) as a pSConfig template, the way
// pSConfig 4.x's `psconfig translate` made it (server/src/template/meshconfig/), then checked by `validate`.
// The template goes to standard output (or OUT); what was not translated, and the check of the result, to
// standard error. Exit 0 when the result has no errors, 1 when it has, 2 when the input cannot be read or is not a
// MeshConfig file.
import { promises as fs } from 'node:fs';
import { parseTemplate } from '../server/src/template/parse';
import { isMeshConfig, noteDiagnostics } from '../server/src/template/meshconfig/detect';
import {
  translateMeshConfig,
  translationText,
  type TranslateOptions,
} from '../server/src/template/meshconfig/translate';
import { LineIndex } from '../server/src/template/positions';
import { expansionNotes } from '../server/src/template/meshconfig/outcome';
import { expandText } from '../server/src/template/expand/from-text';
import { DEFAULT_INCLUDE_LIMITS } from '../server/src/template/includes/loader';
import { commandLineScope, policyFor } from '../server/src/template/includes/scope';
import { InputError, readInput } from './inputs';
import { validateText } from './validate-command';
import { commandArgs, flag, onePositional, type CommandOptions, type ValueOption } from './options';

const USAGE = `usage: psconfig-tools translate INPUT [options]

  INPUT                       a MeshConfig JSON file, - for standard input, or an http(s) URL
  -o, --output FILE           write the pSConfig template to FILE (default: standard output)
  --use-force-bidirectional   as psconfig translate: a second task, scheduled by the destination, for tests with
                              force_bidirectional
  --disable-bwctl             as psconfig translate: no bwctl* tools (implied unless --as-4x)
  --as-4x                     exactly what pSConfig 4.x made: BWCTL tools, no reference.display-task-name
  -q, --quiet                 print nothing but errors
`;

interface Args {
  file?: string;
  output?: string;
  quiet: boolean;
  options: TranslateOptions;
}

const output: ValueOption<Args> = {
  value: (a, v, name) => {
    if (!v) return `${name} needs a file name`;
    a.output = v;
  },
};
const quiet = flag<Args>((a) => (a.quiet = true));

const OPTIONS: CommandOptions<Args> = {
  options: {
    '-o': output,
    '--output': output,
    '--use-force-bidirectional': flag((a) => (a.options.useForceBidirectional = true)),
    '--disable-bwctl': flag((a) => (a.options.disableBwctl = true)),
    '--as-4x': flag((a) => (a.options.perfsonar5 = false)),
    '-q': quiet,
    '--quiet': quiet,
  },
  positional: onePositional(() => 'only one input can be translated at a time'),
  done: (a) => (a.file === undefined ? 'no input given' : undefined),
};

export async function runTranslateCommand(argv: string[]): Promise<number> {
  const args = commandArgs<Args>('translate', USAGE, argv, { quiet: false, options: {} }, OPTIONS);
  if (typeof args === 'number') return args;
  let text: string;
  try {
    text = (await readInput(args.file!)).text; // set: the scan refuses no input
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    process.stderr.write(`psconfig-tools translate: ${args.file}: ${e.message}\n`);
    return 2;
  }
  const parsed = parseTemplate(text);
  if (parsed.syntaxErrors.length > 0 || !parsed.root) {
    const lines = new LineIndex(text);
    for (const e of parsed.syntaxErrors.slice(0, 10)) {
      const p = lines.positionAt(e.start);
      process.stderr.write(`${args.file}:${p.line + 1}:${p.character + 1}: error ${e.message}\n`);
    }
    process.stderr.write(`psconfig-tools translate: ${args.file} is not valid JSON\n`);
    return 2;
  }
  if (!isMeshConfig(parsed)) {
    process.stderr.write(
      `psconfig-tools translate: ${args.file} is not a MeshConfig file (it has addresses, groups, tasks or includes, or neither organizations nor a tests list)\n`,
    );
    return 2;
  }
  const translation = translateMeshConfig(parsed.tree.toValue(parsed.root.index), args.options);
  const out = translationText(translation);

  // What each translated test yields: a test whose task creates no pScheduler task is said, with the reason.
  const expanded = await expandText({ uri: args.output ?? 'translated.psconfig.json', version: null, text: out });
  const yielded = expansionNotes(translation, expanded);

  // What was not translated, and the tests that yield no task, on the MeshConfig file's lines.
  const lines = new LineIndex(text);
  const notes = noteDiagnostics(parsed, [...translation.notes, ...yielded]);
  if (!args.quiet) {
    for (const d of notes) {
      const p = lines.positionAt(d.start);
      process.stderr.write(
        `${args.file}:${p.line + 1}:${p.character + 1}: ${d.severity} ${d.message.replace(/^Translation: /, '')}\n`,
      );
    }
    const lost = translation.notes.filter((n) => n.severity === 'warning').length;
    process.stderr.write(
      `psconfig-tools translate: ${translation.notes.length === 0 ? 'everything translated' : `${lost} settings not translated, ${translation.notes.length - lost} remarks`}${yielded.length > 0 ? `; ${yielded.length} translated tests create no task` : ''}\n`,
    );
  }

  if (args.output) {
    try {
      await fs.writeFile(args.output, out);
    } catch (e) {
      process.stderr.write(`psconfig-tools translate: cannot write ${args.output}: ${(e as Error).message}\n`);
      return 2;
    }
  } else process.stdout.write(out);

  // The result, checked as `validate` checks a template (includes: none; jq: the compile check).
  const name = args.output ?? '(translated template)';
  const policy = await policyFor(commandLineScope(args.output, false), { limits: DEFAULT_INCLUDE_LIMITS });
  const checked = (await validateText(name, out, policy)).diagnostics;
  const errors = checked.filter((d) => d.severity === 'error');
  for (const d of args.quiet ? errors : checked.filter((d) => d.severity !== 'hint'))
    process.stderr.write(`${d.file}:${d.line}:${d.column}: ${d.severity} ${d.code} ${d.message}\n`);
  if (!args.quiet)
    process.stderr.write(
      `psconfig-tools translate: the pSConfig template has ${errors.length} errors${args.output ? `; written to ${args.output}` : ''}\n`,
    );
  return errors.length > 0 ? 1 : 0;
}
