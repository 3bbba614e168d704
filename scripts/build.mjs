// Builds the extension with esbuild.
//   node scripts/build.mjs               bundles dist/client.js, dist/server.js, dist/cli.js, dist/webview/*
//   node scripts/build.mjs --tests       also transpiles every .ts under common/ archive-client/ dashboard/ cli/ server/ client/ test/ bench/ to out/ (for node:test)
//   node scripts/build.mjs --production  minified bundles without source maps (used by `npm run package`)
import * as esbuild from 'esbuild';
import { readdirSync, statSync, mkdirSync, copyFileSync, existsSync, chmodSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = new Set(process.argv.slice(2));
const production = args.has('--production');
const common = { bundle: true, sourcemap: !production, minify: production, logLevel: 'warning', absWorkingDir: root };

// Prefer packages' ESM builds: the UMD builds of vscode-json-languageservice and jsonc-parser load their
// modules with a dynamic require() that esbuild cannot follow, so the bundle would fail at run time.
const node = { ...common, platform: 'node', target: 'node20', format: 'cjs', mainFields: ['module', 'main'] };
const builds = [
  // The VS Code side: `vscode` is provided by the host.
  esbuild.build({ ...node, entryPoints: ['client/src/extension.ts'], outfile: 'dist/client.js', external: ['vscode'] }),
  esbuild.build({ ...node, entryPoints: ['server/src/server.ts'], outfile: 'dist/server.js' }),
  esbuild.build({
    ...node,
    entryPoints: ['cli/main.ts'],
    outfile: 'dist/cli.js',
    banner: { js: '#!/usr/bin/env node' },
  }),
  // Browser code of the archive explorer webview (no Node APIs, no remote resources).
  esbuild.build({
    ...common,
    platform: 'browser',
    target: 'chrome114',
    format: 'iife',
    entryPoints: ['client/src/webview/main.ts'],
    outfile: 'dist/webview/explorer.js',
  }),
];

if (args.has('--tests')) {
  // Plain transpile (no bundling) keeps one output file per source file, so tests import modules directly.
  const files = [];
  const walk = (dir) => {
    if (!existsSync(join(root, dir))) return;
    for (const name of readdirSync(join(root, dir))) {
      const rel = join(dir, name);
      if (name === 'node_modules') continue;
      if (statSync(join(root, rel)).isDirectory()) walk(rel);
      else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) files.push(rel);
    }
  };
  ['common', 'archive-client', 'dashboard', 'cli', 'server/src', 'client/src', 'test', 'bench'].forEach(walk);
  builds.push(
    esbuild.build({
      absWorkingDir: root,
      entryPoints: files,
      outdir: 'out',
      outbase: '.',
      platform: 'node',
      target: 'node20',
      format: 'cjs',
      sourcemap: 'inline',
      logLevel: 'warning',
    }),
  );
}

await Promise.all(builds);
mkdirSync(join(root, 'dist/webview'), { recursive: true });
const uplotCss = join(root, 'node_modules/uplot/dist/uPlot.min.css');
if (existsSync(uplotCss)) copyFileSync(uplotCss, join(root, 'dist/webview/uPlot.min.css'));
chmodSync(join(root, 'dist/cli.js'), 0o755);
