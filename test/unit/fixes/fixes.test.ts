// The perfSONAR 5 fixes on hand-written templates, compared byte for byte with the expected text: comments (`#`
// keys), key order, odd spacing, one-line JSON and CRLF line ends survive everywhere the fix does not write, and a
// second run changes nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyseTemplate } from '../../../server/src/template/model';
import { validateTemplate } from '../../../server/src/template/diagnostics';
import { applyEdits } from '../../../server/src/template/fixes/json-text';
import { fixText } from '../../../server/src/template/fixes/fix-text';
import {
  archiveHostCandidates,
  fixAll,
  migrationFixes,
  SCHEDULED_BY,
  type FixableCode,
} from '../../../server/src/template/fixes/fixes';

/** The template around an archives section (JSON text) and a mesh task using `a`. */
function withArchives(archives: string, eol = '\n'): string {
  return [
    '{',
    `  "archives": ${archives},`,
    // y has no agent: x schedules both directions, and in (y, x) the lead participant, rtt's source, is y
    '  "addresses": { "x": { "address": "x.example.net" }, "y": { "address": "y.example.net", "no-agent": true } },',
    '  "groups": { "g": { "type": "mesh", "addresses": [ { "name": "x" }, { "name": "y" } ] } },',
    '  "tests": { "t": { "type": "rtt", "spec": { "source": "{% address[0] %}", "dest": "{% address[1] %}" } } },',
    '  "tasks": { "task": { "group": "g", "test": "t", "archives": [ "a" ] } }',
    '}',
    '',
  ].join(eol);
}

/** The one fix of the first diagnostic of `code`, applied. */
function fixOnce(text: string, code: FixableCode): string {
  const model = analyseTemplate(text);
  const d = validateTemplate(text).diagnostics.find((x) => x.code === code);
  assert.ok(d, `no ${code} diagnostic`);
  const [fix] = migrationFixes(model, d, [SCHEDULED_BY]).fixes;
  assert.ok(fix, `no fix for ${code}`);
  return applyEdits(text, fix.edits);
}

function codes(text: string): string[] {
  return validateTemplate(text).diagnostics.map((d) => d.code);
}

test('esmond → logstash http archive: the standard form, comments and kept fields where they were', () => {
  const before = withArchives(`{
    "a": {
      "#why": "central MA",
      "archiver": "esmond",
      "data": {
        "url": "https://ma.example.net/esmond/perfsonar/archive/",
        "#note": "kept",
        "measurement-agent": "{% scheduled_by_address %}",
        "_auth-token": "secret",
        "retry-policy": [ { "attempts": 2, "wait": "PT1M" } ]
      },
      "ttl": "PT1H"
    }
  }`);
  const after = withArchives(`{
    "a": {
      "#why": "central MA",
      "archiver": "http",
      "data": {
        "schema": 2,
        "_url": "https://ma.example.net/logstash",
        "op": "put",
        "_headers": {
          "x-ps-observer": "{% scheduled_by_address %}",
          "content-type": "application/json"
        },
        "#note": "kept",
        "retry-policy": [ { "attempts": 2, "wait": "PT1M" } ]
      },
      "_meta": {
        "esmond_url": "https://ma.example.net/esmond/perfsonar/archive/"
      },
      "ttl": "PT1H"
    }
  }`);
  assert.equal(fixOnce(before, 'psconfig/esmond-archiver'), after);
  assert.ok(!codes(after).includes('psconfig/esmond-archiver'));
  assert.deepEqual(
    codes(after).filter((c) => c.startsWith('psconfig/archive') && c !== 'psconfig/archive-logstash-auth'),
    [],
    'pScheduler takes the new archive',
  );
  // … but ma.example.net's Apache lets it post only with Basic credentials or by IP (apache-logstash.conf), which
  // no fix can write: the converted archive says so until one of them is there (archive-delivery.test.ts)
  assert.ok(codes(after).includes('psconfig/archive-logstash-auth'));
});

test('esmond on one line (minified), with a draft placeholder as measurement-agent and verify-ssl (schema 3)', () => {
  const before = withArchives(
    '{"a":{"archiver":"esmond","data":{"url":"https://ma.example.net:8443/esmond/perfsonar/archive","measurement-agent":"$requesting-agent","verify-ssl":false}}}',
  );
  const after = withArchives(
    '{"a":{"archiver":"http","data":{"schema":3,"_url":"https://ma.example.net:8443/logstash","op":"put","_headers":{"x-ps-observer":"{% scheduled_by_address %}","content-type":"application/json"},"verify-ssl":false},"_meta":{"esmond_url":"https://ma.example.net:8443/esmond/perfsonar/archive"}}}',
  );
  assert.equal(fixOnce(before, 'psconfig/esmond-archiver'), after);
});

