// Finds the jq binary: explicit setting > JQ_PATH > node-jq's bundled bin/jq > `jq` on PATH.
// We check the file before any spawn: a missing binary must become a clear message, never a crash.
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export interface JqBinary {
  path: string;
  /** Where the path came from, for messages ("setting psconfig.jq.path", "JQ_PATH", ...). */
  source: string;
}

export type JqResolution = { ok: true; binary: JqBinary } | { ok: false; error: string };

export const JQ_INSTALL_HINT =
  'Install jq (Debian/Ubuntu: `apt-get install jq`, RHEL/Alma: `dnf install jq`, macOS: `brew install jq`) ' +
  'or set the setting `psconfig.jq.path` (or the JQ_PATH environment variable) to the jq executable.';

function isExecutableFile(p: string): boolean {
  try {
    if (!statSync(p).isFile()) return false;
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function nodeJqBundledBinary(): string | undefined {
  try {
    // node-jq keeps its downloaded binary in <package>/bin/jq; absent when its postinstall was skipped.
    const pkg = require.resolve('node-jq/package.json');
    return join(pkg, '..', 'bin', process.platform === 'win32' ? 'jq.exe' : 'jq');
  } catch {
    return undefined;
  }
}

function onPath(name: string, pathEnv: string | undefined): string | undefined {
  if (!pathEnv) return undefined;
  const names = process.platform === 'win32' ? [`${name}.exe`, name] : [name];
  for (const dir of pathEnv.split(delimiter)) {
    if (!dir) continue;
    for (const n of names) {
      const candidate = join(dir, n);
      if (isExecutableFile(candidate)) return candidate;
    }
  }
  return undefined;
}

/** A command name without any directory part (`jq`, `jq.exe`), looked up on PATH like a shell does. */
function isBareName(p: string): boolean {
  return !/[\\/]/.test(p);
}

/**
 * Resolve the jq binary. An explicit path or JQ_PATH that does not point at an executable is an error
 * (the user asked for that binary), not a reason to silently fall back to another jq.
 */
export function resolveJqBinary(explicitPath?: string, env: NodeJS.ProcessEnv = process.env): JqResolution {
  const explicit = explicitPath?.trim();
  if (explicit && isBareName(explicit)) {
    // `"jq.path": "jq"` (what Neovim and Emacs users write) means the jq on PATH, as a shell would read it.
    const found = onPath(explicit, env.PATH);
    return found
      ? { ok: true, binary: { path: found, source: `setting psconfig.jq.path (${explicit} on PATH)` } }
      : {
          ok: false,
          error: `jq not found: the setting psconfig.jq.path is ${explicit}, which is not on PATH. ${JQ_INSTALL_HINT}`,
        };
  }
  if (explicit) {
    return isExecutableFile(explicit)
      ? { ok: true, binary: { path: explicit, source: 'setting psconfig.jq.path' } }
      : {
          ok: false,
          error: `jq not found: the setting psconfig.jq.path points at ${explicit}, which is not an executable file. ${JQ_INSTALL_HINT}`,
        };
  }
  const fromEnv = env.JQ_PATH?.trim();
  if (fromEnv) {
    return isExecutableFile(fromEnv)
      ? { ok: true, binary: { path: fromEnv, source: 'JQ_PATH' } }
      : {
          ok: false,
          error: `jq not found: JQ_PATH is ${fromEnv}, which is not an executable file. ${JQ_INSTALL_HINT}`,
        };
  }
  const bundled = nodeJqBundledBinary();
  if (bundled && isExecutableFile(bundled))
    return { ok: true, binary: { path: bundled, source: "node-jq's bundled jq" } };
  const found = onPath('jq', env.PATH);
  if (found) return { ok: true, binary: { path: found, source: 'PATH' } };
  return {
    ok: false,
    error: `jq not found (looked at psconfig.jq.path, JQ_PATH, node-jq's bundled binary and PATH). ${JQ_INSTALL_HINT}`,
  };
}
