// What perfSONAR 5's Grafana agent draws for each task (grafana/agent-view.ts), as diagnostics and lens titles,
// and the completion and hover of the `reference` keys it reads. Each case cites the line of perfsonar/psconfig
// psconfig/perfsonar-psconfig/psconfig/grafana/agent.py @ 3ba99274 it follows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyseTemplate } from '../../../server/src/template/model';
import { grafanaDiagnostics, grafanaLensTitle, grafanaView } from '../../../server/src/template/grafana/agent-view';
import { grafanaLenses } from '../../../server/src/template/navigation/code-lenses';
import { completeAt } from '../../../server/src/template/navigation/completion';
import { hoverAt } from '../../../server/src/template/navigation/hover';
import { validateTemplate } from '../../../server/src/template/diagnostics';
import { atCursor, applyOffsetEdits } from '../navigation/nav-fixture';
import { exampleFiles, exampleText } from '../../fixtures';

type Obj = Record<string, unknown>;

const LOGSTASH = {
  archiver: 'http',
  data: {
    schema: 2,
    _url: 'https://{% scheduled_by_address %}/logstash',
    op: 'put',
    _headers: { 'x-ps-observer': '{% scheduled_by_address %}', 'content-type': 'application/json' },
  },
};

function template(tasks: Obj, extra: Obj = {}): string {
  return JSON.stringify(
    {
      addresses: {
        a: { address: 'a.example.net', host: 'ha' },
        b: { address: 'b.example.net' },
        c: { address: 'c.example.net' },
      },
      hosts: { ha: {} },
      archives: {
        logstash: LOGSTASH,
        esmond: { archiver: 'esmond', data: { url: 'https://ma.example.net/esmond/perfsonar/archive/' } },
      },
      groups: {
        mesh: { type: 'mesh', addresses: [{ name: 'a' }, { name: 'b' }] },
        pairs: { type: 'disjoint', 'a-addresses': [{ name: 'a' }], 'b-addresses': [{ name: 'b' }, { name: 'c' }] },
        list: { type: 'list', addresses: [{ name: 'a' }, { name: 'c' }] },
      },
      tests: {
        rtt: { type: 'rtt', spec: { source: '{% address[0] %}', dest: '{% address[1] %}' } },
        one: { type: 'rtt', spec: { dest: '{% address[0] %}' } },
        snmp: { type: 'snmpget', spec: { dest: '{% address[0] %}', version: '2c', community: 'x', oid: ['1.3'] } },
      },
      tasks,
      ...extra,
    },
    null,
    2,
  );
}

const view = (text: string) => grafanaView(analyseTemplate(text));
const codes = (text: string, task: string): string[] =>
  view(text)
    .find((v) => v.task === task)!
    .findings.map((f) => f.code);

test('a mesh or disjoint task with a logstash archive and a display-task-name gets its grid', () => {
  const text = template({
    shown: {
      group: 'pairs',
      test: 'rtt',
      archives: ['logstash'],
      reference: { 'display-task-name': 'RTT', 'display-task-group': ['My mesh'] },
    },
  });
  const [v] = view(text);
  assert.equal(v.verdict, 'grid');
  assert.deepEqual(v.findings, []);
  assert.deepEqual(v.dashboards, ['All perfSONAR Measurements', 'My mesh']);
  const [lens] = grafanaLenses(analyseTemplate(text));
  assert.equal(lens.title, 'Grafana: grid "RTT" on All perfSONAR Measurements, My mesh');
  assert.equal(text.slice(lens.start, lens.end), 'shown');
});

test('no display-task-name: the grid is drawn but stays empty (its query is reference.display-task-name)', () => {
  const text = template({
    nameless: { group: 'mesh', test: 'rtt', archives: ['logstash'], reference: { other: 1 } },
    bare: { group: 'mesh', test: 'rtt', archives: ['logstash'] },
  });
  const [nameless, bare] = view(text);
  assert.equal(nameless.verdict, 'empty-grid');
  assert.deepEqual(codes(text, 'nameless'), ['psconfig/grafana-no-display-name']);
  // on the reference key when there is one, else on the task's name
  assert.equal(text.slice(nameless.findings[0].start, nameless.findings[0].end), '"reference"');
  assert.equal(text.slice(bare.findings[0].start, bare.findings[0].end), 'bare');
  assert.match(bare.findings[0].message, /titled "bare"/);
  assert.equal(grafanaLenses(analyseTemplate(text))[1].title, 'Grafana: empty grid (no reference.display-task-name)');
});

test('no grid: a list group (lines 283-285), a test type no display covers (256-258); the certain reason only', () => {
  const text = template({
    listed: { group: 'list', test: 'one', archives: ['logstash'] },
    snmp: { group: 'mesh', test: 'snmp', archives: ['esmond'] },
  });
  assert.deepEqual(
    grafanaLenses(analyseTemplate(text)).map((l) => l.title),
    ['Grafana: no grid (a list group)', 'Grafana: no grid (no display for snmpget tests)'],
  );
  // a list group is not also told it lacks a display name, nor an snmp task that esmond is no datasource
  assert.deepEqual(codes(text, 'listed'), ['psconfig/grafana-list-group']);
  assert.deepEqual(codes(text, 'snmp'), ['psconfig/grafana-no-display']);
  assert.ok(view(text).every((v) => v.findings.every((f) => f.severity === 'information')));
});

