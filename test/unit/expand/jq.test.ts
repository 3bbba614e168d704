import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createJqRunner, resolveJqBinary, runJqBatch, checkJqCompiles } from '../../../server/src/template/jq';

const JQ = process.env.JQ_PATH || '/usr/bin/jq';

test('resolution order: explicit path beats JQ_PATH; a missing explicit path is a clear error with install advice', () => {
  const r = resolveJqBinary(JQ, { JQ_PATH: '/nonexistent/jq', PATH: '' });
  assert.ok(r.ok && r.binary.source === 'setting psconfig.jq.path');
  const bad = resolveJqBinary('/nonexistent/jq', { PATH: '' });
  assert.equal(bad.ok, false);
  assert.match(!bad.ok ? bad.error : '', /psconfig\.jq\.path.*\/nonexistent\/jq.*apt-get install jq/s);
  const env = resolveJqBinary(undefined, { JQ_PATH: JQ, PATH: '' });
  assert.ok(env.ok && env.binary.source === 'JQ_PATH');
  const path = resolveJqBinary(undefined, { PATH: '/nonexistent:/usr/bin' });
  assert.ok(path.ok && (path.binary.source === 'PATH' || path.binary.source.startsWith('node-jq')));
});

test('a missing binary never spawns: run() resolves with the reason', async () => {
  const runner = createJqRunner({ jqPath: '/nonexistent/jq' });
  assert.ok(runner.unavailable);
  const r = await runner.run('.', '1');
  assert.equal(r.ok, false);
  assert.equal(runner.processesStarted, 0);
  const compiles = await checkJqCompiles(['.a'], runner);
  assert.equal(compiles.get('.a'), null);
});

test('jq runs with an empty environment and under a time limit', async () => {
  const runner = createJqRunner({ jqPath: JQ });
  const env = await runner.run('env | length', 'null');
  assert.deepEqual(env, { ok: true, stdout: '0\n' });
  const slow = createJqRunner({ jqPath: JQ, timeoutMs: 300 });
  const r = await slow.run('[repeat(.)] | length', '1');
  assert.equal(r.ok, false);
  assert.match(!r.ok ? r.error : '', /Timeout/);
});

test('a non-executable file given as jq is reported, not spawned', () => {
  const dir = mkdtempSync(join(tmpdir(), 'jqtest-'));
  const f = join(dir, 'jq');
  writeFileSync(f, 'not a program');
  chmodSync(f, 0o644);
  assert.equal(resolveJqBinary(f).ok, false);
});

test('one batch evaluates every expression for every item; a failure stays with its cell', async () => {
  const runner = createJqRunner({ jqPath: JQ });
  const input = JSON.stringify([
    [0, { a: 1, b: 'x' }],
    [0, { a: 'str', b: null }],
    [1, { c: [1, 2] }],
  ]);
  const r = await runJqBatch(runner, {
    expressionSets: [
      ['.a + 1', '.b'],
      ['.c[]', 'empty # comment'],
    ],
    input,
  });
  assert.equal(runner.processesStarted, 1);
  assert.ok(r.ok);
  if (!r.ok) return;
  assert.deepEqual(r.items[0], [
    { ok: true, values: [2] },
    { ok: true, values: ['x'] },
  ]);
  assert.equal(r.items[1][0].ok, false);
  assert.match(!r.items[1][0].ok ? r.items[1][0].error : '', /cannot be added/);
  assert.deepEqual(r.items[1][1], { ok: true, values: [null] });
  assert.deepEqual(r.items[2], [
    { ok: true, values: [1, 2] },
    { ok: true, values: [] },
  ]);
});

test('checkJqCompiles attributes compile errors to the right expressions and caches them', async () => {
  const runner = createJqRunner({ jqPath: JQ });
  const m = await checkJqCompiles(['.addresses[0].address', '.foo | bar(', 'undefined_fn', '.x # c'], runner);
  assert.equal(m.get('.addresses[0].address'), null);
  assert.equal(m.get('.x # c'), null);
  assert.match(m.get('.foo | bar(') ?? '', /syntax error/);
  assert.match(m.get('undefined_fn') ?? '', /undefined_fn\/0 is not defined/);
  const before = runner.processesStarted;
  await checkJqCompiles(['.foo | bar(', 'undefined_fn'], runner);
  assert.equal(runner.processesStarted, before);
});
