// Migrated templates that deliver results (issue 27). Every expectation here is read from upstream code or config
// and written by hand, never taken from the functions under test:
//
// - A perfSONAR 5 archive host guards /logstash with HTTP Basic auth, IP/host rules as the alternative
//   (perfsonar/archive @ c7e3b10, perfsonar-archive/perfsonar-archive/config/apache/apache-logstash.conf lines
//   17-53), and its helper for remote testers adds `"Authorization":"Basic …"` to `_headers`
//   (opensearch-scripts/psconfig_archive.sh lines 21-26, 40-43). HTTP header names are case-insensitive (RFC 9110
//   §5.1).
// - RabbitMQ's `guest` user connects only over loopback (rabbitmq/rabbitmq-server deps/rabbit/Makefile PROJECT_ENV:
//   `{loopback_users, [<<"guest">>]}`).
// - pScheduler archives a task's runs on its lead participant only (perfsonar/pscheduler @ 1e8b1924,
//   pscheduler-server/pscheduler-server/database/archiving.sql:220-233, `AND task.participant = 0`); the lead is the
//   first host of the test's participants program: rtt's and throughput's `source` (`source-node` first),
//   latency/latencybg's `dest` when `flip` is set, else `source`, the `host` of the others; a null lead is the
//   pScheduler the task was posted to (perfsonar/psconfig @ 3ba9927, client/pscheduler/task.py:694-699). The
//   scheduling address is `addresses[scheduled-by]`, or the other one when that has `no-agent`, and `{% flip %}` is
//   true exactly then (psconfig parsers/task_generator.py:120-165, parsers/template.py:104-113).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateTemplate, type ValidateOptions } from '../../../server/src/template/diagnostics';
import { fixText } from '../../../server/src/template/fixes/fix-text';

interface Mesh {
  archives: Record<string, unknown>;
  test?: Record<string, unknown>;
  task?: Record<string, unknown>;
  /** `no-agent` on address y. */
  yNoAgent?: boolean;
}

/** A two-host mesh (x, y) whose one task uses every archive given. */
function mesh(m: Mesh): string {
  return `${JSON.stringify(
    {
      archives: m.archives,
      addresses: {
        x: { address: 'x.example.net' },
        y: { address: 'y.example.net', ...(m.yNoAgent ? { 'no-agent': true } : {}) },
      },
      groups: { g: { type: 'mesh', addresses: [{ name: 'x' }, { name: 'y' }] } },
      tests: {
        t: m.test ?? { type: 'rtt', spec: { source: '{% address[0] %}', dest: '{% address[1] %}' } },
      },
      tasks: { task: { group: 'g', test: 't', archives: Object.keys(m.archives), ...m.task } },
    },
    null,
    2,
  )}\n`;
}

function found(text: string, code: string, opts: ValidateOptions = {}): string[] {
  return validateTemplate(text, opts)
    .diagnostics.filter((d) => d.code === code)
    .map((d) => text.slice(d.start, d.end));
}

const logstash = (url: string, headers?: Record<string, string>): Record<string, unknown> => ({
  archiver: 'http',
  data: { schema: 2, _url: url, op: 'put', _headers: { 'content-type': 'application/json', ...headers } },
});

// ---- 1. esmond → logstash: the archive host needs credentials or an IP rule ----

test('a converted esmond archive on another host: the fix writes no credential, the check and the report say what the host needs', () => {
  const before = mesh({
    archives: {
      central: { archiver: 'esmond', data: { url: 'https://ma.example.net/esmond/perfsonar/archive/' } },
    },
  });
  const r = fixText(before);
  assert.deepEqual(
    r.applied.map((a) => a.code),
    ['psconfig/esmond-archiver'],
  );
  assert.ok(r.text.includes('"_url": "https://ma.example.net/logstash"'));
  assert.ok(!/authorization/i.test(r.text), 'no made-up credential');
  assert.deepEqual(found(r.text, 'psconfig/archive-logstash-auth'), ['"https://ma.example.net/logstash"']);
  const d = validateTemplate(r.text).diagnostics.find((x) => x.code === 'psconfig/archive-logstash-auth')!;
  assert.equal(d.severity, 'warning');
  for (const part of ['Authorization', '_headers', 'proxy_auth.json', 'Require ip', 'ipAllowedHosts', '401'])
    assert.ok(d.message.includes(part), `the message names ${part}: ${d.message}`);
  assert.equal(r.todo.length, 1);
  assert.equal(r.todo[0].code, 'psconfig/archive-logstash-auth');
  assert.equal(r.text.split('\n')[r.todo[0].line - 1].includes('"_url": "https://ma.example.net/logstash"'), true);
  assert.match(r.todo[0].what, /archive `central`/);
  assert.match(r.todo[0].what, /Basic `Authorization` header of ma\.example\.net/);
  assert.match(r.todo[0].what, /--ip-allowed-host ma\.example\.net/);
});

