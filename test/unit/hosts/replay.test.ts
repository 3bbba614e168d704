// The recorded wire (test/fixtures/pscheduler-hosts/wire.json: every answer two real pScheduler instances gave the
// reader) served again over HTTP reads back to exactly what the reader made of it then (reads.json, recorded in the
// same read): a second path through the reader, and the proof that the replay the VS Code end-to-end test reads is
// pScheduler's answers, not a stand-in written by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pschedulerHostsDir } from '../../fixtures';
import { closePSchedulerConnections, readHosts } from '../../../pscheduler-client';
import type { HostRead } from '../../../common/protocol';
import { loadWire, shiftTimes, startReplay } from '../../pscheduler-replay/server';

test('the replayed answers read back to the recorded reads, host by host', async (t) => {
  const wire = loadWire();
  const recorded = JSON.parse(readFileSync(join(pschedulerHostsDir, 'reads.json'), 'utf8')) as HostRead[];
  const replay = await startReplay(wire);
  t.after(async () => {
    await closePSchedulerConnections();
    await replay.close();
  });
  const reads = await readHosts(
    recorded.map((r) => ({ host: r.host, url: replay.urls[r.host], since: wire.since, now: new Date(wire.readAt) })),
  );
  assert.equal(reads.length, 2);
  for (const [i, r] of reads.entries()) {
    const want = recorded[i];
    assert.equal(r.error, undefined);
    // Hrefs are put on the origin read (the reader's rule): the recorded ones name the instance's.
    const origin = (u: string): string => u.replace(/^https?:\/\/[^/]+/, '');
    assert.deepEqual(
      r.tasks.map((x) => ({ ...x, href: origin(x.href), runs: x.runs.map((y) => ({ ...y, href: origin(y.href) })) })),
      want.tasks.map((x) => ({
        ...x,
        href: origin(x.href),
        runs: x.runs.map((y) => ({ ...y, href: origin(y.href) })),
      })),
    );
    assert.equal(r.readAt, want.readAt);
  }
  // Every request the reader made was one recorded (nothing answered 404).
  const recordedKeys = new Set(Object.values(wire.hosts).flatMap((h) => Object.keys(h)));
  assert.ok(replay.requests.every((k) => recordedKeys.has(k)));
});

test('shifting the times moves every ISO 8601 time and nothing else', () => {
  const hour = 3_600_000;
  assert.deepEqual(
    shiftTimes({ a: '2026-11-28T06:55:58Z', b: ['2026-11-28T23:30:00.250Z', 'PT1H', 'x'], c: 3 }, hour),
    { a: '2026-11-28T07:55:58Z', b: ['2026-11-29T00:30:00.250Z', 'PT1H', 'x'], c: 3 },
  );
  assert.equal(shiftTimes('2026-11-28T06:55:58+00:00', -hour), '2026-11-28T05:55:58Z');
});
