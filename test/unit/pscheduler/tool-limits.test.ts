// Refusals that come from the tools' own can-run programs (perfsonar/pscheduler @ 1e8b1924), where the spec itself
// is valid: pScheduler refuses the task when no tool can run it. Each test names the program it follows and checks
// both sides of its limit, in the template's diagnostics and in the preview's check of an expanded task.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { check, errors, template, withCode, type Found } from '../template/helpers';
import { TaskChecker } from '../../../server/src/template/pscheduler/task-check';
import { fileUrlRefused } from '../../../server/src/template/pscheduler/tools';

const withTest = (type: string, spec: unknown, extra: Record<string, unknown> = {}): Found[] =>
  check(template({ tests: { t: { type, spec } }, ...extra }));

/** The one tool-cannot-run error, or undefined when the template has no error at all. */
function refusal(ds: Found[]): Found | undefined {
  const found = withCode(ds, 'psconfig/tool-cannot-run').filter((d) => d.severity === 'error');
  assert.ok(found.length <= 1, JSON.stringify(found));
  if (!found.length) assert.deepEqual(errors(ds), [], 'no other error either');
  return found[0];
}

/** The preview's verdict on one expanded task: the problems pScheduler would answer, or [] when it accepts it. */
function preview(type: string, spec: Record<string, unknown>, tools?: string[]): string[] {
  return new TaskChecker().check({ test: { type, spec }, ...(tools ? { tools } : {}) }).flatMap((r) => r.problems);
}

test('simplestream: dawdle over half the timeout (pscheduler-tool-simplestreamer/simplestreamer/can-run 44-56)', () => {
  const spec = (dawdle: string, timeout?: string): Record<string, unknown> => ({
    schema: 1,
    dest: '{% address[1] %}',
    dawdle,
    ...(timeout ? { timeout } : {}),
  });
  const d = refusal(withTest('simplestream', spec('PT31S', 'PT1M')));
  assert.ok(d);
  assert.match(d.message, /simplestreamer `dawdle` must be less than half the `timeout`/);
  // `dawdle * 2 > timeout`: exactly half runs; no timeout, nothing to compare
  assert.equal(refusal(withTest('simplestream', spec('PT30S', 'PT1M'))), undefined);
  assert.equal(refusal(withTest('simplestream', spec('PT2M'))), undefined);
  assert.equal(refusal(withTest('simplestream', spec('PT0.5S', 'PT1S'))), undefined);
  assert.equal(refusal(withTest('simplestream', spec('PT0.6S', 'PT1S')))?.code, 'psconfig/tool-cannot-run');
  const p = preview('simplestream', { dest: 'b.example.net', dawdle: 'PT1M', timeout: 'PT1M' });
  assert.match(p.join(), /no pScheduler tool can run this simplestream spec: simplestreamer `dawdle` must be/);
});

test('s3throughput: object-size of 1 TiB or more (pscheduler-tool-s3-benchmark/s3-benchmark/can-run 36-41)', () => {
  const spec = (size: number): Record<string, unknown> => ({
    schema: 1,
    url: 'https://s3.example.net/',
    bucket: 'b',
    '_access-key': 'a',
    '_secret-key': 's',
    'object-size': size,
  });
  const d = refusal(withTest('s3throughput', spec(1099511627776)));
  assert.ok(d);
  assert.match(d.message, /s3-benchmark `object-size` must be under 1 TiB/);
  assert.equal(refusal(withTest('s3throughput', spec(1099511627775))), undefined);
  assert.equal(refusal(withTest('s3throughput', spec(1))), undefined);
  assert.deepEqual(preview('s3throughput', spec(1024)), []);
  assert.match(preview('s3throughput', spec(2 ** 41)).join(), /must be under 1 TiB/);
});

test('http on file://: no parse, no keep-content (pscheduler-tool-curl/curl/can-run 79-85)', () => {
  const spec = (extra: Record<string, unknown>, url = 'file:///home/measure/page.html'): Record<string, unknown> => ({
    schema: 2,
    url,
    ...extra,
  });
  const parse = refusal(withTest('http', spec({ parse: 'Welcome' })));
  assert.match(parse?.message ?? '', /curl cannot parse content from file:\/\/ URLs/);
  const keep = refusal(withTest('http', spec({ 'keep-content': 0 })));
  assert.match(keep?.message ?? '', /curl cannot keep content from file:\/\/ URLs/);
  // An empty `parse` is falsy (`spec.get("parse", None)`); a plain file, or parse on https, is fine
  assert.equal(refusal(withTest('http', spec({ parse: '' }))), undefined);
  assert.equal(refusal(withTest('http', spec({}))), undefined);
  assert.equal(
    refusal(withTest('http', spec({ parse: 'x', 'keep-content': 10 }, 'https://www.example.net/'))),
    undefined,
  );
  // urlparse lower-cases the scheme
  assert.ok(refusal(withTest('http', spec({ parse: 'x' }, 'FILE:///home/measure/page.html'))));
  assert.match(preview('http', spec({ 'keep-content': 100 })).join(), /cannot keep content/);
});

