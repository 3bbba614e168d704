// From a MeshConfig file to a template perfSONAR 5 runs, as users do it on the command line (the bundled dist/cli.js
// in child processes): `translate FILE -o T`, then `fix T --write`. The translation keeps pSConfig's esmond archives
// (docs/migration.md says why); the fix turns them into logstash http archives. Afterwards `validate` reports no
// error and no diagnostic of a fixed code, and `expand` gives the same agents, tasks and address pairs as the
// translation did before the fix — which real-files.test.ts compares with what pSConfig's own translator makes.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { meshconfigDir, repoRoot } from '../../fixtures';
import { FIXABLE_CODES } from '../../../server/src/template/fixes/fixes';

const dir = mkdtempSync(join(tmpdir(), 'translate-then-fix-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function cli(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [join(repoRoot(), 'dist', 'cli.js'), ...args], {
    encoding: 'utf8',
    timeout: 120_000,
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, JQ_PATH: process.env.JQ_PATH || '/usr/bin/jq' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** `agent: task a -> b` per combination, in expansion order, and whether any combination failed. */
function combinations(file: string): string[] {
  const r = cli('expand', file);
  assert.equal(r.code, 0, r.stderr);
  return (JSON.parse(r.stdout) as { task: string; addresses: string[]; agent?: string; error?: string }[]).map(
    (c) => `${c.agent}: ${c.task} ${c.addresses.join(' -> ')}${c.error ? ` (${c.error})` : ''}`,
  );
}

const files = readdirSync(meshconfigDir).filter((f) => f.endsWith('.json'));

/** Per file, the esmond archives its translation had (what the fix turns into http archives). */
const esmondPerFile = new Map<string, number>();

test('the files checked here are the real MeshConfig files INDEX.md documents, one test each', () => {
  const index = readFileSync(join(meshconfigDir, 'INDEX.md'), 'utf8');
  const documented = [...index.matchAll(/^\| `([^`]+\.json)` \|/gm)].map((m) => m[1]);
  assert.deepEqual([...files].sort(), [...documented].sort());
});

for (const file of files) {
  test(`${file}: translate, then fix --write: no error, none of the fixed codes, the same agents, tasks and pairs`, () => {
    const t = join(dir, file.replace(/\.json$/, '.psconfig.json'));
    const translated = cli('translate', join(meshconfigDir, file), '-o', t, '-q');
    assert.equal(translated.code, 0, translated.stderr);
    const before = combinations(t);
    assert.ok(before.length > 0);
    const esmond = (readFileSync(t, 'utf8').match(/"archiver": "esmond"/g) ?? []).length;
    esmondPerFile.set(file, esmond);

    const fixed = cli('fix', t, '--write');
    assert.equal(fixed.code, 0, fixed.stderr);
    const applied = fixed.stderr.split('\n').filter((l) => l.includes(': fixed psconfig/esmond-archiver:'));
    assert.equal(applied.length, esmond, fixed.stderr);
    const text = readFileSync(t, 'utf8');
    assert.ok(!text.includes('"archiver": "esmond"'));
    assert.equal((text.match(/"_url": "https:\/\/[^"]+\/logstash"/g) ?? []).length, esmond);

    const v = cli('validate', t, '--format', 'json');
    const diagnostics = JSON.parse(v.stdout) as { code: string; severity: string; message: string }[];
    assert.deepEqual(
      diagnostics
        .filter((d) => d.severity === 'error' || (FIXABLE_CODES as readonly string[]).includes(d.code))
        .map((d) => `${d.severity} ${d.code} ${d.message}`),
      [],
    );
    assert.equal(v.code, 0, v.stderr);
    assert.deepEqual(combinations(t), before);
  });
}

test('between them the files exercise the fix both ways: esmond archives replaced, and a mesh with none left alone', () => {
  assert.equal(esmondPerFile.size, files.length, 'every file was translated and fixed above');
  const counts = [...esmondPerFile.values()];
  assert.ok(
    counts.some((n) => n > 0),
    JSON.stringify([...esmondPerFile]),
  );
  assert.equal(esmondPerFile.get('pwa--testbed2-noarchives.json'), 0, 'INDEX.md: no measurement archives');
});
