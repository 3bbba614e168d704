// `psconfig-tools expand` in pipelines: a reader that closes the pipe early (`| head`) ends the command quietly
// instead of crashing it with EPIPE; templates from standard input and from URLs.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exampleText, repoRoot } from '../../fixtures';

const cliJs = join(repoRoot(), 'dist', 'cli.js');
const env = { ...process.env, JQ_PATH: process.env.JQ_PATH || '/usr/bin/jq' };
const dir = mkdtempSync(join(tmpdir(), 'expand-pipeline-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A 120-address mesh: 14,280 tasks, a few MB of JSON on stdout. */
function bigMesh(): string {
  const names = Array.from({ length: 120 }, (_, i) => `h${i}`);
  return JSON.stringify({
    addresses: Object.fromEntries(names.map((n) => [n, { address: `${n}.example.net` }])),
    groups: { g: { type: 'mesh', addresses: names.map((name) => ({ name })) } },
    tests: { t: { type: 'rtt', spec: { source: '{% address[0] %}', dest: '{% address[1] %}' } } },
    tasks: { t: { group: 'g', test: 't' } },
  });
}

test('a reader that closes the pipe early (as head does) ends expand quietly, exit 0, no EPIPE', async () => {
  const file = join(dir, 'big.psconfig.json');
  writeFileSync(file, bigMesh());
  const child = spawn(process.execPath, [cliJs, 'expand', file], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  // Take the first chunk, then close our end of the pipe, as `head -c` does.
  await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  child.stdout.destroy();
  const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  assert.doesNotMatch(stderr, /EPIPE|Unhandled 'error' event|node:events/);
  assert.equal(code, 0, stderr);
});

test('the same through a real shell pipeline: expand | head -c 100', () => {
  const file = join(dir, 'big2.psconfig.json');
  writeFileSync(file, bigMesh());
  const r = spawnSync(
    'bash',
    ['-o', 'pipefail', '-c', `"${process.execPath}" "${cliJs}" expand "${file}" | head -c 100 >/dev/null`],
    { encoding: 'utf8', env, timeout: 60_000 },
  );
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, '');
});

test('expand reads a template from standard input and from a URL', async () => {
  const text = exampleText('perl-shared--client-psconfig-mesh.json');
  const fromStdin = spawnSync(process.execPath, [cliJs, 'expand', '-', '--format', 'pscheduler'], {
    encoding: 'utf8',
    env,
    input: text,
  });
  assert.equal(fromStdin.status, 0, fromStdin.stderr);
  const tasks = JSON.parse(fromStdin.stdout) as unknown[];
  assert.ok(tasks.length > 0);
  const server = createServer((req, res) => res.end(req.url === '/t.json' ? text : ''));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/t.json`;
    const fromUrl = await new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
      const child = spawn(process.execPath, [cliJs, 'expand', url, '--format', 'pscheduler'], { env });
      let out = '';
      let err = '';
      child.stdout.on('data', (b: Buffer) => (out += b.toString()));
      child.stderr.on('data', (b: Buffer) => (err += b.toString()));
      child.on('close', (code) => resolve({ code, out, err }));
    });
    assert.equal(fromUrl.code, 0, fromUrl.err);
    assert.deepEqual(JSON.parse(fromUrl.out), tasks, 'the same tasks as from standard input');
  } finally {
    server.close();
  }
});
