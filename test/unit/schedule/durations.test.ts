// How long pScheduler books a run: the tool it picks and that tool's duration program, in whole seconds as stored
// (DB/task.sql task_alter: interval_round_up of what the program prints).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pschedulerFixturesDir } from '../../fixtures';
import { isoSeconds, pickTool } from '../../../server/src/template/pscheduler/tools';
import { valueNode } from '../../../server/src/template/pscheduler/value-nodes';
import { modelledTools, toolDuration, toolkitRewrite } from '../../../server/src/template/schedule/durations';
import { combo, modelOf } from './helpers';

interface Case {
  tool: string;
  spec: Record<string, unknown>;
  printed: string;
}
const fixture = JSON.parse(readFileSync(join(pschedulerFixturesDir, 'tool-durations.json'), 'utf8')) as {
  cases: Case[];
};

/** DB/utilities.sql interval_round_up of the printed ISO duration. */
function stored(printed: string): number {
  const s = isoSeconds(printed);
  assert.ok(s !== undefined, printed);
  return Math.ceil(Math.round(s * 1e6) / 1e6);
}

test('every modelled tool agrees with what its own duration program prints (test/fixtures/pscheduler/tool-durations.json)', () => {
  const seen = new Set<string>();
  for (const c of fixture.cases) {
    seen.add(c.tool);
    const d = toolDuration(c.tool, c.spec);
    assert.equal(d.modelled, true, c.tool);
    assert.equal(d.seconds, stored(c.printed), `${c.tool} ${JSON.stringify(c.spec)} prints ${c.printed}`);
  }
  assert.deepEqual([...seen].sort(), modelledTools().sort(), 'every modelled tool has cases in the fixture');
});

test('iperf3 at its defaults: setup 4 s (200 ms rtt) + omit 0 + 10 s + wait 3 + shutdown 2 = 19 s (pscheduler-tool-iperf3/iperf3/duration:41, iperf3_defaults.py)', () => {
  assert.equal(toolDuration('iperf3', {}).seconds, 19);
  // The reference's example, and pscheduler#575's runs that span 34 s.
  assert.equal(toolDuration('iperf3', { duration: 'PT20S', omit: 'PT5S' }).seconds, 34);
  // iperf3_utils.py setup_time: one second per 50 ms of rtt, at least 1 s; 'PT%dS' truncates the sum.
  assert.equal(toolDuration('iperf3', { 'link-rtt': 'PT0.01S' }).seconds, 1 + 10 + 5);
  assert.equal(toolDuration('iperf3', { 'link-rtt': 'PT0.21S' }).seconds, 19); // 4.2 + 15 = 19.2 → 19
});

test('iperf2 books setup + duration + 1 + 1 and no omit (pscheduler-tool-iperf2/iperf2/duration, iperf2_defaults.py)', () => {
  assert.equal(toolDuration('iperf2', {}).seconds, 16);
  assert.equal(toolDuration('iperf2', { duration: 'PT30S', omit: 'PT5S' }).seconds, 36);
});

test('nuttcp books duration + fudge 4 + wait 2, no rtt, no omit (pscheduler-tool-nuttcp/nuttcp/duration, nuttcp_defaults.py)', () => {
  assert.equal(toolDuration('nuttcp', {}).seconds, 16);
  assert.equal(toolDuration('nuttcp', { duration: 'PT30S', 'link-rtt': 'PT1S', omit: 'PT5S' }).seconds, 36);
});

test('ethr prints a float (f-string), which the database rounds up (pscheduler-tool-ethr/ethr/duration, DB/utilities.sql interval_round_up)', () => {
  assert.equal(toolDuration('ethr', {}).seconds, 19);
  assert.equal(toolDuration('ethr', { 'link-rtt': 'PT0.21S' }).seconds, 20); // PT19.2S → 20, where iperf3 truncates to 19
});

test('latency tools: owping 11 s + 10 % of the packet time + fudge, twping without the 10 % (owping/duration, twping/duration)', () => {
  assert.equal(toolDuration('owping', {}).seconds, 22); // 11.000 + 0.002 + 0 + 10 + 1 → PT22S
  assert.equal(toolDuration('owping', { 'packet-count': 600, 'packet-interval': 0.1 }).seconds, 77);
  assert.equal(toolDuration('twping', {}).seconds, 21);
  assert.equal(toolDuration('twping', { count: 10 }).seconds, 21, 'an rtt spec has none of its keys');
});

test('powstream: the spec duration (PT24H) + 2 s (pscheduler-tool-powstream/powstream/duration)', () => {
  assert.equal(toolDuration('powstream', {}).seconds, 86_402);
  assert.equal(toolDuration('powstream', { duration: 'PT1H' }).seconds, 3602);
});

