// The npm package of the language server as a user gets it: built by scripts/build.mjs --language-server, packed by
// `npm pack`, installed from the tarball into a private prefix (offline: the package has no dependencies), so the
// tests run the `psconfig-language-server` binary npm put on that prefix's PATH.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../fixtures';

export interface PackedFile {
  path: string;
  size: number;
  mode: number;
}

export interface PackedServer {
  /** Scratch folder holding everything below (removed by `remove`). */
  dir: string;
  tarball: string;
  /** `npm pack --json`'s file list and sizes. */
  files: PackedFile[];
  size: number;
  unpackedSize: number;
  /** The install prefix: `<prefix>/bin/psconfig-language-server`, `<prefix>/lib/node_modules/psconfig-language-server`. */
  prefix: string;
  bin: string;
  remove: () => void;
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Builds, packs and installs the package into a new scratch folder (a few seconds). */
export function packAndInstall(): PackedServer {
  const root = repoRoot();
  const dir = mkdtempSync(join(tmpdir(), 'psconfig-ls-package-'));
  const staged = join(dir, 'package');
  execFileSync(process.execPath, [join(root, 'scripts/build.mjs'), `--language-server=${staged}`], {
    cwd: root,
    stdio: 'pipe',
  });
  const quiet = ['--no-audit', '--no-fund', '--loglevel=error'];
  const packed = JSON.parse(
    execFileSync(npm, ['pack', staged, '--json', `--pack-destination=${dir}`, ...quiet], {
      cwd: dir,
      encoding: 'utf8',
    }),
  ) as { filename: string; files: PackedFile[]; size: number; unpackedSize: number }[];
  const tarball = join(dir, packed[0].filename);
  const prefix = join(dir, 'prefix');
  execFileSync(npm, ['install', '--global', `--prefix=${prefix}`, '--offline', ...quiet, tarball], {
    cwd: dir,
    stdio: 'pipe',
  });
  return {
    dir,
    tarball,
    files: packed[0].files,
    size: packed[0].size,
    unpackedSize: packed[0].unpackedSize,
    prefix,
    bin: join(prefix, 'bin', 'psconfig-language-server'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
