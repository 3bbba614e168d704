// Reading an include file from disk without trusting what the path names: only regular files, never kernel
// pseudo-files, never more than a size limit. A FIFO must not hang the reader: open() of a FIFO for reading blocks
// until a writer appears, so the file is opened with O_NONBLOCK (which returns at once for a FIFO) and its type is
// checked on the open descriptor (fstat), which also closes the gap between a stat() and the open().
import { constants, promises as fs } from 'node:fs';
import { realpath } from 'node:fs/promises';

/** Kernel pseudo-file systems: their "regular" files report size 0 and hold process state (`/proc/self/environ`). */
const PSEUDO_ROOTS = ['/proc', '/sys', '/dev'];

export class IncludeReadError extends Error {}

function isUnder(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith('/') ? root : `${root}/`);
}

/** The real path (symlinks resolved), or the error pSConfig would show for a path that does not exist. */
export async function realPathOf(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new IncludeReadError(
      code === 'ENOENT' ? `no such file ${path}` : `cannot open ${path} (${code ?? (e as Error).message})`,
    );
  }
}

/** Refuses pseudo-file systems by real path (a symlink into /proc is refused too). */
export function refusePseudoFiles(real: string): void {
  for (const root of PSEUDO_ROOTS)
    if (isUnder(real, root))
      throw new IncludeReadError(`${real} is under ${root}, not a template file: includes read only regular files`);
}

/**
 * Text of the regular file at `path` (already resolved to a real path), at most `maxBytes` bytes as UTF-8.
 * Refuses FIFOs, sockets, devices and directories without blocking.
 */
export async function readRegularFile(path: string, maxBytes: number): Promise<string> {
  refusePseudoFiles(path);
  let handle: fs.FileHandle;
  try {
    // O_NOCTTY: a terminal device must not become our controlling terminal before fstat refuses it.
    handle = await fs.open(path, constants.O_RDONLY | constants.O_NONBLOCK | (constants.O_NOCTTY ?? 0));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new IncludeReadError(code === 'ENOENT' ? `no such file ${path}` : `cannot open ${path} (${code})`);
  }
  try {
    const st = await handle.stat();
    if (!st.isFile()) throw new IncludeReadError(`${path} is ${kindOf(st)}, not a regular file`);
    if (st.size > maxBytes) throw new IncludeReadError(tooLarge(path, maxBytes));
    // The size on disk may change (or lie, on odd file systems): read at most one byte past the limit.
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const want = Math.min(Math.max(st.size + 1, 64 * 1024), 1024 * 1024, maxBytes + 1 - total);
      const chunk = Buffer.allocUnsafe(want);
      const { bytesRead } = await handle.read(chunk, 0, want, null);
      if (bytesRead === 0) break;
      chunks.push(chunk.subarray(0, bytesRead));
      total += bytesRead;
      if (total > maxBytes) throw new IncludeReadError(tooLarge(path, maxBytes));
    }
    return Buffer.concat(chunks, total).toString('utf8');
  } finally {
    await handle.close();
  }
}

function tooLarge(path: string, maxBytes: number): string {
  return `${path} is larger than the include limit of ${formatBytes(maxBytes)}`;
}

export function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${(n / (1024 * 1024)).toFixed(n % (1024 * 1024) ? 1 : 0)} MB` : `${n} bytes`;
}

function kindOf(st: import('node:fs').Stats): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  return 'not a regular file';
}
