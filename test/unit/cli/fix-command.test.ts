// `psconfig-tools fix` as users run it (the bundled dist/cli.js in a child process): the unified diff is one
// `git apply` accepts and turns the file into exactly what --write writes; --write keeps mode and CRLF, refuses
// files it could not write back byte for byte; --only and --archive-host; every real example: after --write,
// `validate` reports none of the fixed codes but what `fix` listed as unfixable, and a second run changes nothing.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { examplesDir, exampleFiles, repoRoot } from '../../fixtures';
import { FIXABLE_CODES } from '../../../server/src/template/fixes/fixes';

const root = repoRoot();
const cliJs = join(root, 'dist', 'cli.js');
const dir = mkdtempSync(join(tmpdir(), 'cli-fix-'));
after(() => rmSync(dir, { recursive: true, force: true }));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cli(args: string[], options: { cwd?: string; input?: string } = {}): Run {
  const r = spawnSync(process.execPath, [cliJs, ...args], {
    encoding: 'utf8',
    timeout: 120_000,
    cwd: options.cwd ?? dir,
    input: options.input,
    env: { ...process.env, JQ_PATH: process.env.JQ_PATH || '/usr/bin/jq' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function copyExample(name: string, as = name): string {
  const p = join(dir, as);
  copyFileSync(join(examplesDir, name), p);
  return p;
}

test('the diff applies with git apply and gives exactly what --write writes', () => {
  for (const name of ['pwa--publisher1-multi-mas.json', 'qa--throughput3-psconfig.json', 'psconfig--skeleton.json']) {
    const work = mkdtempSync(join(dir, 'apply-'));
    copyFileSync(join(examplesDir, name), join(work, 't.json'));
    const diff = cli(['fix', 't.json'], { cwd: work });
    assert.ok(diff.stdout.startsWith('--- t.json\n+++ t.json\n@@ '), diff.stdout.slice(0, 200));
    writeFileSync(join(work, 'fix.diff'), diff.stdout);
    const applied = spawnSync('git', ['apply', '-p0', '--unsafe-paths', 'fix.diff'], { cwd: work, encoding: 'utf8' });
    assert.equal(applied.status, 0, applied.stderr);
    const patched = readFileSync(join(work, 't.json'), 'utf8');
    copyFileSync(join(examplesDir, name), join(work, 'w.json'));
    cli(['fix', 'w.json', '--write'], { cwd: work });
    assert.equal(patched, readFileSync(join(work, 'w.json'), 'utf8'), name);
  }
});

test('every example: after --write, validate reports none of the fixed codes but the unfixable, listed with why', () => {
  for (const name of exampleFiles()) {
    const p = copyExample(name);
    const r = cli(['fix', p, '--write']);
    assert.ok(r.code === 0 || r.code === 1, `${name}: ${r.stderr}`);
    const unfixed = r.stderr.split('\n').filter((l) => l.includes(': not fixed '));
    assert.equal(r.code, unfixed.length ? 1 : 0, name);
    const v = cli(['validate', p, '--format', 'json', '--no-jq']);
    const left = (JSON.parse(v.stdout) as { code: string; line: number; column: number; message: string }[]).filter(
      (d) =>
        (FIXABLE_CODES as readonly string[]).includes(d.code) &&
        (!d.code.endsWith('unknown-property') || d.message.startsWith('`_meta`')),
    );
    assert.deepEqual(
      left.map((d) => `${p}:${d.line}:${d.column}: not fixed ${d.code}`),
      unfixed.map((l) => l.slice(0, l.indexOf(':', l.indexOf('not fixed')))),
      name,
    );
    const again = cli(['fix', p]);
    assert.equal(again.stdout, '', `${name}: a second run changes nothing`);
    assert.match(again.stderr, /nothing to fix/);
  }
});

test('--write keeps the file mode, CRLF line ends, a byte order mark, and writes through a symbolic link', () => {
  const crlf = readFileSync(join(examplesDir, 'psconfig--t-inputs-invalid.json'), 'utf8').replace(/\n/g, '\r\n');
  const p = join(dir, 'crlf.json');
  writeFileSync(p, `\ufeff${crlf}`);
  chmodSync(p, 0o640);
  const link = join(dir, 'link.json');
  symlinkSync(p, link);
  const r = cli(['fix', link, '--write']);
  assert.equal(r.code, 0, r.stderr);
  const out = readFileSync(p, 'utf8');
  assert.ok(out.startsWith('\ufeff{\r\n'));
  assert.equal(out.replace(/\r\n/g, '').includes('\n'), false, 'no bare LF');
  assert.equal(
    out.replace(/\$group::(\d)/g, '{% address[$1] %}').replace('$requesting-agent', '{% scheduled_by_address %}'),
    out,
  );
  assert.equal(
    out,
    `\ufeff${crlf}`
      .replace(/\$group::(\d)/g, '{% address[$1] %}')
      .replace('$requesting-agent', '{% scheduled_by_address %}'),
  );
  assert.equal(statSync(p).mode & 0o777, 0o640);
  assert.ok(statSync(link).isFile() && readFileSync(link, 'utf8') === out, 'the link still points at the file');
});

test('a file that is not valid UTF-8 is not written (it could not be written back byte for byte)', () => {
  const p = join(dir, 'latin1.json');
  const text = readFileSync(join(examplesDir, 'psconfig--t-inputs-invalid.json'), 'utf8').replace(
    '"example-task-trace": {',
    '"example-task-trace": { "#note": "caf\u00e9",',
  );
  const bytes = Buffer.from(text, 'latin1');
  writeFileSync(p, bytes);
  const r = cli(['fix', p, '--write']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /not valid UTF-8.*nothing written/);
  assert.ok(readFileSync(p).equals(bytes));
});

test('--only and --archive-host; bad usage exits 2 and says why', () => {
  const p = copyExample('perl-shared--client-psconfig-addressclasses.json', 'only.json');
  const only = cli(['fix', p, '--only', 'legacy-placeholder']);
  assert.equal(only.code, 0, only.stderr);
  assert.ok(only.stdout.includes('+                "source": "{% address[0] %}",'));
  assert.ok(!only.stdout.includes('logstash'));
  assert.ok(only.stdout.includes('+                "measurement-agent": "{% scheduled_by_address %}"'));
  assert.match(only.stderr, /3 fixes \(legacy-placeholder 3\)/);

  const local = join(dir, 'local.json');
  writeFileSync(
    local,
    JSON.stringify(
      {
        archives: { a: { archiver: 'http', data: { schema: 2, _url: 'http://localhost:11283' } } },
        addresses: { x: { address: 'x.example.net' }, y: { address: 'y.example.net' } },
        groups: { g: { type: 'mesh', addresses: [{ name: 'x' }, { name: 'y' }] } },
        // run (and archived) from address[1], scheduled by address[0]: localhost is not the scheduling host
        tests: { t: { type: 'rtt', spec: { source: '{% address[1] %}', dest: '{% address[0] %}' } } },
        tasks: { t: { group: 'g', test: 't', archives: ['a'] } },
      },
      null,
      2,
    ),
  );
  const host = cli(['fix', local, '--archive-host', 'ma.example.net']);
  assert.ok(host.stdout.includes('+        "_url": "https://ma.example.net/logstash"'), host.stdout);
  const own = cli(['fix', local]);
  assert.ok(own.stdout.includes('+        "_url": "https://{% scheduled_by_address %}/logstash"'), own.stdout);

  for (const [args, message] of [
    [['fix'], /no TEMPLATE given/],
    [['fix', local, '--only', 'unknown-group'], /`unknown-group` has no fix; fixable codes: esmond-archiver/],
    [['fix', local, '--archive-host', 'localhost'], /this machine again/],
    [['fix', local, '--archive-host', 'http://ma/'], /not a host name/],
    [['fix', '-', '--write'], /--write needs a file/],
    [['fix', join(dir, 'missing.json')], /ENOENT/],
  ] as [string[], RegExp][]) {
    const r = cli(args);
    assert.equal(r.code, 2, args.join(' '));
    assert.match(r.stderr, message);
  }
  const broken = join(dir, 'broken.json');
  writeFileSync(broken, '{"archives": {');
  const b = cli(['fix', broken, '--write']);
  assert.equal(b.code, 2);
  assert.match(b.stderr, /broken\.json:1:\d+: .*fix the syntax first; nothing changed/);
  assert.equal(readFileSync(broken, 'utf8'), '{"archives": {');
});

test('standard input: the diff of what came in', () => {
  const text = readFileSync(join(examplesDir, 'psconfig--skeleton.json'), 'utf8');
  const r = cli(['fix', '-'], { input: text });
  assert.equal(r.code, 0, r.stderr);
  assert.ok(r.stdout.startsWith('--- -\n+++ -\n'));
  assert.match(r.stdout, /^\+ {12}"_meta": \{$/m);
});