test('an Authorization header in _headers (any case, not empty) or the host marked as IP-allowed ends it', () => {
  // the form psconfig_archive.sh appends (the value here is a placeholder of this test, not a real credential)
  const withHeader = mesh({
    archives: { a: logstash('https://ma.example.net/logstash', { Authorization: 'Basic x' }) },
  });
  assert.deepEqual(found(withHeader, 'psconfig/archive-logstash-auth'), []);
  const lower = mesh({ archives: { a: logstash('https://ma.example.net/logstash', { authorization: 'Basic x' }) } });
  assert.deepEqual(found(lower, 'psconfig/archive-logstash-auth'), [], 'header names are case-insensitive');
  const empty = mesh({ archives: { a: logstash('https://ma.example.net/logstash', { Authorization: ' ' }) } });
  assert.equal(found(empty, 'psconfig/archive-logstash-auth').length, 1, 'an empty header authenticates nothing');

  const bare = mesh({ archives: { a: logstash('https://ma.example.net/logstash') } });
  assert.equal(found(bare, 'psconfig/archive-logstash-auth').length, 1);
  assert.deepEqual(found(bare, 'psconfig/archive-logstash-auth', { ipAllowedHosts: ['MA.Example.NET.'] }), []);
  assert.equal(
    found(bare, 'psconfig/archive-logstash-auth', { ipAllowedHosts: ['other.example.net'] }).length,
    1,
    'only the hosts named',
  );
  assert.deepEqual(fixText(bare, { ipAllowedHosts: ['ma.example.net'] }).todo, []);
  const v6 = mesh({ archives: { a: logstash('https://[2001:db8::5]:8443/logstash/') } });
  assert.equal(found(v6, 'psconfig/archive-logstash-auth').length, 1);
  assert.deepEqual(found(v6, 'psconfig/archive-logstash-auth', { ipAllowedHosts: ['2001:db8::5'] }), []);
});

test('not reported: each host its own archive, loopback (the localhost check), other paths and archivers', () => {
  const own = mesh({ archives: { a: logstash('https://{% scheduled_by_address %}/logstash') } });
  assert.deepEqual(found(own, 'psconfig/archive-logstash-auth'), []);
  const loop = mesh({ archives: { a: logstash('https://localhost/logstash') } });
  assert.deepEqual(found(loop, 'psconfig/archive-logstash-auth'), []);
  const other = mesh({ archives: { a: logstash('https://ma.example.net/ingest') } });
  assert.deepEqual(found(other, 'psconfig/archive-logstash-auth'), [], 'Apache guards /logstash only');
  const rabbit = mesh({ archives: { a: { archiver: 'rabbitmq', data: { _url: 'amqp://u:p@ma.example.net/' } } } });
  assert.deepEqual(found(rabbit, 'psconfig/archive-logstash-auth'), []);
});

// ---- 2. loopback-only credentials stay on localhost, with a note ----

/** rtt run from address[1], scheduled by address[0]: the lead participant, which archives, is the other host. */
const remoteLead = { type: 'rtt', spec: { source: '{% address[1] %}', dest: '{% address[0] %}' } };

