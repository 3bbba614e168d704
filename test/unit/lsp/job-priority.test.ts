// The worker's two priorities (server/src/lsp/worker/job-priority.ts): background work's pause holds it while a request is
// in flight, and lets it go on once every request has settled.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JobPriority } from '../../../server/src/lsp/worker';

const turn = (): Promise<void> => new Promise((r) => setImmediate(r));

test('a pause with no request in flight is one turn of the event loop', async () => {
  const p = new JobPriority();
  await p.pause();
  assert.equal(p.yielded, 0);
});

test('background work waits at its pause until every request has settled, then goes on', async () => {
  const p = new JobPriority();
  const order: string[] = [];
  let releaseA!: () => void;
  let releaseB!: () => void;
  const a = p.request(() => new Promise<void>((r) => (releaseA = r)).then(() => order.push('request a')));
  const b = p.request(() => new Promise<void>((r) => (releaseB = r)).then(() => order.push('request b')));
  const background = (async () => {
    order.push('slice 1');
    await p.pause();
    order.push('slice 2');
  })();
  for (let i = 0; i < 5; i++) await turn();
  assert.deepEqual(order, ['slice 1'], 'held while the requests run');
  releaseA();
  for (let i = 0; i < 5; i++) await turn();
  assert.deepEqual(order, ['slice 1', 'request a'], 'still held: request b runs');
  releaseB();
  await Promise.all([a, b, background]);
  assert.deepEqual(order, ['slice 1', 'request a', 'request b', 'slice 2']);
  assert.equal(p.yielded, 1);
});

test('a request that fails still releases the background work', async () => {
  const p = new JobPriority();
  const failed = p.request(() => Promise.reject(new Error('bad template')));
  const paused = p.pause();
  await assert.rejects(failed, /bad template/);
  await paused;
});

test('a request that starts during the pause’s first turn is waited for too', async () => {
  const p = new JobPriority();
  let release!: () => void;
  let done = false;
  // The message that arrives while background work yields: read before the pause's turn ends, so its request counts.
  setImmediate(() => void p.request(() => new Promise<void>((r) => (release = r))));
  const paused = p.pause().then(() => (done = true));
  for (let i = 0; i < 5; i++) await turn();
  assert.equal(done, false);
  release();
  await paused;
  assert.equal(done, true);
});
