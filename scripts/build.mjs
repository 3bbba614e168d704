// Builds the extension with esbuild.
//   node scripts/build.mjs               bundles dist/client.js (+ dist/language-client.js, dist/archive-explorer.js,
//                                        dist/dashboard.js, dist/schedule.js, dist/compare.js, dist/hosts-reader.js,
//                                        loaded on first use),
//                                        dist/server.js, dist/cli.js, dist/webview/* (explorer, dashboard, schedule)
//   node scripts/build.mjs --tests       also transpiles every .ts under common/ archive-client/ pscheduler-client/ dashboard/ cli/ server/ client/ test/ bench/ to out/ (for node:test)
//   node scripts/build.mjs --production  minified bundles without source maps (used by `npm run package`)
//   node scripts/build.mjs --dist=DIR    bundles into DIR instead of dist/ (the activation bench builds a copy)
//   node scripts/build.mjs --language-server[=DIR]
//                                        only the npm package of the language server, ready for `npm pack DIR`
//                                        (default dist/language-server): packages/language-server/ with the
//                                        production bundles of server.js and cli.js, the schema, LICENSE and NOTICE
import * as esbuild from 'esbuild';
import {
  readdirSync,
  statSync,
  mkdirSync,
  copyFileSync,
  existsSync,
  chmodSync,
  readFileSync,
  writeFileSync,
  rmSync,
} from 'node:fs';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = new Set(process.argv.slice(2));
const production = args.has('--production');
const dist = [...args].find((a) => a.startsWith('--dist='))?.slice('--dist='.length) ?? 'dist';
const common = { bundle: true, sourcemap: !production, minify: production, logLevel: 'warning', absWorkingDir: root };

// Prefer packages' ESM builds: the UMD builds of vscode-json-languageservice and jsonc-parser load their
// modules with a dynamic require() that esbuild cannot follow, so the bundle would fail at run time.
/** Modules the extension loads on first use (dynamic import in extension.ts), each its own bundle next to client.js. */
const LAZY = [
  { source: 'client/src/explorer/provider.ts', specifier: './explorer/provider', bundle: 'archive-explorer.js' },
  {
    source: 'client/src/language/language-client.ts',
    specifier: './language/language-client',
    bundle: 'language-client.js',
  },
  { source: 'client/src/dashboard/panel.ts', specifier: './dashboard/panel', bundle: 'dashboard.js' },
  { source: 'client/src/schedule/panel.ts', specifier: './schedule/panel', bundle: 'schedule.js' },
  { source: 'client/src/compare/compare.ts', specifier: './compare/compare', bundle: 'compare.js' },
  // Imported by the Hosts view (in client.js) when hosts are first read: undici loads then.
  {
    source: 'client/src/hosts/read-hosts.ts',
    specifier: './read-hosts',
    bundle: 'hosts-reader.js',
    importer: 'client/src/hosts/hosts-view.ts',
  },
];
/** In the client bundle, a lazy module is a require of its sibling bundle. */
const lazyModules = {
  name: 'lazy-modules',
  setup(build) {
    build.onResolve(
      {
        filter:
          /^\.\/(explorer\/provider|language\/language-client|dashboard\/panel|schedule\/panel|compare\/compare|read-hosts)$/,
      },
      (args) => {
        const lazy = LAZY.find((l) => l.specifier === args.path);
        return lazy && args.importer.endsWith(join(...(lazy.importer ?? 'client/src/extension.ts').split('/')))
          ? { path: `./${lazy.bundle}`, external: true }
          : undefined;
      },
    );
  },
};
// `import()` becomes `require()`: a lazily loaded bundle is CommonJS like the rest (a real dynamic import would have
// Node's ESM loader re-scan the whole file for exports, ~0.3 s for the explorer bundle).
const cjsImports = { 'dynamic-import': false };
const rootPackage = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const node = {
  ...common,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  mainFields: ['module', 'main'],
  supported: cjsImports,
  define: { PSCONFIG_VERSION: JSON.stringify(rootPackage.version) },
};
/** The language server and the CLI, bundled into `dir`: executables (the npm package's bins run them directly). */
const executables = (dir, extra = {}) => [
  {
    ...node,
    ...extra,
    entryPoints: ['server/src/server.ts'],
    outfile: `${dir}/server.js`,
    banner: { js: '#!/usr/bin/env node' },
  },
  { ...node, ...extra, entryPoints: ['cli/main.ts'], outfile: `${dir}/cli.js`, banner: { js: '#!/usr/bin/env node' } },
];

const languageServerArg = [...args].find((a) => a === '--language-server' || a.startsWith('--language-server='));
if (languageServerArg) {
  await packageLanguageServer(
    languageServerArg.slice('--language-server='.length) || join(root, 'dist/language-server'),
  );
  process.exit(0);
}

