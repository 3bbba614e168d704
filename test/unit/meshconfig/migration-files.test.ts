// The four real files of test/fixtures/migration/ (ORIGIN.md there), end to end as a user migrates them: a
// MeshConfig file is translated (then fixed), a perfSONAR 4 era template is fixed (test/fixtures... fix-text.ts, as
// `psconfig-tools fix`), then validated, expanded (every task built, none refused by the TaskChecker) and scheduled
// (the schedule model's simulation runs). Where a file cannot get there, the exact to-do reported is asserted.
//
// Expectations are derived by hand from the files and upstream rules, not from the code under test:
//  - pSConfig expands a mesh to every ordered pair of distinct members whose hosts differ, a disjoint group to every
//    a→b and b→a pair (psconfig.md §3.1-3.4); pSConfig 4.x's translator makes one task per MeshConfig test
//    (Config.pm:538-683). Under a group's `default-address-label`, a member yields an address for a pair only from its
//    `remote-addresses` entry for the other end or its own `labels` having that label; otherwise pSConfig skips the
//    pair (psconfig.md §3.3, BaseGroup.select_address).
//  - MeshConfig's agent matched `{"type": "organization", "description": "internet2"}` to the organisation
//    "Internet2" (ignoring case; perfsonar/mesh-config @ 6d0a989e HostClassFilters/Organization.pm:40-51).
//  - The fix turns every `esmond` archive into perfSONAR 5's logstash `http` archive (docs/migration.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { translateMeshConfig, translationText } from '../../../server/src/template/meshconfig/translate';
import { expansionNotes } from '../../../server/src/template/meshconfig/outcome';
import { fixText } from '../../../server/src/template/fixes/fix-text';
import { validateTemplate } from '../../../server/src/template/diagnostics';
import { buildScheduleModel, simulateSchedule } from '../../../server/src/template/schedule';
import { expand, pairs } from '../expand/helpers';
import { migrationDir } from '../../fixtures';

type Obj = Record<string, unknown>;
const NOW = new Date('2026-01-02T03:04:05Z');
const read = (f: string): string => readFileSync(join(migrationDir, f), 'utf8');

/** `severity code` of every diagnostic but hints, sorted. */
function diagnosticsOf(text: string): string[] {
  return validateTemplate(text)
    .diagnostics.filter((d) => d.severity !== 'hint')
    .map((d) => `${d.severity} ${d.code}`)
    .sort();
}

/** Expanded, every combination created (none failed, refused or identical), scheduled: tasks per template task. */
async function expandAndSchedule(text: string): Promise<Record<string, number>> {
  const r = await expand(JSON.parse(text));
  assert.equal(r.error, undefined);
  const failed = r.combinations.filter((c) => c.error !== undefined || c.identicalTo !== undefined);
  assert.deepEqual(
    failed.map((c) => `${c.task}: ${c.error}`),
    [],
  );
  const counts: Record<string, number> = {};
  for (const c of r.combinations) counts[c.task] = (counts[c.task] ?? 0) + 1;
  const model = buildScheduleModel(r.combinations);
  assert.equal(model.tasks.length, r.combinations.length);
  const sim = simulateSchedule(model, { days: 1, seed: 1 });
  assert.ok(sim.scheduled.reduce((a, b) => a + b, 0) > 0, 'the simulated scheduler places runs');
  return counts;
}

/** Ordered pairs of a mesh whose members are all on distinct hosts: n(n-1). */
const meshPairs = (n: number): number => n * (n - 1);

