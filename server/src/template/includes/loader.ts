// Where an `includes` entry points and reading it, the way pSConfig does, within the bounds we set.
//
// pSConfig (5.x psconfig/client/psconfig/base_connect.py get_config/_config_from_file; 4.x perl-shared
// libperfsonar/lib/perfSONAR_PS/Client/PSConfig/BaseConnect.pm, same logic): an entry whose URL scheme is
// http/https is fetched; one with no scheme or `file` is a file path after a leading `file://` is cut off, and
// is opened as it stands, so a relative path is relative to the working directory of the program that reads the
// template (`psconfig validate`: the shell's current directory; the agent, run by systemd without a
// WorkingDirectory: `/`), never to the template's own folder. Any other scheme is refused. The included file's own
// `includes` are never expanded (one level only).
import { isAbsolute, resolve, sep } from 'node:path';
import { fetchBounded, RemoteIncludeCache } from './fetch-remote';
import { formatBytes, IncludeReadError, readRegularFile, realPathOf, refusePseudoFiles } from './read-local';

export interface IncludeLimits {
  /** Bytes per include (file or HTTP body). */
  maxBytes: number;
  /** Whole exchange per remote include, headers and body. */
  timeoutMs: number;
  /** Includes read per template; the rest are not read. */
  maxIncludes: number;
}

/** 10 s is `psconfig validate --timeout`'s default; 8 MB is four times the largest template the editor analyses. */
export const DEFAULT_INCLUDE_LIMITS: IncludeLimits = { maxBytes: 8 * 1024 * 1024, timeoutMs: 10_000, maxIncludes: 64 };

/** Why remote includes are or are not fetched. */
export type RemotePermission = 'allowed' | 'no-consent' | 'untrusted';

export interface IncludePolicy {
  /** Relative paths are opened from here (pSConfig: its working directory). Undefined: relative paths are not read. */
  workingDir?: string;
  /** How messages name `workingDir` ("the current directory", "the workspace folder …"). */
  workingDirLabel?: string;
  /** Real path of the template itself, to recognise a template that includes itself. */
  templatePath?: string;
  /** Editor only: real directories includes must lie in. Undefined: anywhere (the command line). */
  allowedDirs?: string[];
  /** Names the setting that widens `allowedDirs`, for the message. */
  allowedDirsSetting?: string;
  remote: RemotePermission;
  limits: IncludeLimits;
  /** Text of files open in the editor (by path), used instead of the disk. */
  overlays?: ReadonlyMap<string, string>;
  /** Remote answers per URL (shared between validation and expansion). */
  cache?: RemoteIncludeCache;
  /** Replaces the HTTP fetch (tests). */
  fetchText?: (url: string) => Promise<string>;
}

export type IncludeKind = 'local' | 'remote';

interface OutcomeBase {
  ref: string;
  kind: IncludeKind;
  /** The resolved path or URL, when known. */
  target?: string;
  /** A relative file path (resolved against the working directory). */
  relative: boolean;
}
export type IncludeOutcome =
  | (OutcomeBase & { status: 'read'; text: string })
  /** The entry names the template itself: nothing to merge. */
  | (OutcomeBase & { status: 'self' })
  /** Reading failed: pSConfig fails too (`Error including …`). */
  | (OutcomeBase & { status: 'failed'; error: string })
  /** Not read by our choice (consent, trust, folder boundary, count limit): pSConfig might read it. */
  | (OutcomeBase & { status: 'skipped'; reason: string });

export const REMOTE_CONSENT_HINT =
  'remote includes are fetched only with consent (the setting psconfig.includes.allowRemote, or --allow-remote-includes on the command line)';
export const REMOTE_UNTRUSTED_HINT =
  'remote includes are never fetched in a restricted (untrusted) workspace; trust the workspace to fetch it';