/**
 * The npm package `psconfig-language-server` in `dir`: packages/language-server/package.json with the extension's
 * version, licence and repository, the production bundles VS Code runs, and the files they read at run time.
 */
async function packageLanguageServer(dir) {
  const out = resolve(root, dir);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(join(out, 'dist'), { recursive: true });
  // The production bundles, as `npm run package` puts them in the extension.
  await Promise.all(executables(join(out, 'dist'), { minify: true, sourcemap: false }).map((b) => esbuild.build(b)));
  const own = JSON.parse(readFileSync(join(root, 'packages/language-server/package.json'), 'utf8'));
  const pkg = { name: own.name, version: rootPackage.version, ...own, license: rootPackage.license };
  if (rootPackage.repository) {
    const repo =
      typeof rootPackage.repository === 'string'
        ? { type: 'git', url: rootPackage.repository }
        : rootPackage.repository;
    pkg.repository = { ...repo, directory: 'packages/language-server' };
  }
  for (const key of ['homepage', 'bugs', 'author']) if (rootPackage[key] && !pkg[key]) pkg[key] = rootPackage[key];
  writeFileSync(join(out, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  copyFileSync(join(root, 'packages/language-server/README.md'), join(out, 'README.md'));
  for (const f of ['LICENSE', 'NOTICE']) copyFileSync(join(root, f), join(out, f));
  mkdirSync(join(out, 'schemas'));
  copyFileSync(join(root, 'schemas/psconfig.schema.json'), join(out, 'schemas/psconfig.schema.json'));
  for (const f of ['server.js', 'cli.js']) chmodSync(join(out, 'dist', f), 0o755);
}
const builds = [
  // The VS Code side: `vscode` is provided by the host. The language client and the archive explorer (with the
  // archive client and undici) are bundles of their own, loaded on first use (see LAZY).
  esbuild.build({
    ...node,
    entryPoints: ['client/src/extension.ts'],
    outfile: `${dist}/client.js`,
    external: ['vscode'],
    plugins: [lazyModules],
  }),
  ...LAZY.map((l) =>
    esbuild.build({ ...node, entryPoints: [l.source], outfile: `${dist}/${l.bundle}`, external: ['vscode'] }),
  ),
  ...executables(dist).map((b) => esbuild.build(b)),
  // Browser code of the archive explorer webview (no Node APIs, no remote resources).
  esbuild.build({
    ...common,
    platform: 'browser',
    target: 'chrome114',
    format: 'iife',
    entryPoints: ['client/src/webview/main.ts'],
    outfile: `${dist}/webview/explorer.js`,
  }),
  // Browser code of the mesh dashboard webview (same rules).
  esbuild.build({
    ...common,
    platform: 'browser',
    target: 'chrome114',
    format: 'iife',
    entryPoints: ['client/src/webview/dashboard/main.ts'],
    outfile: `${dist}/webview/dashboard.js`,
  }),
  // Browser code of the schedule's host timeline webview (same rules).
  esbuild.build({
    ...common,
    platform: 'browser',
    target: 'chrome114',
    format: 'iife',
    entryPoints: ['client/src/webview/schedule/main.ts'],
    outfile: `${dist}/webview/schedule.js`,
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
  [
    'common',
    'archive-client',
    'pscheduler-client',
    'dashboard',
    'cli',
    'server/src',
    'client/src',
    'test',
    'bench',
  ].forEach(walk);
  builds.push(
    esbuild.build({
      absWorkingDir: root,
      entryPoints: files,
      outdir: 'out',
      outbase: '.',
      platform: 'node',
      target: 'node20',
      format: 'cjs',
      supported: cjsImports,
      sourcemap: 'inline',
      logLevel: 'warning',
    }),
  );
}

await Promise.all(builds);
if (args.has('--tests')) {
  // Transpiled modules keep their `require('…/schemas/pscheduler/x.json')`: give out/ the same files.
  const from = join(root, 'schemas/pscheduler');
  mkdirSync(join(root, 'out/schemas/pscheduler'), { recursive: true });
  for (const f of readdirSync(from))
    if (f.endsWith('.json')) copyFileSync(join(from, f), join(root, 'out/schemas/pscheduler', f));
}
mkdirSync(resolve(root, dist, 'webview'), { recursive: true });
const uplotCss = join(root, 'node_modules/uplot/dist/uPlot.min.css');
if (existsSync(uplotCss)) copyFileSync(uplotCss, resolve(root, dist, 'webview/uPlot.min.css'));
chmodSync(resolve(root, dist, 'cli.js'), 0o755);
chmodSync(resolve(root, dist, 'server.js'), 0o755);