test("archives the Grafana agent cannot read: a grid only with the Grafana host's archives.d (lines 640-689)", () => {
  const text = template({
    esmond: { group: 'mesh', test: 'rtt', archives: ['esmond'], reference: { 'display-task-name': 'x' } },
    none: { group: 'mesh', test: 'rtt', reference: { 'display-task-name': 'y' } },
  });
  const [esmond, none] = view(text);
  assert.equal(esmond.verdict, 'grid-if-archives-d');
  assert.deepEqual(codes(text, 'esmond'), ['psconfig/grafana-no-logstash']);
  assert.match(esmond.findings[0].message, /archives\.d/);
  assert.equal(
    grafanaLenses(analyseTemplate(text))[0].title,
    `Grafana: grid "x" only with a logstash archive from the Grafana host's archives.d`,
  );
  // naming no archive at all leaves the datasource to archives.d, as 5.x hosts usually do: nothing to say
  assert.equal(none.verdict, 'grid');
  assert.deepEqual(none.findings, []);
});

test('the datasource may come from the host of an address, from _meta, or any archive whose _url ends in /logstash', () => {
  const viaHost = template(
    { t: { group: 'mesh', test: 'rtt', reference: { 'display-task-name': 'x' } } },
    { hosts: { ha: { archives: ['logstash'] } } },
  );
  assert.equal(view(viaHost)[0].verdict, 'grid');
  const archives = {
    meta: {
      archiver: 'esmond',
      data: { url: 'https://ma.example.net/esmond/perfsonar/archive/' },
      _meta: { 'grafana-datasource-url': 'https://os.example.net/opensearch' },
    },
    // agent.py:656 calls archive.archiver("http"), a setter that is always true: the archiver is not checked
    rabbit: { archiver: 'rabbitmq', data: { _url: 'amqp://mq.example.net/logstash' } },
    // `_meta.grafana-datasource-url` counts at the archive's top level only
    inData: { archiver: 'esmond', data: { url: 'x', _meta: { 'grafana-datasource-url': 'https://os/opensearch' } } },
  };
  const text = template(
    {
      m: { group: 'mesh', test: 'rtt', archives: ['meta'], reference: { 'display-task-name': 'm' } },
      r: { group: 'mesh', test: 'rtt', archives: ['rabbit'], reference: { 'display-task-name': 'r' } },
      d: { group: 'mesh', test: 'rtt', archives: ['inData'], reference: { 'display-task-name': 'd' } },
    },
    { archives: archives },
  );
  assert.deepEqual(
    view(text).map((v) => v.verdict),
    ['grid', 'grid', 'grid-if-archives-d'],
  );
});

test('two tasks with one display name share their results; a name that varies per combination; a string group', () => {
  const text = template({
    one: { group: 'mesh', test: 'rtt', archives: ['logstash'], reference: { 'display-task-name': 'Same' } },
    two: { group: 'pairs', test: 'rtt', archives: ['logstash'], reference: { 'display-task-name': 'Same' } },
    varies: {
      group: 'mesh',
      test: 'rtt',
      archives: ['logstash'],
      reference: { 'display-task-name': 'rtt from {% address[0] %}', 'display-task-group': 'My mesh' },
    },
    off: {
      group: 'mesh',
      test: 'rtt',
      archives: ['logstash'],
      disabled: true,
      reference: { 'display-task-name': 'Same' },
    },
  });
  const vs = view(text);
  const one = vs.find((v) => v.task === 'one')!;
  assert.deepEqual(codes(text, 'one'), ['psconfig/grafana-shared-display-name']);
  assert.match(one.findings[0].message, /"two"/);
  assert.equal(text.slice(one.findings[0].start, one.findings[0].end), '"Same"');
  assert.match(vs.find((v) => v.task === 'two')!.findings[0].message, /"one"/);
  assert.deepEqual(codes(text, 'varies').sort(), [
    'psconfig/grafana-display-name-varies',
    'psconfig/grafana-task-group-not-list',
  ]);
  const varies = vs.find((v) => v.task === 'varies')!;
  assert.deepEqual(varies.dashboards, ['All perfSONAR Measurements']);
  assert.equal(varies.findings.find((f) => f.severity === 'warning')?.code, 'psconfig/grafana-task-group-not-list');
  const off = vs.find((v) => v.task === 'off')!;
  assert.equal(off.verdict, 'disabled'); // the agent skips disabled tasks (line 207): not counted as sharing
  assert.deepEqual(off.findings, []);
});

