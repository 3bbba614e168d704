// The .vsix as the Marketplace and Open VSX receive it: packaged here exactly as `npm run package` does (production
// bundles, `vsce package` with the script's own flags), in a copy of the project so the suite's dist/ is left alone,
// then read back: vsce's output has no warning, the package holds what runs and nothing else, its size, the icon,
// the gallery fields, what Open VSX checks on upload, and where the packaged README's links and pictures point.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { tmpdir } from 'node:os';
import { spawnSync } from 'node:child_process';
import { repoRoot } from '../fixtures';
import { readZip, type ZipEntry } from './zip';
import { REQUIRED_FILES, unexpectedFiles } from './contents';
import { openVsxIssues, readVsixManifest } from './open-vsx';

const root = repoRoot();
/** The whole .vsix (zip) may not grow past this without someone deciding it should (1.06 MB on 2026-11-25). */
const MAX_VSIX_BYTES = 2 * 1024 * 1024;
/** Where vsce points the packaged README's relative links and images (from package.json's `repository`). */
const REPO_URL = 'https://github.com/perfsonar-tools/psconfig-vscode';
/** Left out of the copy: installed, generated or version-control files (vsce would never package them anyway). */
const NOT_COPIED = new Set(['node_modules', '.git', 'out', 'dist', 'test-results', '.vscode-e2e', '.vscode-test']);

let stage: string;
let vsixPath: string;
let vsceOutput: string;
let vsceStatus: number | null;
let entries: ZipEntry[];
/** Entry names without the `extension/` prefix, for files of the extension's folder. */
let files: string[];

