// The task diff on the real example templates with hand-made edits. Each expectation is derived in the test from
// the two expansions (which keys create a task on each side, which task JSON differs), independently of the diff's
// own pairing, and pinned to what the edit means (the tasks of the renamed group, the pairs of the dropped address).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { exampleFiles, exampleText } from '../../fixtures';
import { changeLosesSomething, PRIVATE_SPEC_NOTE, RENAME_NOTE } from '../../../server/src/template/task-diff';
import { canonicalJson } from '../../../server/src/template/expand/template-view';
import type { ExpandTasksResult, PSchedulerTask } from '../../../common/protocol';
import { clone, diffKeys, diffObjs, expandObj, keyOf, minus, sorted, taskKeys, type Obj } from './helpers';

const NIGHTLY = 'qa--testbed-nightly-psconfig.json';
const nightly = (): Obj => JSON.parse(exampleText(NIGHTLY)) as Obj;

/** Task JSON without the agent's own reference block, canonical: what "changed" compares. */
function comparable(p: PSchedulerTask | undefined): string {
  const c = clone(p) as unknown as Obj & { reference?: Obj };
  if (c.reference) delete c.reference.psconfig;
  if (c.reference && Object.keys(c.reference).length === 0) delete c.reference;
  return canonicalJson(c);
}

/** Keys present as tasks on both sides whose task JSON differs. */
function changedKeys(a: ExpandTasksResult, b: ExpandTasksResult): string[] {
  const before = new Map(a.combinations.filter((c) => !c.error).map((c) => [keyOf(c), comparable(c.pscheduler)]));
  return b.combinations
    .filter((c) => !c.error && before.has(keyOf(c)) && before.get(keyOf(c)) !== comparable(c.pscheduler))
    .map(keyOf);
}

/** The derived expectation of a diff between two expansions. */
function expected(a: ExpandTasksResult, b: ExpandTasksResult) {
  return {
    added: sorted(minus(taskKeys(b), taskKeys(a))),
    removed: sorted(minus(taskKeys(a), taskKeys(b))),
    changed: sorted(changedKeys(a, b)),
  };
}

test('diff(A, A) is empty for every example template', async () => {
  for (const name of exampleFiles()) {
    const text = exampleText(name);
    const d = await diffObjs(text, text);
    assert.deepEqual(d.summary, { added: 0, removed: 0, changed: 0, agentsAffected: 0 }, name);
    assert.deepEqual(d.agents, [], name);
    assert.deepEqual(d.newFailures, [], name);
    assert.deepEqual(d.newDiagnostics, [], name);
    assert.deepEqual(d.old, { ...d.new, source: 'old' }, name);
    assert.equal(changeLosesSomething(d), false, name);
  }
});

test('rename a group and forget its task: the agent rejects the whole template, so every task is removed', async () => {
  // The task still names the old group: validate_refs reports "Task … references a group … that does not exist."
  // and pSConfig's agent creates nothing from the template (psconfig config.py ~318-321, base_agent.py ~388-402).
  const before = nightly();
  const after = clone(before) as { groups: Obj; tasks: Record<string, Obj> };
  const groups = after.groups;
  after.groups = Object.fromEntries(
    Object.entries(groups).map(([k, v]) => [k === 'Ping Between Testbeds' ? 'ping-testbeds' : k, v]),
  );
  const [a, b] = [await expandObj(before), await expandObj(after)];
  assert.equal(b.rejected, true);
  assert.match(
    b.error ?? '',
    /Task Ping Between Testbeds references a group Ping Between Testbeds that does not exist\./,
  );
  const d = await diffObjs(before, after);
  const want = expected(a, b);
  const all = taskKeys(a);
  assert.ok(all.length > 100, `${all.length} tasks`);
  assert.deepEqual(want.removed, sorted(all));
  assert.deepEqual(sorted(diffKeys(d, 'removed')), want.removed);
  assert.deepEqual(diffKeys(d, 'added'), []);
  assert.deepEqual(diffKeys(d, 'changed'), []);
  assert.equal(d.summary.removed, all.length);
  assert.match(d.new.error ?? '', /agent rejects this template/);
  const unknown = d.newDiagnostics.filter((x) => x.severity === 'error');
  assert.ok(
    unknown.some((x) => /Ping Between Testbeds/.test(x.message)),
    JSON.stringify(d.newDiagnostics),
  );
  assert.ok(d.new.diagnostics!.error > d.old.diagnostics!.error);
  assert.equal(changeLosesSomething(d), true);
});

