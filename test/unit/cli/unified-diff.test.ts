// cli/unified-diff.ts against an independent reader of unified diffs: git apply must turn the old text into the new
// one, for hand-picked edge cases (no final newline, CRLF, insertions at the start and end, empty sides) and for
// seeded random edits of real templates. Also: hunks stay small (a change in a large file shows only its context).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unifiedDiff } from '../../../cli/unified-diff';
import { examplePath } from '../../fixtures';
import { Random } from '../../fuzz/random';

const dir = mkdtempSync(join(tmpdir(), 'unified-diff-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** What git apply makes of `before` with our diff. */
function gitApply(before: string, after: string): string {
  writeFileSync(join(dir, 'f'), before);
  const diff = unifiedDiff(before, after, 'f', 'f');
  if (diff === '') return before;
  writeFileSync(join(dir, 'f.diff'), diff);
  const r = spawnSync('git', ['apply', '-p0', '--unsafe-paths', '--whitespace=nowarn', 'f.diff'], {
    cwd: dir,
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, `${r.stderr}\n${diff}`);
  return readFileSync(join(dir, 'f'), 'utf8');
}

test('edge cases git apply reads back', () => {
  const cases: [string, string][] = [
    ['a\nb\nc\n', 'a\nB\nc\n'],
    ['a\nb\nc', 'a\nb\nc\n'],
    ['a\nb\nc\n', 'a\nb\nc'],
    ['a\nb', 'a\nc'],
    ['x\n', 'y\nx\n'],
    ['x\n', 'x\ny\n'],
    ['a\r\nb\r\nc\r\n', 'a\r\nB\r\nb\r\nc\r\n'],
    ['1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n', '1\nX\n3\n4\n5\n6\n7\n8\n9\n10\nY\n12\n'],
    ['only\n', 'only\nmore\n'],
  ];
  for (const [a, b] of cases) assert.equal(gitApply(a, b), b, JSON.stringify([a, b]));
  assert.equal(unifiedDiff('same\n', 'same\n', 'f', 'f'), '');
});

test('the format: header, counts, context of three lines, far changes in separate hunks', () => {
  const a = Array.from({ length: 30 }, (_, i) => `line ${i + 1}\n`).join('');
  const b = a.replace('line 5\n', 'five\n').replace('line 25\n', 'twenty-five\n');
  assert.equal(
    unifiedDiff(a, b, 'x', 'x'),
    [
      '--- x',
      '+++ x',
      '@@ -2,7 +2,7 @@',
      ' line 2',
      ' line 3',
      ' line 4',
      '-line 5',
      '+five',
      ' line 6',
      ' line 7',
      ' line 8',
      '@@ -22,7 +22,7 @@',
      ' line 22',
      ' line 23',
      ' line 24',
      '-line 25',
      '+twenty-five',
      ' line 26',
      ' line 27',
      ' line 28',
      '',
    ].join('\n'),
  );
});

test('seeded random line edits of a real template: git apply reproduces every one', () => {
  const base = readFileSync(examplePath('psconfig--example-2-testbed.json'), 'utf8').split('\n');
  for (let seed = 1; seed <= 40; seed++) {
    const rnd = new Random(seed);
    const r = (): number => rnd.next();
    const lines = [...base];
    const edits = 1 + Math.floor(r() * 12);
    for (let e = 0; e < edits; e++) {
      const at = Math.floor(r() * lines.length);
      const kind = r();
      if (kind < 0.33) lines.splice(at, 1 + Math.floor(r() * 3));
      else if (kind < 0.66) lines.splice(at, 0, `inserted ${seed}.${e}`);
      else lines[at] = `changed ${seed}.${e}`;
    }
    const after = lines.join('\n');
    assert.equal(gitApply(base.join('\n'), after), after, `seed ${seed}`);
  }
});
