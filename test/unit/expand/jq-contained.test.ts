// Every jq run is contained: memory, time, output, cancellation, concurrency, environment, modules, and the
// compile check never evaluates. Linux-only parts read /proc (test/processes.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import {
  checkJqCompiles,
  createJqRunner,
  jqMemoryLimitEnforced,
  resolveJqBinary,
  selfContained,
  setJqConcurrency,
  DEFAULT_JQ_CONCURRENCY,
} from '../../../server/src/template/jq';
import { descendants, haveProc, running, waitFor } from '../../processes';

const JQ = process.env.JQ_PATH || '/usr/bin/jq';
/** Grows without bound: a million-element array per step. */
const MEMORY_HOG = '[range(1e9)] | length';
/** Runs for hours in constant memory. */
const ENDLESS = 'last(range(1e13))';

const jqChildren = (): number[] =>
  descendants(process.pid)
    .filter((p) => p.comm === 'jq')
    .map((p) => p.pid);

test(
  'a run past its memory limit stops with a message naming the limit and the setting',
  { skip: !jqMemoryLimitEnforced },
  async () => {
    const runner = createJqRunner({ jqPath: JQ, memoryLimitMb: 64 });
    const r = await runner.run(MEMORY_HOG, null);
    assert.equal(r.ok, false);
    assert.equal(!r.ok && r.kind, 'memory');
    assert.match(!r.ok ? r.error : '', /memory limit of 64 MB.*psconfig\.jq\.memoryLimitMb/);
    // The same limit is also enforced by the resident-size watchdog used where `ulimit -v` is refused (macOS).
    // (A generous time limit: on a loaded machine the watchdog's polls come late, and only the memory verdict is
    // under test here.)
    const polled = createJqRunner({ jqPath: JQ, memoryLimitMb: 64, pollMemory: true, timeoutMs: 300_000 });
    const p = await polled.run(MEMORY_HOG, null);
    assert.equal(!p.ok && p.kind, 'memory');
    // A run inside the limit is unaffected.
    assert.deepEqual(await runner.run('[range(1000)] | length', null), { ok: true, stdout: '1000\n' });
  },
);

test('output beyond the cap stops the run', async () => {
  const runner = createJqRunner({ jqPath: JQ, maxOutputBytes: 10_000 });
  const r = await runner.run('range(1e9)', null);
  assert.equal(!r.ok && r.kind, 'output');
  assert.match(!r.ok ? r.error : '', /output passed 10 KB/);
});

test('a timeout and a cancellation kill the process group', { skip: !haveProc }, async () => {
  const runner = createJqRunner({ jqPath: JQ, timeoutMs: 400 });
  const seen = new Set<number>();
  const watch = setInterval(() => jqChildren().forEach((p) => seen.add(p)), 20);
  const r = await runner.run(ENDLESS, null);
  assert.equal(!r.ok && r.kind, 'timeout');
  // Cancelled once its jq process is there (the runner polls the flag; each poll looks for the process), so the
  // cancellation always meets a running jq, however long it takes to start.
  const before = new Set(seen);
  const started = (): boolean => {
    const now = jqChildren().filter((p) => !before.has(p));
    now.forEach((p) => seen.add(p));
    return now.length > 0;
  };
  const c = await createJqRunner({ jqPath: JQ, timeoutMs: 60_000 }).cancellable(started).run(ENDLESS, null);
  clearInterval(watch);
  assert.equal(!c.ok && c.kind, 'cancelled');
  assert.ok(seen.size > before.size, `saw the cancelled run's jq process (${seen.size} in all)`);
  assert.ok(await waitFor(() => [...seen].every((p) => !running(p)), 2000), 'a jq process outlived its run');
});

test('at most N jq processes run at once (psconfig.jq.maxConcurrent)', { skip: !haveProc }, async () => {
  const runner = createJqRunner({ jqPath: JQ });
  let peak = 0;
  const watch = setInterval(() => (peak = Math.max(peak, jqChildren().length)), 5);
  try {
    setJqConcurrency(2);
    const runs = await Promise.all(Array.from({ length: 6 }, () => runner.run('last(range(3e5))', null)));
    assert.ok(runs.every((r) => r.ok));
    assert.ok(peak >= 1 && peak <= 2, `peak ${peak}`);
    setJqConcurrency(1);
    peak = 0;
    await Promise.all(Array.from({ length: 4 }, () => runner.run('last(range(3e5))', null)));
    assert.equal(peak, 1);
  } finally {
    clearInterval(watch);
    setJqConcurrency(DEFAULT_JQ_CONCURRENCY);
  }
});

test('jq sees an empty environment and no stdin of ours', async () => {
  const runner = createJqRunner({ jqPath: JQ });
  assert.deepEqual(await runner.run('env | length', 'null'), { ok: true, stdout: '0\n' });
  assert.deepEqual(await runner.run('[inputs] | length', null), { ok: true, stdout: '0\n' });
});

test('modules are refused without starting jq, also with a search path in the import', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'jq-modules-'));
  writeFileSync(join(dir, 'secret.json'), '{"password": "x"}');
  writeFileSync(join(dir, 'lib.jq'), 'def f: 1;');
  const runner = createJqRunner({ jqPath: JQ });
  const before = runner.processesStarted;
  for (const program of [
    `import "secret" as $s {search: ${JSON.stringify(dir)}}; $s`,
    `include "lib" {search: ${JSON.stringify(dir)}}; f`,
    '"lib" | modulemeta',
  ]) {
    const r = await runner.run(program, null);
    assert.equal(!r.ok && r.kind, 'refused', program);
    const c = await checkJqCompiles([program], runner);
    assert.match(c.get(program) ?? '', /not available here/);
  }
  assert.equal(runner.processesStarted, before);
});

