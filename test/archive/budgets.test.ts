// Every way an archive can misbehave ends in one clear message within its deadline and under 512 MB: each read
// runs in a process of its own (fault-probe.ts) so its peak memory is its own.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import type { ArchiveOptions } from '../../archive-client/types';
import type { ProbeReport, ProbeRequest } from './fault-probe';
import { type FaultServer, startBadCertServer, startSilentSocket } from './server/fault-servers';
import type { FaultMode } from './server/faults';
import { type ArchiveServerHandle, refusedArchiveUrl, startArchiveServer } from './server/server';

const MEMORY_LIMIT_MB = 512;
let server: ArchiveServerHandle;
let silent: FaultServer;
let badCert: FaultServer;
before(async () => {
  server = await startArchiveServer({ seed: { fixtures: false, generated: false } });
  silent = await startSilentSocket();
  badCert = await startBadCertServer();
});
after(async () => {
  await Promise.all([server.close(), silent.close(), badCert.close()]);
});

function probe(req: ProbeRequest): Promise<ProbeReport> {
  return new Promise((resolve, reject) =>
    execFile(process.execPath, [join(__dirname, 'fault-probe.js'), JSON.stringify(req)], (err, stdout, stderr) => {
      if (err) return reject(new Error(`probe failed: ${err.message} ${stderr}`));
      resolve(JSON.parse(stdout) as ProbeReport);
    }),
  );
}

const series = (mode: FaultMode): string => `${server.faultUrl(mode)}k1/throughput/base`;

interface Case {
  name: string;
  request: () => Promise<ProbeRequest>;
  /** The one message: an error of this kind, or a warning. */
  kind?: string;
  message: RegExp;
  /** Within this many ms (the request's deadline plus start-up slack). */
  withinMs: number;
}

const quick: Partial<ArchiveOptions> = { timeoutMs: 1000 }; // deadline 3 × 1000 ms
const cases: Case[] = [
  {
    name: 'closed port',
    request: async () => ({ op: 'search', archive: { url: await refusedArchiveUrl(), ...quick } }),
    kind: 'refused',
    message: /^connection refused by http:\/\/127\.0\.0\.1:\d+\/esmond\/perfsonar\/archive\/\?limit=1000&offset=0$/,
    withinMs: 3000,
  },
  {
    name: 'silent socket',
    request: async () => ({ op: 'search', archive: { url: silent.url, ...quick } }),
    kind: 'timeout',
    message: /^no response from http:\/\/127\.0\.0\.1:\d+\/.* within 1000 ms$/,
    withinMs: 5000,
  },
  {
    name: 'TLS with a bad (self-signed) certificate',
    request: async () => ({ op: 'search', archive: { url: badCert.url, ...quick } }),
    kind: 'tls',
    message: /^TLS problem talking to https:\/\/127\.0\.0\.1:\d+\/.*self[- ]signed certificate/i,
    withinMs: 3000,
  },
  {
    name: '500 with HTML',
    request: async () => ({ op: 'search', archive: { url: server.faultUrl('500-html'), ...quick } }),
    kind: 'http',
    message: /^HTTP 500 from .*: non-JSON body: <!DOCTYPE html>/,
    withinMs: 3000,
  },
  {
    name: 'huge body (1 GB, default 32 MB limit)',
    request: async () => ({ op: 'search', archive: { url: server.faultUrl('huge-body') } }),
    kind: 'too-large',
    message:
      /^the response from .*huge-body.* is larger than 32 MB \(response size limit; setting psconfig\.archive\.maxResponseMb\)$/,
    withinMs: 20_000,
  },
  {
    name: 'endless body',
    request: async () => ({
      op: 'series',
      archive: { url: server.url, maxResponseBytes: 4 * 1024 * 1024 },
      uri: series('endless-body'),
    }),
    kind: 'too-large',
    message: /is larger than 4 MB/,
    withinMs: 10_000,
  },
  {
    name: 'slow drip (a byte every 100 ms, for ever)',
    request: async () => ({ op: 'search', archive: { url: server.faultUrl('slow-drip'), ...quick } }),
    kind: 'timeout',
    message: /^the response from .*slow-drip.* did not complete within 3000 ms \(request deadline\)$/,
    withinMs: 6000,
  },
  {
    name: 'wrong shapes in metadata',
    request: async () => ({ op: 'search', archive: { url: server.faultUrl('wrong-shapes'), ...quick } }),
    message:
      /^http:\/\/127\.0\.0\.1:\d+\/fault\/wrong-shapes\/\S+: 4 metadata objects of the wrong shape left out; metadata object 1 \(key bad-1\) `event-types` is a string, not a list$/,
    withinMs: 3000,
  },
  {
    name: 'wrong shapes in points',
    request: async () => ({ op: 'series', archive: { url: server.url, ...quick }, uri: series('wrong-shapes') }),
    message:
      /^http:\/\/127\.0\.0\.1:\d+\/fault\/wrong-shapes\/\S+: 3 points of the wrong shape left out; point 0 `ts` is a string, not a timestamp$/,
    withinMs: 3000,
  },
  {
    name: 'endless fresh metadata pages (default budget)',
    request: async () => ({ op: 'search', archive: { url: server.faultUrl('endless-pages') }, pageSize: 5000 }),
    kind: 'too-large',
    message:
      /^stopped reading .*endless-pages.*: more than 200,000 metadata objects in one read \(budget of a paged read\)/,
    withinMs: 60_000,
  },
  {
    name: 'endless fresh series pages (default budget)',
    request: async () => ({
      op: 'series',
      archive: { url: server.url },
      uri: series('endless-pages'),
      pageSize: 10_000,
    }),
    kind: 'too-large',
    message: /^stopped reading .*endless-pages.*: more than 1,000,000 points in one read/,
    withinMs: 60_000,
  },
  {
    name: 'the same metadata page again and again',
    request: async () => ({
      op: 'search',
      archive: { url: server.faultUrl('repeating-pages'), ...quick },
      pageSize: 100,
    }),
    message: /^the archive returned the same page again at offset 100; it may ignore offset$/,
    withinMs: 3000,
  },
  {
    name: 'the same series page again and again',
    request: async () => ({
      op: 'series',
      archive: { url: server.url, ...quick },
      uri: series('repeating-pages'),
      pageSize: 100,
    }),
    message: /returned only points already read \(the same page again\); the archive may ignore time-start/,
    withinMs: 3000,
  },
];

for (const c of cases) {
  test(`archive fault: ${c.name} gives one clear message in time and under ${MEMORY_LIMIT_MB} MB`, async () => {
    const r = await probe(await c.request());
    assert.notEqual(r.kind, 'crash', r.message);
    if (c.kind) {
      assert.equal(r.ok, false, `expected a ${c.kind} error, got ${JSON.stringify(r)}`);
      assert.equal(r.kind, c.kind, r.message);
      assert.match(r.message ?? '', c.message);
    } else {
      assert.equal(r.ok, true, r.message);
      assert.match(r.warning ?? '', c.message);
    }
    assert.ok(r.ms < c.withinMs, `took ${Math.round(r.ms)} ms`);
    assert.ok(r.maxRssMb < MEMORY_LIMIT_MB, `peak ${Math.round(r.maxRssMb)} MB`);
    console.log(`${c.name}: ${Math.round(r.ms)} ms, peak ${Math.round(r.maxRssMb)} MB`);
  });
}
