// Checks what the .vsix put on disk when code-server installed it: what runs is there, sources, tests and
// node_modules are not.
import { readdirSync, statSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { PassResult } from './in-host-pass';

/** Every file under `dir`, relative to it. */
function listFiles(dir: string, base = dir): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? listFiles(p, base) : [relative(base, p)];
  });
}

// vsce stores LICENSE as LICENSE.txt and README.md as readme.md.
const REQUIRED = [
  'package.json',
  'dist/client.js',
  'dist/archive-explorer.js',
  'dist/language-client.js',
  'dist/server.js',
  'dist/cli.js',
  'dist/webview/explorer.js',
  'dist/webview/dashboard.js',
  'dist/webview/dashboard.css',
  'dist/schedule.js',
  'dist/webview/schedule.js',
  'dist/webview/schedule.css',
  'schemas/psconfig.schema.json',
  'syntaxes/psconfig.tmLanguage.json',
  'language-configuration.json',
  'media/perfsonar.svg',
  'LICENSE.txt',
  'readme.md',
];
const FORBIDDEN = [
  /^node_modules\//,
  /^out\//,
  /^test\//,
  /^bench\//,
  /^src\//,
  /\/src\//,
  /\.ts$/,
  /\.map$/,
  /^scripts\//,
  /tsconfig/,
  /^\.ci\//,
];

export function checkInstalledPackage(extensionsDir: string, print: (l: string) => void): PassResult {
  const folder = readdirSync(extensionsDir).find((n) => n.startsWith('perfsonar-tools.psconfig-vscode-'));
  if (!folder) {
    print(`✖ the .vsix is installed: no perfsonar-tools.psconfig-vscode-* folder in ${extensionsDir}`);
    return { exitCode: 1, passed: 0, failed: 1 };
  }
  const root = join(extensionsDir, folder);
  const files = listFiles(root).sort();
  const bytes = files.reduce((n, f) => n + statSync(join(root, f)).size, 0);
  let passed = 0;
  let failed = 0;
  const missing = REQUIRED.filter((f) => !existsSync(join(root, f)));
  if (missing.length) {
    failed++;
    print(`✖ the package holds what runs; missing: ${missing.join(', ')}`);
  } else {
    passed++;
    print(`✔ the package holds what runs (${REQUIRED.length} required files present)`);
  }
  const extra = files.filter((f) => FORBIDDEN.some((re) => re.test(f)));
  if (extra.length) {
    failed++;
    print(
      `✖ the package holds nothing else; unexpected: ${extra.slice(0, 15).join(', ')}${extra.length > 15 ? ` and ${extra.length - 15} more` : ''}`,
    );
  } else {
    passed++;
    print(`✔ the package holds no sources, tests, source maps or node_modules`);
  }
  print(`  installed ${folder}: ${files.length} files, ${(bytes / 1024).toFixed(0)} KiB unpacked`);
  return { exitCode: failed ? 1 : 0, passed, failed };
}
