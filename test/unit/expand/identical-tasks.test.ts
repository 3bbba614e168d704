// pSConfig's agent creates identical tasks once per agent (perfsonar/psconfig 5.2.4 @ 3ba99274,
// psconfig/client/pscheduler/task_manager.py:171-228 add_task and :315-331 _need_new_task with
// duplicate_new_task_map; task.py:708-735 checksum()). Every expectation here is written from that rule by hand:
// which combination is the duplicate, of which one, and what the counts become.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ExpandedCombination, PSchedulerTask } from '../../../common/protocol';
import { countCombinations } from '../../../server/src/template/expand';
import { canonicalTask, markIdenticalTasks } from '../../../server/src/template/expand/identical-tasks';
import { addrs, expand, sel } from './helpers';

type Obj = Record<string, unknown>;

const A = 'host-a.example.net';
const B = 'host-b.example.net';
const archive = (url: string): Obj => ({ archiver: 'http', data: { schema: 2, _url: url } });
const rtt = { type: 'rtt', spec: { dest: '{% address[0] %}', count: 5 } };
const throughput = { type: 'throughput', spec: { source: '{% address[0] %}', dest: '{% address[1] %}' } };
const hourly = { repeat: 'PT1H', slip: 'PT1H' };

/** `task a → b` of each combination, with `= task a → b` after it when it is a duplicate. */
function shown(r: Awaited<ReturnType<typeof expand>>): string[] {
  return r.combinations.map((c) => {
    assert.equal(c.error, undefined, c.error);
    const me = `${c.task} ${c.addressValues.join(' → ')}`;
    const same = c.identicalTo;
    return same ? `${me} = ${same.task} ${same.addressValues.join(' → ')}` : me;
  });
}

test('a list group naming an address twice: the second task is the first one (duplicate_new_task_map)', async () => {
  const t = {
    addresses: addrs(A),
    groups: { g: { type: 'list', addresses: sel(A, A) } },
    tests: { rtt },
    schedules: { hourly },
    tasks: { ping: { group: 'g', test: 'rtt', schedule: 'hourly' } },
  };
  const r = await expand(t);
  assert.deepEqual(shown(r), [`ping ${A}`, `ping ${A} = ping ${A}`]);
  // Two combinations, one task created: the summary counts one and says one is identical.
  assert.equal(r.tasks[0].count, 1);
  assert.equal(r.tasks[0].identical, 1);
  // The jq-free count (lenses, hovers) finds it too: same task, same address entry, same scheduler.
  assert.equal(countCombinations(t).tasks[0].count, 1);
  assert.equal(countCombinations(t).tasks[0].identical, 1);
});

test('the duplicate of a task pScheduler would refuse is skipped before anything is posted: identical, not refused', async () => {
  // add_task runs for every combination of the pass; commit() posts afterwards (task_manager.py:171-228, agent.py
  // _run_end): the second never reaches pScheduler, so only the first is refused.
  const t = {
    addresses: addrs(A),
    groups: { g: { type: 'list', addresses: sel(A, A) } },
    tests: { bad: { type: 'rtt', spec: { dest: '{% address[0] %}', count: 'five' } } },
    tasks: { ping: { group: 'g', test: 'bad' } },
  };
  const r = await expand(t);
  const [first, second] = r.combinations;
  assert.ok(first.refused, 'the first is refused');
  assert.equal(second.error, undefined);
  assert.equal(second.refused, undefined);
  assert.deepEqual(second.identicalTo, { task: 'ping', addresses: [A], addressValues: [A] });
  assert.deepEqual([r.tasks[0].count, r.tasks[0].refused, r.tasks[0].identical], [0, 1, 1]);
});