test('the checks report the findings as diagnostics; a task with a missing group or test gets none', () => {
  const text = template({
    ok: { group: 'mesh', test: 'rtt', archives: ['logstash'] },
    broken: { group: 'nope', test: 'rtt' },
  });
  // (`ok` has no display-task-name: its grid stays empty)
  const d = validateTemplate(text).diagnostics.filter((x) => x.code.startsWith('psconfig/grafana-'));
  assert.deepEqual(
    d.map((x) => x.code),
    ['psconfig/grafana-no-display-name'],
  );
  assert.deepEqual(grafanaDiagnostics(analyseTemplate(text)), d);
});

const REF = (body: string) => `{
  "addresses": { "a": { "address": "a.example.net" }, "b": { "address": "b.example.net" } },
  "groups": { "g": { "type": "mesh", "addresses": [ { "name": "a" }, { "name": "b" } ] } },
  "tests": { "t": { "type": "rtt", "spec": { "dest": "{% address[1] %}" } } },
  "tasks": { "my-task": { "group": "g", "test": "t", ${body} } }
}`;

test('completion in a task reference offers the Grafana keys, with their usual values', () => {
  const empty = atCursor(REF('"reference": { | }'));
  const r = completeAt(empty.model, empty.offset);
  assert.deepEqual(
    r.items.map((i) => i.label),
    ['display-task-name', 'display-task-group', 'display-set-source', 'display-set-dest'],
  );
  const name = r.items[0];
  assert.equal(name.insertText, '"display-task-name": "my-task"');
  assert.equal(name.snippet, '"display-task-name": "${1:my-task}"');
  assert.match(name.documentation!, /finds the results by/);
  const source = r.items[2];
  const applied = applyOffsetEdits(empty.model.text, [
    { start: source.replaceStart, end: source.replaceEnd, newText: source.insertText },
  ]);
  assert.deepEqual((JSON.parse(applied) as Obj & { tasks: Record<string, Obj> }).tasks['my-task'].reference, {
    'display-set-source': '{% jq .addresses[0]._meta."display-set" %}',
  });
  // a key being typed: the bare keys, those already there left out
  const typing = atCursor(REF('"reference": { "display-task-name": "x", "disp|": 1 }'));
  const keys = completeAt(typing.model, typing.offset).items;
  assert.deepEqual(
    keys.map((i) => i.insertText),
    ['display-task-group', 'display-set-source', 'display-set-dest'],
  );
  // a value after its key
  const value = atCursor(REF('"reference": { "display-set-dest": | }'));
  const v = completeAt(value.model, value.offset).items;
  assert.deepEqual(
    v.map((i) => i.insertText),
    ['"{% jq .addresses[1]._meta.\\"display-set\\" %}"'],
  );
  // not in other objects
  const spec = atCursor(REF('"reference": {}, "_meta": { | }'));
  assert.deepEqual(completeAt(spec.model, spec.offset).items, []);
});

test('hover on display-task-name says what reads it and what the agent draws for this task', () => {
  const h = atCursor(REF('"reference": { "display-|task-name": "Pings" }'));
  const hover = hoverAt(h.model, h.offset);
  assert.ok(hover);
  assert.match(hover.markdown, /`display-task-name`/);
  assert.match(hover.markdown, /reference\.display-task-name\.keyword/);
  assert.match(hover.markdown, /This task: grid "Pings" on All perfSONAR Measurements\./);
  const set = atCursor(REF('"reference": { "display-set-|source": "x" }'));
  assert.match(hoverAt(set.model, set.offset)!.markdown, /Endpoint Pair Explorer/);
});

test("the real templates: what perfSONAR 5's Grafana agent draws of each", () => {
  const verdicts = (file: string): string[] => view(exampleText(file)).map((v) => grafanaLensTitle(v));
  // The official skeleton sets display-task-name and a display-task-group list on each task, and a logstash archive.
  assert.deepEqual(verdicts('psconfig--skeleton.json'), [
    'Grafana: grid "Example Throughput Tests" on All perfSONAR Measurements, Example Tests',
    'Grafana: grid "Example Loss Tests" on All perfSONAR Measurements, Example Tests',
    'Grafana: grid "Example Traceroute Tests" on All perfSONAR Measurements, Example Tests',
  ]);
  // The other examples set no display-task-name (empty grids), use a list group or an snmpget test (no grid).
  assert.ok(verdicts('psconfig--example-1-simple.json').every((t) => t.includes('empty grid')));
  assert.deepEqual(verdicts('perl-shared--client-psconfig-list.json'), ['Grafana: no grid (a list group)']);
  assert.deepEqual(verdicts('psconfig--example-4-snmp.json'), ['Grafana: no grid (no display for snmpget tests)']);
  // example-2's six disabled tasks are skipped by the agent
  assert.equal(view(exampleText('psconfig--example-2-testbed.json')).filter((v) => v.verdict === 'disabled').length, 6);
  // no example gets more than one finding per task, nor a warning
  for (const f of exampleFiles())
    for (const v of view(exampleText(f))) {
      assert.ok(v.findings.length <= 1, `${f} ${v.task}`);
      assert.ok(v.findings.every((x) => x.severity === 'information'));
    }
});
