// The worker's job limits (server/src/lsp/main/worker-client.ts) with a real worker thread (the bundle's): a job
// past its limit restarts the worker, but a schedule job past its limit while the worker keeps answering other jobs
// is waiting behind them (job-priority.ts), not stuck, and is left to finish.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BackgroundRunner, type Logger } from '../../server/src/lsp/main';
import { CancelFlag, type EngineInput } from '../../server/src/lsp/shared';
import { commandLineScope } from '../../server/src/template/includes/scope';
import { serverJs } from './lsp-client';

/** Throughput every minute between `n` hosts: seconds of simulation, and no jq. */
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

const text = mesh(24);
const input = (uri: string): EngineInput => ({
  uri,
  version: 1,
  text,
  includeScope: commandLineScope(undefined, false),
  agentAddresses: [],
  limit: undefined,
  settings: {},
  jq: { path: process.env.JQ_PATH },
});
// Above the longest step the schedule takes without a pause (the expansion, the model, the findings: well under a
// second here), below the simulation (seconds: 552 tasks every minute over three days).
const LIMIT_MS = 2000;

function runner(logged: string[]): BackgroundRunner {
  const log: Logger = { error: (m) => logged.push(m), warn: () => undefined, info: () => undefined };
  return new BackgroundRunner(serverJs, log, 30_000, { scheduleJobMs: LIMIT_MS });
}

test('a schedule job past its limit, the worker silent all along (simulating), restarts the worker', async () => {
  const logged: string[] = [];
  const r = runner(logged);
  try {
    const uri = 'file:///tmp/limits/silent.json';
    await assert.rejects(
      r.send('schedule', { input: input(uri), params: { uri, noTasks: true }, cancel: new CancelFlag().buffer }),
      /timed out/,
    );
    assert.equal(r.restarts, 1);
    assert.match(logged.join('\n'), /background schedule took over \d+ ms; restarting the worker/);
  } finally {
    r.dispose();
  }
});

test('a schedule job past its limit while the worker answers other jobs is left to finish', async () => {
  const logged: string[] = [];
  const r = runner(logged);
  try {
    let done = false;
    const started = Date.now();
    const uri = 'file:///tmp/limits/busy.json';
    const simulated = r
      .send('schedule', { input: input(uri), params: { uri, noTasks: true }, cancel: new CancelFlag().buffer })
      .finally(() => {
        done = true;
      });
    // Requests meanwhile (task counts, as the lenses ask): the worker answers them between the schedule's slices.
    let answered = 0;
    while (!done) {
      await r.send('counts', { text });
      answered++;
      await new Promise((res) => setTimeout(res, 50));
    }
    const answer = await simulated;
    assert.ok(
      Date.now() - started > LIMIT_MS,
      `the schedule took ${Date.now() - started} ms, past the ${LIMIT_MS} ms limit`,
    );
    assert.equal(answer.error, undefined);
    // 1,440 a day per pScheduler task, and at most one more at a renewal (the successor's grid starts at the until).
    const wanted = answer.templateTasks[0].wantedPerDay;
    assert.ok(wanted >= 24 * 23 * 1440 && wanted <= 24 * 23 * 1441, String(wanted));
    assert.ok(answered > 2, `${answered} counts answered meanwhile`);
    assert.equal(r.restarts, 0, logged.join('\n'));
  } finally {
    r.dispose();
  }
});