test('rename a group and its reference: nothing changes', async () => {
  const before = nightly();
  const after = clone(before) as { groups: Obj; tasks: Record<string, Obj> };
  after.groups = Object.fromEntries(
    Object.entries(after.groups).map(([k, v]) => [k === 'Ping Between Testbeds' ? 'ping-testbeds' : k, v]),
  );
  after.tasks['Ping Between Testbeds'].group = 'ping-testbeds';
  const d = await diffObjs(before, after);
  assert.deepEqual(d.summary, { added: 0, removed: 0, changed: 0, agentsAffected: 0 });
  assert.deepEqual(d.newDiagnostics, []);
});

test('drop an address: the pairs that named it are removed, nothing else moves', async () => {
  const before = nightly() as { addresses: Obj; groups: Record<string, Obj> };
  const gone = 'ps-bionic.qalab.geant.net';
  const after = clone(before);
  delete after.addresses[gone];
  for (const g of Object.values(after.groups))
    for (const side of ['addresses', 'a-addresses', 'b-addresses'])
      if (Array.isArray(g[side])) g[side] = (g[side] as { name: string }[]).filter((s) => s.name !== gone);
  const [a, b] = [await expandObj(before), await expandObj(after)];
  const d = await diffObjs(before, after);
  const want = expected(a, b);
  const named = a.combinations.filter((c) => !c.error && c.addressValues.includes(gone)).map(keyOf);
  assert.ok(named.length > 0);
  assert.deepEqual(want.removed, sorted(named));
  assert.deepEqual(want.added, []);
  assert.deepEqual(want.changed, []);
  assert.deepEqual(sorted(diffKeys(d, 'removed')), want.removed);
  assert.deepEqual(diffKeys(d, 'added'), []);
  assert.deepEqual(diffKeys(d, 'changed'), []);
  // The dropped host's own agent loses everything it scheduled; it is one of the affected agents.
  assert.ok(
    d.agents.some(
      (x) => x.agent === gone && x.removed.length === a.combinations.filter((c) => c.agent === gone && !c.error).length,
    ),
  );
  assert.equal(d.old.tasks - d.new.tasks, named.length);
  assert.deepEqual(d.newDiagnostics, []);
});

test('change a spec value: every task of that test changes in exactly that key, old and new value', async () => {
  const before = nightly() as { tests: Record<string, { spec: Obj }> };
  const after = clone(before);
  const test = 'iperf3 TCP Test Between Testbeds';
  after.tests[test].spec.duration = 'PT30S';
  const [a, b] = [await expandObj(before), await expandObj(after)];
  const d = await diffObjs(before, after);
  const want = expected(a, b);
  const ofTest = b.combinations.filter((c) => c.task === test && !c.error).map(keyOf);
  assert.ok(ofTest.length > 100);
  assert.deepEqual(want.changed, sorted(ofTest));
  assert.deepEqual(sorted(diffKeys(d, 'changed')), want.changed);
  assert.deepEqual(diffKeys(d, 'added'), []);
  assert.deepEqual(diffKeys(d, 'removed'), []);
  for (const agent of d.agents)
    for (const c of agent.changed)
      assert.deepEqual(c.parts, [{ part: 'test.spec.duration', old: 'PT20S', new: 'PT30S' }]);
  assert.equal(changeLosesSomething(d), false);
});

