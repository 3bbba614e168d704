// Scheduling class per test type and participants per test: the facts of reference §1.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pluginNames } from '../../../server/src/template/pscheduler/catalog';
import {
  isAnytime,
  mustAvoid,
  participantsOf,
  schedulingClassOf,
} from '../../../server/src/template/schedule/participants';
import { hostLoads } from '../../../server/src/template/schedule/task-model';
import { combo, modelOf } from './helpers';

test('every test type\'s class, as its enumerate says (pscheduler-test-<T>/<T>/enumerate "scheduling-class", stored by DB/test.sql:109)', () => {
  const expected: Record<string, string[]> = {
    exclusive: ['idleex', 's3throughput', 'throughput'],
    normal: ['latency'],
    background: [
      'clock',
      'dhcp',
      'disk-to-disk',
      'dns',
      'dot1x',
      'http',
      'idle',
      'mtu',
      'netreach',
      'noop',
      'openports',
      'psresponse',
      'rtt',
      'simplestream',
      'snmpget',
      'snmpset',
      'trace',
      'wifibssid',
    ],
    'background-multi': ['idlebgm', 'latencybg', 'snmpgetbgm'],
  };
  const actual: Record<string, string[]> = {};
  for (const t of pluginNames('test')) (actual[schedulingClassOf(t)!] ??= []).push(t);
  for (const k of Object.keys(actual)) actual[k].sort();
  assert.deepEqual(actual, expected);
  assert.equal(schedulingClassOf('no-such-test'), undefined);
});

test('the conflict truth table of DB/schedule.sql api_proposed_times (~490-500) and DB/run.sql run_has_conflicts', () => {
  const classes = ['exclusive', 'normal', 'background', 'background-multi'] as const;
  const avoid = (p: (typeof classes)[number], t: (typeof classes)[number]): boolean => mustAvoid(p, t);
  // Proposed exclusive avoids exclusive and normal; normal avoids exclusive; background avoids nothing.
  assert.deepEqual(
    classes.map((p) => classes.map((t) => avoid(p, t))),
    [
      [true, true, false, false],
      [true, false, false, false],
      [false, false, false, false],
      [false, false, false, false],
    ],
  );
  assert.deepEqual(classes.map(isAnytime), [false, false, true, true], 'DB/scheduling_class.sql anytime');
});

test('throughput: source and dest, unless single-ended or loopback is present (pscheduler-test-throughput/throughput/participants)', () => {
  assert.deepEqual(participantsOf('throughput', { source: 'a', dest: 'b' }, 'agent'), ['a', 'b']);
  assert.deepEqual(participantsOf('throughput', { source: 'a', dest: 'b', 'single-ended': true }, 'agent'), ['a']);
  assert.deepEqual(
    participantsOf('throughput', { source: 'a', dest: 'b', 'single-ended': false }, 'agent'),
    ['a'],
    'present, whatever its value',
  );
  assert.deepEqual(participantsOf('throughput', { source: 'a', dest: 'b', loopback: true }, 'agent'), ['a']);
  assert.deepEqual(
    participantsOf('throughput', { source: 'a', 'source-node': 'a-ps:443', dest: 'b', 'dest-node': 'b-ps' }, 'x'),
    ['a-ps:443', 'b-ps'],
    'the *-node fields name the pScheduler hosts',
  );
  assert.deepEqual(
    participantsOf('throughput', { dest: 'b' }, 'agent'),
    ['agent', 'b'],
    'no source: the host the task is posted to (tasks.py: participants[0] None → api_local_host)',
  );
});

test('latency and latencybg: the dest when flip, else the source, one participant (pscheduler-test-latency/latency/participants, latencybg/participants)', () => {
  for (const type of ['latency', 'latencybg']) {
    assert.deepEqual(participantsOf(type, { source: 'a', dest: 'b' }, 'x'), ['a']);
    assert.deepEqual(participantsOf(type, { source: 'a', dest: 'b', flip: true }, 'x'), ['b']);
    assert.deepEqual(participantsOf(type, { source: 'a', dest: 'b', flip: false }, 'x'), ['a']);
  }
});

test('rtt and trace: the source only (pscheduler-test-rtt/rtt/participants, trace/participants); host tests: the host', () => {
  assert.deepEqual(participantsOf('rtt', { source: 'a', dest: 'b' }, 'x'), ['a']);
  assert.deepEqual(participantsOf('trace', { dest: 'b' }, 'x'), ['x']);
  assert.deepEqual(participantsOf('http', { host: 'h', url: 'https://u' }, 'x'), ['h']);
  assert.deepEqual(participantsOf('dns', { query: 'q' }, 'x'), ['x']);
  assert.deepEqual(participantsOf('simplestream', { source: 'a', dest: 'b' }, 'x'), ['a', 'b']);
  assert.deepEqual(participantsOf('idle', { schema: 2, host: ['h1', 'h2'] }, 'x'), ['h1', 'h2'], 'idle schema 2');
});

test('exclusive load = sum of duration / repeat over the exclusive tasks a host takes part in; normal load likewise', () => {
  const m = modelOf([
    combo({ spec: { source: 'a', dest: 'b' }, schedule: { repeat: 'PT1H' } }), // iperf3 19 s on a and b
    combo({ spec: { source: 'b', dest: 'c', 'single-ended': true }, schedule: { repeat: 'PT30M' } }), // b only
    combo({ type: 'latency', spec: { source: 'a', dest: 'c' }, schedule: { repeat: 'PT10M' } }), // owping 22 s on a
    combo({ type: 'rtt', spec: { source: 'c', dest: 'a' }, schedule: { repeat: 'PT1M' } }), // background
  ]);
  const loads = Object.fromEntries(hostLoads(m).map((h) => [h.address, h]));
  assert.equal(loads.a.exclusiveLoad, 19 / 3600);
  assert.equal(loads.b.exclusiveLoad, 19 / 3600 + 19 / 1800);
  assert.equal(loads.c.exclusiveLoad, 0);
  assert.equal(loads.a.normalLoad, 22 / 600);
  assert.deepEqual([loads.a.tasks, loads.b.tasks, loads.c.tasks], [2, 2, 1]);
  assert.deepEqual(
    m.tasks.map((t) => t.class),
    ['exclusive', 'exclusive', 'normal', 'background'],
  );
});
