// The worker's job limits (server/src/lsp/background-worker.ts) with a real worker thread (the bundle's): a job
// past its limit restarts the worker, but a schedule job past its limit while the worker keeps answering other jobs
// is waiting behind them (job-priority.ts), not stuck, and is left to finish.
//
// Nothing here depends on how fast the machine is:
// - The main thread's clock and timers are node:test's mock timers: a limit passes when the test ticks the clock
//   past it, between two steps it has awaited, never while a reply is on its way.
// - The schedule job cannot finish until the test lets it: the worker holds the schedule's slices while a request
//   is in flight (job-priority.ts), and the test keeps one in flight, an expansion whose jq is a script that waits
//   on a FIFO until the test writes to it (then runs the real jq). Its own time limit is set to an hour.
import { after, mock, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BackgroundRunner, type Logger } from '../../server/src/lsp/main';
import { CancelFlag, type EngineInput } from '../../server/src/lsp/jobs';
import { commandLineScope } from '../../server/src/template/includes/scope';
import { serverJs } from './lsp-client';

const JQ = process.env.JQ_PATH || '/usr/bin/jq';

/** Throughput every minute between `n` hosts, and no jq: the schedule job. */
function mesh(n: number): string {
  const addresses: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) addresses[`h${i}`] = { address: `h${i}.example.net` };
  return JSON.stringify({
    addresses,
    groups: { mesh: { type: 'mesh', addresses: Object.keys(addresses).map((name) => ({ name })) } },
    tests: { bw: { type: 'throughput', spec: { source: '{% address[0] %}', dest: '{% address[1] %}' } } },
    schedules: { often: { repeat: 'PT1M', slip: 'PT1M' } },
    tasks: { busy: { group: 'mesh', test: 'bw', schedule: 'often' } },
  });
}

const HOSTS = 4;
const text = mesh(HOSTS);

// The held request: a template with one jq variable, expanded with a "jq" that first reads a line from a FIFO.
// The test holds the FIFO open for reading and writing (on Linux that open never blocks), so the script's open
// returns at once and its `read` waits until the test writes a line; a line per script, and spare ones.
const dir = mkdtempSync(join(tmpdir(), 'worker-limits-'));
const fifo = join(dir, 'release');
execFileSync('mkfifo', [fifo]);
const fifoFd = openSync(fifo, constants.O_RDWR);
const heldJq = join(dir, 'held-jq');
writeFileSync(heldJq, `#!/bin/sh\nread line < '${fifo}'\nexec '${JQ}' "$@"\n`, { mode: 0o755 });
let released = false;
function release(): void {
  if (released) return;
  released = true;
  writeSync(fifoFd, 'go\n'.repeat(64));
}
after(() => {
  release();
  closeSync(fifoFd);
  rmSync(dir, { recursive: true, force: true });
});

const heldText = JSON.stringify({
  addresses: { a: { address: 'a.example.net' }, b: { address: 'b.example.net' } },
  groups: { g: { type: 'mesh', addresses: [{ name: 'a' }, { name: 'b' }] } },
  tests: {
    t: { type: 'rtt', spec: { source: '{% address[0] %}', dest: '{% address[1] %}', note: '{% jq 1 | tostring %}' } },
  },
  tasks: { held: { group: 'g', test: 't' } },
});

const input = (uri: string, body = text, jqPath = JQ): EngineInput => ({
  uri,
  version: 1,
  text: body,
  includeScope: commandLineScope(undefined, false),
  agentAddresses: [],
  limit: undefined,
  settings: {},
  jq: { path: jqPath, timeoutMs: 3_600_000 },
});

// Any value: the clock only moves when the test ticks it. Other jobs' limits lie beyond every tick of the test.
const LIMIT_MS = 2000;
const FAR_MS = 1e9;

