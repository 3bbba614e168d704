// The translation rule by rule, on small MeshConfig files: each expectation cites the line of pSConfig 4.x's
// translator it follows (perfsonar/perl-shared @ 033b9215, …/Translators/MeshConfig/Config.pm), or says where we
// differ on purpose (docs/migration.md lists the differences).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  translateMeshConfig,
  translationText,
  type TranslationNote,
} from '../../../server/src/template/meshconfig/translate';
import { isMeshConfig } from '../../../server/src/template/meshconfig/detect';
import { parseTemplate } from '../../../server/src/template/parse';
import { validateTemplate } from '../../../server/src/template/diagnostics';
import { LineIndex } from '../../../server/src/template/positions';
import { expand, pairs } from '../expand/helpers';
import { exampleFiles, exampleText, meshconfigDir } from '../../fixtures';

type Obj = Record<string, unknown>;
/** A translated template as these tests read it: every member another level (a missing one is undefined at run time). */
type Tree = { readonly [key: string]: Tree };

const NOW = new Date('2026-01-02T03:04:05Z');

/** A MeshConfig file of one organisation with the given hosts (address lists) and tests. */
function meshConfig(hosts: Obj[], tests: Obj[], extra: Obj = {}): Obj {
  return { description: 'a mesh', organizations: [{ description: 'Org', sites: [{ hosts }] }], tests, ...extra };
}
const H = (description: string, ...addresses: unknown[]): Obj => ({ description, addresses });
const mesh = (...members: string[]): Obj => ({ type: 'mesh', members });
const T = (description: string, members: Obj, parameters: Obj, extra: Obj = {}): Obj => ({
  description,
  members,
  parameters,
  ...extra,
});
function translate(mc: Obj, opts: Parameters<typeof translateMeshConfig>[1] = {}) {
  const t = translateMeshConfig(mc, { now: NOW, ...opts });
  return { ...t, tpl: t.template as unknown as Tree };
}
const noteAt = (notes: TranslationNote[], ...path: (string | number)[]): TranslationNote | undefined =>
  notes.find((n) => n.path.join('/') === path.join('/'));

test('a MeshConfig file is recognised; a template, or a file with addresses or includes, is not', () => {
  for (const f of ['pwa--testbed.json', 'pwa--latentput-meshconfig.json'])
    assert.ok(isMeshConfig(parseTemplate(readFileSync(join(meshconfigDir, f), 'utf8'))), f);
  for (const f of exampleFiles()) assert.equal(isMeshConfig(parseTemplate(exampleText(f))), false, f);
  assert.ok(isMeshConfig(parseTemplate('{"tests": [], "description": "x"}')));
  assert.ok(isMeshConfig(parseTemplate('{"organizations": []}')));
  assert.equal(isMeshConfig(parseTemplate('{"organizations": [], "addresses": {}}')), false);
  assert.equal(isMeshConfig(parseTemplate('{"tests": [], "includes": ["a.json"]}')), false);
  assert.equal(isMeshConfig(parseTemplate('{"tests": {}}')), false);
  assert.equal(isMeshConfig(parseTemplate('[]')), false);
});

test('a MeshConfig file gets one error saying what it is and what to do, and no schema errors', () => {
  const text = readFileSync(join(meshconfigDir, 'pwa--testbed.json'), 'utf8');
  const { diagnostics } = validateTemplate(text);
  const errors = diagnostics.filter((d) => d.severity === 'error');
  assert.equal(errors.length, 1);
  assert.equal(errors[0].code, 'psconfig/meshconfig');
  assert.match(errors[0].message, /MeshConfig file/);
  assert.match(errors[0].message, /Translate MeshConfig to pSConfig/);
  assert.match(errors[0].message, /psconfig-tools translate/);
  assert.deepEqual(errors[0].data, { kind: 'translate-meshconfig' });
  // on the first key, "administrators"
  assert.equal(text.slice(errors[0].start, errors[0].end), '"administrators"');
  assert.deepEqual([...new Set(diagnostics.map((d) => d.code))].sort(), [
    'psconfig/meshconfig',
    'psconfig/meshconfig-not-translated',
  ]);
  // the notes sit on what they are about: here the owamp test's loss_threshold
  const loss = diagnostics.find((d) => d.message.includes('`loss_threshold`'));
  assert.ok(loss);
  assert.equal(text.slice(loss.start, loss.end), '"loss_threshold"');
  assert.equal(new LineIndex(text).positionAt(loss.start).line + 1, 336);
});

