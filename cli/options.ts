// The option scanner every psconfig-tools command reads its arguments with, and parsers of the options several
// commands share (--timeout, --jq, --jq-memory-mb, --allow-remote-includes, --format, lists such as --agent, one
// TEMPLATE). Each command declares its options in a table; the scanner splits `--name=value`, takes the next
// argument as the value of `--name value`, refuses a value given to a flag (`--runs=no`: `--runs takes no value`)
// and what is not in the table (`unknown option ARG`), and stops at the first problem, whose text the command prints
// before its usage (exit 2). One rule in every command (commandArgs, and archive's own start): -h or --help anywhere
// prints the usage and exits 0, whatever else the arguments hold (docs/cli.md, "Options").
//
// Why not node:util parseArgs: it throws its own messages ("Unknown option '--x'. To specify a positional argument
// starting with a '-', …", "Option '--agent <value>' argument missing"), refuses a value that starts with `-`
// (`--agent --x`) and reads `--` as the end of the options; our commands print their own messages, accept that
// spelling and report `--` as an unknown option, and their tests check that.
// Matching all of it on top of parseArgs' tokens would be more code than this scanner.

import type { InputLimits } from './inputs';

/** An option that takes no value; an inline value (`--runs=x`) is refused: `--runs takes no value`. */
export interface FlagOption<A> {
  flag: (a: A, name: string) => string | void;
}

/**
 * An option with a value: `--name=value`, or the next argument, whatever it is (`--agent --format` gives --agent
 * the value `--format`); undefined when there is none. `name` is the spelling used (`-o` or `--output`).
 */
export interface ValueOption<A> {
  value: (a: A, value: string | undefined, name: string) => string | void;
}

export type OptionSpec<A> = FlagOption<A> | ValueOption<A>;

export interface CommandOptions<A> {
  /** By spelling, dashes included (`--agent`, `-q`). */
  options: Record<string, OptionSpec<A>>;
  /** An argument that is not an option: `-` (standard input) and anything not starting with `-`. */
  positional: (a: A, arg: string) => string | void;
  /** What is checked once every argument is read (a missing TEMPLATE, options that go together). */
  done?: (a: A) => string | void;
}

/** A problem with the arguments: the text a command prints before its usage. */
export type Problem = string;

/** Reads `argv` into `a` as `spec` says: `a`, or the first problem. */
export function scanOptions<A extends object>(argv: readonly string[], a: A, spec: CommandOptions<A>): A | Problem {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const value = (): string | undefined => (eq > 0 ? arg.slice(eq + 1) : argv[++i]);
    // Own properties only: a file named `toString` is a file, not an option.
    const option = Object.hasOwn(spec.options, name) ? spec.options[name] : undefined;
    let problem: string | void;
    if (option && 'flag' in option) problem = eq > 0 ? `${name} takes no value (got ${arg})` : option.flag(a, name);
    else if (option) problem = option.value(a, value(), name);
    else if (arg.startsWith('-') && arg !== '-') problem = `unknown option ${arg}`;
    else problem = spec.positional(a, arg);
    if (typeof problem === 'string') return problem;
  }
  const problem = spec.done?.(a);
  return typeof problem === 'string' ? problem : a;
}

/** -h or --help anywhere, even where an option's value would stand: help wins over every other argument. */
export function wantsHelp(argv: readonly string[]): boolean {
  return argv.includes('-h') || argv.includes('--help');
}

/**
 * The start every command shares: -h or --help anywhere prints the usage (exit 0); otherwise `argv` is read into
 * `initial` as `spec` says, and a problem is printed as `psconfig-tools COMMAND: PROBLEM`, then the usage (exit 2).
 * The arguments, or that exit status.
 */
export function commandArgs<A extends object>(
  command: string,
  usage: string,
  argv: readonly string[],
  initial: A,
  spec: CommandOptions<A>,
): A | number {
  if (wantsHelp(argv)) {
    process.stdout.write(usage);
    return 0;
  }
  const args = scanOptions(argv, initial, spec);
  if (typeof args === 'string') {
    process.stderr.write(`psconfig-tools ${command}: ${args}\n\n${usage}`);
    return 2;
  }
  return args;
}

// ---- Options several commands share ----

export const flag = <A>(set: (a: A) => void): FlagOption<A> => ({
  flag: (a) => {
    set(a);
  },
});

/** A repeatable option (--agent, --host, --task): each value added; an empty or missing one is refused. */
export const listOption = <A>(list: (a: A) => string[], missing: Problem): ValueOption<A> => ({
  value: (a, v) => {
    if (!v) return missing;
    list(a).push(v);
  },
});

