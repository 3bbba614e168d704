// Which files each open template includes, and the include scope of a template in this workspace: relative paths
// from the workspace folder holding it (where the integrated terminal, and so `psconfig validate`, starts) or its
// own folder; files only inside the workspace folders, the template's folder and `psconfig.includes.directories`;
// remote includes only with consent in a trusted workspace; open editors' text instead of the disk.
import { dirname, sep } from 'node:path';
import { URI } from 'vscode-uri';
import type { ServerSettings } from '../../../../common/protocol';
import type { IncludeScope } from '../../template/includes/scope';

export const INCLUDE_DIRECTORIES_SETTING = 'psconfig.includes.directories';

export function fsPathOf(uri: string): string | undefined {
  try {
    const u = URI.parse(uri);
    return u.scheme === 'file' ? u.fsPath : undefined;
  } catch {
    return undefined;
  }
}

function inside(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

export interface OpenText {
  uri: string;
  text: string;
}

export class IncludeTracker {
  /** Workspace folders (file system paths). */
  private folders: string[] = [];
  /** Per template uri: the local include paths of its last check. */
  private readonly deps = new Map<string, Set<string>>();

  /** Templates whose includes are known (open ones only). */
  entryCounts(): Record<string, number> {
    return { includeLists: this.deps.size };
  }

  setWorkspaceFolders(uris: string[]): void {
    this.folders = uris.map(fsPathOf).filter((p): p is string => p !== undefined);
  }

  addWorkspaceFolders(added: string[], removed: string[]): void {
    const gone = new Set(removed.map(fsPathOf));
    this.folders = this.folders.filter((f) => !gone.has(f));
    for (const p of added.map(fsPathOf)) if (p && !this.folders.includes(p)) this.folders.push(p);
  }

  scopeFor(uri: string, settings: ServerSettings, open: () => OpenText[]): IncludeScope {
    // A restricted workspace (workspaceTrusted: false) fetches nothing, whatever it asks for.
    const remote =
      settings.workspaceTrusted === false ? 'untrusted' : settings.includesAllowRemote ? 'allowed' : 'no-consent';
    const path = fsPathOf(uri);
    if (!path) return { remote, allowedDirs: [...this.folders, ...(settings.includesDirectories ?? [])] };
    const folder = this.folders.filter((f) => inside(path, f)).sort((a, b) => b.length - a.length)[0];
    const own = dirname(path);
    const wanted = this.deps.get(uri);
    const overlays: [string, string][] = [];
    if (wanted?.size)
      for (const d of open()) {
        const p = fsPathOf(d.uri);
        if (p && p !== path && wanted.has(p)) overlays.push([p, d.text]);
      }
    return {
      workingDir: folder ?? own,
      workingDirLabel: folder ? `the workspace folder ${folder}` : "the template's folder",
      templatePath: path,
      allowedDirs: [...this.folders, own, ...(settings.includesDirectories ?? [])],
      allowedDirsSetting: INCLUDE_DIRECTORIES_SETTING,
      remote,
      overlays,
    };
  }

  /**
   * Records the include paths found in `uri`'s last check. True when an included file is open in the editor but
   * was not known before (the check read the disk, not the editor's text: run it again).
   */
  record(uri: string, paths: string[], isOpen: (path: string) => boolean): boolean {
    const before = this.deps.get(uri);
    const now = new Set(paths);
    this.deps.set(uri, now);
    return paths.some((p) => isOpen(p) && !before?.has(p));
  }

  forget(uri: string): void {
    this.deps.delete(uri);
  }

  /** Open templates that include `path`. */
  dependentsOf(path: string): string[] {
    const out: string[] = [];
    for (const [uri, paths] of this.deps) if (paths.has(path)) out.push(uri);
    return out;
  }

  /** Every included path (for file watchers). */
  allPaths(): string[] {
    const out = new Set<string>();
    for (const paths of this.deps.values()) for (const p of paths) out.add(p);
    return [...out].sort();
  }
}
