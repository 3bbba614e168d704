// `psconfig-tools validate` in pipelines, through the built CLI: SARIF 2.1.0 (checked against the SARIF schema),
// --quiet, severity overrides, the summary line, standard input and URL inputs with a time limit.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { repoRoot, sarifSchemaPath } from '../../fixtures';

const root = repoRoot();
const cliJs = join(root, 'dist', 'cli.js');
const dir = mkdtempSync(join(tmpdir(), 'cli-pipeline-'));
after(() => rmSync(dir, { recursive: true, force: true }));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function validate(args: string[], options: { cwd?: string; input?: string } = {}): Run {
  const r = spawnSync(process.execPath, [cliJs, 'validate', ...args], {
    encoding: 'utf8',
    timeout: 60_000,
    cwd: options.cwd ?? root,
    input: options.input,
    env: { ...process.env, JQ_PATH: process.env.JQ_PATH || '/usr/bin/jq' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The same, asynchronously (for a test that also runs an HTTP server in this process). */
function validateAsync(args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cliJs, 'validate', ...args], { cwd: root });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

// One error (unknown test), one warning (duplicate key), two hints (test and schedule unused: the later `test` wins).
const broken = `{
  "addresses": { "a": { "address": "a.example.net" }, "b": { "address": "b.example.net" } },
  "groups": { "g": { "type": "mesh", "addresses": [ { "name": "a" }, { "name": "b" } ] } },
  "tests": { "t": { "type": "rtt", "spec": { "dest": "{% address[1] %}" } } },
  "schedules": { "unused": { "repeat": "PT1H" } },
  "tasks": { "task": { "group": "g", "test": "tt", "test": "nope" } }
}
`;
const brokenPath = join(dir, 'broken.psconfig.json');
writeFileSync(brokenPath, broken);

test('SARIF 2.1.0 output validates against the SARIF schema and locates every result', () => {
  // (example-1's only findings are Grafana notes, its tasks having no display-task-name, and the credentials its
  // archive host wants for /logstash, said allowed by IP here: left out, where every result is expected in
  // broken.psconfig.json)
  const r = validate(
    [
      '--format',
      'sarif',
      '--ignore',
      'grafana-no-display-name',
      '--ip-allowed-host',
      'archive.perfsonar.net',
      brokenPath,
      'examples/example-1-simple.psconfig.json',
    ],
    { cwd: root },
  );
  assert.equal(r.code, 1, r.stderr);
  const log = JSON.parse(r.stdout) as {
    version: string;
    runs: {
      tool: { driver: { rules: { id: string }[] } };
      columnKind: string;
      results: {
        ruleId: string;
        ruleIndex: number;
        level: string;
        message: { text: string };
        locations: {
          physicalLocation: {
            artifactLocation: { uri: string; uriBaseId?: string };
            region: { startLine: number; startColumn: number };
          };
        }[];
      }[];
    }[];
  };
  // The schema's pattern for `language` is not valid as a unicode regular expression: compile patterns without `u`.
  const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
  addFormats(ajv);
  const validateSarif = ajv.compile(JSON.parse(readFileSync(sarifSchemaPath, 'utf8')) as object);
  assert.ok(validateSarif(log), JSON.stringify(validateSarif.errors, null, 1));
  assert.equal(log.version, '2.1.0');
  const run = log.runs[0];
  assert.equal(run.columnKind, 'utf16CodeUnits');
  // Worst first (the error is last in the document).
  assert.deepEqual(
    run.results.map((x) => [x.ruleId, x.level]),
    [
      ['psconfig/unknown-test', 'error'],
      ['psconfig/duplicate-key', 'warning'],
      ['psconfig/unused-definition', 'note'],
      ['psconfig/unused-definition', 'note'],
    ],
  );
  for (const x of run.results) {
    assert.equal(run.tool.driver.rules[x.ruleIndex].id, x.ruleId);
    // Outside the working directory (a temporary folder): an absolute file: URI.
    assert.match(x.locations[0].physicalLocation.artifactLocation.uri, /^file:\/\/\/.*broken\.psconfig\.json$/);
  }
  const unknown = run.results.find((x) => x.ruleId === 'psconfig/unknown-test');
  assert.deepEqual(unknown?.locations[0].physicalLocation.region.startLine, 6);
  // Inside the working directory: relative to %SRCROOT%, as GitHub code scanning expects.
  const rel = validate(['--format', 'sarif', 'broken.psconfig.json'], { cwd: dir });
  const loc = (JSON.parse(rel.stdout) as typeof log).runs[0].results[0].locations[0].physicalLocation.artifactLocation;
  assert.deepEqual(loc, { uri: 'broken.psconfig.json', uriBaseId: 'SRCROOT' });
});

test('summary line on stderr; --quiet prints errors only and no summary', () => {
  // (its archive host, said to allow the testers by IP: no credentials needed, no archive-logstash-auth warning)
  const clean = validate(['examples/example-1-simple.psconfig.json', '--ip-allowed-host', 'archive.perfsonar.net']);
  assert.equal(clean.code, 0);
  // Its three tasks set no reference.display-task-name: perfSONAR 5's Grafana grids of them stay empty (notes).
  assert.deepEqual(
    clean.stdout
      .trim()
      .split('\n')
      .map((l) => l.split(' ').slice(1, 3).join(' ')),
    Array(3).fill('information psconfig/grafana-no-display-name'),
  );
  assert.equal(clean.stderr, 'psconfig-tools validate: 1 template checked: 0 errors, 0 warnings, 3 notes\n');
  const full = validate([brokenPath]);
  assert.equal(full.stdout.trim().split('\n').length, 4);
  assert.match(full.stderr, /1 template checked: 1 error, 1 warning, 2 notes\n$/);
  const quiet = validate(['--quiet', brokenPath]);
  assert.equal(quiet.code, 1);
  assert.equal(quiet.stderr, '');
  assert.deepEqual(
    quiet.stdout
      .trim()
      .split('\n')
      .map((l) => l.split(' ')[2]),
    ['psconfig/unknown-test'],
  );
});

test('severity overrides per code: --ignore, --error, --severity; unknown codes are refused with a suggestion', () => {
  const ignored = validate(['--ignore', 'unknown-test,psconfig/unused-definition', brokenPath]);
  assert.equal(ignored.code, 0, 'the only error is ignored');
  assert.deepEqual(
    ignored.stdout
      .trim()
      .split('\n')
      .map((l) => l.split(' ')[2]),
    ['psconfig/duplicate-key'],
  );
  const raised = validate(['--error', 'duplicate-key', '--ignore', 'unknown-test', brokenPath]);
  assert.equal(raised.code, 1, 'the duplicate key is now an error');
  assert.match(raised.stdout, /: error psconfig\/duplicate-key /);
  const json = validate(['--format', 'json', '--severity', 'unused-definition=warning', brokenPath]);
  const rows = JSON.parse(json.stdout) as { code: string; severity: string }[];
  assert.equal(rows.find((d) => d.code === 'psconfig/unused-definition')?.severity, 'warning');
  const typo = validate(['--ignore', 'unknown-tset', brokenPath]);
  assert.equal(typo.code, 2);
  assert.match(typo.stderr, /unknown diagnostic code "unknown-tset" \(did you mean psconfig\/unknown-test\?\)/);
  const bad = validate(['--severity', 'unknown-test=loud', brokenPath]);
  assert.equal(bad.code, 2);
});

test('standard input is an input', () => {
  const r = validate(['-'], { input: broken });
  assert.equal(r.code, 1);
  assert.match(r.stdout, /^-:6:\d+: error psconfig\/unknown-test /m);
});

test('URL inputs: read over HTTP; an error status, a silent server and a huge body each fail within the limits', async () => {
  const server = createServer((req, res) => {
    if (req.url === '/t.json') res.end(broken);
    else if (req.url === '/silent') res.write('{');
    else if (req.url === '/huge') {
      // An endless body, as fast as the socket takes it (no length announced).
      const chunk = Buffer.alloc(4 << 20, 'x');
      res.write('{"x": "');
      const pump = (): void => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    } else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const ok = await validateAsync([`${base}/t.json`]);
    assert.equal(ok.code, 1);
    assert.match(ok.stdout, new RegExp(`^${base}/t\\.json:6:61: error psconfig/unknown-test `, 'm'));
    const missing = await validateAsync([`${base}/missing.json`]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /cannot read .*missing\.json: HTTP 404/);
    const started = Date.now();
    const silent = await validateAsync(['--timeout', '1', `${base}/silent`]);
    assert.equal(silent.code, 2);
    assert.match(silent.stderr, /no complete answer from .*\/silent within 1 s/);
    assert.ok(Date.now() - started < 15_000);
    const huge = await validateAsync([`${base}/huge`]);
    assert.equal(huge.code, 2);
    assert.match(huge.stderr, /answers more than the limit of 64 MB/);
  } finally {
    server.closeAllConnections();
    server.close();
  }
});
