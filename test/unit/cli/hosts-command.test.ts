// `psconfig-tools hosts` as built (dist/cli.js) against a local pScheduler stand-in: exit codes, the JSON shape,
// --url, a host that cannot be read reported on that host only, markdown.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../../fixtures';
import type { HostsResult } from '../../../common/protocol';

const cliJs = join(repoRoot(), 'dist', 'cli.js');
const dir = mkdtempSync(join(tmpdir(), 'hosts-command-'));
const template = join(dir, 'template.json');
writeFileSync(
  template,
  JSON.stringify({
    addresses: { a: { address: '10.0.0.1' }, b: { address: '10.0.0.2' } },
    groups: { ga: { type: 'list', addresses: [{ name: 'a' }] }, gb: { type: 'list', addresses: [{ name: 'b' }] } },
    tests: { idle: { type: 'idle', spec: { host: '{% address[0] %}', duration: 'PT2S' } } },
    schedules: { s: { repeat: 'PT1M' } },
    tasks: { ta: { group: 'ga', test: 'idle', schedule: 's' }, tb: { group: 'gb', test: 'idle', schedule: 's' } },
  }),
);

let server: Server;
let base = '';
let closed = '';
before(async () => {
  server = createServer((req, res) => {
    const path = (req.url ?? '').replace(/\?.*$/, '');
    res.setHeader('content-type', 'application/json');
    if (path === '/a/pscheduler/tasks')
      return res.end(
        JSON.stringify([
          {
            test: { type: 'idle', spec: { host: '10.0.0.1', duration: 'PT2S', schema: 1 } },
            schedule: { repeat: 'PT1M', until: '2999-01-01T00:00:00Z' },
            archives: [],
            tool: 'snooze',
            reference: {
              psconfig: {
                'created-by': { uuid: 'u', 'user-agent': 'psconfig-pscheduler-agent', 'agent-hostname': 'x' },
              },
            },
            href: `${base}/a/pscheduler/tasks/t1`,
            detail: { enabled: true },
          },
        ]),
      );
    if (path === '/a/pscheduler/tasks/t1/runs') return res.end('[]');
    res.statusCode = 404;
    res.end('"not here"');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  closed = `http://127.0.0.1:${(probe.address() as AddressInfo).port}/pscheduler`;
  await new Promise<void>((r) => probe.close(() => r()));
});
after(async () => {
  rmSync(dir, { recursive: true, force: true });
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

function run(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cliJs, 'hosts', ...args], {
      env: { ...process.env, JQ_PATH: '/usr/bin/jq' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

test('every host has its task, no runs: exit 0', async () => {
  const r = await run([template, '--host', '10.0.0.1', '--url', `10.0.0.1=${base}/a/pscheduler`, '--format', 'json']);
  assert.equal(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout) as HostsResult;
  assert.equal(j.problems, false);
  assert.deepEqual(j.hosts[0].counts, { present: 1, missing: 0, extra: 0, different: 0, expired: 0, renewing: 0 });
  assert.equal(j.hosts[0].entries[0].task, 'ta');
});

test('a host that cannot be read and a 404: exit 1, each its own message, the other host read', async () => {
  const r = await run([
    template,
    '--url',
    `10.0.0.1=${base}/a/pscheduler`,
    '--url',
    `10.0.0.2=${closed}`,
    '--format',
    'json',
    '--request-timeout',
    '2',
  ]);
  assert.equal(r.status, 1, r.stderr);
  const j = JSON.parse(r.stdout) as HostsResult;
  assert.equal(j.hosts[0].error, undefined);
  assert.equal(j.hosts[1].errorKind, 'refused');
  const md = await run([
    template,
    '--url',
    `10.0.0.1=${base}/a/pscheduler`,
    '--url',
    `10.0.0.2=${base}/nothing`,
    '--format',
    'markdown',
  ]);
  assert.equal(md.status, 1);
  assert.match(md.stdout, /### 10\.0\.0\.2\n\n<http:\/\/127\.0\.0\.1:\d+\/nothing>\n\n\*\*Cannot read:\*\* HTTP 404/);
});

test('usage: a bad --since, a --url without HOST=', async () => {
  assert.equal((await run([template, '--since', '1 day'])).status, 2);
  assert.equal((await run([template, '--url', 'http://x/'])).status, 2);
});

test("a template pSConfig's agent rejects: exit 1, the reason, no host read (as schedule, expand and dashboard)", async () => {
  // A task naming a missing test: validate_refs (perfsonar/psconfig config.py ~318-326) and the agent creates nothing.
  const rejected = join(dir, 'rejected.json');
  writeFileSync(
    rejected,
    JSON.stringify({
      addresses: { a: { address: '10.0.0.1' } },
      groups: { ga: { type: 'list', addresses: [{ name: 'a' }] } },
      tests: {},
      tasks: { ta: { group: 'ga', test: 'nowhere' } },
    }),
  );
  const r = await run([rejected, '--host', '10.0.0.1', '--url', `10.0.0.1=${base}/a/pscheduler`]);
  assert.equal(r.status, 1, r.stderr);
  assert.match(r.stderr, /agent rejects this template.*Task ta references a test nowhere that does not exist\./);
  assert.equal(r.stdout, '');
});
