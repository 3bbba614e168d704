// `psconfig-tools diff` through the built CLI (node dist/cli.js): git revisions of a template in a temporary
// repository, the JSON shape of the issue, the exit status, URLs and standard input, hostile names in Markdown,
// and the Markdown example of docs/task-diff.md, which must be what the command prints.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exampleText, repoRoot, type TemplateFixture } from '../../fixtures';
import type { TaskDiffResult } from '../../../common/protocol';

const root = repoRoot();
const cliJs = join(root, 'dist', 'cli.js');
const env = { ...process.env, JQ_PATH: process.env.JQ_PATH || '/usr/bin/jq' };
const repo = mkdtempSync(join(tmpdir(), 'diff-cli-'));
after(() => rmSync(repo, { recursive: true, force: true }));

type Obj = TemplateFixture;

function git(...args: string[]): string {
  const r = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.net', ...args], {
    cwd: repo,
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

function run(args: string[], cwd = repo, input?: string): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [cliJs, 'diff', ...args], {
    cwd,
    env,
    encoding: 'utf8',
    input,
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const mesh = (): Obj => JSON.parse(exampleText('perl-shared--client-psconfig-mesh.json')) as Obj;
/** The docs' edit: host-c leaves the mesh, the throughput test runs 20 s instead of 30. */
function edited(): Obj {
  const t = mesh();
  delete t.addresses['host-c.perfsonar.net'];
  t.groups['example-group-mesh'].addresses.pop();
  t.tests['example-test-throughput'].spec.duration = 'PT20S';
  return t;
}
const write = (path: string, t: Obj): void => writeFileSync(join(repo, path), JSON.stringify(t, null, 4) + '\n');

before(() => {
  git('init', '-q');
  mkdirSync(join(repo, 'meshes'));
  write('meshes/mesh.psconfig.json', mesh());
  git('add', '.');
  git('commit', '-qm', 'mesh of three');
  write('meshes/mesh.psconfig.json', edited());
  git('commit', '-qam', 'host-c leaves; 20 s tests');
});

test('two git revisions: the issue’s JSON shape, the removed and changed tasks, exit 1', () => {
  const r = run(['HEAD~1:meshes/mesh.psconfig.json', 'HEAD:meshes/mesh.psconfig.json', '--format', 'json']);
  assert.equal(r.code, 1, r.err);
  const d = JSON.parse(r.out) as TaskDiffResult;
  assert.deepEqual(Object.keys(d).slice(0, 2), ['summary', 'agents']);
  assert.deepEqual(d.summary, { added: 0, removed: 4, changed: 2, agentsAffected: 3 });
  for (const a of d.agents) {
    assert.deepEqual(Object.keys(a), ['agent', 'added', 'removed', 'changed']);
    for (const e of [...a.added, ...a.removed]) assert.deepEqual(Object.keys(e), ['task', 'addresses']);
    for (const e of a.changed) assert.deepEqual(Object.keys(e), ['task', 'addresses', 'parts']);
  }
  assert.deepEqual(
    d.agents.find((a) => a.agent === 'host-a.perfsonar.net'),
    {
      agent: 'host-a.perfsonar.net',
      added: [],
      removed: [{ task: 'example-task-throughput', addresses: ['host-a.perfsonar.net', 'host-c.perfsonar.net'] }],
      changed: [
        {
          task: 'example-task-throughput',
          addresses: ['host-a.perfsonar.net', 'host-b.perfsonar.net'],
          parts: [{ part: 'test.spec.duration', old: 'PT30S', new: 'PT20S' }],
        },
      ],
    },
  );
  assert.equal(d.old.source, 'HEAD~1:meshes/mesh.psconfig.json');
  assert.deepEqual([d.old.tasks, d.new.tasks], [6, 2]);
});

test("each host's load before and after: its runs' share of the repeat, by hand from pScheduler's duration program", () => {
  const d = (
    JSON.parse(run(['HEAD~1:meshes/mesh.psconfig.json', 'HEAD:meshes/mesh.psconfig.json', '--format', 'json']).out) as {
      hosts: { host: string; exclusiveLoad: { old: number; new: number }; normalLoad: { old: number; new: number } }[];
    }
  ).hosts;
  // iperf3 (the throughput tool pick_tool chooses) books setup 4 s (its default 200 ms rtt: one second per 50 ms)
  // + omit 0 + the test's duration + wait 3 s + shutdown 2 s (pscheduler-tool-iperf3/iperf3/duration,
  // iperf3_defaults.py): 39 s of a 30 s test, 29 s of a 20 s one. The schedule repeats every 4 h (14,400 s).
  // Before: a mesh of three, each host in 4 tasks (source of 2, destination of 2), 30 s tests. After: host-c has
  // left, host-a and host-b are in 2 tasks each, 20 s tests. Throughput is exclusive: no normal load at all.
  const REPEAT = 4 * 3600;
  const expected: Record<string, { old: number; new: number }> = {
    'host-a.perfsonar.net': { old: (4 * 39) / REPEAT, new: (2 * 29) / REPEAT },
    'host-b.perfsonar.net': { old: (4 * 39) / REPEAT, new: (2 * 29) / REPEAT },
    'host-c.perfsonar.net': { old: (4 * 39) / REPEAT, new: 0 },
  };
  assert.deepEqual(d.map((h) => h.host).sort(), Object.keys(expected));
  const near = (x: number, y: number, what: string): void => assert.ok(Math.abs(x - y) < 1e-9, `${what}: ${x} vs ${y}`);
  for (const h of d) {
    near(h.exclusiveLoad.old, expected[h.host].old, `${h.host} exclusive before`);
    near(h.exclusiveLoad.new, expected[h.host].new, `${h.host} exclusive after`);
    assert.deepEqual(h.normalLoad, { old: 0, new: 0 }, `${h.host} normal`);
  }
});

test('--report-only exits 0; the same version on both sides exits 0 with no task changes', () => {
  const report = run(['HEAD~1:meshes/mesh.psconfig.json', 'HEAD:meshes/mesh.psconfig.json', '--report-only']);
  assert.equal(report.code, 0, report.err);
  assert.match(report.out, /^−4 ~2 tasks on 3 agents\n/);
  const same = run(['HEAD:meshes/mesh.psconfig.json', 'meshes/mesh.psconfig.json']);
  assert.equal(same.code, 0, same.err);
  assert.match(same.out, /^no task changes\n/);
});

test('the working copy against HEAD, REV:./PATH from a subfolder, --agent', () => {
  const t = edited();
  t.tests['example-test-throughput'].spec.duration = 'PT25S';
  write('meshes/mesh.psconfig.json', t);
  try {
    const r = run(
      ['HEAD:./mesh.psconfig.json', 'mesh.psconfig.json', '--format', 'json', '--agent', 'host-b.perfsonar.net'],
      join(repo, 'meshes'),
    );
    assert.equal(r.code, 0, r.err);
    const d = JSON.parse(r.out) as TaskDiffResult;
    assert.deepEqual(d.summary, { added: 0, removed: 0, changed: 1, agentsAffected: 1 });
    assert.deepEqual(d.agents[0].changed[0].parts, [{ part: 'test.spec.duration', old: 'PT20S', new: 'PT25S' }]);
  } finally {
    git('checkout', '--', 'meshes/mesh.psconfig.json');
  }
});

test('bad git inputs: an unknown path or revision, a folder, a revision that looks like an option (exit 2)', () => {
  const missing = run(['HEAD:nope.json', 'meshes/mesh.psconfig.json']);
  assert.equal(missing.code, 2);
  assert.match(missing.err, /cannot read HEAD:nope\.json: .*nope\.json/);
  const folder = run(['HEAD:meshes', 'meshes/mesh.psconfig.json']);
  assert.equal(folder.code, 2);
  assert.match(folder.err, /HEAD:meshes is a tree in git, not a file/);
  const option = run(['--output=/tmp/x:y', 'meshes/mesh.psconfig.json']);
  assert.equal(option.code, 2);
  const dashRev = run(['-p:meshes/mesh.psconfig.json', 'meshes/mesh.psconfig.json']);
  assert.equal(dashRev.code, 2);
  const notRepo = run(['HEAD:x.json', join(repo, 'meshes/mesh.psconfig.json')], tmpdir());
  assert.equal(notRepo.code, 2);
  assert.match(notRepo.err, /cannot read HEAD:x\.json: .*(not a git repository|Not a git repository)/i);
});

test('a URL and standard input as the two versions', async () => {
  const text = exampleText('perl-shared--client-psconfig-mesh.json');
  const server: Server = createServer((_req, res) => res.end(text));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mesh.json`;
    const child = await new Promise<{ code: number | null; out: string }>((resolve) => {
      // Asynchronously: the server answers in this process.
      const p = spawn(process.execPath, [cliJs, 'diff', url, '-', '--format', 'json'], { env, cwd: repo });
      let out = '';
      p.stdout.on('data', (b: Buffer) => (out += b.toString()));
      p.stdin.end(JSON.stringify(edited()));
      p.on('close', (code) => resolve({ code, out }));
    });
    assert.equal(child.code, 1);
    const d = JSON.parse(child.out) as TaskDiffResult;
    assert.equal(d.old.source, url);
    assert.equal(d.new.source, '-');
    assert.deepEqual(d.summary, { added: 0, removed: 4, changed: 2, agentsAffected: 3 });
  } finally {
    server.close();
  }
});

test('usage errors: one input, two standard inputs, an unknown format (exit 2)', () => {
  assert.equal(run(['meshes/mesh.psconfig.json']).code, 2);
  assert.equal(run(['-', '-']).code, 2);
  const f = run(['HEAD:meshes/mesh.psconfig.json', 'meshes/mesh.psconfig.json', '--format', 'html']);
  assert.equal(f.code, 2);
  assert.match(f.err, /--format must be text, json or markdown/);
});

test('markdown: names from the template cannot inject HTML, Markdown or mentions; big diffs stay under 60,000 characters', () => {
  const names = Array.from({ length: 90 }, (_, i) => `h${i}`);
  const big = {
    addresses: Object.fromEntries(names.map((n) => [n, { address: `${n}.example.net` }])),
    groups: { g: { type: 'mesh', addresses: names.map((name) => ({ name })) } },
    tests: { t: { type: 'rtt', spec: { source: '{% address[0] %}', dest: '{% address[1] %}' } } },
    tasks: { '<img src=x onerror=alert(1)>|@octocat`**': { group: 'g', test: 't' } },
  };
  write('big.psconfig.json', big);
  const gone = { ...big, tasks: {} };
  write('gone.psconfig.json', gone);
  const r = run(['big.psconfig.json', 'gone.psconfig.json', '--format', 'markdown', '--no-diagnostics']);
  assert.equal(r.code, 1, r.err);
  assert.ok(r.out.length < 60_000, `${r.out.length} characters`);
  assert.match(r.out, /−8,010 tasks on 90 agents/);
  assert.match(r.out, /more agents not shown here/);
  assert.doesNotMatch(r.out, /<img/);
  assert.doesNotMatch(r.out, /\|@octocat/);
  assert.match(r.out, /<code>&lt;img src=x onerror=alert\(1\)&gt;&#124;@octocat`\*\*<\/code>/);
});

test('docs/task-diff.md shows what the command prints for its example', () => {
  const doc = readFileSync(join(root, 'docs', 'task-diff.md'), 'utf8');
  const m = /<!-- markdown-example -->\n```markdown\n([\s\S]*?)```\n/.exec(doc);
  assert.ok(m, 'the markdown example block of docs/task-diff.md');
  const r = run(['HEAD~1:meshes/mesh.psconfig.json', 'meshes/mesh.psconfig.json', '--format', 'markdown']);
  assert.equal(r.code, 1, r.err);
  assert.equal(m[1], r.out);
  // The README shows lines of the same output (the headline, the task table, a host's load).
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const shown = /<!-- task-diff-example[^>]*-->\n([\s\S]*?)<!-- \/task-diff-example -->/.exec(readme);
  assert.ok(shown, 'the task-diff example of README.md');
  const printed = new Set(r.out.split('\n'));
  const lines = shown[1].split('\n').filter((l) => l.trim() !== '');
  assert.ok(lines.length >= 6, shown[1]);
  for (const line of lines) assert.ok(printed.has(line), `README line not printed by the command: ${line}`);
});
