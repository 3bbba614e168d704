// On Linux the checks' worker thread runs below the main thread's priority (server/src/lsp/worker/thread.ts), so a check does
// not take the CPU the next request needs. Read from /proc: the main thread keeps the process's nice value, one
// other thread (the worker) has 5 more.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { LspClient } from './lsp-client';
import { exampleText } from '../fixtures';

function niceOf(pid: number, tid: string): number {
  const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
}

test('the worker thread runs 5 nice steps below the main thread', { skip: process.platform !== 'linux' }, async () => {
  const client = await LspClient.start();
  try {
    // The worker starts with the first check.
    await client.open('file:///tmp/psconfig-priority/a.json', exampleText('psconfig--example-1-simple.json'));
    const pid = client.child.pid!;
    const main = niceOf(pid, String(pid));
    const others = readdirSync(`/proc/${pid}/task`)
      .filter((t) => t !== String(pid))
      .map((t) => niceOf(pid, t));
    assert.ok(others.includes(Math.min(19, main + 5)), `main ${main}, others ${others.join(' ')}`);
  } finally {
    await client.stop();
  }
});