function run(cmd: string, args: string[], cwd: string): { status: number | null; output: string } {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } });
  return { status: r.status, output: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? String(r.error) : ''}` };
}

/** The flags `npm run package` gives `vsce package`, with the output file moved into the stage. */
/** The packaged package.json (the fields the tests read by name). */
type Manifest = Record<string, unknown> & { icon: string; keywords: string[]; license?: string };

function vsceArgs(out: string): string[] {
  const script = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
    .scripts.package;
  const vsce = script
    .split('&&')
    .map((s) => s.trim())
    .find((s) => s.startsWith('vsce package'));
  assert.ok(vsce, `npm run package runs vsce package: ${script}`);
  const args = vsce.split(/\s+/).slice(1);
  const o = args.indexOf('-o');
  if (o >= 0) args.splice(o, 2);
  return [...args, '-o', out];
}

before(() => {
  stage = mkdtempSync(join(tmpdir(), 'psconfig-vsix-'));
  cpSync(root, stage, {
    recursive: true,
    filter: (src) => {
      const rel = src.slice(root.length + 1);
      return !NOT_COPIED.has(rel.split(/[\\/]/)[0]) && !/^[^\\/]*\.vsix$/.test(rel);
    },
  });
  const build = run(
    process.execPath,
    [join(root, 'scripts/build.mjs'), '--production', `--dist=${join(stage, 'dist')}`],
    root,
  );
  assert.equal(build.status, 0, `production build failed:\n${build.output}`);
  vsixPath = join(stage, 'psconfig-vscode.vsix');
  const vsce = run(process.execPath, [join(root, 'node_modules/@vscode/vsce/vsce'), ...vsceArgs(vsixPath)], stage);
  vsceOutput = vsce.output;
  vsceStatus = vsce.status;
  entries = existsSync(vsixPath) ? readZip(readFileSync(vsixPath)) : [];
  files = entries.filter((e) => e.name.startsWith('extension/')).map((e) => e.name.slice('extension/'.length));
});

after(() => {
  if (stage) rmSync(stage, { recursive: true, force: true });
});

const entry = (name: string): ZipEntry => {
  const e = entries.find((x) => x.name === name);
  assert.ok(e, `${name} is in the .vsix`);
  return e;
};

test('vsce package succeeds with no warning, with the flags of npm run package (no --allow-* escape)', (t) => {
  for (const line of vsceOutput.trim().split('\n')) t.diagnostic(line);
  assert.equal(vsceStatus, 0, `vsce package failed:\n${vsceOutput}`);
  assert.ok(existsSync(vsixPath), 'the .vsix was written');
  assert.doesNotMatch(vsceOutput, /\bWARNING\b|\bERROR\b/, 'vsce printed a warning or an error');
  const flags = vsceArgs('x.vsix');
  assert.deepEqual(
    flags.filter((f) => /^--(allow-|no-rewrite|baseContentUrl|baseImagesUrl|skip-license)/.test(f)),
    [],
    'npm run package relies on no flag that hides a gallery problem',
  );
});

test('the .vsix holds what runs and nothing else, within its size budget', (t) => {
  const bytes = statSync(vsixPath).size;
  t.diagnostic(
    `${entries.length} entries, ${bytes} bytes (${(bytes / 1024 / 1024).toFixed(2)} MiB); unpacked ${entries.reduce((n, e) => n + e.size, 0)} bytes`,
  );
  for (const e of entries) if (!e.name.startsWith('extension/schemas/pscheduler/')) t.diagnostic(`${e.name} ${e.size}`);
  t.diagnostic(
    `extension/schemas/pscheduler/: ${files.filter((f) => f.startsWith('schemas/pscheduler/')).length} files`,
  );
  assert.deepEqual(
    entries.map((e) => e.name).filter((n) => !n.startsWith('extension/')),
    ['extension.vsixmanifest', '[Content_Types].xml'],
  );
  assert.deepEqual(
    REQUIRED_FILES.filter((f) => !files.includes(f)),
    [],
    'files the extension needs are missing',
  );
  assert.deepEqual(unexpectedFiles(files), [], 'files the extension does not run are packaged');
  // Every sibling bundle a packaged bundle loads (`require("./x.js")`: the lazily loaded ones) is packaged too: read
  // from the bundles themselves, so a new lazy bundle the allow-list forgets fails here, not in a user's editor.
  const loaded = entries
    .filter((e) => /^extension\/dist\/[^/]+\.js$/.test(e.name))
    .flatMap((e) =>
      [
        ...e
          .read()
          .toString('utf8')
          .matchAll(/require\(["']\.\/([\w.-]+\.js)["']\)/g),
      ].map((m) => `dist/${m[1]}`),
    );
  assert.ok(loaded.includes('dist/archive-explorer.js'), 'the lazy bundles are found in client.js');
  assert.deepEqual(
    [...new Set(loaded)].filter((f) => !files.includes(f)),
    [],
    'bundles loaded by a packaged bundle are missing',
  );
  // Every pScheduler data file the bundles were built from is there (the bundles import them; the folder is shipped
  // for hovers' links and as the data's licence trail).
  const data = readdirSync(join(root, 'schemas/pscheduler')).filter((f) => f.endsWith('.json'));
  assert.deepEqual(
    data.filter((f) => !files.includes(`schemas/pscheduler/${f}`)),
    [],
    'pScheduler data files missing from the package',
  );
  assert.ok(bytes <= MAX_VSIX_BYTES, `the .vsix is ${bytes} bytes, over its ${MAX_VSIX_BYTES}-byte budget`);
});

test('the icon is a square PNG of at least 128×128 pixels (the Marketplace refuses SVG icons)', () => {
  const manifest = JSON.parse(entry('extension/package.json').read().toString('utf8')) as Manifest;
  assert.equal(manifest.icon, 'media/icon.png');
  const png = entry(`extension/${manifest.icon}`).read();
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'PNG signature');
  assert.equal(png.toString('latin1', 12, 16), 'IHDR');
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  assert.equal(width, height, 'square');
  assert.ok(width >= 128, `${width}×${height} is below 128×128`);
});

test('the gallery fields: publisher, repository, bugs, homepage, keywords, banner, licence, changelog', () => {
  const manifest = JSON.parse(entry('extension/package.json').read().toString('utf8')) as Manifest;
  const meta = readVsixManifest(entry('extension.vsixmanifest').read().toString('utf8'));
  assert.equal(meta.namespace, 'perfsonar-tools');
  assert.equal(meta.name, 'psconfig-vscode');
  assert.equal(meta.displayName, 'perfSONAR pSConfig');
  assert.ok(meta.description.length > 20);
  assert.equal(meta.properties.get('Microsoft.VisualStudio.Services.Links.Source'), `${REPO_URL}.git`);
  assert.equal(meta.properties.get('Microsoft.VisualStudio.Services.Links.Support'), `${REPO_URL}/issues`);
  assert.equal(meta.properties.get('Microsoft.VisualStudio.Services.Links.Learn'), `${REPO_URL}#readme`);
  assert.match(meta.properties.get('Microsoft.VisualStudio.Services.Branding.Color') ?? '', /^#[0-9a-f]{6}$/i);
  for (const k of ['perfSONAR', 'pSConfig', 'pScheduler']) assert.ok(meta.tags.includes(k), `keyword ${k}`);
  // The Marketplace shows at most 30 keywords' worth of tags; vsce refuses more.
  assert.ok(manifest.keywords.length <= 30);
  assert.equal(manifest.license, 'Apache-2.0');
  assert.equal(meta.license, 'extension/LICENSE.txt');
  assert.equal(meta.assets.get('Microsoft.VisualStudio.Services.Content.Changelog'), 'extension/changelog.md');
  assert.match(entry('extension/changelog.md').read().toString('utf8'), /^# Changelog\n/);
});

