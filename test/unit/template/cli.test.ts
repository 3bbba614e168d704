// `psconfig-tools validate` as users run it: the bundled dist/cli.js in a child process.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { examplesDir, repoRoot } from './helpers';

function cli(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  return cliIn(undefined, ...args);
}

function cliIn(cwd: string | undefined, ...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [join(repoRoot, 'dist', 'cli.js'), 'validate', ...args], {
    encoding: 'utf8',
    timeout: 60_000,
    cwd,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const ex = (f: string): string => join(examplesDir, f);

test('a valid template exits 0 with no output', () => {
  const r = cli(ex('testbed-pve--01-skeleton.json'));
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, '');
});

test('text format: file:line:col: severity code message; exit 1 on errors', () => {
  const f = ex('psconfig--t-inputs-invalid.json');
  const r = cli(f);
  assert.equal(r.code, 1);
  assert.deepEqual(r.stdout.trim().split('\n'), [
    `${f}:3:9: error psconfig/missing-property Archive \`example-archive-central\` is missing the required property \`archiver\` (the pScheduler archiver plugin, e.g. \`http\`, \`rabbitmq\`, \`syslog\`).`,
    `${f}:4:13: error psconfig/unknown-property \`archive\` is not a property of an archive; did you mean \`archiver\`?`,
    `${f}:7:39: error psconfig/legacy-placeholder \`$requesting-agent\` is a placeholder of pSConfig's drafts, which pSConfig never expands: pScheduler receives the text \`$requesting-agent\` as it is. Write \`{% scheduled_by_address %}\` (the variable that replaced it).`,
    ...[33, 41, 48].flatMap((line) => [
      `${f}:${line}:28: error psconfig/legacy-placeholder \`$group::0\` is a placeholder of pSConfig's drafts, which pSConfig never expands: pScheduler receives the text \`$group::0\` as it is. Write \`{% address[0] %}\` (the variable that replaced it).`,
      `${f}:${line + 1}:26: error psconfig/legacy-placeholder \`$group::1\` is a placeholder of pSConfig's drafts, which pSConfig never expands: pScheduler receives the text \`$group::1\` as it is. Write \`{% address[1] %}\` (the variable that replaced it).`,
    ]),
    // its tasks set no display-task-name: their perfSONAR 5 Grafana grids stay empty (docs/migration.md, Grafana)
    ...[
      [69, 'example-task-throughput'],
      [75, 'example-task-latencybg'],
      [80, 'example-task-trace'],
    ].map(
      ([line, task]) =>
        `${f}:${line}:10: information psconfig/grafana-no-display-name Grafana: this task has no \`reference.display-task-name\`. perfSONAR 5's Grafana agent draws its grid (titled "${task}") but finds results by that name (\`reference.display-task-name.keyword\`), which the archived results of this task do not carry: the grid stays empty.`,
    ),
  ]);
});

test('json format: 1-based ranges for every file', () => {
  const f1 = ex('qa--psconfig-netsage-mesh.json');
  const f2 = ex('perl-shared--client-psconfig-mesh.json');
  const r = cli(f1, f2, '--format', 'json');
  assert.equal(r.code, 1);
  const rows = JSON.parse(r.stdout) as {
    file: string;
    line: number;
    column: number;
    endLine: number;
    endColumn: number;
    severity: string;
    code: string;
    message: string;
  }[];
  const err = rows.filter((d) => d.severity === 'error');
  assert.equal(err.length, 1);
  assert.deepEqual(Object.keys(err[0]), [
    'file',
    'line',
    'column',
    'endLine',
    'endColumn',
    'severity',
    'code',
    'message',
  ]);
  assert.equal(err[0].file, f1);
  assert.equal(err[0].code, 'psconfig/unknown-address');
  assert.equal(err[0].line, 1);
  assert.equal(err[0].endColumn - err[0].column, '62.40.106.8'.length);
  assert.ok(rows.some((d) => d.file === f2 && d.code === 'psconfig/esmond-archiver'));
});

test('warnings only exit 0; an unreadable file exits 2; syntax errors exit 1', () => {
  assert.equal(cli(ex('perl-shared--client-psconfig-mesh.json')).code, 0);
  const missing = cli(ex('psconfig--example-1-simple.json'), '/nonexistent/x.json');
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /cannot read \/nonexistent\/x\.json/);
  const dir = mkdtempSync(join(tmpdir(), 'psc-'));
  const broken = join(dir, 'broken.json');
  writeFileSync(broken, '{"addresses": {');
  const r = cli(broken);
  assert.equal(r.code, 1);
  assert.match(r.stdout, /broken\.json:1:\d+: error psconfig\/syntax /);
  assert.equal(cli('--format', 'xml', broken).code, 2);
});

test('includes: relative paths from the current directory, as psconfig validate reads them', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cli-includes-'));
  const sub = join(dir, 'sub');
  mkdirSync(sub);
  writeFileSync(join(sub, 'defs.json'), JSON.stringify({ tests: { t: { type: 'rtt', spec: {} } } }));
  const main = join(sub, 'main.json');
  writeFileSync(
    main,
    JSON.stringify({
      addresses: { a: { address: 'a.example.net' } },
      groups: { g: { type: 'list', addresses: [{ name: 'a' }] } },
      tests: {},
      tasks: { task: { group: 'g', test: 't' } },
      includes: ['defs.json'],
    }),
  );
  // From the template's folder: found (with the relative-path warning), exit 0.
  const here = cliIn(sub, 'main.json');
  assert.equal(here.code, 0, here.stdout);
  assert.match(here.stdout, /warning psconfig\/include-relative/);
  // From its parent: pSConfig would not find it either; one error on the entry, the test is not reported apart.
  const parent = cliIn(dir, join('sub', 'main.json'));
  assert.equal(parent.code, 1);
  const errorLines = parent.stdout.split('\n').filter((l) => / error /.test(l));
  assert.equal(errorLines.length, 1, parent.stdout);
  assert.match(errorLines[0], /error psconfig\/include Error including defs\.json: no such file .*test `t`/);
});
