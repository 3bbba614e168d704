// `psconfig-tools fix TEMPLATE [--write] [--only CODE]... [--archive-host HOST] [--ip-allowed-host HOST]...`: the language server's perfSONAR 5
// quick fixes (server/src/template/fixes/) applied to a whole template. Prints a unified diff, or with --write
// replaces the file (atomically, keeping its mode; only when its bytes are still those read and decode as UTF-8,
// so nothing is lost). What each fix did or could not do goes to stderr, then what the operator must still do so the
// archives deliver (credentials or IP rules on an archive host; archives left on localhost, and why).
// Exit 0: nothing of the selected codes is left unfixed; 1: some diagnostic of them has no fix (listed with why);
// 2: the input cannot be read or parsed, or bad usage.
import { promises as fs } from 'node:fs';
import { isIP } from 'node:net';
import { basename, dirname, join } from 'node:path';
import { fixText, type FixReport, type TodoReport } from '../server/src/template/fixes/fix-text';
import { FIXABLE_CODES, type FixableCode, type LocalhostChoice } from '../server/src/template/fixes/fixes';
import { isLoopbackHost } from '../server/src/template/legacy-variables';
import { DEFAULT_INPUT_LIMITS, InputError, readInput } from './inputs';
import { unifiedDiff } from './unified-diff';
import { commandArgs, flag, ipAllowedHostOption, onePositional, timeoutOption, type CommandOptions } from './options';
import { noun } from '../common/text';

const SHORT_CODES = FIXABLE_CODES.map((c) => c.slice('psconfig/'.length));

const USAGE = `usage: psconfig-tools fix TEMPLATE [--write] [--only CODE]... [--archive-host HOST] [--ip-allowed-host HOST]...

  TEMPLATE             a template file, - for standard input, or an http(s) URL (--write: a file only)
  --write              write the fixed template back to the file (default: print a unified diff)
  --only CODE          fix only this diagnostic code (repeatable; with or without psconfig/, commas allowed):
                       ${SHORT_CODES.join(', ')}
  --archive-host HOST  archive URLs on localhost in templates other hosts read go to HOST (the central archive)
                       instead of {% scheduled_by_address %} (each host that schedules a task archives its results)
  --ip-allowed-host HOST  this archive host lets the testers post to /logstash by their address (Require ip), so
                       its archives need no Authorization header (repeatable; commas allowed)
  --timeout SECONDS    for a URL TEMPLATE (default 10)
Each fix keeps comments (# keys), key order and the formatting of everything it does not change; running fix on
its output changes nothing. What each fix did, and what it could not fix and why, is printed on stderr (line
numbers of fixes made after others refer to the text as it was then), then what is still to do by hand so the
archives deliver (to do: an archive host's credentials or IP rule; archives left on localhost and why), with
line numbers in the fixed text. See docs/migration.md.
Exit 0: no diagnostic of the selected codes is left; 1: some could not be fixed; 2: unreadable input or bad usage.
`;

interface Args {
  file?: string;
  write: boolean;
  only?: Set<FixableCode>;
  localhost?: LocalhostChoice;
  ipAllowedHosts: string[];
  timeoutMs: number;
}

