// The diagnostic codes are one typed union (rules/codes.ts); the table of checks in docs/checks.md documents each of them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DIAGNOSTIC_CODES } from '../../../server/src/template/rules/codes';
import { repoRoot } from '../../fixtures';

const root = repoRoot();

/** Codes in the first column of the checks table (docs/checks.md); `psconfig/unknown-group`, `-test` abbreviates
 *  `psconfig/unknown-test`. */
function readmeCodes(): string[] {
  const readme = readFileSync(join(root, 'docs', 'checks.md'), 'utf8');
  const out: string[] = [];
  for (const line of readme.split('\n')) {
    if (!line.startsWith('| `psconfig/')) continue;
    const cell = line.split('|')[1];
    const names = [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
    const stem = /^(psconfig\/[a-z]+)-/.exec(names[0])?.[1];
    for (const n of names) out.push(n.startsWith('-') ? `${stem}${n}` : n);
  }
  return out;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? sourceFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

test('every diagnostic code is in the table of docs/checks.md, and every code there is one of them', () => {
  const documented = readmeCodes();
  const codes: readonly string[] = DIAGNOSTIC_CODES;
  assert.deepEqual(
    codes.filter((c) => !documented.includes(c)),
    [],
    'codes missing from the table in docs/checks.md',
  );
  assert.deepEqual(
    documented.filter((c) => !codes.includes(c)),
    [],
    'rows in docs/checks.md for codes nothing defines',
  );
  assert.equal(new Set(documented).size, documented.length, 'a code documented twice');
});

test('every code is raised somewhere in the server', () => {
  const text = sourceFiles(join(root, 'server', 'src'))
    .filter((f) => !f.endsWith(join('rules', 'codes.ts')))
    .map((f) => readFileSync(f, 'utf8'))
    .join('\n');
  assert.deepEqual(
    DIAGNOSTIC_CODES.filter((c) => !text.includes(`'${c}'`)),
    [],
  );
});
