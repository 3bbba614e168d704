// pScheduler's checks as a template author meets them: in validateTemplate, on the token that is wrong, with
// stable codes, messages that say what pScheduler expects, and nothing raised only because of a variable.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { check, errors, template, withCode, type Found } from '../template/helpers';

function one(ds: Found[], code: string): Found {
  const found = withCode(ds, code);
  assert.equal(found.length, 1, `one ${code}: ${JSON.stringify(ds.map((d) => [d.code, d.text, d.message]))}`);
  return found[0];
}

const withTest = (type: string, spec: unknown, extra: Record<string, unknown> = {}): Found[] =>
  check(template({ tests: { t: { type, spec } }, ...extra }));

test('the issue\'s new-user mistakes: througput, "10 seconds", packet-count 1.5, htp', () => {
  const typo = one(withTest('througput', { dest: 'h.example.net' }), 'psconfig/unknown-test-type');
  assert.equal(typo.text, 'througput', 'the name without its quotes');
  assert.match(typo.message, /did you mean `throughput`\?/);
  assert.deepEqual(typo.data, { kind: 'replace-value', value: 'throughput' });

  const duration = one(
    withTest('throughput', { source: '{% address[0] %}', dest: '{% address[1] %}', duration: '10 seconds' }),
    'psconfig/spec-invalid-value',
  );
  assert.equal(duration.text, '"10 seconds"');
  assert.match(
    duration.message,
    /`duration` must be an ISO 8601 duration such as PT30S .*pScheduler type Duration.*"10 seconds"/,
  );

  for (const bad of [1.5, -1, 0]) {
    const d = one(withTest('latency', { dest: 'h.example.net', 'packet-count': bad }), 'psconfig/spec-invalid-value');
    assert.equal(d.text, String(bad));
    assert.match(d.message, /`packet-count` must be an integer >= 1 \(pScheduler type Cardinal\)/);
  }

  const htp = one(
    check(
      template({
        archives: { a: { archiver: 'htp', data: {} } },
        tasks: { task: { group: 'g', test: 't', archives: ['a'] } },
      }),
    ),
    'psconfig/unknown-archiver',
  );
  assert.equal(htp.text, 'htp');
  assert.match(htp.message, /did you mean `http`\?/);
});

test('a misspelt key: at the key, with the closest key and a rename fix', () => {
  const d = one(
    withTest('throughput', { dest: 'h.example.net', durration: 'PT10S' }),
    'psconfig/spec-unknown-property',
  );
  assert.equal(d.text, '"durration"');
  assert.match(d.message, /does not take `durration`\. Did you mean `duration`\?/);
  assert.deepEqual(d.data, { kind: 'unknown-property', property: 'durration', closest: 'duration' });
});

test('an enum value off by a letter, at the value, with the closest value', () => {
  const d = one(withTest('trace', { dest: 'h.example.net', 'probe-type': 'icmpp' }), 'psconfig/spec-invalid-value');
  assert.equal(d.text, '"icmpp"');
  assert.match(d.message, /one of `icmp`, `udp`, `tcp`.*Did you mean `icmp`\?/);
  assert.deepEqual(d.data, { kind: 'replace-value', value: 'icmp' });
});

test('a field of a later schema version without `schema`: which version brings it, and a fix that sets it', () => {
  const d = one(withTest('latency', { dest: 'h.example.net', reverse: true }), 'psconfig/spec-needs-schema');
  assert.equal(d.text, '"reverse"');
  assert.match(d.message, /`reverse` needs latency schema 2 or later \(this spec is schema 1, the default\)/);
  assert.deepEqual(d.data, { kind: 'set-schema', version: 2 });
  assert.deepEqual(errors(withTest('latency', { schema: 2, dest: 'h.example.net', reverse: true })), []);
  // and a version pScheduler does not have
  const v = one(withTest('latency', { schema: 5, dest: 'h.example.net' }), 'psconfig/spec-invalid-value');
  assert.equal(v.text, '5');
  assert.match(v.message, /version pScheduler knows \(1 to 4\)/);
});

test('a missing required field: on the `spec` key, with what it must hold', () => {
  const d = one(withTest('latency', { 'packet-count': 10 }), 'psconfig/spec-missing-property');
  assert.equal(d.text, '"spec"');
  assert.match(d.message, /The latency spec needs `dest`: a host name or an IP address/);
  assert.deepEqual(d.data, { kind: 'missing-property', property: 'dest' });
  const http = one(
    check(
      template({
        archives: { a: { archiver: 'http', data: { schema: 2 } } },
        tasks: { task: { group: 'g', test: 't', archives: ['a'] } },
      }),
    ),
    'psconfig/archiver-data-missing-property',
  );
  assert.equal(http.text, '"data"');
  assert.match(http.message, /needs `_url`: a URL/);
});

