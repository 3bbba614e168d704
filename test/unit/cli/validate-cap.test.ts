// The issue-21 case through the built CLI: a 16 MB inventory of ~73,000 addresses (~71,000 unused, each a hint)
// with one task naming a group that does not exist. The error comes first and sets the exit code; the summary
// counts every problem found; the cap's note says how many of each severity were left out. The same in the json
// and sarif formats (on a smaller inventory), and with severity overrides applied before the cut.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../../fixtures';
import { unusedInventory } from '../../generated-templates';

const root = repoRoot();
const dir = mkdtempSync(join(tmpdir(), 'cli-cap-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function validate(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [join(root, 'dist', 'cli.js'), 'validate', ...args], {
    encoding: 'utf8',
    timeout: 600_000, // 16 MB: seconds alone, minutes on a loaded 2-core machine
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, JQ_PATH: process.env.JQ_PATH || '/usr/bin/jq' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const n = (x: number): string => x.toLocaleString('en-US');

test('16 MB, one unknown group behind ~71,000 unused addresses: exit 1, the error first, every hint counted', () => {
  const inv = unusedInventory(16_000_000);
  assert.ok(inv.text.length <= 16 * 1024 * 1024 && inv.unused > 70_000, `${inv.text.length} chars, ${inv.unused}`);
  const file = join(dir, 'inventory.psconfig.json');
  writeFileSync(file, inv.text);
  const r = validate(file);
  assert.equal(r.code, 1, r.stderr);
  const lines = r.stdout.trimEnd().split('\n');
  assert.equal(lines.length, 5001, '5,000 shown and the note');
  assert.match(lines[0], /: error psconfig\/unknown-group .*no-such-group/);
  assert.ok(lines.slice(1, 5000).every((l) => / hint psconfig\/unused-definition /.test(l)));
  const hidden = inv.unused - 4999;
  assert.equal(
    lines[5000],
    `${file}:1:1: information psconfig/too-many-problems ${n(hidden)} more problems are not shown (${n(hidden)} hints); the 5,000 shown are the most severe, errors first.`,
  );
  assert.equal(
    r.stderr,
    `psconfig-tools validate: 1 template checked: 1 error, 0 warnings, ${n(inv.unused)} notes\n`,
    'the summary counts every problem found',
  );
});

interface JsonDiagnostic {
  severity: string;
  code: string;
  message: string;
  line: number;
}

test('json and sarif: the error first, the note last with its counts; overrides apply before the cut', () => {
  const inv = unusedInventory(1_200_000, 20);
  const file = join(dir, 'small-inventory.psconfig.json');
  writeFileSync(file, inv.text);
  const hidden = inv.unused - 4999;
  const json = validate('--format', 'json', file);
  assert.equal(json.code, 1);
  const list = JSON.parse(json.stdout) as JsonDiagnostic[];
  assert.equal(list.length, 5001);
  assert.equal(list[0].code, 'psconfig/unknown-group');
  assert.deepEqual(
    [list[5000].code, list[5000].severity, list[5000].line],
    ['psconfig/too-many-problems', 'information', 1],
  );
  assert.match(list[5000].message, new RegExp(`^${n(hidden)} more problems are not shown \\(${n(hidden)} hints\\)`));
  assert.match(json.stderr, new RegExp(`1 error, 0 warnings, ${n(inv.unused)} notes`));

  const sarif = validate('--format', 'sarif', file);
  assert.equal(sarif.code, 1);
  const results = (JSON.parse(sarif.stdout) as { runs: { results: { ruleId: string; level: string }[] }[] }).runs[0]
    .results;
  assert.equal(results.length, 5001);
  assert.deepEqual(results[0], { ...results[0], ruleId: 'psconfig/unknown-group', level: 'error' });
  assert.deepEqual(results[5000], { ...results[5000], ruleId: 'psconfig/too-many-problems', level: 'note' });

  // Every unused address raised to an error: the cut keeps 5,000 errors in document order (the unknown group, last
  // in the document, is among those left out), and the note counts the errors left out.
  const raised = JSON.parse(
    validate('--format', 'json', '--error', 'unused-definition', file).stdout,
  ) as JsonDiagnostic[];
  assert.equal(raised.length, 5001);
  assert.ok(raised.slice(0, 5000).every((x) => x.severity === 'error'));
  assert.match(
    raised[5000].message,
    new RegExp(`^${n(inv.unused + 1 - 5000)} more problems are not shown \\(${n(inv.unused + 1 - 5000)} errors\\)`),
  );
  // --quiet: the error alone, and the exit code still 1.
  const quiet = validate('--quiet', file);
  assert.equal(quiet.code, 1);
  assert.match(quiet.stdout, /^\S+ error psconfig\/unknown-group [^\n]*\n$/);
  // Ignored: nothing left out, no note.
  const ignored = validate('--format', 'json', '--ignore', 'unused-definition', file);
  assert.deepEqual(
    (JSON.parse(ignored.stdout) as JsonDiagnostic[]).map((x) => x.code),
    ['psconfig/unknown-group'],
  );
  assert.match(ignored.stderr, /1 error, 0 warnings, 0 notes/);
});