test('ping: (count-1) x interval + timeout + 1 + DNS 2 + 1 (pscheduler-tool-ping/ping/ping_utils.py)', () => {
  assert.equal(toolDuration('ping', {}).seconds, 10);
  assert.equal(toolDuration('ping', { deadline: 'PT3S' }).seconds, 7, 'a deadline replaces count and timeout');
  assert.equal(toolDuration('ping', { count: 4, interval: 'PT0.3S', timeout: 'PT0.5S' }).seconds, 6); // 5.4 → 6
});

test('trace tools: traceroute 8 s by default (its missing wait is never added), tracepath 101 s (traceroute/duration, tracepath/duration)', () => {
  assert.equal(toolDuration('traceroute', {}).seconds, 8);
  assert.equal(toolDuration('traceroute', { sendwait: 'PT1S' }).seconds, 38);
  assert.equal(toolDuration('tracepath', {}).seconds, 101);
  assert.equal(toolDuration('tracepath', { hostnames: false, as: false }).seconds, 95);
});

test("a tool whose duration program is not modelled gets the spec's timeout, or 10 s (SIMPLIFICATIONS 'durations')", () => {
  assert.deepEqual(toolDuration('dnspy', { timeout: 'PT3S' }), { seconds: 3, modelled: false });
  assert.deepEqual(toolDuration(undefined, {}), { seconds: 10, modelled: false });
});

test('the toolkit default limits rewrite a duration under 5 s to PT5S for throughput, latencybg, idle (pscheduler_limits.conf)', () => {
  assert.deepEqual(toolkitRewrite('throughput', { duration: 'PT2S' }), { duration: 'PT5S' });
  assert.deepEqual(toolkitRewrite('throughput', { duration: 'PT5S' }), { duration: 'PT5S' });
  assert.deepEqual(toolkitRewrite('rtt', { duration: 'PT2S' }), { duration: 'PT2S' });
  const rewritten = modelOf([combo({ spec: { source: 'a', dest: 'b', duration: 'PT1S' } })]);
  assert.equal(rewritten.tasks[0].durationSeconds, 4 + 5 + 5, 'iperf3 of a 5 s test');
  const asWritten = modelOf([combo({ spec: { source: 'a', dest: 'b', duration: 'PT1S' } })], {
    toolkitLimitsRewrite: false,
  });
  assert.equal(asWritten.tasks[0].durationSeconds, 4 + 1 + 5);
});

test("the tool: the task's `tools` in order, else the most preferred that can run it (pschedulerapiserver/tasks.py pick_tool, DB/tool.sql api_tools_for_test)", () => {
  const spec = valueNode({ dest: 'b' });
  assert.equal(pickTool('throughput', spec), 'iperf3', 'preference: iperf3 10, nuttcp 5, iperf2 0, ethr -10');
  assert.equal(pickTool('throughput', spec, ['nuttcp', 'iperf3']), 'nuttcp');
  // Only nuttcp takes burst-size (pScheduler's own can-run programs agree: only nuttcp can run it).
  assert.equal(pickTool('throughput', valueNode({ schema: 4, dest: 'b', 'burst-size': 10 })), 'nuttcp');
  assert.equal(pickTool('throughput', valueNode({ dest: 'b', 'no-delay': true, schema: 2 })), undefined);
  assert.equal(pickTool('latency', valueNode({ dest: 'b' })), 'owping', 'owping and twping tie at 0: by name');
  assert.equal(pickTool('rtt', valueNode({ dest: 'b' })), 'ping');
  assert.equal(pickTool('trace', valueNode({ dest: 'b' })), 'traceroute');
  // A tool pScheduler 5.x does not ship is offered by no participant: nothing in common, the task is refused
  // (pschedulerapiserver/tasks.py pick_tool ~38-107); a known one later in the list is still picked.
  assert.equal(pickTool('throughput', spec, ['site-tool']), undefined);
  assert.equal(pickTool('throughput', spec, ['site-tool', 'nuttcp']), 'nuttcp');
  const m = modelOf([combo({ spec: { source: 'a', dest: 'b' }, tools: ['iperf2'] })]);
  assert.equal(m.tasks[0].tool, 'iperf2');
  assert.equal(m.tasks[0].durationSeconds, 16);
});

test('isoSeconds answers the same from its cache, for valid and refused strings, past the cache bound', () => {
  const cases: [string, number | undefined][] = [
    ['PT30S', 30],
    ['PT30S\n', 30],
    ['P1DT2H', 93_600],
    ['P', undefined],
    ['30 seconds', undefined],
  ];
  for (let round = 0; round < 2; round++) for (const [d, s] of cases) assert.equal(isoSeconds(d), s, d);
  // More distinct strings than the cache holds (hostile input): it is emptied and refilled, answers unchanged.
  for (let i = 0; i < 3000; i++) assert.equal(isoSeconds(`PT${i}S`), i);
  for (const [d, s] of cases) assert.equal(isoSeconds(d), s, d);
});