test('contexts: unknown context plug-in and bad data', () => {
  const ds = check(
    template({
      contexts: {
        c1: { context: 'linuxnss', data: { namespace: 'blue' } },
        c2: { context: 'linuxvrf', data: { vrf: 'a/b' } },
      },
      addresses: { a: { address: 'a.example.net', contexts: ['c1', 'c2'] }, b: { address: 'b.example.net' } },
    }),
  );
  const u = one(ds, 'psconfig/unknown-context-type');
  assert.equal(u.text, 'linuxnss');
  assert.match(u.message, /did you mean `linuxnns`\?/);
  assert.equal(one(ds, 'psconfig/context-data-invalid-value').text, '"a/b"');
});

test("the programs' own rules: flip without source, single-ended with loopback, s3 url scheme, netreach", () => {
  const flip = one(withTest('latency', { dest: 'h.example.net', flip: true }), 'psconfig/spec-rule');
  assert.equal(flip.text, 'true');
  assert.match(flip.message, /Flipped testing requires source and dest/);
  const se = one(
    withTest('throughput', { schema: 5, dest: 'h', 'single-ended': false, loopback: false }),
    'psconfig/spec-rule',
  );
  assert.equal(se.text, '"loopback"');
  const s3 = one(
    withTest('s3throughput', {
      '_access-key': 'a',
      bucket: 'b',
      '_secret-key': 'c',
      url: 'ftp://s3.example.net/',
      'object-size': 1,
    }),
    'psconfig/spec-rule',
  );
  assert.match(s3.message, /http or https `url`.*`ftp:`/);
  const gw = one(withTest('netreach', { network: '10.0.0.0/24', gateway: '10.0.0.255' }), 'psconfig/spec-rule');
  assert.equal(gw.text, '"10.0.0.255"');
  assert.match(gw.message, /network or broadcast address/);
  // with a gateway, netreach ignores schema problems: they stay visible, as warnings
  const limit = withCode(
    withTest('netreach', { network: '10.0.0.0/24', gateway: 1, limit: 0 }),
    'psconfig/spec-invalid-value',
  );
  assert.equal(limit.length, 1);
  assert.equal(limit[0].severity, 'warning');
});

test('_meta inside data reaches pScheduler (refused); an empty _meta beside it is not removed (warning)', () => {
  const ds = check(
    template({
      archives: {
        a: { archiver: 'http', data: { schema: 2, _url: 'https://a.example.net/', _meta: { x: 1 } } },
        b: { archiver: 'http', data: { schema: 2, _url: 'https://a.example.net/' }, _meta: {} },
      },
      tasks: { task: { group: 'g', test: 't', archives: ['a', 'b'] } },
    }),
  );
  const inside = one(ds, 'psconfig/archiver-data-unknown-property');
  assert.equal(inside.text, '"_meta"');
  assert.match(inside.message, /removes `_meta` only next to `archiver`, not inside `data`/);
  const empty = one(ds, 'psconfig/meta-not-removed');
  assert.equal(empty.severity, 'warning');
});

test('archive fields of a later archive schema, and tcp data that carries `schema`', () => {
  const ds = check(
    template({
      archives: {
        a: { archiver: 'http', data: { schema: 2, _url: 'https://a.example.net/' }, runs: 'failed' },
        t: { archiver: 'tcp', data: { schema: 1, host: 'h.example.net', port: 514 } },
      },
      tasks: { task: { group: 'g', test: 't', archives: ['a', 't'] } },
    }),
  );
  const runs = one(ds, 'psconfig/archive-needs-schema');
  assert.equal(runs.text, '"runs"');
  assert.deepEqual(runs.data, { kind: 'set-schema', version: 2 });
  const tcp = one(ds, 'psconfig/archiver-data-unknown-property');
  assert.equal(tcp.text, '"schema"');
});

