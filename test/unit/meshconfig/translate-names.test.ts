// Tool names and name comparisons as the MeshConfig era had them, so a translated test still yields tasks.
//
// Tools: pScheduler has `iperf2`, never `iperf` (schemas/pscheduler/tool-iperf2.json, from pscheduler-tool-iperf2);
// the MeshConfig-era agent renamed `iperf` to `iperf2` when it built pScheduler tasks (perfsonar/perl-shared
// fe81fc0c and 3ba667d6, lib/perfSONAR_PS/RegularTesting/Tests/Bwctl.pm:188-199). pScheduler refuses a task none
// of whose tools it has (perfsonar/pscheduler api-server tasks.py, pick_tool → "no tool in common").
//
// Names: MeshConfig's agent matched an organization or site filter when the description was equal, or (unless
// `exact`) equal ignoring case, or contained it ignoring case (perfsonar/mesh-config @ 6d0a989e,
// lib/perfSONAR_PS/MeshConfig/Config/HostClassFilters/Organization.pm:40-51, Site.pm:40-51); tags equal or (unless
// `exact`) equal ignoring case (Tag.pm:52-71). pSConfig 4.x's translator wrote `==` (Config.pm:399-408).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { translateMeshConfig, type TranslationNote } from '../../../server/src/template/meshconfig/translate';
import { expand } from '../expand/helpers';

type Obj = Record<string, unknown>;
const NOW = new Date('2026-01-02T03:04:05Z');

function mesh(tests: Obj[], hostClasses: Obj[] = []): Obj {
  return {
    description: 'names',
    organizations: [
      {
        description: 'Internet2',
        sites: [
          { description: 'New York POP', hosts: [{ description: 'A', addresses: ['a.example.net'], tags: ['Lat'] }] },
        ],
      },
      {
        description: 'ESnet',
        sites: [{ description: 'Chicago', hosts: [{ description: 'B', addresses: ['b.example.net'] }] }],
      },
      { description: 'Other', hosts: [{ description: 'C', addresses: ['c.example.net'] }] },
    ],
    host_classes: hostClasses,
    tests,
  };
}

const owamp = (name: string, members: string[]): Obj => ({
  description: name,
  members: { type: 'mesh', members },
  parameters: { type: 'perfsonarbuoy/owamp' },
});

const cls = (name: string, filter: Obj): Obj => ({
  name,
  data_sources: [{ type: 'current_mesh' }],
  match_filters: [filter],
});

/** The addresses each class's task pairs use, from the expansion. */
async function classPairs(
  mc: Obj,
  perfsonar5 = true,
): Promise<{ pairs: Record<string, string[]>; notes: TranslationNote[] }> {
  const t = translateMeshConfig(mc, { now: NOW, perfsonar5 });
  const r = await expand(t.template);
  const pairs: Record<string, string[]> = {};
  for (const c of r.combinations) (pairs[c.task] ??= []).push(c.addressValues.join('->'));
  return { pairs, notes: t.notes };
}

test('organization and site filters match as MeshConfig matched: ignoring case, a part of the description', async () => {
  const mc = mesh(
    [
      owamp('i2', ['host_class::i2', 'c.example.net']),
      owamp('ny', ['host_class::ny', 'c.example.net']),
      owamp('exact', ['host_class::exact', 'c.example.net']),
      owamp('tag', ['host_class::tag', 'c.example.net']),
    ],
    [
      cls('i2', { type: 'organization', description: 'internet2' }), // "Internet2": equal ignoring case
      cls('ny', { type: 'site', description: 'new york' }), // a part of "New York POP", ignoring case
      cls('exact', { type: 'organization', description: 'esnet', exact: true }), // "ESnet" ≠ "esnet" exactly
      cls('tag', { type: 'tag', tag: 'lat' }), // the host's tag "Lat": equal ignoring case
    ],
  );
  const { pairs, notes } = await classPairs(mc);
  assert.deepEqual(pairs.i2, ['a.example.net->c.example.net', 'c.example.net->a.example.net']);
  assert.deepEqual(pairs.ny, ['a.example.net->c.example.net', 'c.example.net->a.example.net']);
  // exact: only an exactly equal description (Organization.pm:41): "ESnet" is not "esnet", the class is empty and
  // a mesh of c alone yields no pair
  assert.equal(pairs.exact, undefined);
  assert.deepEqual(pairs.tag, ['a.example.net->c.example.net', 'c.example.net->a.example.net']);
  const said = (i: number): TranslationNote | undefined =>
    notes.find((n) => n.path.join('/') === `host_classes/${i}/match_filters/0/description`);
  assert.equal(said(0)?.severity, 'information');
  assert.match(said(0)!.message, /"Internet2"/);
  assert.match(said(1)!.message, /"New York POP"/);
  assert.equal(said(2), undefined);

  // --as-4x: Config.pm's exact `==`, and a warning naming the descriptions MeshConfig matched
  const old = await classPairs(mc, false);
  assert.equal(old.pairs.i2, undefined);
  assert.equal(old.pairs.ny, undefined);
  const warned = old.notes.find((n) => n.path.join('/') === 'host_classes/0/match_filters/0/description');
  assert.equal(warned?.severity, 'warning');
  assert.match(warned.message, /"Internet2"/);
});