test('two template tasks with the same test, schedule and archives (the live run (a)): created once, as the first', async () => {
  const t = {
    addresses: addrs(A),
    archives: { central: archive('https://archive.example.net/logstash') },
    groups: { g1: { type: 'list', addresses: sel(A) }, g2: { type: 'list', addresses: sel(A) } },
    tests: { rtt },
    schedules: { hourly },
    tasks: {
      t1: { group: 'g1', test: 'rtt', schedule: 'hourly', archives: ['central'] },
      t2: { group: 'g2', test: 'rtt', schedule: 'hourly', archives: ['central'] },
    },
  };
  const r = await expand(t);
  assert.deepEqual(shown(r), [`t1 ${A}`, `t2 ${A} = t1 ${A}`]);
  assert.deepEqual(
    r.tasks.map((x) => [x.task, x.count, x.identical]),
    [
      ['t1', 1, undefined],
      ['t2', 0, 1],
    ],
  );
  assert.deepEqual(
    countCombinations(t).tasks.map((x) => [x.task, x.count]),
    [
      ['t1', 1],
      ['t2', 0],
    ],
  );
});

test('spec keys in another order are the same task (json.dumps sort_keys); another list order is not', async () => {
  const t = {
    addresses: addrs(A),
    groups: { g: { type: 'list', addresses: sel(A) } },
    tests: {
      p: { type: 'rtt', spec: { dest: '{% address[0] %}', count: 5, interval: 'PT1S' } },
      q: { type: 'rtt', spec: { interval: 'PT1S', count: 5, dest: '{% address[0] %}' } },
    },
    archives: { x: archive('https://x.example.net/'), y: { archiver: 'syslog', data: { ident: 'ps' } } },
    tasks: {
      p: { group: 'g', test: 'p', archives: ['x', 'y'] },
      q: { group: 'g', test: 'q', archives: ['x', 'y'] },
      // the same archives, the other way round: a list's order is part of the JSON
      r: { group: 'g', test: 'q', archives: ['y', 'x'] },
    },
  };
  assert.deepEqual(shown(await expand(t)), [`p ${A}`, `q ${A} = p ${A}`, `r ${A}`]);
});

test('archives that differ only in private values are the same task; a different archive is not', async () => {
  const t = {
    addresses: addrs(A),
    groups: { g: { type: 'list', addresses: sel(A) } },
    tests: { rtt },
    archives: {
      one: archive('https://one.example.net/'),
      // `_url` is private: checksum() writes '' for it (task.py:722-725)
      two: archive('https://two.example.net/'),
      // `op` is not: a different task
      three: { archiver: 'http', data: { schema: 2, _url: 'https://one.example.net/', op: 'post' } },
    },
    tasks: {
      t1: { group: 'g', test: 'rtt', archives: ['one'] },
      t2: { group: 'g', test: 'rtt', archives: ['two'] },
      t3: { group: 'g', test: 'rtt', archives: ['three'] },
      t4: { group: 'g', test: 'rtt' },
    },
  };
  assert.deepEqual(shown(await expand(t)), [`t1 ${A}`, `t2 ${A} = t1 ${A}`, `t3 ${A}`, `t4 ${A}`]);
});

test('`tools` (the requested list) is part of the checksum: different tools, two tasks', async () => {
  const t = {
    addresses: addrs(A, B),
    groups: { g: { type: 'disjoint', 'a-addresses': sel(A), 'b-addresses': sel(B) } },
    tests: { throughput },
    tasks: {
      t1: { group: 'g', test: 'throughput', tools: ['iperf3'] },
      t2: { group: 'g', test: 'throughput', tools: ['iperf2'] },
      t3: { group: 'g', test: 'throughput', tools: ['iperf3'] },
    },
  };
  // disjoint: a → b and b → a per task; only t3 repeats t1.
  assert.deepEqual(shown(await expand(t)), [
    `t1 ${A} → ${B}`,
    `t1 ${B} → ${A}`,
    `t2 ${A} → ${B}`,
    `t2 ${B} → ${A}`,
    `t3 ${A} → ${B} = t1 ${A} → ${B}`,
    `t3 ${B} → ${A} = t1 ${B} → ${A}`,
  ]);
});

