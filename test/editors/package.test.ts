// The npm package `psconfig-language-server`: what `npm pack` puts in it, and the binary npm installs from the
// tarball, started over stdio as an editor starts it, finding jq on PATH (the package bundles no jq binary).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { repoRoot } from '../fixtures';
import { LspClient } from '../lsp/lsp-client';
import { packAndInstall, type PackedServer } from './packed-server';

const root = repoRoot();
const rootPackage = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  version: string;
  license: string;
  engines: { node: string };
};
const JQ = process.env.JQ_PATH || '/usr/bin/jq';
let packed: PackedServer;

before(() => {
  packed = packAndInstall();
});
after(() => packed?.remove());

test('npm pack lists exactly the bundles, the schema they read, the README and the licences', () => {
  const list = packed.files.map((f) => f.path).sort();
  assert.deepEqual(list, [
    'LICENSE',
    'NOTICE',
    'README.md',
    'dist/cli.js',
    'dist/server.js',
    'package.json',
    'schemas/psconfig.schema.json',
  ]);
  for (const bin of ['dist/server.js', 'dist/cli.js'])
    assert.equal(packed.files.find((f) => f.path === bin)!.mode & 0o111, 0o111, `${bin} is executable`);
  console.log(
    `psconfig-language-server tarball: ${(packed.size / 1024).toFixed(0)} KiB, ` +
      `${(packed.unpackedSize / 1024).toFixed(0)} KiB unpacked: ` +
      packed.files.map((f) => `${f.path} ${(f.size / 1024).toFixed(1)} KiB`).join(', '),
  );
});

test('its package.json: name, both bins, the extension’s version and licence, Node 20', () => {
  const installed = join(packed.prefix, 'lib', 'node_modules', 'psconfig-language-server');
  const pkg = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as Record<string, unknown>;
  assert.equal(pkg.name, 'psconfig-language-server');
  assert.equal(pkg.version, rootPackage.version);
  assert.equal(pkg.license, rootPackage.license);
  assert.deepEqual(pkg.engines, { node: rootPackage.engines.node });
  assert.deepEqual(pkg.bin, { 'psconfig-language-server': 'dist/server.js', 'psconfig-tools': 'dist/cli.js' });
  assert.equal(pkg.dependencies, undefined, 'no dependencies: the bundle is self-contained');
});

test('the packed server.js is the production bundle the VS Code extension runs, byte for byte', () => {
  const dist = mkdtempSync(join(tmpdir(), 'psconfig-production-'));
  try {
    execFileSync(process.execPath, [join(root, 'scripts/build.mjs'), '--production', `--dist=${dist}`], {
      cwd: root,
      stdio: 'pipe',
    });
    const installed = join(packed.prefix, 'lib', 'node_modules', 'psconfig-language-server', 'dist', 'server.js');
    assert.ok(readFileSync(installed).equals(readFileSync(join(dist, 'server.js'))));
  } finally {
    rmSync(dist, { recursive: true, force: true });
  }
});

test('the installed binaries: --version, usage without a transport, psconfig-tools', () => {
  const version = spawnSync(packed.bin, ['--version'], { encoding: 'utf8' });
  assert.equal(version.status, 0);
  assert.equal(version.stdout, `${rootPackage.version}\n`);
  const bare = spawnSync(packed.bin, [], { encoding: 'utf8' });
  assert.equal(bare.status, 2);
  assert.match(bare.stdout, /usage: psconfig-language-server --stdio/);
  const tools = spawnSync(join(packed.prefix, 'bin', 'psconfig-tools'), [], { encoding: 'utf8' });
  assert.match(tools.stdout + tools.stderr, /usage: psconfig-tools <command>/);
});

const TEMPLATE = JSON.stringify(
  {
    addresses: { a: { address: 'a.example.net' }, b: { address: 'b.example.net' } },
    groups: { g: { type: 'mesh', addresses: [{ name: 'a' }, { name: 'b' }] } },
    tests: { t: { type: 'rtt', spec: { dest: '{% jq .addresses[0] | ( %}' } } },
    tasks: { task: { group: 'g-typo', test: 't' } },
  },
  null,
  2,
);

/** A PATH holding only `node` (the bins' `#!/usr/bin/env node`), plus `extra` folders. */
function pathWith(dir: string, ...extra: string[]): string {
  const only = join(dir, 'node-only');
  mkdirSync(only, { recursive: true });
  try {
    symlinkSync(process.execPath, join(only, 'node'));
  } catch {
    // made by an earlier call
  }
  return [only, ...extra].join(':');
}

test('psconfig-language-server --stdio from the tarball: diagnostics, jq found on PATH, and without it a note', async () => {
  const withJq = await LspClient.start({
    command: [packed.bin, '--stdio'],
    settings: {},
    env: { PATH: pathWith(packed.dir, dirname(JQ)), JQ_PATH: '' },
  });
  const uri = 'file:///tmp/packed.psconfig.json';
  const jqCodes = async (lsp: LspClient): Promise<string[]> =>
    (await lsp.diagnosticsWhere(uri, (x) => x.some((y) => String(y.code).startsWith('psconfig/jq-')))).map((x) =>
      String(x.code),
    );
  try {
    await withJq.open(uri, TEMPLATE);
    const found = await jqCodes(withJq);
    assert.ok(found.includes('psconfig/unknown-group'), found.join(', '));
    assert.ok(found.includes('psconfig/jq-compile'), `jq from PATH compiled the program: ${found.join(', ')}`);
    assert.equal(withJq.initializeResult?.serverInfo?.name, 'psconfig-language-server');
  } finally {
    await withJq.stop();
  }
  const noJq = await LspClient.start({
    command: [packed.bin, '--stdio'],
    settings: {},
    env: { PATH: pathWith(packed.dir), JQ_PATH: '' },
  });
  try {
    await noJq.open(uri, TEMPLATE);
    const found = await jqCodes(noJq);
    assert.ok(found.includes('psconfig/unknown-group'), found.join(', '));
    assert.ok(found.includes('psconfig/jq-unavailable'), found.join(', '));
  } finally {
    await noJq.stop();
  }
});
