// The temporary workspace both runners open: real example templates from test/fixtures/psconfig/examples (renamed
// to *.psconfig.json so the language is chosen by file name), the suite's own small templates, and workspace
// settings that point the archive explorer at the local archive and at one that refuses connections.
import { mkdirSync, copyFileSync, readdirSync, readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import {
  dashboardFixturePath,
  examplesDir,
  meshconfigDir,
  pschedulerHostsDir,
  repoRoot as findRoot,
} from '../../fixtures';

export { examplesDir };
export const repoRoot = findRoot();
const ownFixturesDir = join(repoRoot, 'test', 'e2e', 'fixtures');

/** Example templates copied into the workspace: source file name → workspace file name. */
export const EXAMPLES: Record<string, string> = {
  'psconfig--example-2-testbed.json': 'example-2-testbed.psconfig.json',
  'perl-shared--client-psconfig-mesh.json': 'mesh.psconfig.json',
  'perl-shared--client-psconfig-list.json': 'list.psconfig.json',
  'perl-shared--client-psconfig-disjoint.json': 'disjoint.psconfig.json',
  'psconfig--t-inputs-invalid.json': 'inputs-invalid.psconfig.json',
  'pwa--import3-i2-ap-rex-expected.json': 'import3-missing-archive.psconfig.json',
  'perl-shared--client-psconfig-taskgenerator.json': 'taskgenerator-jq.psconfig.json',
};

/** A real MeshConfig file (psconfig-web's latentput), a plain `.json`: recognised by its content. */
export const MESHCONFIG_FILE = 'latentput-meshconfig.json';

/** examples/example-1-simple.psconfig.json, copied under its own name. */
export const USERS_EXAMPLE_1 = 'example-1-simple.psconfig.json';

/** The generated 20-host mesh (test/fixtures/dashboard), reading the local archive. */
export const DASHBOARD_TEMPLATE = 'mesh-dashboard.psconfig.json';

export interface ArchiveEndpoints {
  /** Base URL of the local archive (test/archive/server). */
  archiveUrl: string;
  /** A URL on which nothing listens (a port that was bound and released). */
  unreachableUrl: string;
  /** The Hosts view's pScheduler replays by host (test/pscheduler-replay/), for HOSTS_TEMPLATE's agents. */
  pschedulerUrls?: Record<string, string>;
}

/** The live suite's template (test/fixtures/pscheduler-hosts/template-new.json): agents 127.0.0.40 and .41. */
export const HOSTS_TEMPLATE = 'hosts-mesh.psconfig.json';

/** Environment the extension host gets: where things are, so the in-host suite needs no guessing. */
export function extensionHostEnv(archives: ArchiveEndpoints): Record<string, string> {
  return {
    E2E_REPO_ROOT: repoRoot,
    E2E_ARCHIVE_URL: archives.archiveUrl,
    E2E_UNREACHABLE_URL: archives.unreachableUrl,
  };
}

/** Creates a fresh workspace folder under `parent` (default: the OS temp dir), with `extra` workspace settings. */
export function createWorkspace(
  archives: ArchiveEndpoints,
  parent = tmpdir(),
  extra: Record<string, unknown> = {},
): string {
  const dir = mkdtempSync(join(parent, 'psconfig-e2e-ws-'));
  for (const [from, to] of Object.entries(EXAMPLES)) copyFileSync(join(examplesDir, from), join(dir, to));
  // The users' copy in examples/: upstream's example-1 puts `_meta` inside the http archive's data, which
  // pScheduler refuses (docs/checks.md, pScheduler's own checks); the suite needs a template with no errors at all.
  copyFileSync(join(repoRoot, 'examples', USERS_EXAMPLE_1), join(dir, USERS_EXAMPLE_1));
  for (const name of readdirSync(ownFixturesDir)) copyFileSync(join(ownFixturesDir, name), join(dir, name));
  copyFileSync(join(meshconfigDir, 'pwa--latentput-meshconfig.json'), join(dir, MESHCONFIG_FILE));
  // The dashboard's mesh, its archive pointed at this run's local archive.
  writeFileSync(
    join(dir, DASHBOARD_TEMPLATE),
    readFileSync(dashboardFixturePath('mesh-20.psconfig.json'), 'utf8')
      .split('http://127.0.0.1:8085/esmond/perfsonar/archive/')
      .join(archives.archiveUrl),
  );
  copyFileSync(join(pschedulerHostsDir, 'template-new.json'), join(dir, HOSTS_TEMPLATE));
  mkdirSync(join(dir, '.vscode'));
  const settings: Record<string, unknown> = {
    ...(archives.pschedulerUrls ? { 'psconfig.hosts.urls': archives.pschedulerUrls } : {}),
    'psconfig.archives': [
      { name: 'Local test archive', url: archives.archiveUrl },
      { name: 'Unreachable archive', url: archives.unreachableUrl },
    ],
    'files.autoSave': 'off',
    ...extra,
  };
  writeFileSync(join(dir, '.vscode', 'settings.json'), JSON.stringify(settings, null, 2));
  mkdirSync(join(dir, 'exports'));
  commitCompareRepository(join(dir, 'compare'));
  return dir;
}

/**
 * compare/: a git repository holding the mesh example as committed, for the task comparison (Compare Tasks with
 * HEAD reads HEAD's text through VS Code's git extension; the suite edits the working copy in the editor).
 */
function commitCompareRepository(repo: string): void {
  mkdirSync(repo);
  copyFileSync(join(examplesDir, 'perl-shared--client-psconfig-mesh.json'), join(repo, 'mesh.psconfig.json'));
  const git = (...args: string[]): void => {
    execFileSync('git', ['-c', 'user.name=e2e', '-c', 'user.email=e2e@example.net', ...args], {
      cwd: repo,
      stdio: 'ignore',
    });
  };
  git('init', '-q');
  git('add', 'mesh.psconfig.json');
  git('commit', '-qm', 'the mesh as committed');
}
