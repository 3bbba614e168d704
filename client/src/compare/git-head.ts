// A file's text at HEAD, through VS Code's git extension (`vscode.git`, API version 1): the repository that holds
// the file, and `repository.show('HEAD', path)`. Only the few members we call are typed here (the extension
// publishes its API as a .d.ts to copy, not as a package).
import * as vscode from 'vscode';

interface GitRepository {
  readonly rootUri: vscode.Uri;
  readonly state: { readonly HEAD?: { readonly commit?: string }; readonly onDidChange: vscode.Event<void> };
  show(ref: string, path: string): Promise<string>;
}

interface GitApi {
  readonly state: 'uninitialized' | 'initialized';
  readonly onDidChangeState: vscode.Event<'uninitialized' | 'initialized'>;
  readonly onDidOpenRepository: vscode.Event<GitRepository>;
  getRepository(uri: vscode.Uri): GitRepository | null;
  openRepository?(root: vscode.Uri): Promise<GitRepository | null>;
}

interface GitExtension {
  readonly enabled: boolean;
  getAPI(version: 1): GitApi;
}

export class GitUnavailable extends Error {}

let api: Promise<GitApi> | undefined;

/** The git extension's API once it has initialised (it scans the workspace for repositories first). */
export function gitApi(): Promise<GitApi> {
  return (api ??= (async () => {
    const ext = vscode.extensions.getExtension<GitExtension>('vscode.git');
    if (!ext) throw new GitUnavailable('the Git extension (vscode.git) is not installed');
    const exports = ext.isActive ? ext.exports : await ext.activate();
    if (!exports.enabled) throw new GitUnavailable('the Git extension is disabled (setting git.enabled)');
    const git = exports.getAPI(1);
    if (git.state !== 'initialized')
      await new Promise<void>((resolve) => {
        const sub = git.onDidChangeState((s) => {
          if (s === 'initialized') {
            sub.dispose();
            resolve();
          }
        });
      });
    return git;
  })()).catch((err: unknown) => {
    api = undefined; // installed or enabled later: try again next time
    throw err;
  });
}

/** The repository holding `uri`, waiting a moment for the git extension to open the one of a newly opened file. */
export async function repositoryOf(uri: vscode.Uri, waitMs = 3000): Promise<GitRepository> {
  const git = await gitApi();
  const now = git.getRepository(uri);
  if (now) return now;
  const found = await new Promise<GitRepository | null>((resolve) => {
    const timer = setTimeout(() => {
      sub.dispose();
      resolve(git.getRepository(uri));
    }, waitMs);
    const sub = git.onDidOpenRepository(() => {
      const r = git.getRepository(uri);
      if (!r) return;
      clearTimeout(timer);
      sub.dispose();
      resolve(r);
    });
  });
  if (!found) throw new GitUnavailable(`${vscode.workspace.asRelativePath(uri)} is not in a git repository`);
  return found;
}

export interface HeadVersion {
  text: string;
  /** The commit HEAD names (a change of it makes cached comparisons stale). */
  commit: string | undefined;
  repository: GitRepository;
}

/** The file's text at HEAD; GitUnavailable says why there is none (no repository, not committed yet). */
export async function headVersion(uri: vscode.Uri): Promise<HeadVersion> {
  const repository = await repositoryOf(uri);
  try {
    return { text: await repository.show('HEAD', uri.fsPath), commit: repository.state.HEAD?.commit, repository };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw new GitUnavailable(
      /exists on disk, but not in|does not exist in|bad revision|unknown revision/i.test(message)
        ? `${vscode.workspace.asRelativePath(uri)} is not in HEAD (not committed yet)`
        : `git could not read HEAD's version: ${message}`,
    );
  }
}
