// Every real MeshConfig file (test/fixtures/psconfig/meshconfig, from perfsonar/psconfig-web): translated, the
// template passes our checks with no error, and expands to the agents, tasks and address pairs pSConfig 4.x's
// translator gives.
//
// The expectations are derived here from the MeshConfig file and the translator's code, not from our translation:
// perfsonar/perl-shared @ 033b9215, libperfsonar/libperfsonar/lib/perfSONAR_PS/Client/PSConfig/Translators/
// MeshConfig/Config.pm makes
//   - one task per test, named by its description with spaces as `_` (_format_name, lines 661-667, 972-981);
//   - its pScheduler test type from the parameters type (lines 611-624, and the type each convert_* sets);
//   - a mesh group whose selectors are the members in order (lines 568-573), no `excludes-self` (so the default,
//     `host`), no scheduled-by and no no-agent (none of these files sets `no_agent`);
//   - a `hosts` object per MeshConfig host, every address of that host pointing at it (lines 495-518).
// pSConfig then expands a mesh to every ordered pair of members, first-index-major, dropping pairs whose two
// addresses share a host (excludes-self `host`), each scheduled by its first address (psconfig.md §3.1-3.4).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { translateMeshConfig, translationText } from '../../../server/src/template/meshconfig/translate';
import { validateTemplate } from '../../../server/src/template/diagnostics';
import { expand } from '../expand/helpers';
import { examplePath, meshconfigDir } from '../../fixtures';

type Obj = Record<string, unknown>;

const files = readdirSync(meshconfigDir).filter((f) => f.endsWith('.json'));
const NOW = new Date('2026-01-02T03:04:05Z');

/** MeshConfig parameters type → pScheduler test type (Config.pm 706, 777, 803, 845, 890). */
const TEST_TYPE: Record<string, string> = {
  'perfsonarbuoy/bwctl': 'throughput',
  'perfsonarbuoy/owamp': 'latencybg',
  pinger: 'rtt',
  simplestream: 'simplestream',
  traceroute: 'trace',
};

interface Expected {
  task: string;
  type: string;
  /** `agent: source -> dest`, in expansion order. */
  pairs: string[];
}

/** Which MeshConfig host (by its position in the file) each address string belongs to. */
function hostOfAddress(mc: Obj): Map<string, string> {
  const out = new Map<string, string>();
  const hosts = (list: unknown, where: string): void =>
    ((list as Obj[] | undefined) ?? []).forEach((h, i) => {
      for (const a of (h.addresses as unknown[]) ?? [])
        out.set(typeof a === 'string' ? a : String((a as Obj).address), `${where}/${i}`);
    });
  hosts(mc.hosts, 'hosts');
  ((mc.organizations as Obj[]) ?? []).forEach((o, i) => {
    hosts(o.hosts, `org${i}`);
    ((o.sites as Obj[]) ?? []).forEach((s, j) => hosts(s.hosts, `org${i}/site${j}`));
  });
  return out;
}

function expectations(mc: Obj): Expected[] {
  const hostOf = hostOfAddress(mc);
  const out: Expected[] = [];
  for (const t of (mc.tests as Obj[]) ?? []) {
    const members = t.members as Obj;
    const params = t.parameters as Obj;
    assert.equal(members.type, 'mesh', 'these files only hold mesh tests');
    const list = members.members as string[];
    const pairs: string[] = [];
    for (const a of list)
      for (const b of list) if (a !== b && hostOf.get(a) !== hostOf.get(b)) pairs.push(`${a}: ${a} -> ${b}`);
    out.push({
      task: String(t.description)
        .replace(/\s/g, '_')
        .replace(/[^a-zA-Z0-9:._-]/g, ''),
      type: TEST_TYPE[String(params.type)],
      pairs,
    });
  }
  return out;
}

/** Tasks, test types and `agent: pair`s of an expansion; `refusals`: tasks pScheduler would refuse count too. */
async function expanded(template: unknown, refusals = false): Promise<Expected[]> {
  const r = await expand(template);
  assert.equal(r.error, undefined);
  const byTask = new Map<string, Expected>();
  for (const c of r.combinations) {
    if (!(refusals && c.refused))
      assert.equal(c.error, undefined, `${c.task} ${c.addressValues.join(' -> ')}: ${c.error}`);
    const e = byTask.get(c.task) ?? { task: c.task, type: String(c.pscheduler?.test.type), pairs: [] };
    byTask.set(c.task, e);
    e.pairs.push(`${c.agent}: ${c.addressValues.join(' -> ')}`);
  }
  return [...byTask.values()];
}

for (const file of files) {
  const mc = JSON.parse(readFileSync(join(meshconfigDir, file), 'utf8')) as Obj;

  for (const perfsonar5 of [true, false]) {
    const mode = perfsonar5 ? 'for perfSONAR 5' : 'as pSConfig 4.x made it';
    test(`${file} (${mode}): the translation passes the checks with no error`, () => {
      const t = translateMeshConfig(mc, { now: NOW, perfsonar5 });
      const { diagnostics } = validateTemplate(translationText(t));
      const errors = diagnostics.filter((d) => d.severity === 'error');
      assert.deepEqual(
        errors.map((d) => `${d.code} ${d.message}`),
        [],
      );
    });
  }

  test(`${file}: expands to the agents, tasks and pairs of pSConfig's translator, each a task pScheduler takes`, async () => {
    const got = await expanded(translateMeshConfig(mc, { now: NOW }).template);
    const want = expectations(mc);
    assert.deepEqual(
      got.map((e) => e.task),
      want.map((e) => e.task),
    );
    for (const w of want)
      assert.deepEqual(
        got.find((g) => g.task === w.task),
        w,
      );
    // (Every combination above has no error: pScheduler's offline checks of the task JSON passed too.)
    assert.ok(want.every((w) => w.pairs.length > 0));
  });
}

test("the latentput mesh: the translation expands to the same pairs as PWA's own pSConfig output of it", async () => {
  const mc = JSON.parse(readFileSync(join(meshconfigDir, 'pwa--latentput-meshconfig.json'), 'utf8')) as Obj;
  const pwa: unknown = JSON.parse(readFileSync(examplePath('pwa--latentput-psconfig.json'), 'utf8'));
  const ours = await expanded(translateMeshConfig(mc, { now: NOW }).template);
  // PWA names the tasks by their descriptions too; its schedules, slips and tools differ (it is not
  // pSConfig's translator), the agents, test types and pairs do not. (PWA gives its latencybg task the tool
  // owping, which runs only latency tests: pScheduler would refuse those tasks. Counted anyway: the pairs are
  // what is compared.)
  const theirs = await expanded(pwa, true);
  assert.deepEqual(ours, theirs);
});

test('testbed: the host with four addresses measures from none of them to another', async () => {
  // lbl-pt1.es.net's host lists four addresses; none of them is a member, so no pair is dropped for it. The
  // excludes-self rule is exercised by a host holding two members (a unit test in translate-rules.test.ts).
  const mc = JSON.parse(readFileSync(join(meshconfigDir, 'pwa--testbed.json'), 'utf8')) as Obj;
  const t = translateMeshConfig(mc, { now: NOW }).template as { addresses: Record<string, Obj> };
  const hosts = new Set(
    ['lbl-pt1.es.net', 'lbl-owamp.es.net', 'lbl-pt1-v6.es.net', 'lbl-owamp-v6.es.net'].map((a) => t.addresses[a].host),
  );
  assert.equal(hosts.size, 1);
});