/** pSConfig's reading of an entry: `http(s)` → remote, no scheme or `file` → a path, anything else refused. */
export function classifyInclude(ref: string): { kind: IncludeKind; path?: string } | { error: string } {
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(ref)?.[1]?.toLowerCase();
  if (scheme === 'http' || scheme === 'https') return { kind: 'remote' };
  if (scheme === undefined || scheme === 'file') return { kind: 'local', path: ref.replace(/^file:\/\//, '') };
  return { error: `unrecognized URL type (${ref}): pSConfig reads only http://, https://, file:// or a file path` };
}

function inside(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

/** Reads every entry in order (at most `limits.maxIncludes`); never throws. */
export async function loadIncludes(refs: string[], policy: IncludePolicy): Promise<IncludeOutcome[]> {
  const out: IncludeOutcome[] = [];
  let read = 0;
  for (const ref of refs) {
    if (read >= policy.limits.maxIncludes) {
      const c = classifyInclude(ref);
      out.push({
        ref,
        kind: 'kind' in c ? c.kind : 'local',
        relative: false,
        status: 'skipped',
        reason: `more than ${policy.limits.maxIncludes} includes: the rest are not read`,
      });
      continue;
    }
    const o = await loadInclude(ref, policy);
    if (o.status === 'read' || o.status === 'failed') read++;
    out.push(o);
  }
  return out;
}

export async function loadInclude(ref: string, policy: IncludePolicy): Promise<IncludeOutcome> {
  const c = classifyInclude(ref);
  if ('error' in c) return { ref, kind: 'local', relative: false, status: 'failed', error: c.error };
  if (c.kind === 'remote') return loadRemote(ref, policy);
  return loadLocal(ref, c.path as string, policy);
}

async function loadRemote(ref: string, policy: IncludePolicy): Promise<IncludeOutcome> {
  const base = { ref, kind: 'remote' as const, target: ref, relative: false };
  if (policy.remote === 'untrusted') return { ...base, status: 'skipped', reason: REMOTE_UNTRUSTED_HINT };
  if (policy.remote === 'no-consent') return { ...base, status: 'skipped', reason: REMOTE_CONSENT_HINT };
  const limits = { timeoutMs: policy.limits.timeoutMs, maxBytes: policy.limits.maxBytes };
  try {
    const text = policy.cache
      ? await policy.cache.get(ref, limits, policy.fetchText)
      : await (policy.fetchText ?? ((u: string) => fetchBounded(u, limits)))(ref);
    return { ...base, status: 'read', text };
  } catch (e) {
    return { ...base, status: 'failed', error: (e as Error).message };
  }
}

async function loadLocal(ref: string, path: string, policy: IncludePolicy): Promise<IncludeOutcome> {
  const relative = !isAbsolute(path);
  const base = { ref, kind: 'local' as const, relative };
  if (relative && !policy.workingDir)
    return {
      ...base,
      status: 'skipped',
      reason:
        'a relative path is opened from the working directory of the program reading the template, and this template has no folder on disk',
    };
  const target = relative ? resolve(policy.workingDir as string, path) : resolve(path);
  const withTarget = { ...base, target };
  const overlay = policy.overlays?.get(target);
  let real = target;
  try {
    real = await realPathOf(target);
  } catch (e) {
    if (overlay === undefined) return { ...withTarget, status: 'failed', error: (e as Error).message };
  }
  if (policy.templatePath !== undefined && real === policy.templatePath) return { ...withTarget, status: 'self' };
  if (policy.allowedDirs && !policy.allowedDirs.some((d) => inside(real, d)))
    return {
      ...withTarget,
      status: 'skipped',
      reason: `${real} is outside the workspace folders and the template's folder, so the editor does not read it${
        policy.allowedDirsSetting ? ` (list more folders in ${policy.allowedDirsSetting})` : ''
      }`,
    };
  try {
    refusePseudoFiles(real);
    const text = overlay ?? policy.overlays?.get(real) ?? (await readRegularFile(real, policy.limits.maxBytes));
    if (text.length > policy.limits.maxBytes)
      return {
        ...withTarget,
        status: 'failed',
        error: `${real} is larger than the include limit of ${formatBytes(policy.limits.maxBytes)}`,
      };
    return { ...withTarget, status: 'read', text };
  } catch (e) {
    if (e instanceof IncludeReadError) return { ...withTarget, status: 'failed', error: e.message };
    return { ...withTarget, status: 'failed', error: `cannot read ${real}: ${(e as Error).message}` };
  }
}

/** An entry that points at the template itself (by its path as given; symlinks are not followed here). */
export function namesTemplate(ref: string, policy: IncludePolicy): boolean {
  const c = classifyInclude(ref);
  if (!('kind' in c) || c.kind !== 'local' || policy.templatePath === undefined) return false;
  const path = c.path as string;
  if (!isAbsolute(path) && !policy.workingDir) return false;
  return resolve(policy.workingDir ?? '/', path) === policy.templatePath;
}

/** Real paths of `dirs` that exist (for IncludePolicy.allowedDirs). */
export async function realDirs(dirs: Iterable<string>): Promise<string[]> {
  const out: string[] = [];
  for (const d of dirs) {
    try {
      const r = await realPathOf(d);
      if (!out.includes(r)) out.push(r);
    } catch {
      // A folder that does not exist allows nothing.
    }
  }
  return out;
}
