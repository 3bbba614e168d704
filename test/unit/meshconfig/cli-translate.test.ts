// `psconfig-tools translate` as users run it: the bundled dist/cli.js in a child process.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { examplePath, meshconfigDir, migrationDir, repoRoot } from '../../fixtures';

function cli(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [join(repoRoot(), 'dist', 'cli.js'), 'translate', ...args], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const testbed = join(meshconfigDir, 'pwa--testbed.json');

test('translate prints the template, lists what is not translated at its line, and checks the result', () => {
  const r = cli(testbed);
  assert.equal(r.code, 0, r.stderr);
  const template = JSON.parse(r.stdout) as { tasks: Record<string, { reference?: Record<string, string> }> };
  assert.deepEqual(Object.keys(template.tasks), [
    'iperf3_TCP_Test_Between_Testbeds',
    'iperf3_UDP_Test_Between_Testbeds',
    'nuttcp_UDP_Test_Between_pScheduler_Hosts',
    'Traceroute_Between_Testbeds',
    'Powstream_Between_Testbeds',
    'Ping_Between_Testbeds',
  ]);
  assert.equal(template.tasks.Ping_Between_Testbeds.reference?.['display-task-name'], 'Ping Between Testbeds');
  const lines = r.stderr.trim().split('\n');
  assert.ok(
    lines.includes(
      `${testbed}:336:17: information \`loss_threshold\` is not translated: the pScheduler latencybg test has no loss threshold.`,
    ),
    r.stderr,
  );
  assert.match(r.stderr, /psconfig-tools translate: 0 settings not translated, 9 remarks/);
  // the check of the result: esmond archives (kept, as pSConfig's translator makes them) are warnings, not errors
  assert.match(r.stderr, /\(translated template\):\d+:\d+: warning psconfig\/esmond-archiver/);
  assert.match(r.stderr, /the pSConfig template has 0 errors/);
});

test('-o writes the file; --as-4x gives what pSConfig 4.x made; -q prints nothing but errors', () => {
  const dir = mkdtempSync(join(tmpdir(), 'psconfig-translate-'));
  const out = join(dir, 'testbed.psconfig.json');
  const r = cli(testbed, '-o', out, '--as-4x', '-q');
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, '');
  assert.equal(r.stderr, '');
  const t = JSON.parse(readFileSync(out, 'utf8')) as {
    tasks: Record<string, { tools?: string[]; reference?: unknown }>;
  };
  assert.deepEqual(t.tasks.iperf3_TCP_Test_Between_Testbeds.tools, ['bwctliperf3', 'iperf3']);
  assert.equal(t.tasks.iperf3_TCP_Test_Between_Testbeds.reference, undefined);
});

test('not a MeshConfig file, not JSON, unreadable, bad arguments: exit 2 with the reason', () => {
  const template = cli(examplePath('psconfig--example-1-simple.json'));
  assert.equal(template.code, 2);
  assert.match(template.stderr, /is not a MeshConfig file/);
  const dir = mkdtempSync(join(tmpdir(), 'psconfig-translate-'));
  writeFileSync(join(dir, 'bad.json'), '{"organizations": [,]}');
  const bad = cli(join(dir, 'bad.json'));
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /bad\.json:1:\d+: error/);
  assert.match(bad.stderr, /is not valid JSON/);
  assert.equal(cli(join(dir, 'missing.json')).code, 2);
  const two = cli(testbed, testbed);
  assert.equal(two.code, 2);
  assert.match(two.stderr, /only one input/);
  assert.equal(cli('--nope').code, 2);
});

test('a translation with errors exits 1', () => {
  // tracepath cannot run a trace with a probe type: pScheduler would refuse every task (an error in the check)
  const dir = mkdtempSync(join(tmpdir(), 'psconfig-translate-'));
  const mc = {
    description: 'x',
    organizations: [{ sites: [{ hosts: [{ addresses: ['a.example.net'] }, { addresses: ['b.example.net'] }] }] }],
    tests: [
      {
        description: 'trace',
        members: { type: 'mesh', members: ['a.example.net', 'b.example.net'] },
        parameters: { type: 'traceroute', tool: 'tracepath', protocol: 'icmp' },
      },
    ],
  };
  writeFileSync(join(dir, 'mesh.json'), JSON.stringify(mc));
  const r = cli(join(dir, 'mesh.json'));
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /error psconfig\/tool-cannot-run/);
  assert.ok(JSON.parse(r.stdout)); // the template is still written
});

test('a translated test that creates no task is said at the test, with the reason (here: as 4.x made it)', () => {
  // perfsonar/mesh-config's 2015 example (test/fixtures/migration/ORIGIN.md) with --as-4x: tests 1 and 2 get 4.x's
  // tools bwctliperf2 and iperf, neither a pScheduler 5 tool (pScheduler refuses: no tool in common); test 6
  // selects the classes `internet2` and `esnet`, which 4.x's exact `==` matches to no organisation ("Internet2",
  // "ESnet"). Their objects start at lines 230, 249 and 332 of the file.
  const file = join(migrationDir, 'mesh-config--example-2015.meshconfig.json');
  const r = cli(file, '--as-4x', '-o', join(mkdtempSync(join(tmpdir(), 'translate-4x-')), 'out.json'));
  const said = r.stderr.split('\n').filter((l) => l.includes('creates no pScheduler task'));
  assert.deepEqual(
    said.map((l) => l.replace(/ creates no pScheduler task: .*/, '')),
    [
      `${file}:230:7: warning Task "TCP_BWCTL_Test_Between_DICE_Bandwidth_Hosts"`,
      `${file}:249:7: warning Task "UDP_BWCTL_Test_Between_DICE_Bandwidth_Hosts"`,
      `${file}:332:7: warning Task "Inter-Organization_Traceroute_Tests_Between_Internet2_And_ESnet_Hosts"`,
    ],
    r.stderr,
  );
  assert.match(said[0], /pScheduler would refuse 12 of 12/);
  assert.match(said[2], /yields no address combination/);
  assert.match(r.stderr, /; 3 translated tests create no task\n/);
  // without --as-4x every test creates its tasks
  assert.doesNotMatch(cli(file).stderr, /creates no pScheduler task/);
});
