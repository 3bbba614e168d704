// The examples are a contract: every file in examples/ is described in examples/README.md and validates, through
// the built `psconfig-tools validate` as a user runs it, with no error and no warning but the ones that README's
// "Expected problems" table lists (file, severity, code, count).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../fixtures';

const root = repoRoot();
const examplesDir = join(root, 'examples');
const readme = readFileSync(join(examplesDir, 'README.md'), 'utf8');

/** The rows of the README's "Expected problems" table as `file severity code` → count. */
function expectedProblems(): Map<string, number> {
  const section = readme.split(/^## Expected problems$/m)[1];
  assert.ok(section, 'examples/README.md has an "Expected problems" section');
  const out = new Map<string, number>();
  for (const line of section.split('\n')) {
    const m = /^\| `([^`]+)` \| (error|warning) \| `([^`]+)` \| (\d+) \|/.exec(line);
    if (m) out.set(`${m[1]} ${m[2]} ${m[3]}`, Number(m[4]));
  }
  assert.ok(out.size > 0, 'the table has rows');
  return out;
}

interface Problem {
  file: string;
  severity: string;
  code: string;
  line: number;
  message: string;
}

test('every example validates with no error or warning but the expected ones', () => {
  const files = readdirSync(examplesDir)
    .filter((f) => f.endsWith('.psconfig.json'))
    .sort();
  assert.ok(files.length >= 6, files.join(', '));
  for (const f of files) assert.ok(readme.includes(`| \`${f}\` |`), `${f} is described in examples/README.md`);
  const r = spawnSync(
    process.execPath,
    [join(root, 'dist', 'cli.js'), 'validate', '--format', 'json', ...files.map((f) => join('examples', f))],
    {
      cwd: root,
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, JQ_PATH: process.env.JQ_PATH || '/usr/bin/jq' },
    },
  );
  const problems = JSON.parse(r.stdout) as Problem[];
  const found = new Map<string, number>();
  const shown: string[] = [];
  for (const p of problems) {
    if (p.severity !== 'error' && p.severity !== 'warning') continue;
    const key = `${p.file.replace(/^examples\//, '')} ${p.severity} ${p.code}`;
    found.set(key, (found.get(key) ?? 0) + 1);
    shown.push(`${p.file}:${p.line} ${p.severity} ${p.code} ${p.message}`);
  }
  assert.deepEqual(Object.fromEntries(found), Object.fromEntries(expectedProblems()), shown.join('\n'));
  // The exit code follows the errors: only the skeleton's placeholders make it 1.
  assert.equal(r.status, [...found.keys()].some((k) => k.includes(' error ')) ? 1 : 0, r.stderr);
});
