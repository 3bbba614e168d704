// `npm run archive` (out/test/archive/server/main.js): prints the archive URL, serves it, and keeps running until
// it is told to stop.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { request } from 'undici';
import { ROOT } from './helpers';

test('the local archive entry point prints its URL, answers searches and stops on SIGTERM', async () => {
  const child = spawn(process.execPath, [join(ROOT, 'out/test/archive/server/main.js')], {
    env: { ...process.env, PORT: '0', PSCONFIG_ARCHIVE_TOKEN: 'main-test-token-123' },
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /local archive: (http:\/\/127\.0\.0\.1:\d+\/esmond\/perfsonar\/archive\/)\n/.exec(out);
        if (m) resolve(m[1]);
      });
      child.on('exit', (code) => reject(new Error(`exited early with ${code}: ${out}`)));
    });
    const res = await request(`${url}?event-type=throughput&limit=2`, { headers: { accept: 'application/json' } });
    assert.equal(res.statusCode, 200);
    const list = (await res.body.json()) as { 'metadata-count-total'?: number }[];
    assert.equal(list.length, 2);
    assert.ok((list[0]['metadata-count-total'] ?? 0) >= 5);
    assert.equal(child.exitCode, null, 'still running');
  } finally {
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    child.kill('SIGTERM');
    assert.equal(await exited, 0);
  }
});