test('different agents each create their own task, however alike their JSON (one TaskManager per agent)', async () => {
  // Both list members run the same rtt to one fixed destination: the same JSON but for created-by.
  const t = {
    addresses: addrs(A, B),
    groups: { g: { type: 'list', addresses: sel(A, B) } },
    tests: { fixed: { type: 'rtt', spec: { dest: 'ps.example.org' } } },
    tasks: { t: { group: 'g', test: 'fixed' } },
  };
  const r = await expand(t);
  assert.deepEqual(shown(r), [`t ${A}`, `t ${B}`]);
  assert.equal(r.tasks[0].count, 2);
});

test('a mesh naming an address twice: every repeated pair is a duplicate, counts and slices agree', async () => {
  const t = {
    addresses: addrs(A, B),
    groups: { g: { type: 'mesh', addresses: sel(A, B, A) } },
    tests: { throughput },
    tasks: { m: { group: 'g', test: 'throughput' } },
  };
  const r = await expand(t);
  // pSConfig's mesh: every ordered pair of positions but a position with itself; a → a is excluded as the same
  // address (excludes-self default). Positions 0,1,2 = A,B,A: 0→1, 1→0, 1→2 (B → A again), 2→1 (A → B again).
  assert.deepEqual(shown(r), [
    `m ${A} → ${B}`,
    `m ${B} → ${A}`,
    `m ${B} → ${A} = m ${B} → ${A}`,
    `m ${A} → ${B} = m ${A} → ${B}`,
  ]);
  assert.equal(r.tasks[0].count, 2);
  assert.equal(countCombinations(t).tasks[0].count, 2);
  // Filtered to one agent, the engine marks the same (a duplicate names an earlier combination of its own agent).
  const onlyB = await expand(t, { agentAddresses: [B] });
  assert.deepEqual(shown(onlyB), [`m ${B} → ${A}`, `m ${B} → ${A} = m ${B} → ${A}`]);
  assert.equal(onlyB.tasks[0].count, 1);
});

// ---- checksum()'s rule on task JSON directly (task.py:708-735) ----------------------------------------------------

const base = (): PSchedulerTask => ({
  schema: 1,
  test: { type: 'rtt', spec: { schema: 1, dest: 'b', count: 5 } },
  archives: [{ archiver: 'http', data: { schema: 2, _url: 'https://a/', op: 'put' } }],
  schedule: { repeat: 'PT1H', start: '2026-01-01T00:00:00Z' },
  reference: { psconfig: { 'created-by': { uuid: 'x' } }, note: 'n' },
});
/**
 * Whether checksum() makes the two tasks equal, by the canonical text; and the pass (which buckets by a hash of
 * the blanked value before it compares texts) must find the second a duplicate exactly then.
 */
const same = (a: PSchedulerTask, b: PSchedulerTask): boolean => {
  const equal = canonicalTask(a) === canonicalTask(b);
  const combo = (task: string, pscheduler: PSchedulerTask): ExpandedCombination => ({
    task,
    addresses: ['x'],
    addressValues: ['x.example.net'],
    agent: 'x.example.net',
    pscheduler,
  });
  const pair = [combo('first', a), combo('second', b)];
  markIdenticalTasks(pair);
  assert.equal(pair[1].identicalTo !== undefined, equal, 'the hash buckets agree with the text');
  return equal;
};
/** base()'s task, each part the tests edit open to any JSON value. */
interface EditableTask {
  test: { type: string; spec: Record<string, unknown> };
  archives: { archiver: string; data: Record<string, unknown>; [k: string]: unknown }[];
  schedule: Record<string, unknown>;
  reference: Record<string, unknown>;
  [k: string]: unknown;
}
const edit = (f: (t: EditableTask) => void): PSchedulerTask => {
  const t = base() as unknown as EditableTask;
  f(t);
  return t;
};