for (const [file, hosts] of [
  // Both files: six mesh tests of four members on four hosts; the 2015 one adds an Internet2 × ESnet disjoint test
  ['mesh-config--example-2014.meshconfig.json', { internet2: 0, esnet: 0 }],
  ['mesh-config--example-2015.meshconfig.json', { internet2: 2, esnet: 4 }],
] as const) {
  test(`${file}: translated, fixed, no error, every test yields its tasks, scheduled`, async () => {
    const mc = JSON.parse(read(file)) as Obj;
    const t = translateMeshConfig(mc, { now: NOW });
    // bwctl/iperf → pScheduler's iperf2 (perl-shared fe81fc0c, RegularTesting/Tests/Bwctl.pm:191)
    const tasks = t.template.tasks as Record<string, { tools?: string[] }>;
    assert.deepEqual(tasks.TCP_BWCTL_Test_Between_DICE_Bandwidth_Hosts.tools, ['iperf2']);
    assert.deepEqual(tasks.UDP_BWCTL_Test_Between_DICE_Bandwidth_Hosts.tools, ['iperf2']);
    const fixed = fixText(translationText(t));
    assert.equal(fixed.unfixed.length, 0);
    // one esmond archive per measurement-archive host, each converted
    assert.ok(fixed.applied.length > 0 && fixed.applied.every((a) => a.code === 'psconfig/esmond-archiver'));
    const left = diagnosticsOf(fixed.text);
    assert.deepEqual(
      left.filter((d) => d.startsWith('error')),
      [],
    );
    // Warnings left: each converted archive now posts to its host's /logstash, which a perfSONAR 5 archive host
    // takes only with HTTP Basic credentials or from an allowed address — a credential no fix can know, so one
    // psconfig/archive-logstash-auth per archive, each also in the fix's to-do; and the 2015 file's Internet2 × ESnet
    // test selects by address class, which pSConfig 5.x (Python) cannot do in a group
    // (psconfig/class-selector-python: one on each of its two class selectors).
    const auth = Array<string>(fixed.applied.length).fill('warning psconfig/archive-logstash-auth');
    assert.deepEqual(
      fixed.todo.map((t) => t.code),
      auth.map(() => 'psconfig/archive-logstash-auth'),
    );
    assert.deepEqual(
      left.filter((d) => d.startsWith('warning')),
      hosts.internet2 > 0
        ? [...auth, 'warning psconfig/class-selector-python', 'warning psconfig/class-selector-python']
        : auth,
    );
    const counts = await expandAndSchedule(fixed.text);
    const expected: Record<string, number> = {};
    for (const test of mc.tests as { description: string; members: { type: string; members: unknown[] } }[]) {
      const name = String(test.description)
        .replace(/\s/g, '_')
        .replace(/[^a-zA-Z0-9:._-]/g, '');
      expected[name] =
        test.members.type === 'mesh' ? meshPairs(test.members.members.length) : 2 * hosts.internet2 * hosts.esnet; // disjoint, both directions
    }
    assert.deepEqual(counts, expected);
    // nothing to report: every translated test creates tasks
    const r = await expand(JSON.parse(translationText(t)));
    assert.deepEqual(expansionNotes(t, r), []);
  });
}

