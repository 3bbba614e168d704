// pscheduler-client's failures against local HTTP(S) servers: an unreachable host, a slow one, a TLS failure, a 404,
// a huge answer, a malformed one; each a clear message and errorKind on that host only, the other hosts read.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer as createHttps, type Server as HttpsServer } from 'node:https';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { closePSchedulerConnections, readHost, readHosts } from '../../../pscheduler-client';
import { selfSignedTls } from '../../fixtures';

const TASK = {
  test: { type: 'idle', spec: { host: '127.0.0.1', duration: 'PT2S' } },
  schedule: { repeat: 'PT20S' },
  reference: { psconfig: { 'created-by': { 'user-agent': 'psconfig-pscheduler-agent' } } },
};

const requests: { method?: string; url?: string; auth?: string }[] = [];
let base = '';

function handler(req: IncomingMessage, res: ServerResponse): void {
  requests.push({ method: req.method, url: req.url, auth: req.headers.authorization });
  const path = (req.url ?? '').replace(/\?.*$/, '');
  const json = (v: unknown): void => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(v));
  };
  if (path === '/ok/pscheduler/tasks') return json([{ ...TASK, href: `${base}/ok/pscheduler/tasks/t1` }]);
  if (path === '/ok/pscheduler/tasks/t1/runs') return json([`${base}/ok/pscheduler/tasks/t1/runs/r1`]);
  if (path === '/ok/pscheduler/tasks/t1/runs/r1')
    return json({
      state: 'nonstart',
      errors: 'No times available for this run.',
      'start-time': '2026-01-01T00:00:00Z',
      archivings: [
        {
          archiver: { name: 'bitbucket' },
          completed: true,
          archived: false,
          diags: [{ 'return-code': 0, stderr: 'broken' }],
        },
      ],
    });
  if (path === '/slow/pscheduler/tasks') return; // never answers
  if (path === '/drip/pscheduler/tasks') {
    res.setHeader('content-type', 'application/json');
    res.write('[');
    return; // headers sent, the body never ends
  }
  if (path === '/huge/pscheduler/tasks') {
    res.setHeader('content-type', 'application/json');
    res.end(`[${'"x",'.repeat(400_000)}"x"]`);
    return;
  }
  if (path === '/text/pscheduler/tasks') {
    res.end('<html>It works!</html>');
    return;
  }
  if (path === '/object/pscheduler/tasks') return json({ tasks: [] });
  if (path === '/redirect/pscheduler/tasks') {
    res.statusCode = 302;
    res.setHeader('location', 'http://elsewhere.example/');
    res.end();
    return;
  }
  if (path === '/badruns/pscheduler/tasks') return json([{ ...TASK, href: `${base}/badruns/pscheduler/tasks/t2` }]);
  res.statusCode = 404;
  res.end('Resource Not Found');
}

let http: Server;
let https: HttpsServer;
let httpsBase = '';
let closedPort = 0;

before(async () => {
  http = createServer(handler);
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  https = createHttps({ cert: readFileSync(selfSignedTls.cert), key: readFileSync(selfSignedTls.key) }, handler);
  await new Promise<void>((r) => https.listen(0, '127.0.0.1', r));
  httpsBase = `https://127.0.0.1:${(https.address() as AddressInfo).port}`;
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise<void>((r) => probe.close(() => r()));
});

after(async () => {
  await closePSchedulerConnections();
  http.closeAllConnections();
  https.closeAllConnections();
  await new Promise<void>((r) => http.close(() => r()));
  await new Promise<void>((r) => https.close(() => r()));
});

const read = (path: string, extra: Record<string, unknown> = {}) =>
  readHost({ host: 'h', url: `${base}/${path}/pscheduler`, timeoutMs: 10_000, deadlineMs: 20_000, ...extra });
// A host that never answers (or stalls) is given a short limit: what is checked is the message, not the time.
const short = { timeoutMs: 300, deadlineMs: 600 };

test('a host read whole: the task list filtered to pSConfig, runs of the span, non-starter reason, failed archiving', async () => {
  requests.length = 0;
  const r = await read('ok', { now: new Date('2026-01-02T00:00:00Z'), since: 'P1D' });
  assert.equal(r.error, undefined);
  assert.equal(r.tasks.length, 1);
  assert.deepEqual(r.tasks[0].runs, [
    {
      href: `${base}/ok/pscheduler/tasks/t1/runs/r1`,
      state: 'nonstart',
      start: '2026-01-01T00:00:00Z',
      reason: 'No times available for this run.',
      archivings: [{ archiver: 'bitbucket', outcome: 'failed', attempts: 1, message: 'broken' }],
    },
  ]);
  assert.ok(requests.every((q) => q.method === 'GET' && q.auth === undefined));
  const list = new URL(`${base}${requests[0].url}`);
  assert.equal(list.searchParams.get('expanded'), 'true');
  assert.equal(list.searchParams.get('detail'), 'true');
  assert.deepEqual(JSON.parse(list.searchParams.get('json')!), {
    reference: { psconfig: { 'created-by': { 'user-agent': 'psconfig-pscheduler-agent' } } },
  });
  const runs = new URL(`${base}${requests[1].url}`);
  assert.equal(runs.searchParams.get('start'), '2026-01-01T00:00:00Z');
  assert.equal(runs.searchParams.get('end'), '2026-01-02T00:00:00Z');
  assert.equal(runs.searchParams.get('limit'), '301');
});