test('throughput: fields, UDP bandwidth, tools with their BWCTL variants (as 4.x) or without, the schedule', () => {
  const mc = meshConfig(
    [H('A', 'a.example.net'), H('B', 'b.example.net')],
    [
      T('udp', mesh('a.example.net', 'b.example.net'), {
        type: 'perfsonarbuoy/bwctl',
        tool: 'bwctl/iperf3,iperf',
        protocol: 'udp',
        udp_bandwidth: '50000000',
        duration: '10',
        interval: '86400',
        omit_interval: 2,
        report_interval: '1',
        streams: '0',
        window_size: '1024000',
        dscp: 0,
        ipv6_only: 'true',
      }),
    ],
  );
  const old = translate(mc, { perfsonar5: false }).tpl;
  assert.deepEqual(old.tests.throughput_0, {
    type: 'throughput',
    spec: {
      source: '{% address[0] %}',
      dest: '{% address[1] %}',
      'source-node': '{% pscheduler_address[0] %}',
      'dest-node': '{% pscheduler_address[1] %}',
      duration: 'PT10S',
      omit: 'PT2S',
      interval: 'PT1S',
      // streams "0" is not set (Perl's `if`), dscp 0 is (`defined`, line 756)
      'window-size': 1024000,
      dscp: 0,
      'ip-version': 6,
      udp: true,
      bandwidth: 50000000,
    },
  });
  assert.deepEqual(old.tasks.udp.tools, ['bwctliperf3', 'iperf3', 'bwctliperf2', 'iperf']); // lines 709-723
  // the slip is the interval capped at 12 hours, randomised (lines 726-736)
  assert.deepEqual(old.schedules.schedule_0, { repeat: 'PT86400S', slip: 'PT43200S', sliprand: true });
  assert.equal(old.tasks.udp.reference, undefined);
  const ps5t = translate(mc);
  const ps5 = ps5t.tpl;
  // `iperf` is pScheduler's `iperf2`, as the MeshConfig agent named it for pScheduler (perfsonar/perl-shared
  // fe81fc0c, lib/perfSONAR_PS/RegularTesting/Tests/Bwctl.pm:191 `$tool = 'iperf2' if($tool eq 'iperf')`); --as-4x
  // above keeps Config.pm's `iperf`.
  assert.deepEqual(ps5.tasks.udp.tools, ['iperf3', 'iperf2']);
  const renamed = ps5t.notes.filter((n) => n.path.join('/') === 'tests/0/parameters/tool');
  assert.deepEqual(
    renamed.map((n) => n.severity),
    ['information'],
  );
  assert.match(renamed[0].message, /`iperf` is `iperf2`/);
  assert.equal(
    translate(mc, { perfsonar5: false }).notes.filter((n) => n.path.join('/') === 'tests/0/parameters/tool').length,
    0,
  );
  assert.deepEqual(ps5.tasks.udp.reference, { 'display-task-name': 'udp' });
});

