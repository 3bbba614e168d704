// The include policy in a form that crosses to the language server's worker thread (plain data), and the
// policies the command line and the editor use.
import { realpath } from 'node:fs/promises';
import { RemoteIncludeCache } from './fetch-remote';
import {
  DEFAULT_INCLUDE_LIMITS,
  realDirs,
  type IncludeLimits,
  type IncludePolicy,
  type RemotePermission,
} from './loader';

export interface IncludeScope {
  workingDir?: string;
  workingDirLabel?: string;
  /** The template's path on disk (not yet resolved to its real path). */
  templatePath?: string;
  /** Editor: folders includes must lie in (not yet real paths). Undefined: anywhere. */
  allowedDirs?: string[];
  allowedDirsSetting?: string;
  remote: RemotePermission;
  /** [path, text] of files open in the editor. */
  overlays?: [string, string][];
}

/** One cache per process (or worker): validation and expansion of every template share it. */
export const sharedRemoteCache = new RemoteIncludeCache();

export async function policyFor(
  scope: IncludeScope,
  options: { cache?: RemoteIncludeCache; limits?: IncludeLimits; fetchText?: (url: string) => Promise<string> } = {},
): Promise<IncludePolicy> {
  let templatePath = scope.templatePath;
  if (templatePath !== undefined) templatePath = await realpath(templatePath).catch(() => templatePath);
  return {
    workingDir: scope.workingDir,
    workingDirLabel: scope.workingDirLabel,
    templatePath,
    allowedDirs: scope.allowedDirs ? await realDirs(scope.allowedDirs) : undefined,
    allowedDirsSetting: scope.allowedDirsSetting,
    remote: scope.remote,
    limits: options.limits ?? DEFAULT_INCLUDE_LIMITS,
    overlays: scope.overlays ? new Map(scope.overlays) : undefined,
    cache: options.cache ?? sharedRemoteCache,
    fetchText: options.fetchText,
  };
}

/**
 * The command line: relative paths from the current directory (what `psconfig validate` run in the same shell
 * reads), no folder boundary (the user named the file), remote includes only with --allow-remote-includes.
 */
export function commandLineScope(templatePath: string | undefined, allowRemote: boolean): IncludeScope {
  return {
    workingDir: process.cwd(),
    workingDirLabel: 'the current directory',
    templatePath,
    remote: allowRemote ? 'allowed' : 'no-consent',
  };
}
