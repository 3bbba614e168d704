// `psconfig-tools archive register|post|bulk` against the local archive, in both of its modes (the seed's 200 and
// deployed esmond's 201): the token from --token-file or the environment (never argv), clear 400/401 messages
// carrying the archive's own text.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Metadata, RawPoint } from '../../archive-client/types';
import { ROOT } from './helpers';
import { startArchiveServer, type ArchiveMode } from './server/server';
import { runCli, type CliRun } from '../processes';

const CLI = join(ROOT, 'dist', 'cli.js');
const TOKEN = 'write-token-0123456789abcdef';
const dir = mkdtempSync(join(tmpdir(), 'archive-write-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: unknown): string {
  const p = join(dir, name);
  writeFileSync(p, typeof content === 'string' ? content : JSON.stringify(content));
  return p;
}

function cli(args: string[], env: Record<string, string | undefined> = {}): Promise<CliRun> {
  return runCli(CLI, ['archive', ...args], { env: { PSCONFIG_ARCHIVE_TOKEN: undefined, ...env }, cwd: ROOT });
}

const metadata = {
  'subject-type': 'point-to-point',
  source: '10.20.0.1',
  destination: '10.20.0.2',
  'measurement-agent': '10.20.0.1',
  'input-source': 'w1.example.net',
  'input-destination': 'w2.example.net',
  'tool-name': 'pscheduler/iperf3',
  'event-types': [
    { 'event-type': 'throughput', summaries: [{ 'summary-type': 'average', 'summary-window': 86400 }] },
    { 'event-type': 'packet-retransmits', summaries: [] },
  ],
};

for (const mode of ['seed', 'esmond'] as ArchiveMode[]) {
  test(`register, post and bulk through the CLI against the ${mode} archive`, async () => {
    const server = await startArchiveServer({ seed: false, tokens: [TOKEN], mode });
    try {
      const tokenFile = file(`token-${mode}`, `${TOKEN}\n`);
      const metaFile = file(`meta-${mode}.json`, metadata);
      const reg = await cli(['register', server.url, metaFile, '--token-file', tokenFile]);
      assert.equal(reg.code, 0, reg.stderr);
      const m = JSON.parse(reg.stdout) as Metadata;
      assert.match(String(m['metadata-key']), /^[0-9a-f]{32}$/);
      const again = await cli(['register', server.url, metaFile], { PSCONFIG_ARCHIVE_TOKEN: TOKEN });
      assert.equal(
        (JSON.parse(again.stdout) as Metadata)['metadata-key'],
        m['metadata-key'],
        'an identical registration returns the same object',
      );
      const base = new URL(
        (m['event-types'] ?? []).find((e) => e['event-type'] === 'throughput')?.['base-uri'] as string,
        server.origin,
      ).toString();

      // One point from the arguments, then a file of points.
      const one = await cli(['post', base, '--ts', '1700000000', '--val', '9400000000', '--token-file', tokenFile]);
      assert.equal(one.code, 0, one.stderr);
      const pointsFile = file(`points-${mode}.json`, [
        { ts: 1700000600, val: 9300000000 },
        { ts: 1700001200, val: 9200000000 },
      ]);
      const many = await cli(['post', base, pointsFile, '--token-file', tokenFile]);
      assert.equal(many.code, 0, many.stderr);
      assert.match(many.stderr, /posted 2 points/);

      // Bulk: two timestamps, two event types.
      const metaUri = new URL(String(m.uri), server.origin).toString();
      const bulkFile = file(`bulk-${mode}.json`, {
        data: [
          {
            ts: 1700001800,
            val: [
              { 'event-type': 'throughput', val: 9100000000 },
              { 'event-type': 'packet-retransmits', val: 3 },
            ],
          },
          {
            ts: 1700002400,
            val: [
              { 'event-type': 'throughput', val: 9000000000 },
              { 'event-type': 'packet-retransmits', val: 0 },
            ],
          },
        ],
      });
      const put = await cli(['bulk', metaUri, bulkFile, '--token-file', tokenFile]);
      assert.equal(put.code, 0, put.stderr);

      const got = await cli(['get', base]);
      assert.equal(got.code, 0, got.stderr);
      assert.deepEqual(
        (JSON.parse(got.stdout) as RawPoint[]).map((p) => [p.ts, p.val]),
        [
          [1700000000, 9400000000],
          [1700000600, 9300000000],
          [1700001200, 9200000000],
          [1700001800, 9100000000],
          [1700002400, 9000000000],
        ],
      );
      // The token went in the header of every write, and never shows in any output.
      const writes = server.requests.filter((r) => r.method !== 'GET');
      assert.equal(writes.length, 6);
      assert.ok(writes.every((r) => r.authorization === `Token ${TOKEN}`));
      for (const r of [reg, one, many, put, got]) assert.ok(!`${r.stdout}${r.stderr}`.includes(TOKEN));

      // 401 with the archive's detail; 400 with its message.
      const wrong = await cli([
        'post',
        base,
        '--ts',
        '1700003000',
        '--val',
        '1',
        '--token-file',
        file(`bad-${mode}`, 'not-the-token'),
      ]);
      assert.equal(wrong.code, 1);
      assert.match(
        wrong.stderr,
        /the archive did not accept the credentials \(HTTP 401 .*Invalid token\.\)\. Check --token-file/,
      );
      const bad = await cli([
        'bulk',
        metaUri,
        file(`badbulk-${mode}.json`, { data: [{ ts: 'yesterday', val: [] }] }),
        '--token-file',
        tokenFile,
      ]);
      assert.equal(bad.code, 1);
      assert.match(bad.stderr, /the archive refused the request \(HTTP 400 .*Time must be a unix timestamp\)/);
    } finally {
      await server.close();
    }
  });
}

test('the token never comes from the command line; a write without a token is refused before any request', async () => {
  const server = await startArchiveServer({ seed: false, tokens: [TOKEN] });
  try {
    const meta = file('meta-argv.json', metadata);
    const argv = await cli(['register', server.url, meta, '--token', TOKEN]);
    assert.equal(argv.code, 2);
    assert.match(argv.stderr, /--token is not accepted: a token on the command line shows in the process list/);
    const none = await cli(['register', server.url, meta]);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /writing needs a token: --token-file PATH or PSCONFIG_ARCHIVE_TOKEN/);
    const summary = await cli(['post', `${server.url}abc/throughput/averages/86400`, '--ts', '1', '--val', '1'], {
      PSCONFIG_ARCHIVE_TOKEN: TOKEN,
    });
    assert.equal(summary.code, 2);
    assert.match(summary.stderr, /base URI/);
    assert.equal(server.requestCount(), 0);
  } finally {
    await server.close();
  }
});
