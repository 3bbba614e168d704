// Modules of the engine bundled as dist/server.js and dist/cli.js bundle them, for the benches: the per-file
// CommonJS in out/ reaches every imported function through an export getter, which costs the engine's hot loops
// about a fifth more than the shipped bundles do.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSync } from 'esbuild';

/** One bundle re-exporting every module named (repository-relative paths, without extension). */
export function loadBundled<T>(modules: string[]): T {
  const repoRoot = join(__dirname, '..', '..');
  // Inside out/ (not the system's temp folder): the checks find their data files (schemas/) above the bundle.
  const dir = mkdtempSync(join(repoRoot, 'out', 'bench-bundle-'));
  const entry = join(dir, 'entry.ts');
  writeFileSync(entry, modules.map((m) => `export * from ${JSON.stringify(join(repoRoot, m))};\n`).join(''));
  const outfile = join(dir, 'bundle.js');
  buildSync({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    logLevel: 'warning',
  });
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(outfile) as T;
}