const OPTIONS: CommandOptions<Args> = {
  options: {
    '--write': flag((a) => (a.write = true)),
    '-w': flag((a) => (a.write = true)),
    '--only': {
      value: (a, v) => {
        if (!v) return '--only needs a diagnostic code';
        for (const item of v
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean)) {
          const code = `psconfig/${item.replace(/^psconfig\//, '')}`;
          if (!(FIXABLE_CODES as readonly string[]).includes(code))
            return `--only: \`${item}\` has no fix; fixable codes: ${SHORT_CODES.join(', ')}`;
          (a.only ??= new Set()).add(code as FixableCode);
        }
      },
    },
    '--archive-host': {
      value: (a, v) => {
        const problem = archiveHostProblem(v);
        if (problem) return `--archive-host: ${problem}`;
        a.localhost = { kind: 'host', host: v! };
      },
    },
    '--ip-allowed-host': ipAllowedHostOption(),
    '--timeout': timeoutOption((a, ms) => (a.timeoutMs = ms)),
  },
  positional: onePositional((first, second) => `one TEMPLATE at a time (got ${first} and ${second})`),
  done: (a) => {
    if (a.file === undefined) return 'no TEMPLATE given';
    if (a.write && (a.file === '-' || /^https?:\/\//i.test(a.file))) return '--write needs a file';
  },
};

const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const HOSTNAME = new RegExp(`^${LABEL}(?:\\.${LABEL})*\\.?$`);

/** A host name or IP address (IPv6 bare or in brackets), optionally with :port; not the machine itself. */
function archiveHostProblem(v: string | undefined): string | undefined {
  if (!v) return 'needs a host name or address';
  const bad = `\`${v}\` is not a host name or an IP address (with an optional :port)`;
  let host: string;
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(v);
  if (bracketed) {
    host = bracketed[1];
    if (isIP(host) !== 6) return bad;
  } else if (isIP(v) === 6) host = v;
  else {
    const m = /^([^:]+)(?::\d{1,5})?$/.exec(v);
    if (!m || !(isIP(m[1]) === 4 || HOSTNAME.test(m[1]))) return bad;
    host = m[1];
  }
  if (isLoopbackHost(host)) return `\`${v}\` is this machine again: name the archive host`;
  return undefined;
}

export async function runFixCommand(argv: string[]): Promise<number> {
  const initial: Args = { write: false, ipAllowedHosts: [], timeoutMs: DEFAULT_INPUT_LIMITS.timeoutMs };
  const args = commandArgs('fix', USAGE, argv, initial, OPTIONS);
  if (typeof args === 'number') return args;
  const name = args.file!;
  let text: string;
  try {
    text = (await readInput(name, { ...DEFAULT_INPUT_LIMITS, timeoutMs: args.timeoutMs })).text;
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    process.stderr.write(`psconfig-tools fix: ${name}: ${e.message}\n`);
    return 2;
  }
  const result = fixText(text, { only: args.only, localhost: args.localhost, ipAllowedHosts: args.ipAllowedHosts });
  if (result.syntaxError) {
    const s = result.syntaxError;
    process.stderr.write(
      `psconfig-tools fix: ${name}:${s.line}:${s.column}: ${s.message} (fix the syntax first; nothing changed)\n`,
    );
    return 2;
  }
  for (const f of result.applied) process.stderr.write(reportLine(name, f, 'fixed'));
  for (const f of result.unfixed) process.stderr.write(reportLine(name, f, 'not fixed'));
  for (const t of result.todo) process.stderr.write(todoLine(name, t));
  const changed = result.text !== text;
  if (args.write && changed) {
    const problem = await writeInPlace(name, text, result.text);
    if (problem) {
      process.stderr.write(`psconfig-tools fix: ${name}: ${problem}; nothing written\n`);
      return 2;
    }
  } else if (!args.write) process.stdout.write(unifiedDiff(text, result.text, name, name));
  process.stderr.write(
    `psconfig-tools fix: ${name}: ${summary(result.applied)}${args.write && changed ? ', written' : ''}${result.unfixed.length ? `; ${result.unfixed.length} not fixed` : ''}${result.todo.length ? `; ${result.todo.length} to do by hand` : ''}\n`,
  );
  return result.unfixed.length ? 1 : 0;
}

function reportLine(name: string, f: FixReport, what: string): string {
  const notes = f.notes.map((n) => `\n    ${n}`).join('');
  return `${name}:${f.line}:${f.column}: ${what} ${f.code}: ${f.what}${notes}\n`;
}

function todoLine(name: string, t: TodoReport): string {
  return `${name}:${t.line}:${t.column}: to do ${t.code}: ${t.what}\n`;
}

function summary(applied: FixReport[]): string {
  if (!applied.length) return 'nothing to fix';
  const counts = new Map<string, number>();
  for (const f of applied) counts.set(f.code, (counts.get(f.code) ?? 0) + 1);
  const parts = [...counts].map(([c, n]) => `${c.slice('psconfig/'.length)} ${n}`);
  return `${applied.length} ${noun(applied.length, 'fix', 'fixes')} (${parts.join(', ')})`;
}

/** Replaces the file's content with `after` if it still holds exactly `before` (as UTF-8): a temporary file beside
 *  the target, with its mode, renamed over it (a symbolic link is followed, not replaced). */
async function writeInPlace(path: string, before: string, after: string): Promise<string | undefined> {
  const target = await fs.realpath(path);
  const raw = await fs.readFile(target);
  if (!raw.equals(Buffer.from(before, 'utf8'))) return 'the file is not valid UTF-8, or it changed since it was read';
  const { mode } = await fs.stat(target);
  const tmp = join(dirname(target), `.${basename(target)}.psconfig-fix-${process.pid}`);
  try {
    await fs.writeFile(tmp, after, { encoding: 'utf8', mode: mode & 0o7777, flag: 'wx' });
    await fs.chmod(tmp, mode & 0o7777);
    await fs.rename(tmp, target);
  } catch (e) {
    await fs.rm(tmp, { force: true }).catch(() => undefined);
    return `cannot write: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`;
  }
  return undefined;
}