test('latencybg, rtt and trace parameters; slip and slip_randomize', () => {
  const mc = meshConfig(
    [H('A', 'a.example.net'), H('B', 'b.example.net')],
    [
      T('owamp', mesh('a.example.net', 'b.example.net'), {
        type: 'perfsonarbuoy/owamp',
        sample_count: '600',
        packet_interval: '0.1',
        bucket_width: 0.001,
        packet_padding: '0',
        output_raw: '1',
        ipv4_only: 'false', // MeshConfig's false (Perl would take the string as true)
      }),
      T('ping', mesh('a.example.net', 'b.example.net'), {
        type: 'pinger',
        packet_count: 10,
        packet_interval: 0.5,
        packet_size: '1000',
        test_interval: '900',
        flowlabel: 0,
        slip: 60,
        slip_randomize: '0',
      }),
      T('trace', mesh('a.example.net', 'b.example.net'), {
        type: 'traceroute',
        tool: 'traceroute,tracepath',
        test_interval: 600,
        timeout: '30',
        wait: '10',
        waittime: 5,
        protocol: 'icmp',
        max_ttl: '20',
        pause: 1,
      }),
    ],
  );
  const { tpl, notes } = translate(mc, { perfsonar5: false });
  assert.deepEqual(tpl.tests.latencybg_0.spec, {
    source: '{% address[0] %}',
    dest: '{% address[1] %}',
    'source-node': '{% pscheduler_address[0] %}',
    'dest-node': '{% pscheduler_address[1] %}',
    flip: '{% flip %}',
    'packet-count': 600,
    'packet-padding': 0,
    'packet-interval': 0.1,
    'bucket-width': 0.001,
    'output-raw': true,
  });
  assert.equal(tpl.tasks.owamp.schedule, undefined); // latencybg runs continuously: no schedule (lines 773-797)
  assert.deepEqual(tpl.tests.rtt_0.spec, {
    source: '{% address[0] %}',
    dest: '{% address[1] %}',
    'source-node': '{% pscheduler_address[0] %}',
    count: 10,
    length: 1000,
    'flow-label': 0, // pScheduler's name (Config.pm:827 writes `flowlabel`, which pScheduler refuses)
    // 0.5 s keeps its fraction (Perl's int() would make it PT0S); no `deadline` from flowlabel (line 828's slip)
    interval: 'PT0.5S',
  });
  const pingSchedule = tpl.tasks.ping.schedule as unknown;
  assert.equal(typeof pingSchedule, 'string');
  assert.deepEqual(tpl.schedules[pingSchedule as string], { repeat: 'PT900S', slip: 'PT60S' });
  assert.deepEqual(tpl.tests.trace_0.spec, {
    source: '{% address[0] %}',
    dest: '{% address[1] %}',
    'source-node': '{% pscheduler_address[0] %}',
    hops: 20,
    wait: 'PT10S', // `wait` overrides the older `timeout` (lines 939-942)
    sendwait: 'PT5S',
    'probe-type': 'icmp',
  });
  assert.deepEqual(tpl.tasks.trace.tools, ['bwctltraceroute', 'traceroute', 'bwctltracepath', 'tracepath']);
  assert.equal(noteAt(notes, 'tests', 2, 'parameters', 'pause')?.severity, 'information');
  // the result is a template pScheduler takes: every combination expands without an error or a refusal
  return expand(tpl).then((r) =>
    assert.deepEqual(
      r.combinations.filter((c) => c.error),
      [],
    ),
  );
});

test('groups: mesh, disjoint, star (a disjoint group around the centre), host classes, default-address-label', async () => {
  const mc = meshConfig(
    [H('A', 'a.example.net'), H('B', 'b.example.net'), H('C', 'c.example.net')],
    [
      T(
        'star',
        { type: 'star', center_address: 'a.example.net', members: ['b.example.net', 'c.example.net'] },
        {
          type: 'pinger',
        },
      ),
      T(
        'disjoint',
        { type: 'disjoint', a_members: ['a.example.net'], b_members: ['host_class::others'] },
        {
          type: 'pinger',
        },
      ),
      T('labelled', { ...mesh('a.example.net', 'b.example.net'), address_map_field: 'ipv6' }, { type: 'pinger' }),
      T('ordered', { type: 'ordered_mesh', members: ['a.example.net'] }, { type: 'pinger' }),
    ],
    {
      host_classes: [
        {
          name: 'others',
          data_sources: [{ type: 'current_mesh' }],
          match_filters: [
            { type: 'tag', tag: 'x' },
            { type: 'tag', tag: 'y' },
            { type: 'organization', description: 'Org', exact: true },
          ],
          exclude_filters: [{ type: 'not', filters: [{ type: 'address_type', address_type: 'ipv6' }] }],
        },
        { name: 'two', data_sources: [{ type: 'current_mesh' }, { type: 'requesting_agent' }] },
      ],
    },
  );
  const { tpl, notes } = translate(mc);
  assert.deepEqual(tpl.groups.group_0, {
    type: 'disjoint',
    'a-addresses': [{ name: 'a.example.net' }],
    'b-addresses': [{ name: 'b.example.net' }, { name: 'c.example.net' }],
  });
  assert.deepEqual(tpl.groups.group_1['b-addresses'], [{ class: 'others' }]);
  assert.equal(tpl.groups.group_2['default-address-label'], 'ipv6');
  assert.equal(tpl.tasks.ordered, undefined);
  assert.equal(noteAt(notes, 'tests', 3, 'members', 'type')?.severity, 'warning');
  // AND between filter types, OR within one (lines 334-361)
  assert.deepEqual(tpl['address-classes'].others, {
    'data-source': { type: 'current-config' },
    'match-filter': {
      type: 'and',
      filters: [
        {
          type: 'or',
          filters: [
            { type: 'tag', tag: 'x' },
            { type: 'tag', tag: 'y' },
          ],
        },
        { type: 'or', filters: [{ type: 'host', jq: { script: '._meta."organization-display-name"=="Org"' } }] },
      ],
    },
    'exclude-filter': {
      type: 'and',
      filters: [
        {
          type: 'or',
          filters: [
            {
              type: 'not',
              filter: { type: 'and', filters: [{ type: 'or', filters: [{ type: 'ip-version', 'ip-version': 6 }] }] },
            },
          ],
        },
      ],
    },
  });
  assert.equal(tpl['address-classes'].two, undefined); // one data source only (line 305)
  assert.ok(noteAt(notes, 'host_classes', 1));
  // `exact` on an organization is kept: `==` is MeshConfig's exact comparison (HostClassFilters/Organization.pm:41)
  assert.equal(noteAt(notes, 'host_classes', 0, 'match_filters', 2, 'exact'), undefined);
  const r = await expand(tpl);
  assert.deepEqual(pairs(r, 'star'), [
    'a.example.net->b.example.net',
    'a.example.net->c.example.net',
    'b.example.net->a.example.net',
    'c.example.net->a.example.net',
  ]);
});