test('esmond: an existing _meta object grows, one inside data moves up into it, http ports are not carried', () => {
  const before = withArchives(`{
    "a": {
      "archiver": "esmond",
      "_meta": { "display-name": "MA" },
      "data": { "url": "http://ma.example.net:8085/esmond/perfsonar/archive/", "_meta": { "owner": "noc" } }
    }
  }`);
  const after = withArchives(`{
    "a": {
      "archiver": "http",
      "_meta": { "display-name": "MA", "owner": "noc", "esmond_url": "http://ma.example.net:8085/esmond/perfsonar/archive/" },
      "data": { "schema": 2, "_url": "https://ma.example.net/logstash", "op": "put", "_headers": {"x-ps-observer": "{% scheduled_by_address %}", "content-type": "application/json"} }
    }
  }`);
  assert.equal(fixOnce(before, 'psconfig/esmond-archiver'), after);
});

test('esmond: no fix when the URL names no host, and the reason says why', () => {
  const text = withArchives('{ "a": { "archiver": "esmond", "data": { "url": "asdfz" } } }');
  const d = validateTemplate(text).diagnostics.find((x) => x.code === 'psconfig/esmond-archiver')!;
  const outcome = migrationFixes(analyseTemplate(text), d);
  assert.deepEqual(outcome.fixes, []);
  assert.match(outcome.reason ?? '', /names no http\(s\) host/);
});

test('_meta inside data moves up next to archiver (the official skeleton), CRLF and tabs kept', () => {
  const before = withArchives(
    [
      '{',
      '\t"a": {',
      '\t\t"archiver": "http",',
      '\t\t"data": {',
      '\t\t\t"schema": 2,',
      '\t\t\t"_url": "https://ma.example.net/logstash",',
      '\t\t\t"_meta": {',
      '\t\t\t\t"esmond_url": "https://ma.example.net/esmond/perfsonar/archive/"',
      '\t\t\t}',
      '\t\t}',
      '\t}',
      '}',
    ].join('\r\n'),
    '\r\n',
  );
  const after = withArchives(
    [
      '{',
      '\t"a": {',
      '\t\t"archiver": "http",',
      '\t\t"data": {',
      '\t\t\t"schema": 2,',
      '\t\t\t"_url": "https://ma.example.net/logstash"',
      '\t\t},',
      '\t\t"_meta": {',
      '\t\t\t"esmond_url": "https://ma.example.net/esmond/perfsonar/archive/"',
      '\t\t}',
      '\t}',
      '}',
    ].join('\r\n'),
    '\r\n',
  );
  assert.equal(fixOnce(before, 'psconfig/archiver-data-unknown-property'), after);
  assert.ok(!after.replace(/\r\n/g, '').includes('\n'), 'no bare LF written into a CRLF file');
});

test('_meta inside a test spec moves up next to type', () => {
  const text = withArchives(
    '{ "a": { "archiver": "http", "data": { "schema": 2, "_url": "https://m.example.net/logstash" } } }',
  ).replace(
    '"spec": { "source": "{% address[0] %}", "dest": "{% address[1] %}" }',
    '"spec": { "source": "{% address[0] %}", "_meta": {"x": 1}, "dest": "{% address[1] %}" }',
  );
  const fixed = fixOnce(text, 'psconfig/spec-unknown-property');
  assert.ok(
    fixed.includes('"spec": { "source": "{% address[0] %}", "dest": "{% address[1] %}" }, "_meta": {"x": 1} }'),
    fixed,
  );
});

test('_meta in data and outside with different values: no fix, the reason names the key', () => {
  const text = withArchives(
    '{ "a": { "archiver": "http", "_meta": { "k": 1 }, "data": { "schema": 2, "_url": "https://m.example.net/logstash", "_meta": { "k": 2 } } } }',
  );
  const d = validateTemplate(text).diagnostics.find((x) => x.code === 'psconfig/archiver-data-unknown-property')!;
  const outcome = migrationFixes(analyseTemplate(text), d);
  assert.deepEqual(outcome.fixes, []);
  assert.match(outcome.reason ?? '', /_meta\.k/);
});

test('draft placeholders become the variables perfSONAR replaced them with, in place', () => {
  const text = withArchives(
    '{ "a": { "archiver": "http", "data": { "schema": 2, "_url": "https://m.example.net/logstash" } } }',
  ).replace(
    '"spec": { "source": "{% address[0] %}", "dest": "{% address[1] %}" }',
    '"spec": { "source": "$group::0", "dest": "$group::1" }',
  );
  const ds = validateTemplate(text).diagnostics.filter((d) => d.code === 'psconfig/legacy-placeholder');
  assert.deepEqual(
    ds.map((d) => text.slice(d.start, d.end)),
    ['$group::0', '$group::1'],
  );
  assert.ok(
    !validateTemplate(text).diagnostics.some((d) => d.code === 'psconfig/spec-invalid-value'),
    'one error per placeholder, not a second one from pScheduler',
  );
  const all = fixAll(analyseTemplate(text), ds, 'psconfig/legacy-placeholder');
  assert.equal(all.count, 2);
  const fixed = applyEdits(text, all.edits);
  assert.ok(fixed.includes('"spec": { "source": "{% address[0] %}", "dest": "{% address[1] %}" }'));
  // no error or warning left (information notes, such as what Grafana will draw, are not problems to fix)
  assert.deepEqual(
    validateTemplate(fixed, { ipAllowedHosts: ['m.example.net'] }) // the archive host allows the testers by IP
      .diagnostics.filter((d) => d.severity !== 'information' && d.code !== 'psconfig/unused-definition')
      .map((d) => d.code),
    [],
  );
});