test('unreachable: connection refused', async () => {
  const r = await readHost({ host: 'h', url: `http://127.0.0.1:${closedPort}/pscheduler`, timeoutMs: 10_000 });
  assert.equal(r.errorKind, 'refused');
  assert.match(r.error!, /connection refused by http:\/\/127\.0\.0\.1:\d+\/pscheduler\/tasks/);
});

test('slow: no answer within the deadline; a body that stalls', async () => {
  const slow = await read('slow', short);
  assert.equal(slow.errorKind, 'timeout');
  assert.match(slow.error!, /no answer from .*\/slow\/pscheduler\/tasks/);
  const drip = await read('drip', short);
  assert.equal(drip.errorKind, 'timeout');
  assert.match(drip.error!, /drip\/pscheduler\/tasks/);
});

test('TLS: a self-signed host fails unless insecure or its CA is given', async () => {
  const url = `${httpsBase}/ok/pscheduler`;
  const strict = await readHost({ host: 'h', url, timeoutMs: 10_000, noRuns: true });
  assert.equal(strict.errorKind, 'tls');
  assert.match(strict.error!, /TLS problem talking to .*--insecure HOST or --ca HOST=FILE/);
  const insecure = await readHost({ host: 'h', url, timeoutMs: 10_000, noRuns: true, insecure: true });
  assert.equal(insecure.error, undefined);
  assert.equal(insecure.tasks.length, 1);
  const ca = await readHost({
    host: 'h',
    url,
    timeoutMs: 10_000,
    noRuns: true,
    ca: readFileSync(selfSignedTls.cert, 'utf8'),
  });
  assert.equal(ca.error, undefined);
});

test('404, huge, not JSON, not a list, a redirect', async () => {
  const missing = await read('nothing-here');
  assert.equal(missing.errorKind, 'http');
  assert.match(missing.error!, /HTTP 404 from .*: Resource Not Found \(no pScheduler API at this URL\?/);
  const huge = await read('huge', { maxResponseBytes: 100_000 });
  assert.equal(huge.errorKind, 'too-large');
  assert.match(huge.error!, /larger than 98 KB/);
  const text = await read('text');
  assert.equal(text.errorKind, 'not-json');
  assert.match(text.error!, /is not JSON: <html>It works!<\/html>/);
  const object = await read('object');
  assert.equal(object.errorKind, 'bad-shape');
  assert.match(object.error!, /not a list of tasks/);
  const redirect = await read('redirect');
  assert.equal(redirect.errorKind, 'redirect');
  assert.match(redirect.error!, /302 redirecting to http:\/\/elsewhere\.example\/; not followed/);
});

test("one task's runs failing leaves the task; one host failing leaves the others", async () => {
  const r = await read('badruns');
  assert.equal(r.error, undefined);
  assert.equal(r.tasks.length, 1);
  assert.match(r.tasks[0].runsError!, /HTTP 404/);
  const both = await readHosts([
    { host: 'bad', url: `${base}/slow/pscheduler`, timeoutMs: 300, deadlineMs: 600 },
    { host: 'good', url: `${base}/ok/pscheduler`, timeoutMs: 10_000, deadlineMs: 20_000 },
  ]);
  assert.equal(both[0].errorKind, 'timeout');
  assert.equal(both[1].error, undefined);
  assert.equal(both[1].tasks[0].runs.length, 1);
});

test('limits: at most maxTasks tasks (the newest) and maxRunsPerTask runs', async () => {
  const r = await read('ok', { maxTasks: 1, maxRunsPerTask: 0 });
  assert.equal(r.tasksTruncated, undefined);
  assert.equal(r.tasks[0].runsTruncated, true);
  assert.deepEqual(r.tasks[0].runs, []);
});

test('a URL with credentials is refused before anything is sent', async () => {
  const r = await readHost({ host: 'h', url: 'https://user:pw@127.0.0.1/pscheduler' });
  assert.equal(r.errorKind, 'bad-url');
  assert.doesNotMatch(r.error!, /pw/);
});
