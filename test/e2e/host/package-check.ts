// Checks what the .vsix put on disk when code-server installed it: what runs is there, nothing else is (the lists
// are test/vsix/contents.ts, which the package test reads the .vsix itself against).
import { readdirSync, statSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { PassResult } from './in-host-pass';
import { REQUIRED_FILES, unexpectedFiles } from '../../vsix/contents';

/** Every file under `dir`, relative to it. */
function listFiles(dir: string, base = dir): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? listFiles(p, base) : [relative(base, p)];
  });
}

/** What VS Code itself writes into an installed extension's folder. */
const WRITTEN_BY_INSTALL = /^\.vsixmanifest$/;

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
  const missing = REQUIRED_FILES.filter((f) => !existsSync(join(root, f)));
  if (missing.length) {
    failed++;
    print(`✖ the package holds what runs; missing: ${missing.join(', ')}`);
  } else {
    passed++;
    print(`✔ the package holds what runs (${REQUIRED_FILES.length} required files present)`);
  }
  const extra = unexpectedFiles(files.filter((f) => !WRITTEN_BY_INSTALL.test(f)));
  if (extra.length) {
    failed++;
    print(
      `✖ the package holds nothing else; unexpected: ${extra.slice(0, 15).join(', ')}${extra.length > 15 ? ` and ${extra.length - 15} more` : ''}`,
    );
  } else {
    passed++;
    print(`✔ the package holds nothing else (no sources, tests, source maps or node_modules)`);
  }
  print(`  installed ${folder}: ${files.length} files, ${(bytes / 1024).toFixed(0)} KiB unpacked`);
  return { exitCode: failed ? 1 : 0, passed, failed };
}