test('change an archive: every task that uses it changes in `archives`, with the expanded old and new lists', async () => {
  const before = nightly() as { archives: Record<string, { data: Obj }> };
  const after = clone(before);
  after.archives['config-archive0'].data.url = 'https://archive.example.net/esmond/perfsonar/archive/';
  const [a, b] = [await expandObj(before), await expandObj(after)];
  const d = await diffObjs(before, after);
  const want = expected(a, b);
  assert.equal(want.changed.length, taskKeys(b).length, 'every task writes to that archive');
  assert.deepEqual(sorted(diffKeys(d, 'changed')), want.changed);
  const oldByKey = new Map(a.combinations.map((c) => [keyOf(c), c]));
  const newByKey = new Map(b.combinations.map((c) => [keyOf(c), c]));
  for (const agent of d.agents)
    for (const c of agent.changed) {
      const k = `${agent.agent}|${c.task}|${c.addresses.join('->')}`;
      assert.deepEqual(c.parts, [
        { part: 'archives', old: oldByKey.get(k)!.pscheduler!.archives, new: newByKey.get(k)!.pscheduler!.archives },
      ]);
      assert.equal(
        (c.parts[0].new as { data: Obj }[])[0].data.url,
        'https://archive.example.net/esmond/perfsonar/archive/',
      );
    }
});

test('rename a task: paired as changed (same JSON, same addresses: the agent keeps the running task)', async () => {
  // The new name keeps a space, as the old one: the official schema checks only objects whose names match its name
  // pattern, and a checked task's `group` must match it too ("Ping Between Testbeds" does not), so a task renamed
  // to `ping` would make pSConfig's agent reject the template (its Config.validate says so on this file).
  const before = nightly() as { tasks: Obj };
  const after = clone(before);
  after.tasks = Object.fromEntries(
    Object.entries(after.tasks).map(([k, v]) => [k === 'Ping Between Testbeds' ? 'Ping renamed' : k, v]),
  );
  const [a, b] = [await expandObj(before), await expandObj(after)];
  const d = await diffObjs(before, after);
  const pings = a.combinations.filter((c) => c.task === 'Ping Between Testbeds' && !c.error);
  assert.equal(d.summary.changed, pings.length);
  assert.equal(d.summary.added + d.summary.removed, 0);
  // Derived: the removed keys of the two expansions become the changed ones under the new name.
  const want = expected(a, b);
  assert.deepEqual(
    sorted(diffKeys(d, 'changed')),
    sorted(want.removed.map((k) => k.replace('|Ping Between Testbeds|', '|Ping renamed|'))),
  );
  for (const agent of d.agents)
    for (const c of agent.changed)
      assert.deepEqual(c.parts, [
        { part: 'task', old: 'Ping Between Testbeds', new: 'Ping renamed', note: RENAME_NOTE },
      ]);
});

test('a value pScheduler refuses: the tasks are removed, each listed as a new failure, refused counted per side', async () => {
  const before = nightly() as { tests: Record<string, { spec: Obj }> };
  const after = clone(before);
  after.tests['Ping Between Testbeds'].spec.count = 'ten';
  const [a, b] = [await expandObj(before), await expandObj(after)];
  const d = await diffObjs(before, after, { diagnostics: false });
  const want = expected(a, b);
  const refusedNow = b.combinations.filter((c) => c.refused).map(keyOf);
  assert.ok(refusedNow.length > 0);
  assert.deepEqual(want.removed, sorted(refusedNow));
  assert.deepEqual(sorted(diffKeys(d, 'removed')), want.removed);
  assert.deepEqual(sorted(d.newFailures.map((f) => `${f.agent}|${f.task}|${f.addresses!.join('->')}`)), want.removed);
  assert.ok(d.newFailures.every((f) => f.refused === true && /pScheduler would refuse this task/.test(f.error)));
  assert.equal(d.old.refused, 0);
  assert.equal(d.new.refused, refusedNow.length);
  assert.equal(d.new.diagnostics, undefined, 'diagnostics were not asked for');
  assert.equal(changeLosesSomething(d), true);
  // And back: the reverse diff adds them again, with no new failure.
  const back = await diffObjs(after, before, { diagnostics: false });
  assert.deepEqual(sorted(diffKeys(back, 'added')), want.removed);
  assert.deepEqual(back.newFailures, []);
});