function runner(logged: string[]): BackgroundRunner {
  const log: Logger = { error: (m) => logged.push(m), warn: () => undefined, info: () => undefined };
  return new BackgroundRunner(serverJs, log, FAR_MS, {
    scheduleJobMs: LIMIT_MS,
    jobMs: FAR_MS,
    scheduleCeilingMs: FAR_MS,
  });
}

/** A request in flight in the worker until release(): the schedule's slices wait behind it. */
function heldRequest(r: BackgroundRunner): { done: () => boolean; settled: Promise<unknown> } {
  let done = false;
  const settled = r
    .send('expand', {
      input: input('file:///tmp/limits/held.json', heldText, heldJq),
      shared: false,
      firstsOnly: false,
    })
    .then(
      (v) => v,
      (e: unknown) => e,
    )
    .finally(() => (done = true));
  return { done: () => done, settled };
}

test('a schedule job past its limit, the worker silent all along, restarts the worker', async () => {
  mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 1_700_000_000_000 });
  const logged: string[] = [];
  const r = runner(logged);
  try {
    const held = heldRequest(r);
    const uri = 'file:///tmp/limits/silent.json';
    const simulated = r.send('schedule', {
      input: input(uri),
      params: { uri, noTasks: true },
      cancel: new CancelFlag().buffer,
    });
    // Nothing was asked of the worker but these two jobs, and the schedule cannot end before release(): the worker
    // says nothing while the limit passes.
    mock.timers.tick(LIMIT_MS - 1);
    assert.equal(r.restarts, 0, 'not before the limit');
    mock.timers.tick(1);
    await assert.rejects(simulated, /schedule timed out/);
    assert.equal(r.restarts, 1);
    assert.match(logged.join('\n'), new RegExp(`background schedule took over ${LIMIT_MS} ms; restarting the worker`));
    // The request in flight went down with the worker; the next job starts a new one.
    assert.match(String(await held.settled), /schedule timed out/);
    assert.equal((await r.send('counts', { text }))[0].count, HOSTS * (HOSTS - 1));
  } finally {
    mock.timers.reset();
    r.dispose();
  }
});

test('a schedule job past its limit while the worker answers other jobs is left to finish', async () => {
  mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 1_700_000_000_000 });
  const logged: string[] = [];
  const r = runner(logged);
  try {
    const held = heldRequest(r);
    const uri = 'file:///tmp/limits/busy.json';
    let done = false;
    const simulated = r
      .send('schedule', { input: input(uri), params: { uri, noTasks: true }, cancel: new CancelFlag().buffer })
      .finally(() => (done = true));
    // Three times the limit, each time passed 1 ms after the worker answered a request (task counts, as the lenses
    // ask): the worker answers, so the schedule is waiting, not stuck.
    for (let round = 1; round <= 3; round++) {
      mock.timers.tick(LIMIT_MS - 1);
      assert.equal((await r.send('counts', { text }))[0].count, HOSTS * (HOSTS - 1));
      mock.timers.tick(1);
      assert.equal(r.restarts, 0, `round ${round}: ${logged.join('\n')}`);
      assert.equal(done, false, `round ${round}: the schedule is still held`);
      assert.equal(held.done(), false, `round ${round}: the request holding it is still in flight`);
    }
    // (A limit that passes with no answer within it restarts the worker: the first test.) The request is let go,
    // and the schedule runs to its end on the same worker.
    release();
    const expanded = (await held.settled) as { combinations: unknown[] };
    assert.equal(expanded.combinations.length, 2);
    const answer = await simulated;
    assert.equal(answer.error, undefined);
    // 1,440 a day per pScheduler task, and at most one more at a renewal (the successor's grid starts at the until).
    const tasks = HOSTS * (HOSTS - 1);
    const wanted = answer.templateTasks[0].wantedPerDay;
    assert.ok(wanted >= tasks * 1440 && wanted <= tasks * 1441, String(wanted));
    assert.equal(r.restarts, 0, logged.join('\n'));
  } finally {
    mock.timers.reset();
    r.dispose();
  }
});