test('the compile check never evaluates: not an injected filter, not a valid program', async () => {
  const runner = createJqRunner({ jqPath: JQ, timeoutMs: 5000 });
  // Closes the old `if false then [( … )] else empty end` wrapper and would run its own branch.
  const injected = '0)] else ("EVALUATED" | halt_error) end, if false then [(0';
  const endless = `0)] else (${ENDLESS}) end, if false then [(0`;
  // Valid jq that stops jq with an error the moment it is evaluated.
  const valid = '"EVALUATED" | halt_error';
  const started = Date.now();
  const m = await checkJqCompiles([injected, endless, valid, `${ENDLESS} | . + 1`], runner);
  assert.ok(Date.now() - started < 4000, 'a compile check ran evaluated code until its time limit');
  assert.match(m.get(injected) ?? '', /syntax error/);
  assert.doesNotMatch(m.get(injected) ?? '', /EVALUATED/);
  assert.match(m.get(endless) ?? '', /syntax error/);
  assert.equal(m.get(valid), null);
  assert.equal(m.get(`${ENDLESS} | . + 1`), null);
  // compile() on its own: halt_error would make the run fail if jq evaluated anything.
  assert.deepEqual(await runner.compile(valid), { ok: true, stdout: '' });
});

test('expressions that only compile by breaking brackets are checked alone, as pSConfig compiles them', async () => {
  const runner = createJqRunner({ jqPath: JQ });
  // Together these two balance each other's brackets; each alone is a syntax error.
  const m = await checkJqCompiles(['.a), (.b', '.c', '(.d'], runner);
  assert.match(m.get('.a), (.b') ?? '', /syntax error/);
  assert.match(m.get('(.d') ?? '', /syntax error/);
  assert.equal(m.get('.c'), null);
  // Whole programs that are not one expression are reported, not passed to the batch.
  assert.match((await checkJqCompiles(['def f: 1;'], runner)).get('def f: 1;') ?? '', /not as one expression/);
  // A comment ending in a backslash (jq 1.7 continues it) must not swallow the batch's brackets.
  assert.equal((await checkJqCompiles(['. # note \\'], runner)).get('. # note \\'), null);
});

test('selfContained: brackets outside strings, interpolations and comments', () => {
  assert.ok(selfContained('.a | [.b, {c: (.d)}]'));
  assert.ok(selfContained('"x)]}" + "\\(.a | (1))" # ) ] }'));
  assert.ok(selfContained('"a\\"(" | .'));
  assert.equal(selfContained('.a), (.b'), false);
  assert.equal(selfContained('"\\(.a"'), false);
  assert.equal(selfContained('"open'), false);
  assert.equal(selfContained('. # comment \\'), false);
});

test('a bare psconfig.jq.path is looked up on PATH', () => {
  const dir = JQ.slice(0, JQ.lastIndexOf('/'));
  const r = resolveJqBinary('jq', { PATH: `/nonexistent:${dir}` });
  assert.ok(r.ok, !r.ok ? r.error : '');
  assert.equal(r.ok && r.binary.path, join(dir, 'jq'));
  const missing = resolveJqBinary('jq', { PATH: '/nonexistent' });
  assert.match(!missing.ok ? missing.error : '', /psconfig\.jq\.path is jq, which is not on PATH/);
});

test('jq dies with the worker thread that started it', { skip: !haveProc }, async () => {
  const runnerModule = require.resolve('../../../server/src/template/jq');
  const code = `
    const { parentPort } = require('node:worker_threads');
    const jq = require(${JSON.stringify(runnerModule)});
    jq.createJqRunner({ jqPath: ${JSON.stringify(JQ)}, timeoutMs: 600000 }).run(${JSON.stringify(ENDLESS)}, null);
    parentPort.postMessage('started');`;
  const worker = new Worker(code, { eval: true });
  await new Promise((r) => worker.once('message', r));
  assert.ok(await waitFor(() => jqChildren().length > 0, 5000), 'jq did not start');
  const pids = jqChildren();
  await worker.terminate();
  assert.ok(await waitFor(() => pids.every((p) => !running(p)), 3000), 'jq outlived its worker');
});

test('jq dies with a parent killed by SIGKILL and by SIGTERM', { skip: !haveProc }, async () => {
  const runnerModule = require.resolve('../../../server/src/template/jq');
  for (const signal of ['SIGKILL', 'SIGTERM'] as const) {
    const parent = spawn(
      process.execPath,
      [
        '-e',
        `require(${JSON.stringify(runnerModule)}).createJqRunner({ jqPath: ${JSON.stringify(JQ)}, timeoutMs: 600000 })
           .run(${JSON.stringify(ENDLESS)}, null); setInterval(() => {}, 1000);`,
      ],
      { stdio: 'ignore' },
    );
    const jqOf = (): number[] =>
      descendants(parent.pid as number)
        .filter((p) => p.comm === 'jq')
        .map((p) => p.pid);
    assert.ok(await waitFor(() => jqOf().length > 0, 5000), 'jq did not start');
    const pids = jqOf();
    parent.kill(signal);
    assert.ok(await waitFor(() => pids.every((p) => !running(p)), 3000), `jq outlived a parent killed by ${signal}`);
  }
});