test('placeholders where pSConfig expands nothing, under _meta or in comments are not reported', () => {
  const text = JSON.stringify({
    addresses: { x: { address: 'x.example.net', _meta: { n: '$group::0' } } },
    groups: { g: { type: 'list', addresses: [{ name: 'x' }] } },
    tests: { t: { type: 'rtt', spec: { dest: '{% address[0] %}', '#c': '$group::0' }, _meta: { d: '$group::0' } } },
    tasks: { task: { group: 'g', test: 't' } },
  });
  assert.ok(!codes(text).includes('psconfig/legacy-placeholder'));
});

test('localhost archive in a mesh: {% scheduled_by_address %} or a host of the template, both offered', () => {
  const text = withArchives(`{
    "a": { "archiver": "http", "data": { "schema": 2, "_url": "http://localhost/logstash", "op": "put" } },
    "central": { "archiver": "http", "data": { "schema": 2, "_url": "https://ma.example.net/logstash" } }
  }`);
  const model = analyseTemplate(text);
  const d = validateTemplate(text).diagnostics.find((x) => x.code === 'psconfig/archive-localhost')!;
  assert.equal(text.slice(d.start, d.end), '"http://localhost/logstash"');
  const hosts = archiveHostCandidates(model);
  assert.deepEqual(hosts, ['ma.example.net']);
  const fixes = migrationFixes(model, d, [SCHEDULED_BY, { kind: 'host', host: hosts[0] }]).fixes;
  assert.deepEqual(
    fixes.map(
      (f) =>
        applyEdits(text, f.edits)
          .slice(d.start, d.start + 50)
          .split('"')[1],
    ),
    ['https://{% scheduled_by_address %}/logstash', 'https://ma.example.net/logstash'],
  );
  assert.deepEqual(
    fixes.map((f) => f.preferred),
    [true, false],
  );
  for (const f of fixes) assert.ok(!codes(applyEdits(text, f.edits)).includes('psconfig/archive-localhost'));
});

test('localhost: direct logstash port and rabbitmq keep what they can; list-group templates are not reported', () => {
  const direct = withArchives(
    '{ "a": { "archiver": "http", "data": { "schema": 2, "_url": "http://127.0.0.1:11283" } } }',
  );
  assert.ok(fixText(direct).text.includes('"_url": "https://{% scheduled_by_address %}/logstash"'));
  const rabbit = withArchives('{ "a": { "archiver": "rabbitmq", "data": { "_url": "amqp://u:p@[::1]:5672/vhost" } } }');
  assert.ok(
    fixText(rabbit, { localhost: { kind: 'host', host: '2001:db8::1' } }).text.includes(
      '"_url": "amqp://u:p@[2001:db8::1]:5672/vhost"',
    ),
  );
  const list = withArchives(
    '{ "a": { "archiver": "http", "data": { "schema": 2, "_url": "http://localhost/logstash" } } }',
  ).replace('"type": "mesh"', '"type": "list"');
  assert.ok(!codes(list).includes('psconfig/archive-localhost'), 'one address per task archives on its own host');
});

test('fixText: every fix, chained over passes, then nothing left; a second run changes nothing', () => {
  const before = withArchives(`{
    "a": {
      "archiver": "esmond",
      "data": {
        "url": "http://localhost/esmond/perfsonar/archive/",
        "measurement-agent": "$requesting-agent"
      }
    }
  }`).replace('"source": "{% address[0] %}"', '"source": "$group::0"');
  const r = fixText(before);
  assert.deepEqual(r.unfixed, []);
  assert.deepEqual(
    r.applied.map((a) => a.code),
    ['psconfig/esmond-archiver', 'psconfig/legacy-placeholder', 'psconfig/archive-localhost'],
  );
  assert.ok(r.text.includes('"_url": "https://{% scheduled_by_address %}/logstash"'), r.text);
  assert.ok(r.text.includes('"esmond_url": "http://localhost/esmond/perfsonar/archive/"'));
  const again = fixText(r.text);
  assert.equal(again.text, r.text);
  assert.deepEqual(again.applied, []);
});

test('fixText: --only limits the codes; a template that does not parse is left alone', () => {
  const before = withArchives(
    '{ "a": { "archiver": "esmond", "data": { "url": "https://ma.example.net/esmond/perfsonar/archive/" } } }',
  ).replace('"source": "{% address[0] %}"', '"source": "$group::0"');
  const r = fixText(before, { only: new Set(['psconfig/legacy-placeholder']) });
  assert.deepEqual(
    r.applied.map((a) => a.code),
    ['psconfig/legacy-placeholder'],
  );
  assert.ok(r.text.includes('"archiver": "esmond"'));
  const broken = fixText(before.slice(0, -10));
  assert.equal(broken.text, before.slice(0, -10));
  assert.ok(broken.syntaxError);
});