test('--agent: the diff for one agent is the full diff restricted to that agent', async () => {
  const before = nightly() as { tests: Record<string, { spec: Obj }>; addresses: Obj };
  const after = clone(before);
  after.tests['iperf3 UDP Test Between Testbeds'].spec.bandwidth = 10000000;
  const agent = 'ps-dev-el7-2.es.net';
  const full = await diffObjs(before, after, { diagnostics: false });
  const one = await diffObjs(before, after, { diagnostics: false, agentAddresses: [agent.toUpperCase()] });
  assert.deepEqual(
    one.agents,
    full.agents.filter((a) => a.agent === agent),
  );
  assert.equal(one.summary.agentsAffected, 1);
});

test('a private spec field: changed with a note (the agent compares tasks without private fields)', async () => {
  // The SNMP example, with a spec pScheduler accepts (SNMPv2c and its private community string).
  const before = JSON.parse(exampleText('psconfig--example-4-snmp.json')) as { tests: Record<string, { spec: Obj }> };
  before.tests['test-snmp'].spec = {
    version: '2c',
    _community: 'public',
    dest: '{% address[0] %}',
    polls: 1,
    oid: ['1.3.6.1.2.1.2.2.1.14'],
  };
  const after = clone(before);
  after.tests['test-snmp'].spec._community = 's3cret';
  const [a, b] = [await expandObj(before), await expandObj(after)];
  assert.ok(taskKeys(a).length > 0 && b.combinations.every((c) => !c.error), 'pScheduler accepts both versions');
  const d = await diffObjs(before, after, { diagnostics: false });
  assert.deepEqual(sorted(diffKeys(d, 'changed')), expected(a, b).changed);
  assert.equal(d.summary.changed, taskKeys(a).length);
  for (const x of d.agents)
    for (const c of x.changed)
      assert.deepEqual(c.parts, [
        { part: 'test.spec._community', old: 'public', new: 's3cret', note: PRIVATE_SPEC_NOTE },
      ]);
});

test('a template that no longer parses: every task removed, the side says why, the change fails review', async () => {
  const text = exampleText('perl-shared--client-psconfig-mesh.json');
  const d = await diffObjs(text, text.replace('"tasks"', '"tasks" ,,'));
  assert.equal(d.summary.removed, 6);
  assert.match(d.new.error ?? '', /JSON syntax error/);
  assert.equal(d.new.tasks, 0);
  assert.equal(changeLosesSomething(d), true);
});

test('identical tasks: a task that becomes a duplicate of another is removed, naming it; naming an address twice changes nothing', async () => {
  // pSConfig's agent creates identical tasks once per agent (task_manager.py _need_new_task): when t2's schedule
  // becomes t1's, t2's task JSON is t1's, so the agent deletes t2's running task and keeps t1's.
  const A = 'host-a.example.net';
  const before: Obj = {
    addresses: { a: { address: A } },
    groups: { g1: { type: 'list', addresses: [{ name: 'a' }] }, g2: { type: 'list', addresses: [{ name: 'a' }] } },
    tests: { ping: { type: 'rtt', spec: { dest: '{% address[0] %}' } } },
    schedules: { h1: { repeat: 'PT1H' }, h2: { repeat: 'PT2H' } },
    tasks: { t1: { group: 'g1', test: 'ping', schedule: 'h1' }, t2: { group: 'g2', test: 'ping', schedule: 'h2' } },
  };
  const after = clone(before);
  ((after.tasks as Obj).t2 as Obj).schedule = 'h1';
  const d = await diffObjs(before, after);
  assert.deepEqual(d.summary, { added: 0, removed: 1, changed: 0, agentsAffected: 1 });
  assert.deepEqual(d.agents[0].removed, [
    { task: 't2', addresses: [A], identicalTo: { task: 't1', addresses: ['a'], addressValues: [A] } },
  ]);
  assert.deepEqual(d.newFailures, []);
  assert.deepEqual([d.new.tasks, d.new.failed, d.new.identical], [1, 0, 1]);
  // The group of t1 naming its address a second time: the same tasks on the host, so no difference at all.
  const twice = clone(before);
  ((twice.groups as Obj).g1 as Obj).addresses = [{ name: 'a' }, { name: 'a' }];
  const same = await diffObjs(before, twice);
  assert.deepEqual(same.summary, { added: 0, removed: 0, changed: 0, agentsAffected: 0 });
  assert.deepEqual(same.newFailures, []);
  assert.equal(same.new.identical, 1);
});
