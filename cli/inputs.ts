// What the commands read templates from: a file, `-` (standard input) or an http(s) URL, each bounded in size and
// (URLs) in time. A named file may be a pipe (`<(curl …)`): the user chose it, so only its size is limited here;
// the includes inside templates get the stricter treatment of includes/read-local.ts.
import { promises as fs } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { fetchBounded } from '../server/src/template/includes/fetch-remote';
import { DEFAULT_INCLUDE_LIMITS, type IncludePolicy } from '../server/src/template/includes/loader';
import { formatBytes } from '../server/src/template/includes/read-local';
import { commandLineScope, policyFor } from '../server/src/template/includes/scope';

export interface TemplateInput {
  /** As the user wrote it (file path, `-` or URL): used in messages and output. */
  name: string;
  text: string;
  /** Set for files. */
  path?: string;
  /** Set for URLs. */
  url?: string;
}

export interface InputLimits {
  timeoutMs: number;
  maxBytes: number;
}

/** 10 s as `psconfig validate --timeout`; 64 MB, far above any real template. */
export const DEFAULT_INPUT_LIMITS: InputLimits = { timeoutMs: 10_000, maxBytes: 64 * 1024 * 1024 };

export class InputError extends Error {}

/**
 * A command's template read as `readInput` reads it, with what expanding it needs: its URI and the includes policy
 * of the command line (remote includes only when allowed, within the command's timeout). Undefined when it cannot be
 * read: the reason is on stderr, as `psconfig-tools COMMAND: cannot read FILE: ...` (the command exits 2).
 */
export async function readTemplateArg(
  command: string,
  arg: string,
  limits: InputLimits,
  allowRemoteIncludes: boolean,
): Promise<{ input: TemplateInput; uri: string; includes: IncludePolicy } | undefined> {
  let input: TemplateInput;
  try {
    input = await readInput(arg, limits);
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    process.stderr.write(`psconfig-tools ${command}: cannot read ${arg}: ${e.message}\n`);
    return undefined;
  }
  const uri = input.url ?? (input.path ? pathToFileURL(resolve(input.path)).toString() : 'stdin:');
  const includes = await policyFor(commandLineScope(input.path, allowRemoteIncludes), {
    limits: { ...DEFAULT_INCLUDE_LIMITS, timeoutMs: limits.timeoutMs },
  });
  return { input, uri, includes };
}

export function isUrl(arg: string): boolean {
  return /^https?:\/\//i.test(arg);
}

export async function readInput(arg: string, limits: InputLimits = DEFAULT_INPUT_LIMITS): Promise<TemplateInput> {
  if (arg === '-') return { name: '-', text: await readStream(process.stdin, limits.maxBytes, 'standard input') };
  if (isUrl(arg)) {
    try {
      return { name: arg, url: arg, text: await fetchBounded(arg, limits) };
    } catch (e) {
      throw new InputError((e as Error).message);
    }
  }
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(arg, 'r');
  } catch (e) {
    throw new InputError((e as NodeJS.ErrnoException).code ?? (e as Error).message);
  }
  try {
    const st = await handle.stat();
    if (st.isDirectory()) throw new InputError('is a directory');
    if (st.isFile() && st.size > limits.maxBytes) throw new InputError(`larger than ${formatBytes(limits.maxBytes)}`);
    return { name: arg, path: arg, text: await readStream(handle.createReadStream(), limits.maxBytes, arg) };
  } finally {
    await handle.close().catch(() => undefined);
  }
}

async function readStream(stream: NodeJS.ReadableStream, maxBytes: number, what: string): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    total += b.length;
    if (total > maxBytes) {
      (stream as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
      throw new InputError(`${what} is larger than ${formatBytes(maxBytes)}`);
    }
    chunks.push(b);
  }
  return Buffer.concat(chunks, total).toString('utf8');
}

/**
 * The one rule for an expansion that yields nothing: a template pSConfig's agent rejects was read, and creates no
 * task (a finding, exit 1); one that cannot be expanded at all is an input error (exit 2). Says why on stderr;
 * undefined when there is an expansion to go on with.
 */
export function unexpandedExit(file: string, expansion: { error?: string; rejected?: boolean }): number | undefined {
  if (expansion.error === undefined) return undefined;
  process.stderr.write(`${file}: ${expansion.error}\n`);
  return expansion.rejected ? 1 : 2;
}