test('equal groups, tests and schedules are shared; the names follow the order met (lines 596-651)', () => {
  const p = { type: 'perfsonarbuoy/bwctl', duration: 20, interval: 3600 };
  const mc = meshConfig(
    [H('A', 'a.example.net'), H('B', 'b.example.net')],
    [
      T('one', mesh('a.example.net', 'b.example.net'), p),
      T('two', mesh('a.example.net', 'b.example.net'), { ...p, duration: 30 }),
      T('three', mesh('b.example.net', 'a.example.net'), p),
    ],
  );
  const { tpl } = translate(mc);
  assert.deepEqual(
    Object.entries(tpl.tasks as unknown as Record<string, Record<string, string>>).map(
      ([n, t]) => `${n} ${t.group} ${t.test} ${t.schedule}`,
    ),
    [
      'one group_0 throughput_0 schedule_0',
      'two group_0 throughput_1 schedule_0',
      'three group_1 throughput_0 schedule_0',
    ],
  );
});

test('tasks without a description are task_N; a repeated description gets a second name, with a warning', () => {
  const p = { type: 'pinger' };
  const mc = meshConfig(
    [H('A', 'a.example.net'), H('B', 'b.example.net')],
    [
      { members: mesh('a.example.net', 'b.example.net'), parameters: p },
      T('same name', mesh('a.example.net', 'b.example.net'), p),
      T('same name', mesh('b.example.net', 'a.example.net'), p),
      { members: mesh('b.example.net', 'a.example.net'), parameters: p },
    ],
  );
  const { tpl, notes } = translate(mc);
  assert.deepEqual(Object.keys(tpl.tasks), ['task_0', 'same_name', 'same_name_2', 'task_1']);
  assert.equal(noteAt(notes, 'tests', 2, 'description')?.severity, 'warning');
});