test('http on file://: no system paths, `.` or `..`, or directories (curl/can-run 87, curl/utilities.py file_ok)', () => {
  const refused = [
    'file:///etc/passwd',
    'file:///var/log/syslog',
    'file:///dev/null',
    'file:///proc/self/status',
    'file:///sys/kernel/x',
    'file:///run/x',
    'file:///srv/x',
    'file:///media/usb/x',
    'file://host.example.net/etc/hosts', // the netloc is not part of the path
    'file:/etc/hosts',
    'file:////etc//hosts', // realpath joins the slashes
    'file:///home/me/../../etc/x', // `..` refused outright
    'file:///home/./me/x',
    'file:///etc', // a directory on every host
    'file:///var/',
    'file:///', // the root, a directory
    'file://', // an empty path is the working directory
  ];
  for (const url of refused) {
    assert.equal(fileUrlRefused(url, FORBIDDEN), true, url);
    const d = refusal(withTest('http', { schema: 2, url }));
    assert.match(d?.message ?? '', /curl reads no file:\/\/ path under \/dev, \/etc/, url);
  }
  const accepted = [
    'file:///home/measure/page.html',
    'file:///etcetera/x', // `/etc/` is the prefix, not `/etc`
    'file:///opt/etc/x',
    'file:///etc%2Fpasswd', // not decoded: a missing file, which can-run lets through
    'file:///home/measure/page.html?x=/etc/',
    'https://www.example.net/etc/passwd',
  ];
  for (const url of accepted) {
    assert.equal(fileUrlRefused(url, FORBIDDEN), false, url);
    assert.equal(refusal(withTest('http', { schema: 2, url })), undefined, url);
  }
  assert.match(preview('http', { url: 'file:///etc/shadow' }).join(), /reads no file:\/\/ path/);
});
const FORBIDDEN = ['/dev/', '/etc/', '/media/', '/proc/', '/run/', '/srv/', '/sys/', '/var/'];

test('trace with algorithm dublin-traceroute to an IP address (dublin-traceroute/can-run 55-60; the others refuse the algorithm)', () => {
  // dublin-traceroute's can-run calls socket.AF_INET without importing socket: it fails on every IP `dest`, and
  // traceroute, tracepath and paris-traceroute refuse the algorithm, so no tool is left.
  for (const dest of ['192.0.2.1', '2001:db8::1']) {
    const d = refusal(withTest('trace', { dest, algorithm: 'dublin-traceroute' }));
    assert.match(d?.message ?? '', /dublin-traceroute fails on an IP address `dest`/, dest);
    assert.match(d?.message ?? '', /traceroute algorithm not supported/);
    assert.match(preview('trace', { dest, algorithm: 'dublin-traceroute' }).join(), /fails on an IP address/);
  }
  // A host name: dublin-traceroute can run it (on hosts that have it).
  assert.equal(refusal(withTest('trace', { dest: 'b.example.net', algorithm: 'dublin-traceroute' })), undefined);
  assert.deepEqual(preview('trace', { dest: 'b.example.net', algorithm: 'dublin-traceroute' }), []);
  // Without the algorithm, traceroute runs an IP destination.
  assert.deepEqual(preview('trace', { dest: '192.0.2.1' }), []);
  // Through a variable: the group's addresses decide.
  const ips = template({
    addresses: { a: { address: '192.0.2.1' }, b: { address: '192.0.2.2' } },
    tests: { t: { type: 'trace', spec: { dest: '{% address[1] %}', algorithm: 'dublin-traceroute' } } },
  });
  assert.ok(refusal(check(ips)));
  const names = template({
    tests: { t: { type: 'trace', spec: { dest: '{% address[1] %}', algorithm: 'dublin-traceroute' } } },
  });
  assert.equal(refusal(check(names)), undefined);
});

test('trace with first-ttl above 30 (traceroute/can-run 58-64, paris-traceroute/can-run 70-79: max-ttl is never in a spec)', () => {
  // Both compare first-ttl with `spec['max-ttl']`, a key the trace spec does not have, so with 30 whatever `hops`
  // says; tracepath cannot set a first TTL at all, and dublin-traceroute cannot take `source`.
  const d = refusal(withTest('trace', { dest: 'b.example.net', 'first-ttl': 31, hops: 40, source: 'a.example.net' }));
  assert.match(d?.message ?? '', /traceroute first TTL above 30/);
  assert.equal(
    refusal(withTest('trace', { dest: 'b.example.net', 'first-ttl': 30, source: 'a.example.net' })),
    undefined,
  );
  assert.match(preview('trace', { dest: '192.0.2.1', 'first-ttl': 64, hops: 64 }).join(), /first TTL above 30/);
});
