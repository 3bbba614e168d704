// One option rule in every psconfig-tools command (docs/cli.md, "Options"), through the built CLI (node dist/cli.js):
// -h or --help anywhere prints the usage on stdout and exits 0, whatever else the arguments hold; otherwise an
// unknown option, and a value given to an option that takes none (`--runs=no`), stop the command with
// `psconfig-tools COMMAND: PROBLEM`, the usage, exit 2, before any input is read. The scanner itself: options.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '../../fixtures';

const cliJs = join(repoRoot(), 'dist', 'cli.js');

function run(args: string[]): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [cliJs, ...args], { encoding: 'utf8', env: { ...process.env } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/**
 * Each command as it is invoked (archive with a subcommand), an input that does not exist (nothing is read before
 * the arguments are), and one option of the command that takes no value (hosts has none).
 */
const COMMANDS: { words: string[]; input: string[]; flag?: string; prefix: string }[] = [
  { words: ['validate'], input: ['none.json'], flag: '--quiet', prefix: 'validate' },
  { words: ['expand'], input: ['none.json'], flag: '--include-refused', prefix: 'expand' },
  { words: ['diff'], input: ['old.json', 'new.json'], flag: '--report-only', prefix: 'diff' },
  { words: ['dashboard'], input: ['none.json'], flag: '--token-on-reads', prefix: 'dashboard' },
  { words: ['fix'], input: ['none.json'], flag: '--write', prefix: 'fix' },
  { words: ['translate'], input: ['none.json'], flag: '--as-4x', prefix: 'translate' },
  { words: ['schedule'], input: ['none.json'], flag: '--runs', prefix: 'schedule' },
  { words: ['hosts'], input: ['none.json'], prefix: 'hosts' },
  {
    words: ['archive', 'search'],
    input: ['http://127.0.0.1:9/esmond/perfsonar/archive/'],
    flag: '--token-on-reads',
    prefix: 'archive',
  },
  {
    words: ['archive', 'get'],
    input: ['http://127.0.0.1:9/x/throughput/base'],
    flag: '--token-on-reads',
    prefix: 'archive',
  },
  { words: ['archive', 'register'], input: ['http://127.0.0.1:9/', 'meta.json'], prefix: 'archive' },
];

for (const c of COMMANDS) {
  const name = c.words.join(' ');

  test(`${name}: -h or --help wins wherever it stands, whatever else is there`, () => {
    const alone = run([...c.words, '--help']);
    assert.equal(alone.code, 0, alone.err);
    assert.match(alone.out, new RegExp(`^usage:\\s+psconfig-tools ${c.words[0]} `));
    assert.equal(alone.err, '');
    const spellings = [
      [...c.words, '-h'],
      [...c.words, ...c.input, '--bogus', '--help'],
      [...c.words, '--help', '--bogus', ...c.input],
      [...c.words, '--timeout', '--help'],
      ...(c.flag ? [[...c.words, `${c.flag}=no`, ...c.input, '-h']] : []),
    ];
    for (const argv of spellings) {
      const r = run(argv);
      assert.deepEqual(r, alone, argv.join(' '));
    }
  });

  test(`${name}: an unknown option is an error (exit 2, the usage after the message)`, () => {
    const usage = run([...c.words, '--help']).out;
    for (const [argv, problem] of [
      [[...c.words, ...c.input, '--bogus'], 'unknown option --bogus'],
      [[...c.words, '--bogus=1', ...c.input], 'unknown option --bogus=1'],
      [[...c.words, ...c.input, '-x'], 'unknown option -x'],
    ] as const) {
      const r = run([...argv]);
      assert.equal(r.code, 2, argv.join(' '));
      assert.equal(r.out, '');
      assert.equal(r.err, `psconfig-tools ${c.prefix}: ${problem}\n\n${usage}`);
    }
  });

  if (c.flag) {
    test(`${name}: a value given to ${c.flag}, which takes none, is an error`, () => {
      const usage = run([...c.words, '--help']).out;
      for (const value of ['no', '']) {
        const r = run([...c.words, ...c.input, `${c.flag}=${value}`]);
        assert.equal(r.code, 2);
        assert.equal(r.out, '');
        assert.equal(
          r.err,
          `psconfig-tools ${c.prefix}: ${c.flag} takes no value (got ${c.flag}=${value})\n\n${usage}`,
        );
      }
    });
  }
}

test('archive: each subcommand knows its own options, and no other subcommand’s', () => {
  const usage = run(['archive', '--help']).out;
  // --page-size is get's, --limit search's, --ts post's.
  for (const [argv, problem] of [
    [['archive', 'search', 'http://127.0.0.1:9/', '--page-size', '5'], 'unknown option --page-size'],
    [['archive', 'get', 'http://127.0.0.1:9/x/throughput/base', '--limit', '5'], 'unknown option --limit'],
    [['archive', 'bulk', 'http://127.0.0.1:9/k/', 'data.json', '--ts', '1'], 'unknown option --ts'],
  ] as [string[], string][]) {
    const r = run(argv);
    assert.equal(r.code, 2, argv.join(' '));
    assert.equal(r.err, `psconfig-tools archive: ${problem}\n\n${usage}`);
  }
  // No subcommand: the usage, as a usage error; `archive help`: the usage.
  assert.deepEqual(run(['archive']), { code: 2, out: usage, err: '' });
  assert.deepEqual(run(['archive', 'help']), { code: 0, out: usage, err: '' });
});

test('translate reads --output=FILE as every command reads --name=value', () => {
  const r = run(['translate', 'none.json', '--output=out.json', '--bogus']);
  // The scan got past --output=out.json (a known option with its value) to --bogus.
  assert.equal(r.code, 2);
  assert.match(r.err, /^psconfig-tools translate: unknown option --bogus\n/);
});