test('hosts: names, meta from organisation, site and host, tags, archives by level; excludes-self by host', async () => {
  const mc = {
    description: 'x',
    measurement_archives: [
      {
        type: 'perfsonarbuoy/bwctl',
        read_url: 'https://ma.example.net/esmond/perfsonar/archive/',
        write_url: 'https://ma.example.net/esmond/perfsonar/archive/',
      },
    ],
    organizations: [
      {
        description: 'Org',
        tags: ['org-tag'],
        measurement_archives: [
          { type: 'pinger', read_url: 'https://org-ma.example.net/e', write_url: 'https://org-ma.example.net/e' },
        ],
        location: { country: 'US' },
        sites: [
          {
            description: 'Site one',
            tags: ['site-tag'],
            hosts: [
              {
                description: 'Same',
                addresses: ['a.example.net', 'a2.example.net'],
                toolkit_url: 'auto',
                no_agent: '0',
              },
              { addresses: [{ address: '2001:db8::1', bind_address: '10.0.0.1' }], toolkit_url: 'auto' },
            ],
          },
          {
            hosts: [{ description: 'Same', addresses: ['b.example.net'], disabled: 'false' }],
            measurement_archives: [
              { type: 'pinger', read_url: 'https://org-ma.example.net/other', write_url: 'https://w.example.net/' },
            ],
          },
        ],
      },
    ],
    tests: [T('ping', mesh('a.example.net', 'a2.example.net', 'b.example.net'), { type: 'pinger' })],
  };
  const { tpl, notes } = translate(mc);
  assert.deepEqual(Object.keys(tpl.hosts), ['Same', '2001:db8::1', 'Same_2']);
  assert.deepEqual(tpl.hosts.Same, {
    archives: ['org-ma.example.net'],
    tags: ['org-tag', 'site-tag'],
    'no-agent': false,
    _meta: {
      'organization-display-name': 'Org',
      'organization-location-country': 'US',
      'site-display-name': 'Site one',
      'display-name': 'Same',
      'ps-toolkit-url': 'https://a.example.net/toolkit',
    },
  });
  // the second site does not inherit the first site's description (Config.pm:166 leaked it)
  assert.equal(tpl.hosts.Same_2._meta['site-display-name'], undefined);
  assert.equal(tpl.hosts.Same_2.disabled, false);
  assert.equal(tpl.hosts['2001:db8::1']._meta['ps-toolkit-url'], 'https://[2001:db8::1]/toolkit');
  assert.equal(tpl.addresses['a2.example.net'].host, 'Same');
  assert.deepEqual(tpl.tasks.ping.archives, ['ma.example.net']); // top-level archives reach tasks, not hosts
  assert.equal(tpl.archives['org-ma.example.net'].data.url, 'https://org-ma.example.net/e');
  assert.equal(noteAt(notes, 'organizations', 0, 'sites', 1, 'hosts', 0)?.severity, 'warning'); // renamed host
  assert.ok(noteAt(notes, 'organizations', 0, 'sites', 1, 'measurement_archives', 0, 'read_url')); // URL not used
  assert.ok(noteAt(notes, 'organizations', 0, 'sites', 1, 'measurement_archives', 0, 'write_url'));
  assert.ok(noteAt(notes, 'organizations', 0, 'sites', 0, 'hosts', 1, 'addresses', 0, 'bind_address'));
  // a and a2 share a host: excludes-self (host, the default) drops the pairs between them
  const r = await expand(tpl);
  assert.deepEqual(pairs(r, 'ping'), [
    'a.example.net->b.example.net',
    'a2.example.net->b.example.net',
    'b.example.net->a.example.net',
    'b.example.net->a2.example.net',
  ]);
});

test('address maps become remote-addresses with labels, pscheduler and lead-bind addresses (lines 456-491)', () => {
  const mc = meshConfig(
    [
      H('A', {
        address: 'a.example.net',
        pscheduler_address: 'a-ps.example.net',
        maps: [{ remote_address: 'b.example.net', fields: [{ name: 'ipv6', value: '2001:db8::a' }] }],
        pscheduler_address_maps: [{ remote_address: 'b.example.net', service_address: 'a-svc.example.net' }],
        bind_maps: [{ remote_address: 'c.example.net', lead_bind_address: '10.0.0.1' }],
      }),
      H('B', 'b.example.net'),
    ],
    [],
  );
  const { tpl } = translate(mc);
  assert.deepEqual(tpl.addresses['a.example.net'], {
    address: 'a.example.net',
    host: 'A',
    'pscheduler-address': 'a-ps.example.net',
    'remote-addresses': {
      'b.example.net': {
        address: 'a.example.net',
        labels: { ipv6: { address: '2001:db8::a', 'pscheduler-address': 'a-svc.example.net' } },
        'pscheduler-address': 'a-svc.example.net',
      },
      'c.example.net': { address: 'a.example.net', 'lead-bind-address': '10.0.0.1' },
    },
    _meta: { 'display-name': 'A' },
  });
});

test('force_bidirectional: a note by default; with the option a second task scheduled by the destination', () => {
  const mc = meshConfig(
    [H('A', 'a.example.net'), H('B', 'b.example.net')],
    [T('bw', mesh('a.example.net', 'b.example.net'), { type: 'perfsonarbuoy/bwctl', force_bidirectional: '1' })],
  );
  const plain = translate(mc);
  assert.deepEqual(Object.keys(plain.tpl.tasks), ['bw']);
  assert.equal(noteAt(plain.notes, 'tests', 0, 'parameters', 'force_bidirectional')?.severity, 'information');
  const both = translate(mc, { useForceBidirectional: true });
  assert.deepEqual(Object.keys(both.tpl.tasks), ['bw', 'bw_scheduled_by_dest']);
  assert.equal(both.tpl.tasks.bw_scheduled_by_dest['scheduled-by'], 1);
  assert.equal(both.tpl.tasks.bw_scheduled_by_dest._meta['display-name'], 'bw (Scheduled by Destination)');
  assert.equal(noteAt(both.notes, 'tests', 0, 'parameters', 'force_bidirectional'), undefined);
});