/** Words as `a, b or c`. */
function oneOf(choices: readonly string[]): string {
  return choices.length < 2 ? choices.join('') : `${choices.slice(0, -1).join(', ')} or ${choices.at(-1)}`;
}

/**
 * `--format` among `choices`: `--format must be text, json or markdown, not xml` (`(nothing)` when it has no
 * value; `shown` changes how the value is shown).
 */
export function formatOption<A, F extends string>(
  choices: readonly F[],
  set: (a: A, format: F) => void,
  shown: (v: string | undefined) => string = (v) => v ?? '(nothing)',
): ValueOption<A> {
  return {
    value: (a, v) => {
      if (!(choices as readonly (string | undefined)[]).includes(v))
        return `--format must be ${oneOf(choices)}, not ${shown(v)}`;
      set(a, v as F);
    },
  };
}

/** `--timeout SECONDS` (any positive number) as milliseconds. */
export const timeoutOption = <A>(set: (a: A, ms: number) => void): ValueOption<A> => ({
  value: (a, v) => {
    const seconds = Number(v);
    if (!(seconds > 0)) return '--timeout needs a number of seconds';
    set(a, seconds * 1000);
  },
});

/** `--timeout SECONDS` of the inputs a command reads (files, URLs, git) and of their remote includes. */
export const inputTimeoutOption = <A extends { limits: InputLimits }>(): ValueOption<A> =>
  timeoutOption((a, ms) => (a.limits.timeoutMs = ms));

/** The options of the commands that run jq and read includes. */
export interface JqArgs {
  jq?: string;
  jqMemoryMb?: number;
  allowRemote: boolean;
}

/** `--jq PATH`: the jq binary. */
export const jqOption = <A extends JqArgs>(): ValueOption<A> => ({
  value: (a, v) => {
    if (!v) return '--jq needs a path';
    a.jq = v;
  },
});

/** `--jq-memory-mb N`: the memory limit of each jq run (0: none; an empty value reads as 0, as it always did). */
export const jqMemoryOption = <A extends JqArgs>(): ValueOption<A> => ({
  value: (a, v) => {
    const mb = Number(v);
    if (!Number.isFinite(mb) || mb < 0) return '--jq-memory-mb needs a number of megabytes (0: no limit)';
    a.jqMemoryMb = mb;
  },
});

/** `--allow-remote-includes`: fetch http(s) includes. */
export const allowRemoteOption = <A extends { allowRemote: boolean }>(): FlagOption<A> =>
  flag((a) => (a.allowRemote = true));

/** The options of the commands that expand a template they read: --jq, --allow-remote-includes, --timeout. */
export const expandingOptions = <A extends JqArgs & { limits: InputLimits }>(): Record<string, OptionSpec<A>> => ({
  '--jq': jqOption(),
  '--allow-remote-includes': allowRemoteOption(),
  '--timeout': inputTimeoutOption(),
});

/**
 * `--ip-allowed-host HOST` (repeatable, commas allowed): an archive host that lets the testers post to /logstash
 * by their address (`Require ip` in its apache-logstash.conf), so its http archives need no `Authorization` header
 * (validate, fix; the editor's `psconfig.archives.ipAllowedHosts`).
 */
export const ipAllowedHostOption = <A extends { ipAllowedHosts: string[] }>(): ValueOption<A> => ({
  value: (a, v) => {
    const hosts = (v ?? '')
      .split(',')
      .map((h) => h.trim())
      .filter(Boolean);
    if (hosts.length === 0) return '--ip-allowed-host needs a host name or address';
    const bad = hosts.find((h) => /[\s/@?#{}]/.test(h));
    if (bad !== undefined) return `--ip-allowed-host: \`${bad}\` is not a host name or address`;
    a.ipAllowedHosts.push(...hosts);
  },
});

/** Every argument that is not an option, in `inputs` (validate's INPUT..., diff's OLD NEW). */
export const everyPositional =
  <A extends { inputs: string[] }>() =>
  (a: A, arg: string): void => {
    a.inputs.push(arg);
  };

/** The one TEMPLATE (or INPUT) of a command, in `file`; a second is refused with `tooMany(first, second)`. */
export const onePositional =
  <A extends { file?: string }>(tooMany: (first: string, second: string) => Problem) =>
  (a: A, arg: string): Problem | void => {
    if (a.file !== undefined) return tooMany(a.file, arg);
    a.file = arg;
  };