test("RabbitMQ's guest on localhost: left where it works, an information note instead of the warning, a report line", () => {
  const text = mesh({
    archives: { q: { archiver: 'rabbitmq', data: { _url: 'amqp://guest:guest@localhost//' } } },
    test: remoteLead,
  });
  assert.deepEqual(found(text, 'psconfig/archive-localhost'), []);
  const notes = validateTemplate(text).diagnostics.filter((d) => d.code === 'psconfig/archive-loopback-credentials');
  assert.equal(notes.length, 1);
  assert.equal(notes[0].severity, 'information');
  assert.match(notes[0].message, /guest/);
  assert.match(notes[0].message, /loopback/);
  const r = fixText(text);
  assert.equal(r.text, text, 'the URL is not moved to a host where guest is refused');
  assert.deepEqual(r.applied, []);
  assert.deepEqual(r.unfixed, []);
  assert.equal(r.todo.length, 1);
  assert.equal(r.todo[0].code, 'psconfig/archive-loopback-credentials');
  assert.match(r.todo[0].what, /archive `q` left on localhost: RabbitMQ's guest user works only over loopback/);
  // with an explicit archive host as well
  assert.equal(fixText(text, { localhost: { kind: 'host', host: 'ma.example.net' } }).text, text);
});

test('another RabbitMQ user on localhost is still moved (only guest is loopback-only by default)', () => {
  const text = mesh({
    archives: { q: { archiver: 'rabbitmq', data: { _url: 'amqp://perfsonar:secret@localhost//' } } },
    test: remoteLead,
  });
  assert.deepEqual(found(text, 'psconfig/archive-localhost'), ['"amqp://perfsonar:secret@localhost//"']);
  const r = fixText(text);
  assert.ok(r.text.includes('"_url": "amqp://perfsonar:secret@{% scheduled_by_address %}//"'), r.text);
  assert.deepEqual(r.todo, []);
});

// ---- 4. archive-localhost only where the lead participant may not be the scheduling host ----

const local = { a: logstash('http://localhost/logstash') };
const warned = (m: Omit<Mesh, 'archives'>): boolean =>
  found(mesh({ archives: local, ...m }), 'psconfig/archive-localhost').length === 1;

test('rtt from address[0], scheduled by address[0]: the measuring host archives its own runs, no warning', () => {
  assert.equal(warned({}), false);
  assert.equal(warned({ test: { type: 'rtt', spec: { source: '{% scheduled_by_address %}', dest: 'z' } } }), false);
  assert.equal(warned({ test: { type: 'rtt', spec: { dest: '{% address[1] %}' } } }), false, 'null lead: self');
  assert.equal(warned({ test: remoteLead, task: { 'scheduled-by': 1 } }), false, 'scheduled and run by address[1]');
});

test('the lead participant is another host: warned, and the message names the lead field', () => {
  assert.equal(warned({ test: remoteLead }), true);
  assert.equal(warned({ task: { 'scheduled-by': 1 } }), true, 'scheduled by address[1], run from address[0]');
  assert.equal(warned({ test: { type: 'rtt', spec: { source: 'x.example.net', dest: '{% address[1] %}' } } }), true);
  const throughputNode = {
    type: 'throughput',
    spec: { source: '{% address[0] %}', 'source-node': '{% address[1] %}', dest: '{% address[1] %}' },
  };
  assert.equal(warned({ test: throughputNode }), true, 'source-node names the lead');
  const text = mesh({ archives: local, test: remoteLead });
  const d = validateTemplate(text).diagnostics.find((x) => x.code === 'psconfig/archive-localhost')!;
  assert.match(d.message, /lead participant \(for task `task`: the host its test's `source` names\)/);
});

test('no-agent flips the scheduling host: {% flip %} keeps the lead with it, a fixed source does not', () => {
  // y has no agent: x schedules (x, y) and (y, x); in (y, x) rtt's source, the lead, is y
  assert.equal(warned({ yNoAgent: true }), true);
  const latencybg = (flip?: unknown): Record<string, unknown> => ({
    type: 'latencybg',
    spec: { source: '{% address[0] %}', dest: '{% address[1] %}', ...(flip === undefined ? {} : { flip }) },
  });
  assert.equal(warned({ yNoAgent: true, test: latencybg('{% flip %}') }), false, 'flipped: dest (x) leads');
  assert.equal(warned({ yNoAgent: true, test: latencybg() }), true, 'no flip: source (y) leads');
  assert.equal(warned({ test: latencybg() }), false, 'no no-agent: source (x) schedules and leads');
  assert.equal(warned({ test: latencybg(true) }), true, 'always flipped: dest (y) leads, x schedules');
});