test('checksum rule: schema, test.spec.schema, tool, href, detail, schedule.start/until are blanked', () => {
  assert.ok(
    same(
      base(),
      edit((t) => delete t.schema),
    ),
  );
  assert.ok(
    same(
      base(),
      edit((t) => (t.schema = 2)),
    ),
  );
  assert.ok(
    same(
      base(),
      edit((t) => delete t.test.spec.schema),
    ),
  );
  assert.ok(
    same(
      base(),
      edit((t) => (t.tool = 'ping')),
    ),
  );
  assert.ok(
    same(
      base(),
      edit((t) => (t.href = 'https://h/pscheduler/tasks/1')),
    ),
  );
  assert.ok(
    same(
      base(),
      edit((t) => (t.detail = { runs: 3 })),
    ),
  );
  assert.ok(
    same(
      base(),
      edit((t) => delete t.schedule.start),
    ),
  );
  assert.ok(
    same(
      base(),
      edit((t) => (t.schedule.until = '2026-01-02T00:00:00Z')),
    ),
  );
  // absent archives are [] and an absent schedule {} (task.py:711-712)
  assert.ok(
    same(
      edit((t) => delete (t as Partial<EditableTask>).archives),
      edit((t) => (t.archives = [])),
    ),
  );
  assert.ok(
    same(
      edit((t) => delete (t as Partial<EditableTask>).schedule),
      edit((t) => (t.schedule = { until: 'x' })),
    ),
  );
  // but the rest of the schedule counts
  assert.ok(
    !same(
      base(),
      edit((t) => (t.schedule.repeat = 'PT2H')),
    ),
  );
  assert.ok(
    !same(
      base(),
      edit((t) => (t.schedule.slip = 'PT1H')),
    ),
  );
});

test("checksum rule: private values of spec and archive data are '', their keys still count", () => {
  assert.ok(
    same(
      edit((t) => (t.test.spec._key = 'one')),
      edit((t) => (t.test.spec._key = { other: 2 })),
    ),
  );
  assert.ok(
    !same(
      base(),
      edit((t) => (t.test.spec._key = '')),
    ),
    'a private key present vs absent',
  );
  assert.ok(
    same(
      base(),
      edit((t) => (t.archives[0].data._url = 'https://elsewhere/')),
    ),
  );
  assert.ok(
    !same(
      base(),
      edit((t) => (t.archives[0].data.op = 'post')),
    ),
  );
  // only `data`'s own keys: a private key elsewhere in the archive is compared as it is
  assert.ok(
    !same(
      edit((t) => (t.archives[0]._x = 1)),
      edit((t) => (t.archives[0]._x = 2)),
    ),
  );
  // and only the spec's own keys, not nested ones
  assert.ok(
    !same(
      edit((t) => (t.test.spec.n = { _p: 1 })),
      edit((t) => (t.test.spec.n = { _p: 2 })),
    ),
  );
});

test('checksum rule: key order never matters, list order does; tools, priority, contexts and reference count', () => {
  const reordered = edit((t) => {
    t.test.spec = { count: 5, dest: 'b', schema: 1 };
    t.archives[0] = { data: { op: 'put', _url: 'https://a/', schema: 2 }, archiver: 'http' };
  });
  assert.ok(same(base(), reordered));
  const two = (t: EditableTask): void => void t.archives.push({ archiver: 'syslog', data: { ident: 'x' } });
  assert.ok(
    !same(
      edit(two),
      edit((t) => (two(t), t.archives.reverse())),
    ),
  );
  assert.ok(
    !same(
      base(),
      edit((t) => (t.tools = ['ping'])),
    ),
  );
  assert.ok(
    !same(
      edit((t) => (t.tools = ['ping', 'fping'])),
      edit((t) => (t.tools = ['fping', 'ping'])),
    ),
  );
  assert.ok(
    !same(
      base(),
      edit((t) => (t.priority = 5)),
    ),
  );
  assert.ok(
    !same(
      base(),
      edit((t) => (t.contexts = { contexts: [[{ context: 'linuxnns' }]] })),
    ),
  );
  assert.ok(
    !same(
      base(),
      edit((t) => (t.reference.note = 'other')),
    ),
  );
  // reference.psconfig is the agent's created-by, the same for all its tasks (task_manager.py:190-199)
  assert.ok(
    same(
      base(),
      edit((t) => (t.reference.psconfig = { 'created-by': { uuid: 'y' } })),
    ),
  );
});