test('the translated jq compares both sides lower-cased (ASCII), and a host without the name never matches', () => {
  const t = translateMeshConfig(mesh([], [cls('i2', { type: 'organization', description: 'Inter"net' })]), {
    now: NOW,
  });
  type Filter = { filters: Filter[] } & Record<string, unknown>;
  const classes = t.template['address-classes'] as Record<string, { 'match-filter': Filter }>;
  const f = classes.i2['match-filter'].filters[0].filters[0];
  assert.deepEqual(f, {
    type: 'host',
    jq: {
      script:
        '._meta."organization-display-name" | (type == "string") and (ascii_downcase | contains("Inter\\"net" | ascii_downcase))',
    },
  });
});

test('tools: iperf → iperf2 (said), tools pScheduler 5 lacks are warned, a test with none of them says it is refused', () => {
  const bw = (name: string, tool: string): Obj => ({
    description: name,
    members: { type: 'mesh', members: ['a.example.net', 'b.example.net'] },
    parameters: { type: 'perfsonarbuoy/bwctl', tool },
  });
  const tr = (name: string, tool: string): Obj => ({
    description: name,
    members: { type: 'mesh', members: ['a.example.net', 'b.example.net'] },
    parameters: { type: 'traceroute', tool },
  });
  const mc = mesh([
    bw('iperf', 'bwctl/iperf'),
    bw('all', 'bwctl/iperf3,bwctl/nuttcp'),
    bw('none', 'bwctl/thrulay'),
    tr('trace', 'bwctl/tracepath,traceroute'),
  ]);
  const { template, notes } = translateMeshConfig(mc, { now: NOW });
  const tasks = template.tasks as Record<string, { tools?: string[] }>;
  assert.deepEqual(tasks.iperf.tools, ['iperf2']);
  assert.deepEqual(tasks.all.tools, ['iperf3', 'nuttcp']);
  assert.deepEqual(tasks.none.tools, ['thrulay']);
  assert.deepEqual(tasks.trace.tools, ['tracepath', 'traceroute']);
  const at = (i: number): string[] =>
    notes.filter((n) => n.path.join('/') === `tests/${i}/parameters/tool`).map((n) => `${n.severity}: ${n.message}`);
  assert.equal(at(0).length, 1);
  assert.match(at(0)[0], /^information: Tool `iperf` is `iperf2` in pScheduler/);
  assert.deepEqual(at(1), []);
  assert.equal(at(2).length, 2);
  assert.match(at(2)[0], /^warning: pScheduler 5 has no tool `thrulay` for throughput tests/);
  assert.match(at(2)[1], /no tool in common/);
  assert.deepEqual(at(3), []);
  // --as-4x keeps Config.pm's names (lines 712-723): bwctliperf2 first, then iperf
  const old = translateMeshConfig(mc, { now: NOW, perfsonar5: false }).template.tasks as Record<
    string,
    { tools?: string[] }
  >;
  assert.deepEqual(old.iperf.tools, ['bwctliperf2', 'iperf']);
});
