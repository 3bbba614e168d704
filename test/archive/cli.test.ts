// `psconfig-tools archive search|get` as a user runs it: node dist/cli.js against the local archive.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Metadata, RawPoint } from '../../archive-client/types';
import { ROOT } from './helpers';
import { type ArchiveServerHandle, startArchiveServer } from './server/server';
import { runCli, type CliRun } from '../processes';

const CLI = join(ROOT, 'dist', 'cli.js');
const NOW = Math.floor(Date.now() / 1000);
let server: ArchiveServerHandle;

before(async () => {
  server = await startArchiveServer({
    seed: { fixtures: false, benchPoints: 3000, now: NOW },
    tokens: ['cli-token-1234567890'],
  });
});
after(async () => {
  await server.close();
});

/** Run the CLI without blocking this process (the archive answers from it). */
function cli(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return runCli(CLI, ['archive', ...args], { env, cwd: ROOT });
}

test('search prints every page as one JSON array', async () => {
  const r = await cli(['search', server.origin, '--limit', '3']);
  assert.equal(r.code, 0, r.stderr);
  const list = JSON.parse(r.stdout) as Metadata[];
  assert.equal(list.length, server.store.records.size);
  assert.equal(new Set(list.map((m) => m['metadata-key'])).size, list.length);
  assert.equal(list[0]['metadata-count-total'], server.store.records.size, 'kept as the archive returned it');
  assert.ok(server.requests.filter((q) => q.path.includes('limit=3')).length >= 4);
});

test('search with filters and a table', async () => {
  const r = await cli([
    'search',
    `${server.origin}/esmond/perfsonar/archive`,
    '--source',
    'ps-a.example.net',
    '--destination',
    '10.10.0.2',
    '--event-type',
    'throughput',
    '--filter',
    'ip-transport-protocol=tcp',
    '--filter',
    'bw-parallel-streams=2',
    '--time-range',
    '1d',
    '--format',
    'table',
  ]);
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.trim().split('\n');
  assert.match(lines[0], /^SOURCE → DESTINATION\s+NAMES\s+TOOL\s+EVENT TYPES\s+LAST UPDATE\s+METADATA KEY$/);
  // The name resolves to IPv6 and IPv4 tests; the IPv4 destination keeps only the IPv4 one.
  assert.equal(lines.length, 3, r.stdout);
  assert.match(
    lines[1],
    /^10\.10\.0\.1 → 10\.10\.0\.2\s+ps-a\.example\.net → ps-b\.example\.net\s+pscheduler\/iperf3\s+failures,packet-retransmits,.*…\s+\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\s+[0-9a-f]{32}$/,
  );
  assert.equal(lines[2], '1 metadata');
  const q = new URL(server.requests[server.requests.length - 1].path, 'http://x').searchParams;
  assert.equal(q.get('time-range'), '86400');
  assert.equal(q.get('ip-transport-protocol'), 'tcp');
});

test('get prints every point of a series in the range, as JSON and as CSV', async () => {
  const key = [...server.store.records.values()].find((r) => r.fields['tool-name'] === 'bench/generated')?.key;
  const url = `${server.url}${key}/throughput/base`;
  const r = await cli([
    'get',
    url,
    '--time-start',
    String(NOW - 25000),
    '--time-end',
    String(NOW),
    '--page-size',
    '700',
  ]);
  assert.equal(r.code, 0, r.stderr);
  const pts = JSON.parse(r.stdout) as RawPoint[];
  assert.equal(pts.length, 2500); // points every 10 s up to NOW - 10
  assert.ok(pts.every((p) => Number(p.ts) >= NOW - 25000 && Number(p.ts) <= NOW));
  const csv = await cli(['get', url, '--time-end', String(NOW), '--time-range', '1h', '--format', 'csv']);
  assert.equal(csv.code, 0, csv.stderr);
  const rows = csv.stdout.trim().split('\n');
  assert.equal(rows[0], 'ts,value');
  assert.equal(rows.length, 361, 'header + points NOW-3600 … NOW-10');
  assert.match(rows[1], /^\d+,\d+$/);
});

