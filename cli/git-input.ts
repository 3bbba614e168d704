// `REV:PATH` inputs of `psconfig-tools diff`: a template as it is in a git revision, read with `git show`, as git
// names it (PATH from the repository's top, `REV:./PATH` from the current directory). git is run directly (no
// shell, so no word of REV or PATH is ever interpreted), with `--end-of-options` so a REV starting with `-` cannot
// become an option, refused anyway, and bounded: 10 s and 64 MB by default, as the other inputs are.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { formatBytes } from '../server/src/template/includes/read-local';
import { InputError, isUrl, type InputLimits } from './inputs';

/** `REV:PATH`, told apart from a file (an existing path wins), a URL and a Windows drive (`C:\…`). */
export function isGitRevisionPath(arg: string): boolean {
  if (arg === '-' || isUrl(arg) || /^[A-Za-z]:[\\/]/.test(arg) || existsSync(arg)) return false;
  const colon = arg.indexOf(':');
  return colon > 0 && colon < arg.length - 1;
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** git with these arguments in `cwd`: stdout up to `limits.maxBytes`, killed after `limits.timeoutMs`. */
function runGit(args: string[], cwd: string, limits: InputLimits): Promise<Run> {
  return new Promise((resolve, reject) => {
    // Never a pager, never a credential prompt; LC_ALL=C keeps git's messages in one language for ours.
    const child = spawn('git', ['--no-pager', ...args], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' },
    });
    const out: Buffer[] = [];
    let size = 0;
    let err = '';
    let failure: InputError | undefined;
    const stop = (e: InputError): void => {
      failure ??= e;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(
      () => stop(new InputError(`git took longer than ${limits.timeoutMs / 1000} s`)),
      limits.timeoutMs,
    );
    child.stdout.on('data', (b: Buffer) => {
      size += b.length;
      if (size > limits.maxBytes) stop(new InputError(`larger than ${formatBytes(limits.maxBytes)}`));
      else out.push(b);
    });
    child.stderr.on('data', (b: Buffer) => {
      if (err.length < 4096) err += b.toString();
    });
    child.on('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(new InputError(e.code === 'ENOENT' ? 'git is not installed (it reads REV:PATH inputs)' : e.message));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (failure) reject(failure);
      else resolve({ code, stdout: Buffer.concat(out, size).toString('utf8'), stderr: err.trim() });
    });
  });
}

/** The text of `REV:PATH`; an InputError says why not (git's own message when git refuses). */
export async function readGitRevision(spec: string, limits: InputLimits, cwd = process.cwd()): Promise<string> {
  const rev = spec.slice(0, spec.indexOf(':'));
  if (rev.startsWith('-')) throw new InputError(`a revision cannot start with "-" (${rev})`);
  const type = await runGit(['cat-file', '-t', '--end-of-options', spec], cwd, limits);
  if (type.code !== 0) throw new InputError(type.stderr.split('\n')[0] || `git cat-file exited with ${type.code}`);
  if (type.stdout.trim() !== 'blob') throw new InputError(`${spec} is a ${type.stdout.trim()} in git, not a file`);
  const show = await runGit(['show', '--no-textconv', '--end-of-options', spec], cwd, limits);
  if (show.code !== 0) throw new InputError(show.stderr.split('\n')[0] || `git show exited with ${show.code}`);
  return show.stdout;
}