test('mesh-config--example-2015: as 4.x translated it (exact ==), the inter-organisation test yields no task, and says why', async () => {
  const t = translateMeshConfig(JSON.parse(read('mesh-config--example-2015.meshconfig.json')), {
    now: NOW,
    perfsonar5: false,
  });
  const notes = expansionNotes(t, await expand(t.template));
  // tests 1 and 2 (bwctl/iperf): 4.x's tools bwctliperf2 and iperf, neither a pScheduler 5 tool, so pScheduler
  // refuses every task (tasks.py pick_tool: no tool in common); test 6: its classes compare exactly and select nobody
  assert.deepEqual(
    notes.map((n) => `${n.severity} ${n.path.join('/')}`),
    ['warning tests/1', 'warning tests/2', 'warning tests/6'],
  );
  assert.match(
    notes[0].message,
    /^Task "TCP_BWCTL_Test_Between_DICE_Bandwidth_Hosts" creates no pScheduler task: pScheduler would refuse 12 of 12 \(.*bwctliperf2/,
  );
  assert.match(
    notes[2].message,
    /^Task "Inter-Organization_Traceroute_Tests_Between_Internet2_And_ESnet_Hosts" creates no pScheduler task: its group "group_2" yields no address combination/,
  );
});

test('mesh-config--example-3-circuits-4x.psconfig.json: fixed, no error, 2 tasks × 10 circuit pairs, scheduled', async () => {
  const fixed = fixText(read('mesh-config--example-3-circuits-4x.psconfig.json'));
  // its nine per-host esmond archives (archive-lsvn … archive-cern-513), each converted
  assert.deepEqual(
    fixed.applied.map((a) => a.code),
    Array<string>(9).fill('psconfig/esmond-archiver'),
  );
  assert.equal(fixed.unfixed.length, 0);
  const text = JSON.parse(fixed.text) as Obj;
  assert.ok(Object.values(text.archives as Record<string, Obj>).every((a) => a.archiver === 'http'));
  // Left, none an error: no task sets reference.display-task-name, so perfSONAR 5's Grafana agent finds no results
  // for its grids (information, one per task); and each of the nine archives now posts to its host's /logstash
  // (https://lsvn-pt1.es.net/logstash …), which a perfSONAR 5 archive host takes only with HTTP Basic credentials or
  // from an allowed address: a credential no fix can know, so a warning per archive and a line of the fix's to-do.
  assert.deepEqual(
    fixed.todo.map((t) => t.code),
    Array<string>(9).fill('psconfig/archive-logstash-auth'),
  );
  assert.deepEqual(diagnosticsOf(fixed.text), [
    ...Array<string>(2).fill('information psconfig/grafana-no-display-name'),
    ...Array<string>(9).fill('warning psconfig/archive-logstash-auth'),
  ]);
  // Both groups are disjoint with `default-address-label: backup-path`, and no address has a `labels` entry of its
  // own: only the `remote-addresses` entries carry the label, so pSConfig builds a pair a→b only where a names b
  // there and b names a (psconfig.md §3.3; BaseGroup.select_address). Read off the file, the circuits are
  // lsvn–ga, bost–amst, newy–lond, aofa–lond and wash–cern-513, for the -pt1 (throughput) and the -owamp
  // (latencybg) addresses alike: 5 circuits, each a→b and b→a, 10 tasks per template task (of the 5×4×2 = 40 ordered
  // pairs of the groups, the other 30 have no label and yield nothing). perl-shared's t/client-psconfig-circuits.t
  // expects the same 10 pairs for the throughput task (test/fixtures/psconfig/examples/expected-pairs.json).
  // The fixed file passes the official schema and names no missing object, so the agent takes it (r.error unset).
  assert.deepEqual(await expandAndSchedule(fixed.text), {
    'backup-path-throughput': 10,
    'backup-path-latencybg': 10,
  });
  // and each pair tests between the circuit's own /30 addresses, a's entry for b and b's for a: lsvn–ga .33/.34,
  // bost–amst .1/.2, newy–lond .9/.10, aofa–lond .17/.18, wash–cern-513 .25/.26 (owamp: .37/.38, .5/.6, .13/.14,
  // .21/.22, .29/.30)
  const r = await expand(text);
  const both = (ends: [number, number][]): string[] =>
    ends.flatMap(([a, b]) => [`192.168.14.${a}->192.168.14.${b}`, `192.168.14.${b}->192.168.14.${a}`]).sort();
  assert.deepEqual(
    pairs(r, 'backup-path-throughput').sort(),
    both([
      [33, 34],
      [1, 2],
      [9, 10],
      [17, 18],
      [25, 26],
    ]),
  );
  assert.deepEqual(
    pairs(r, 'backup-path-latencybg').sort(),
    both([
      [37, 38],
      [5, 6],
      [13, 14],
      [21, 22],
      [29, 30],
    ]),
  );
});

test('mesh-config--example-2-testbed-4x.psconfig.json: the exact to-do `fix` cannot do', () => {
  // This 2017 draft of pSConfig's testbed example predates the final 4.0 schema: `fix` converts its esmond archive,
  // and what is left are errors in the file itself, read off it by hand:
  //  - 8 mesh groups carry `force-bidirectional`, which pSConfig's schema never had in a group
  //    (psconfig-schema.json MeshGroupSpecification, additionalProperties false);
  //  - groups name `pstest2.geant.carnet.hr` (6 groups) and `test-owamp1.es.net` (2) that `addresses` lacks (it has
  //    `pstest.geant.carnet.hr` and `test-owamp.es.net`);
  //  - two throughput tests write `window_size` for pScheduler's `window-size`;
  //  - two latencybg tests give `packet-timeout` as "PT10S" where pScheduler takes a whole number of seconds.
  // The schema errors make pSConfig's agent reject the whole template (nothing runs until they are mended), so no
  // expansion is asserted here (the lead's expand change reports exactly that as the expansion's error).
  const fixed = fixText(read('mesh-config--example-2-testbed-4x.psconfig.json'));
  assert.deepEqual(
    fixed.applied.map((a) => a.code),
    ['psconfig/esmond-archiver'],
  );
  const errors = validateTemplate(fixed.text)
    .diagnostics.filter((d) => d.severity === 'error')
    .map((d) => d.code)
    .sort();
  const count = (c: string): number => errors.filter((e) => e === c).length;
  assert.equal(count('psconfig/unknown-property'), 8);
  assert.equal(count('psconfig/unknown-address'), 8);
  assert.equal(count('psconfig/spec-unknown-property'), 2);
  assert.equal(count('psconfig/spec-invalid-value'), 2);
  assert.equal(errors.length, 20);
});