test('what is not translated is listed: unknown fields, unknown test types, expected results, bad values', () => {
  const mc = meshConfig(
    [H('A', 'a.example.net'), H('B', 'b.example.net')],
    [
      T(
        'x',
        mesh('a.example.net', 'b.example.net'),
        { type: 'perfsonarbuoy/bwctl', duration: 'twenty', colour: 'red' },
        {
          expected_results: [],
          references: [{ name: 'display-task-name', value: 'shown' }, { name: 'x' }],
        },
      ),
      T('y', mesh('a.example.net', 'b.example.net'), { type: 'http' }),
      T(
        'z',
        { type: 'mesh', members: ['a.example.net', 'b.example.net'], no_agents: ['b.example.net'] },
        { type: 'pinger' },
      ),
    ],
    { surprise: 1 },
  );
  const { tpl, notes } = translate(mc);
  const severity = (...p: (string | number)[]) => noteAt(notes, ...p)?.severity;
  assert.equal(severity('surprise'), 'warning');
  assert.equal(severity('tests', 0, 'expected_results'), 'warning');
  assert.equal(severity('tests', 0, 'parameters', 'duration'), 'warning');
  assert.equal(severity('tests', 0, 'parameters', 'colour'), 'warning');
  assert.equal(severity('tests', 0, 'references', 1), 'warning');
  assert.equal(severity('tests', 1, 'parameters', 'type'), 'warning');
  assert.equal(severity('tests', 2, 'members', 'no_agents'), 'warning');
  assert.deepEqual(tpl.tasks.x.reference, { 'display-task-name': 'shown' }); // given: kept as it is
  assert.equal(tpl.tasks.y, undefined);
  assert.equal(tpl.tests.throughput_0.spec.duration, undefined);
  // every note has a message and a place
  assert.ok(notes.every((n) => n.message.length > 10 && Array.isArray(n.path)));
});

test('the result: required sections always there, _meta with the translation time, 4-space JSON text', () => {
  const { template } = translateMeshConfig({ description: 'd', organizations: [], tests: [] }, { now: NOW });
  const text = translationText({ template });
  assert.deepEqual(JSON.parse(text), {
    _meta: {
      'psconfig-translation': { 'source-format': 'mesh-config-json', 'time-translated': '2026-01-02T03:04:05+00:00' },
      'display-name': 'd',
    },
    addresses: {},
    groups: {},
    tests: {},
    tasks: {},
  });
  assert.match(text, /^\{\n {4}"_meta"/);
  assert.ok(text.endsWith('}\n'));
});

test('an archive that took one test type in MeshConfig, and now takes every type, is noted on its `type`', () => {
  const mc = meshConfig(
    [H('A', 'a.example.net'), H('B', 'b.example.net')],
    [
      T('bw', mesh('a.example.net', 'b.example.net'), { type: 'perfsonarbuoy/bwctl' }),
      T('owamp', mesh('a.example.net', 'b.example.net'), { type: 'perfsonarbuoy/owamp' }),
    ],
    {
      measurement_archives: [
        {
          type: 'perfsonarbuoy/owamp',
          read_url: 'https://ma.example.net/esmond/',
          write_url: 'https://ma.example.net/esmond/',
        },
        {
          type: 'perfsonarbuoy/bwctl',
          read_url: 'https://all.example.net/esmond/',
          write_url: 'https://all.example.net/esmond/',
        },
        {
          type: 'perfsonarbuoy/owamp',
          read_url: 'https://all.example.net/esmond/',
          write_url: 'https://all.example.net/esmond/',
        },
      ],
    },
  );
  const { tpl, notes } = translate(mc);
  assert.deepEqual(tpl.tasks.bw.archives, ['ma.example.net', 'all.example.net']);
  const note = noteAt(notes, 'measurement_archives', 0, 'type');
  assert.equal(note?.severity, 'information');
  assert.match(note.message, /perfsonarbuoy\/bwctl results go there too/);
  assert.equal(noteAt(notes, 'measurement_archives', 1, 'type'), undefined);
});
