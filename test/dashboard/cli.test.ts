// `psconfig-tools dashboard` as cron runs it: node dist/cli.js against the local archive's generated mesh.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DashboardReport } from '../../dashboard/report';
import { startArchiveServer, type ArchiveServerHandle } from '../archive/server/server';
import { dashboardFixturePath, repoRoot } from '../fixtures';
import { runCli, type CliRun } from '../processes';

const CLI = join(repoRoot(), 'dist', 'cli.js');
const TEMPLATE = dashboardFixturePath('mesh-20.psconfig.json');
let archive: ArchiveServerHandle;
let scratch: string;

before(async () => {
  archive = await startArchiveServer({ seed: { fixtures: false, generated: false, mesh: true } });
  scratch = mkdtempSync(join(tmpdir(), 'psconfig-dashboard-cli-'));
});
after(async () => {
  await archive.close();
  rmSync(scratch, { recursive: true, force: true });
});

function cli(args: string[]): Promise<CliRun> {
  return runCli(CLI, ['dashboard', ...args]);
}

test('json: one grid per task, each direction in the scenario state; exit 1 because some pairs are red or empty', async () => {
  const r = await cli([TEMPLATE, '--archive', archive.url, '--format', 'json']);
  assert.equal(r.code, 1, r.stderr);
  const report = JSON.parse(r.stdout) as DashboardReport;
  assert.deepEqual(
    report.grids.map((g) => [g.task, g.metric, g.window]),
    [
      ['mesh-throughput', 'throughput', 86400],
      ['mesh-latencybg', 'loss', 2700],
      ['mesh-trace', 'paths', 3600],
    ],
  );
  const scenario = archive.seed.mesh!;
  const idx = (h: string): number => Number(/mesh-(\d+)/.exec(h)![1]) - 1;
  for (const g of report.grids) {
    const test = g.testType as 'throughput' | 'latencybg' | 'trace';
    const failing = g.directions.filter((d) => d.state === 'failed');
    const red = g.directions.filter((d) => d.state === 'critical');
    const expect = (kind: string): number =>
      g.directions.filter((d) => scenario.kind(test, idx(d.source), idx(d.destination)) === kind).length;
    assert.equal(failing.length, expect('failing'));
    assert.equal(red.length, expect('critical'));
    assert.equal(g.counts['no-data'] ?? 0, expect('missing') + expect('stale'));
    for (const d of red) assert.ok(d.display && d.key && d.time);
  }
  assert.equal(report.stats.searches.length, 1);
});

test('table: the grid, the pairs that need attention, and what it cost', async () => {
  const r = await cli([TEMPLATE, '--archive', archive.url, '--task', 'mesh-throughput']);
  assert.equal(r.code, 1, r.stderr);
  const out = r.stdout;
  assert.match(out, /^mesh-throughput — throughput · mesh of 20 × 20 — Throughput, average over 1d/m);
  assert.match(out, /warning < 1, critical < 0\.5/);
  assert.match(out, /^ 1 mesh-01\.example\.net {2}/m);
  assert.match(out, /needs attention \(\d+\):/);
  assert.match(out, /^ {4}failed {3}mesh-\d+\.example\.net → mesh-\d+\.example\.net at .* latest run failed: /m);
  assert.match(out, /requests: \d+ \(1 metadata search — /);
  // mesh-01 → mesh-02 is excluded: the first half of cell (1, 2) is blank, the second shows mesh-02 → mesh-01.
  const row1 = out.split('\n').find((l) => l.startsWith(' 1 mesh-01'))!;
  const cells = row1.trim().split(/\s+/).slice(2);
  assert.match(cells[0], /^\/\S+$/);
});

test('exit 0 when every configured pair is ok or a warning', async () => {
  const scenario = archive.seed.mesh!;
  // Two hosts whose throughput is fine in both directions.
  let pair: [number, number] | undefined;
  for (let i = 0; i < 20 && !pair; i++)
    for (let j = i + 1; j < 20 && !pair; j++)
      if (scenario.kind('throughput', i, j) === 'ok' && scenario.kind('throughput', j, i) === 'ok') pair = [i, j];
  assert.ok(pair);
  const names = pair.map((i) => scenario.hosts[i].name);
  const file = join(scratch, 'two.psconfig.json');
  writeFileSync(
    file,
    JSON.stringify({
      archives: { a: { archiver: 'esmond', data: { url: archive.url } } },
      addresses: Object.fromEntries(names.map((n) => [n, { address: n }])),
      groups: { g: { type: 'mesh', addresses: names.map((name) => ({ name })) } },
      tests: { t: { type: 'throughput', spec: { source: '{% address[0] %}', dest: '{% address[1] %}' } } },
      tasks: { tp: { group: 'g', test: 't', archives: ['a'] } },
    }),
  );
  const r = await cli([file]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /2 configured directions, 0 need attention/);
  // A stricter threshold makes the same pairs red: exit 1.
  const strict = await cli([file, '--threshold', 'throughput.critical=100', '--format', 'json']);
  assert.equal(strict.code, 1);
  assert.deepEqual(
    (JSON.parse(strict.stdout) as DashboardReport).grids[0].directions.map((d) => d.state),
    ['critical', 'critical'],
  );
});

test('usage and template problems exit 2 and say why', async () => {
  const unknown = await cli([TEMPLATE, '--task', 'nope']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /no task nope in .*tasks: mesh-throughput, mesh-latencybg, mesh-trace/);
  const window = await cli([TEMPLATE, '--window', 'soon']);
  assert.equal(window.code, 2);
  assert.match(window.stderr, /--window must be auto or a duration/);
  const missing = await cli([join(scratch, 'absent.json')]);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /cannot read .*absent\.json/);
  const broken = join(scratch, 'broken.json');
  writeFileSync(broken, '{"tasks": ');
  const bad = await cli([broken]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /JSON syntax error at line 1/);
});