test('get as CSV flattens statistics, traces and subintervals', async () => {
  const search = JSON.parse(
    (await cli(['search', server.url, '--event-type', 'histogram-owdelay', '--source', '10.10.0.1'])).stdout,
  ) as Metadata[];
  const owd = search[0]['event-types']?.find((e) => e['event-type'] === 'histogram-owdelay');
  const stats = owd?.summaries?.find((s) => s['summary-type'] === 'statistics' && s['summary-window'] === '3600');
  const out = await cli(['get', `${server.origin}${stats?.uri}`, '--time-range', '12h', '--format', 'csv']);
  assert.equal(out.code, 0, out.stderr);
  const lines = out.stdout.trim().split('\n');
  assert.equal(
    lines[0],
    'ts,minimum,median,maximum,mean,mode,standard_deviation,variance,percentile_25,percentile_75,percentile_95',
  );
  assert.ok(lines.length >= 12);
  const traceMd = JSON.parse((await cli(['search', server.url, '--event-type', 'packet-trace'])).stdout) as Metadata[];
  const traceUri = traceMd[0]['event-types']?.find((e) => e['event-type'] === 'packet-trace')?.['base-uri'];
  const trace = await cli(['get', `${server.origin}${traceUri}`, '--time-range', '1h', '--format', 'csv']);
  assert.match(
    trace.stdout,
    /^ts,ttl,query,success,ip,hostname,rtt,mtu,as_number,error_message\n\d+,1,1,1,192\.0\.2\.1,/,
  );
  const subUri = (
    JSON.parse((await cli(['search', server.url, '--event-type', 'throughput-subintervals'])).stdout) as Metadata[]
  )[0]['event-types']?.find((e) => e['event-type'] === 'throughput-subintervals')?.['base-uri'];
  const sub = await cli(['get', `${server.origin}${subUri}`, '--time-range', '1d', '--format', 'csv']);
  assert.match(sub.stdout, /^ts,start,duration,value\n\d+,0,1,\d+\n/);
});

test('failures exit 1 with what happened; usage errors exit 2', async () => {
  const html = await cli(['search', server.faultUrl('500-html')]);
  assert.equal(html.code, 1);
  assert.match(html.stderr, /^psconfig-tools archive: HTTP 500 from .*non-JSON body: <!DOCTYPE html>/);
  const refused = await cli(['search', 'http://127.0.0.1:9']);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /connection refused by http:\/\/127\.0\.0\.1:9\/esmond\/perfsonar\/archive\//);
  const hang = await cli(['get', `${server.faultUrl('hang')}k/throughput/base`, '--timeout', '1']);
  assert.equal(hang.code, 1);
  assert.match(hang.stderr, /no response from .* within 1000 ms/);
  for (const args of [
    ['search'],
    ['get', '/relative/throughput/base'],
    ['search', server.url, '--format', 'xml'],
    ['search', server.url, '--time-start', 'someday'],
    ['frob'],
  ]) {
    const r = await cli(args);
    assert.equal(r.code, 2, args.join(' '));
    assert.match(r.stderr, /usage:/);
  }
});

test('the token from PSCONFIG_ARCHIVE_TOKEN goes on reads only with --token-on-reads, and is never printed', async () => {
  server.requests.length = 0;
  await cli(['search', server.url], { PSCONFIG_ARCHIVE_TOKEN: 'cli-token-1234567890' });
  assert.ok(server.requests.every((q) => q.authorization === undefined));
  const withToken = await cli(['search', server.url, '--token-on-reads'], {
    PSCONFIG_ARCHIVE_TOKEN: 'cli-token-1234567890',
  });
  assert.equal(withToken.code, 0);
  assert.equal(server.requests[server.requests.length - 1].authorization, 'Token cli-token-1234567890');
  const wrong = await cli(['search', server.url, '--token-on-reads'], { PSCONFIG_ARCHIVE_TOKEN: 'wrong-token-abcdef' });
  assert.equal(wrong.code, 1);
  assert.match(wrong.stderr, /HTTP 401 .*Invalid token\./);
  assert.ok(!wrong.stderr.includes('wrong-token-abcdef'));
});

test('a broken archive gives one line on stderr and exit 1: wrong shapes are warned about, a huge body stopped', async () => {
  const shapes = await cli(['search', server.faultUrl('wrong-shapes'), '--format', 'table']);
  assert.equal(shapes.code, 0, shapes.stderr);
  assert.match(
    shapes.stderr,
    /^warning: http:\/\/127\.0\.0\.1:\d+\/fault\/wrong-shapes\/.*`event-types` is a string, not a list\n$/,
  );
  assert.match(shapes.stdout, /\n1 metadata\n$/);
  const huge = await cli(['get', `${server.faultUrl('huge-body')}k/throughput/base`, '--max-response-mb', '2']);
  assert.equal(huge.code, 1);
  assert.match(
    huge.stderr,
    /^psconfig-tools archive: the response from .* is larger than 2 MB \(response size limit; setting psconfig\.archive\.maxResponseMb\)\n$/,
  );
  const repeated = await cli(['get', `${server.faultUrl('repeating-pages')}k/throughput/base`, '--page-size', '50']);
  assert.equal(repeated.code, 0, repeated.stderr);
  assert.match(repeated.stderr, /^warning: .*returned only points already read \(the same page again\)/);
  assert.equal((JSON.parse(repeated.stdout) as RawPoint[]).length, 50);
});