test('template variables: judged by what pSConfig puts there, never an error caused by the variable alone', () => {
  // `{% flip %}` is a boolean; addresses are host names: all fine
  assert.deepEqual(
    errors(withTest('latencybg', { source: '{% address[0] %}', dest: '{% address[1] %}', flip: '{% flip %}' })),
    [],
  );
  // a jq result can be anything; a class-selected group's addresses are not known: no error either
  assert.deepEqual(
    errors(withTest('latency', { dest: '{% jq .addresses[1].address %}', 'packet-count': '{% jq 5 %}' })),
    [],
  );
  // a string where pScheduler wants an integer is wrong whatever the address
  const count = one(
    withTest('latency', { dest: '{% address[1] %}', 'packet-count': '{% address[0] %}' }),
    'psconfig/spec-invalid-value',
  );
  assert.match(count.message, /must be an integer >= 1 .*this variable expands to a string/);
  // an address that is not a valid Host for pScheduler: named, with the task
  const ds = check(
    template({
      addresses: {
        a: { address: 'a.example.net', 'pscheduler-address': 'a.example.net:8443' },
        b: { address: 'b.example.net' },
      },
      tests: { t: { type: 'latency', spec: { dest: '{% pscheduler_address[0] %}' } } },
    }),
  );
  const host = one(ds, 'psconfig/spec-invalid-value');
  assert.equal(host.text, '"{% pscheduler_address[0] %}"');
  assert.match(
    host.message,
    /`dest` must be a host name or an IP address.*`\{% pscheduler_address\[0\] %\}` is "a\.example\.net:8443" for task `task`/,
  );
  // pSConfig brackets IPv6 pscheduler addresses and URLs: valid URLHostPort / URL
  const v6 = template({
    addresses: { a: { address: '2001:db8::1' }, b: { address: '2001:db8::2' } },
    tests: { t: { type: 'latency', spec: { dest: '{% address[1] %}', 'dest-node': '{% pscheduler_address[1] %}' } } },
    archives: { h: { archiver: 'http', data: { schema: 2, _url: 'https://{% address[0] %}/logstash' } } },
    tasks: { task: { group: 'g', test: 't', archives: ['h'] } },
  });
  assert.deepEqual(errors(check(v6)), []);
  // but the bare address in a URLHostPort field is refused
  const bare = template({
    addresses: { a: { address: '2001:db8::1' }, b: { address: '2001:db8::2' } },
    tests: { t: { type: 'latency', spec: { dest: '{% address[1] %}', 'dest-node': '{% address[1] %}' } } },
  });
  assert.match(one(check(bare), 'psconfig/spec-invalid-value').message, /`dest-node`.*"2001:db8::[12]"/);
});

test('{% flip %} without source: an error only when some member has no agent', () => {
  const spec = { dest: '{% address[1] %}', flip: '{% flip %}' };
  assert.deepEqual(withCode(withTest('latency', spec), 'psconfig/spec-rule'), []);
  const ds = check(
    template({
      addresses: { a: { address: 'a.example.net', 'no-agent': true }, b: { address: 'b.example.net' } },
      tests: { t: { type: 'latency', spec } },
    }),
  );
  assert.match(one(ds, 'psconfig/spec-rule').message, /flipped tests without `source`/);
});

test('tools: none of the listed tools can run the test; an unknown tool; a spec no tool can run', () => {
  const ds = check(
    template({
      tests: { t: { type: 'latencybg', spec: { dest: '{% address[1] %}' } } },
      tasks: { task: { group: 'g', test: 't', tools: ['owping'] } },
    }),
  );
  const none = one(ds, 'psconfig/tool-cannot-run');
  assert.equal(none.text, '"tools"');
  assert.match(none.message, /owping runs only latency tests/);

  const unknown = one(
    check(
      template({
        tests: { t: { type: 'throughput', spec: { dest: '{% address[1] %}' } } },
        tasks: { task: { group: 'g', test: 't', tools: ['iperf4', 'iperf3'] } },
      }),
    ),
    'psconfig/unknown-tool',
  );
  assert.equal(unknown.text, 'iperf4');
  assert.match(unknown.message, /did you mean `iperf3`\?/);

  // http schema 4: curl, the only http tool, accepts up to schema 3
  const http = one(withTest('http', { schema: 4, url: 'https://a.example.net/' }), 'psconfig/tool-cannot-run');
  assert.equal(http.text, '"spec"');
  assert.match(http.message, /curl accepts http specs up to schema 3, not 4/);
  // bandwidth-strict (nuttcp only) with zero-copy (iperf3 only): no tool takes both
  const mixed = one(
    withTest('throughput', { schema: 4, dest: 'h', 'bandwidth-strict': true, 'zero-copy': true }),
    'psconfig/tool-cannot-run',
  );
  assert.match(mixed.message, /iperf3 does not take `bandwidth-strict`.*nuttcp does not take `zero-copy`/);
});

test('# comment keys inside a spec are stripped by pSConfig and pScheduler: no error', () => {
  assert.deepEqual(errors(withTest('latency', { dest: 'h.example.net', '#why': 'a note' })), []);
});
