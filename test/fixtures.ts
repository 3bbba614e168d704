// The one place that knows where the test inputs live: test/fixtures/ inside the repository (copied once from
// their public origins; see NOTICE). Compiled tests run from out/test/..., so the root is found by walking up to
// this project's package.json rather than by counting directories.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The repository root: the nearest ancestor directory holding this project's package.json. */
export function repoRoot(from = __dirname): string {
  let dir = resolve(from);
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && /"name":\s*"psconfig-vscode"/.test(readFileSync(pkg, 'utf8'))) return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error(`psconfig-vscode's package.json not found above ${from}`);
    dir = up;
  }
}

const root = repoRoot();

/** Every test fixture sits below this directory. */
export const fixturesDir = join(root, 'test', 'fixtures');
/** The 26 real pSConfig templates and expected-pairs.json (INDEX.md there gives each origin). */
export const examplesDir = join(fixturesDir, 'psconfig', 'examples');
/** Real MeshConfig (perfSONAR 4.0) files from perfsonar/psconfig-web (INDEX.md there). */
export const meshconfigDir = join(fixturesDir, 'psconfig', 'meshconfig');
/** Real MeshConfig files and perfSONAR 4 era templates for the migration tests (ORIGIN.md there gives each origin). */
export const migrationDir = join(fixturesDir, 'migration');
/** esmond's own fixtures, documentation examples and pScheduler archiver payloads (INDEX.md there). */
export const esmondFixturesDir = join(fixturesDir, 'esmond');
/** A self-signed certificate and its key for 127.0.0.1 (a TLS server clients must refuse). */
export const selfSignedTls = {
  cert: join(fixturesDir, 'tls', 'self-signed.crt'),
  key: join(fixturesDir, 'tls', 'self-signed.key'),
};
/** The SARIF 2.1.0 JSON schema (draft-04, from @microsoft/jest-sarif; see NOTICE), for checking --format sarif. */
export const sarifSchemaPath = join(fixturesDir, 'sarif', 'sarif-2.1.0-rtm.5.json');
/** pScheduler test vectors: pScheduler's own test inputs and oracle-judged generated cases (INDEX.md there). */
export const pschedulerFixturesDir = join(fixturesDir, 'pscheduler');
/** Our data files about pScheduler's plug-ins (schemas/pscheduler/). */
export const pschedulerDataDir = join(root, 'schemas', 'pscheduler');
/** The reference of every check (docs/checks.md): the diagnostic codes' table and pScheduler's plug-in and tool tables. */
export const checksDocPath = join(root, 'docs', 'checks.md');
/** The official pSConfig JSON schema, as shipped with the extension. */
export const schemaPath = join(root, 'schemas', 'psconfig.schema.json');

/** Path of an example template by file name. */
export function examplePath(name: string): string {
  return join(examplesDir, name);
}

/** Text of an example template by file name. */
export function exampleText(name: string): string {
  return readFileSync(examplePath(name), 'utf8');
}

/** file:// URI of an example template by file name. */
export function exampleUri(name: string): string {
  return pathToFileURL(examplePath(name)).toString();
}

/** File names of the example templates (every .json but expected-pairs.json), sorted. */
export function exampleFiles(): string[] {
  return readdirSync(examplesDir)
    .filter((f) => f.endsWith('.json') && f !== 'expected-pairs.json')
    .sort();
}

/** Templates of the dashboard tests (test/fixtures/dashboard): the generated mesh the local archive also seeds. */
export const dashboardFixturesDir = join(fixturesDir, 'dashboard');

export function dashboardFixturePath(name: string): string {
  return join(dashboardFixturesDir, name);
}

/** psconfig-tools hosts: the templates of its live test and the reads it recorded (test/pscheduler/hosts-live.ts). */
export const pschedulerHostsDir = join(fixturesDir, 'pscheduler-hosts');

/** A template fixture parsed for a test to edit: its sections as maps of JSON objects, the members tests change typed. */
export interface TemplateFixture {
  addresses: Record<string, Record<string, unknown>>;
  groups: Record<string, { addresses: unknown[]; [k: string]: unknown }>;
  tests: Record<string, { spec: Record<string, unknown>; [k: string]: unknown }>;
  tasks: Record<string, Record<string, unknown>>;
  [k: string]: unknown;
}
