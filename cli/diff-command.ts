// psconfig-tools diff OLD NEW [--agent ADDRESS]... [--format text|json|markdown] [--report-only] ...
// What a change to a template does to the tasks each agent creates (server/src/template/task-diff). OLD and NEW:
// a file, - (standard input, for one of them), an http(s) URL, or REV:PATH read from git. Exit 0: nothing is
// lost; 1: the change removes tasks, makes combinations fail, adds an error diagnostic or leaves a template that
// cannot be expanded (0 with --report-only); 2: an input cannot be read, or bad usage.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { changeLosesSomething, compareTemplates, type CompareSide } from '../server/src/template/task-diff';
import { DEFAULT_INCLUDE_LIMITS } from '../server/src/template/includes/loader';
import { commandLineScope, policyFor } from '../server/src/template/includes/scope';
import { renderMarkdown, renderText } from './diff-render';
import { isGitRevisionPath, readGitRevision } from './git-input';
import { DEFAULT_INPUT_LIMITS, InputError, readInput, type InputLimits } from './inputs';
import {
  commandArgs,
  everyPositional,
  expandingOptions,
  flag,
  formatOption,
  jqMemoryOption,
  listOption,
  type CommandOptions,
  type JqArgs,
} from './options';
import { noun } from '../common/text';

const USAGE = `usage: psconfig-tools diff OLD NEW [--agent ADDRESS]... [--format text|json|markdown] [--report-only] [--no-diagnostics] [--jq PATH] [--jq-memory-mb N] [--allow-remote-includes] [--timeout SECONDS]

  OLD, NEW                 a template file, - for standard input (one of them), an http(s) URL, or REV:PATH
                           read from git (git's syntax: PATH from the repository's top, REV:./PATH from here)

  --agent ADDRESS          only the tasks this agent schedules (repeatable; as the agent's match-addresses)
  --format text            (default) a summary, then each affected agent's removed (-), added (+) and changed (~)
                           tasks, new failures and new diagnostics
  --format json            {"summary": {"added", "removed", "changed", "agentsAffected"}, "agents": [{"agent",
                           "added": [{"task", "addresses"}], "removed": [...], "changed": [{"task", "addresses",
                           "parts": [{"part", "old", "new"}]}]}], "old", "new", "newFailures", "newDiagnostics"}
  --format markdown        for a GitHub job summary or pull-request comment (under 60,000 characters)
  --report-only            exit 0 even when the change removes tasks or adds errors
  --no-diagnostics         do not run the checks on either version (no diagnostic counts)
  --jq PATH                jq binary (default: JQ_PATH, node-jq's binary, then jq on PATH)
  --jq-memory-mb N         memory limit of each jq run (default 256; 0: none)
  --allow-remote-includes  fetch http(s) URLs listed in \`includes\`
  --timeout SECONDS        for URL inputs, git and remote includes (default 10)
Includes of both versions are read from the current directory (for REV:PATH too: from the working tree).
Exit status: 0 nothing lost; 1 tasks removed, new failures or new errors (0 with --report-only); 2 unreadable input.
`;

interface Args extends JqArgs {
  inputs: string[];
  agents: string[];
  format: 'text' | 'json' | 'markdown';
  reportOnly: boolean;
  diagnostics: boolean;
  limits: InputLimits;
}

const OPTIONS: CommandOptions<Args> = {
  options: {
    '--agent': listOption((a) => a.agents, '--agent needs an address'),
    '--format': formatOption(['text', 'json', 'markdown'], (a, f) => (a.format = f)),
    '--report-only': flag((a) => (a.reportOnly = true)),
    '--no-diagnostics': flag((a) => (a.diagnostics = false)),
    '--jq-memory-mb': jqMemoryOption(),
    ...expandingOptions(),
  },
  positional: everyPositional(),
  done: (a) => {
    if (a.inputs.length !== 2)
      return `diff needs OLD and NEW (got ${a.inputs.length} ${noun(a.inputs.length, 'input')})`;
    if (a.inputs[0] === '-' && a.inputs[1] === '-') return 'only one of OLD and NEW can be standard input';
  },
};

/** One version: its text, and the URI and include policy the engine is given. */
async function readSide(arg: string, args: Args): Promise<CompareSide> {
  const includes = async (path: string | undefined) =>
    policyFor(commandLineScope(path, args.allowRemote), {
      limits: { ...DEFAULT_INCLUDE_LIMITS, timeoutMs: args.limits.timeoutMs },
    });
  if (isGitRevisionPath(arg)) {
    const text = await readGitRevision(arg, args.limits);
    return { text, source: arg, uri: `git:${arg}`, includes: await includes(undefined) };
  }
  const input = await readInput(arg, args.limits);
  const uri = input.url ?? (input.path ? pathToFileURL(resolve(input.path)).toString() : 'stdin:');
  return { text: input.text, source: arg, uri, includes: await includes(input.path) };
}

export async function runDiffCommand(argv: string[]): Promise<number> {
  const initial: Args = {
    inputs: [],
    agents: [],
    format: 'text',
    reportOnly: false,
    diagnostics: true,
    allowRemote: false,
    limits: { ...DEFAULT_INPUT_LIMITS },
  };
  const args = commandArgs('diff', USAGE, argv, initial, OPTIONS);
  if (typeof args === 'number') return args;
  const sides: CompareSide[] = [];
  for (const arg of args.inputs) {
    try {
      sides.push(await readSide(arg, args));
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      process.stderr.write(`psconfig-tools diff: cannot read ${arg}: ${e.message}\n`);
      return 2;
    }
  }
  const d = await compareTemplates(sides[0], sides[1], {
    agentAddresses: args.agents,
    jq: { path: args.jq, memoryLimitMb: args.jqMemoryMb },
    diagnostics: args.diagnostics,
  });
  if (args.format === 'json') process.stdout.write(`${JSON.stringify(d, null, 2)}\n`);
  else if (args.format === 'markdown') process.stdout.write(renderMarkdown(d));
  else process.stdout.write(renderText(d));
  return changeLosesSomething(d) && !args.reportOnly ? 1 : 0;
}