test('Open VSX would accept it: its publishing client and server checks, reproduced offline', () => {
  const manifest = JSON.parse(entry('extension/package.json').read().toString('utf8')) as Manifest;
  const meta = readVsixManifest(entry('extension.vsixmanifest').read().toString('utf8'));
  const folder = readdirSync(stage).filter((f) => statSync(join(stage, f)).isFile());
  assert.deepEqual(openVsxIssues(meta, manifest, entries, folder), []);
  // The checks do catch what they are for.
  const broken = { ...meta, name: 'psconfig vscode', version: 'latest', tags: ['a\u0000b'] };
  broken.properties = new Map(meta.properties).set('Microsoft.VisualStudio.Services.Branding.Theme', 'blue');
  const issues = openVsxIssues(broken, { ...manifest, license: undefined }, entries, ['README.md']);
  for (const m of [
    /invalid extension name/,
    /reserved/,
    /invalid character in 'keywords'/,
    /galleryBanner\.theme/,
    /license/,
  ])
    assert.ok(
      issues.some((i) => m.test(i)),
      `${m} in ${issues.join(' | ')}`,
    );
});

test('the packaged README: every link and picture points at a file of this repository, pictures as PNG', (t) => {
  const readme = entry('extension/readme.md').read().toString('utf8');
  const links = [...readme.matchAll(/(!?)\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)|<img\b[^>]*\bsrc="([^"]+)"/g)].map(
    (m) => ({
      image: m[1] === '!' || m[3] !== undefined,
      url: m[2] ?? m[3],
    }),
  );
  const images = links.filter((l) => l.image);
  t.diagnostic(`${links.length} links, ${images.length} pictures: ${images.map((i) => i.url).join(' ')}`);
  for (const { image, url } of links) {
    if (url.startsWith('#')) continue; // a heading on the same page
    assert.match(url, /^(https|mailto):/, `a link the Marketplace cannot follow: ${url}`);
    if (!url.startsWith(`${REPO_URL}/`)) continue; // a link to another site
    // vsce rewrites a relative link to /blob/HEAD/PATH and a relative picture to /raw/HEAD/PATH.
    const m = /^\/(blob|raw)\/HEAD\/([^#?]+)/.exec(url.slice(REPO_URL.length));
    assert.ok(m, `a repository link vsce did not make: ${url}`);
    assert.equal(m[1], image ? 'raw' : 'blob', `${url}: pictures are served raw, pages as blobs`);
    const path = decodeURIComponent(m[2]);
    assert.ok(existsSync(join(root, path)), `${url} points at ${path}, which is not in the repository`);
    if (image) assert.match(basename(path), /\.png$/, `${path}: the Marketplace shows PNG pictures, not SVG`);
  }
  // Pictures the README shows come from docs/images/, committed (npm run screenshots makes them), and every one the
  // README in the repository shows is in the packaged README, at the address the gallery loads it from.
  for (const { url } of images.filter((i) => i.url.startsWith(REPO_URL)))
    assert.match(url, /\/raw\/HEAD\/docs\/images\/[a-z0-9-]+\.png$/, `${url} is not under docs/images/`);
  const source = readFileSync(join(root, 'README.md'), 'utf8');
  const shown = [...source.matchAll(/!\[[^\]]*\]\((docs\/images\/[^)\s]+)\)/g)].map(
    (m) => `${REPO_URL}/raw/HEAD/${m[1]}`,
  );
  assert.ok(shown.length >= 5, `the README shows ${shown.length} screenshots`);
  assert.deepEqual(
    images.map((i) => i.url),
    shown,
  );
});
