// The diff's own rules on small hand-made expansions: repeated keys, failures on either side, task-level errors,
// diagnostics matched by wording, host loads, agent order; and jsonEqual against canonical JSON.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ExpandedCombination, ExpandTasksResult, PSchedulerTask } from '../../../common/protocol';
import { diffExpansions, jsonEqual } from '../../../server/src/template/task-diff';
import { canonicalJson } from '../../../server/src/template/expand/template-view';

const task = (spec: Record<string, unknown>): PSchedulerTask => ({
  test: { type: 'rtt', spec },
  archives: [],
  schedule: {},
});

function combo(
  t: string,
  agent: string,
  addresses: string[],
  extra: Partial<ExpandedCombination> = {},
): ExpandedCombination {
  return {
    task: t,
    addresses,
    addressValues: addresses,
    agent,
    pscheduler: task({ dest: addresses[addresses.length - 1] }),
    ...extra,
  };
}

function result(
  combinations: ExpandedCombination[],
  taskErrors: Record<string, string> = {},
): Pick<ExpandTasksResult, 'error' | 'tasks' | 'combinations' | 'agents'> {
  const agents = [...new Set(combinations.map((c) => c.agent!))];
  const names = [...new Set(combinations.map((c) => c.task)), ...Object.keys(taskErrors)];
  return {
    combinations,
    agents,
    tasks: names.map((n) => ({ task: n, count: 0, agents: [], ...(taskErrors[n] ? { error: taskErrors[n] } : {}) })),
  };
}

test('a key named twice: the n-th occurrence pairs with the n-th (one of two duplicates removed)', () => {
  const a = [combo('t', 'x', ['x', 'y']), combo('t', 'x', ['x', 'y'])];
  const b = [combo('t', 'x', ['x', 'y'])];
  const d = diffExpansions({ result: result(a) }, { result: result(b) });
  assert.deepEqual(d.summary, { added: 0, removed: 1, changed: 0, agentsAffected: 1 });
  assert.deepEqual(d.agents[0].removed, [{ task: 't', addresses: ['x', 'y'] }]);
});

test('failures: a task that starts failing is removed and a new failure; one failing the same way is not new', () => {
  const err = 'task=t,addresses=x->z,error=Error expanding test specification: boom';
  const a = [combo('t', 'x', ['x', 'y']), combo('t', 'x', ['x', 'z'], { error: err, pscheduler: undefined })];
  const b = [
    combo('t', 'x', ['x', 'y'], { error: 'pScheduler would refuse this task: …', refused: [] }),
    combo('t', 'x', ['x', 'z'], { error: err, pscheduler: undefined }),
  ];
  const d = diffExpansions({ result: result(a) }, { result: result(b) });
  assert.deepEqual(d.agents, [{ agent: 'x', added: [], removed: [{ task: 't', addresses: ['x', 'y'] }], changed: [] }]);
  assert.deepEqual(d.newFailures, [
    { task: 't', addresses: ['x', 'y'], agent: 'x', error: 'pScheduler would refuse this task: …', refused: true },
  ]);
  assert.deepEqual([d.old.tasks, d.old.failed, d.old.refused], [1, 1, 0]);
  assert.deepEqual([d.new.tasks, d.new.failed, d.new.refused], [0, 2, 1]);
});

test('a task-level error is a new failure only when the old version did not stop the same way', () => {
  const stop = 'The scheduled-by property for task s is too big. It is set to 1 but must not be bigger than 1';
  const d = diffExpansions({ result: result([], { s: stop }) }, { result: result([], { s: stop, u: stop }) });
  assert.deepEqual(d.newFailures, [{ task: 'u', error: stop }]);
  assert.equal(d.new.taskErrors, 2);
});

test('new diagnostics: errors and warnings beyond the old ones with the same wording (positions ignored)', () => {
  const e = (message: string, line: number) => ({ severity: 'error' as const, code: 'psconfig/x', message, line });
  const d = diffExpansions(
    { result: result([]), diagnostics: [e('a', 1), e('b', 2)] },
    {
      result: result([]),
      diagnostics: [
        e('b', 40),
        e('a', 41),
        e('a', 42),
        { severity: 'hint', code: 'psconfig/unused-definition', message: 'h', line: 3 },
      ],
    },
  );
  assert.deepEqual(d.newDiagnostics, [e('a', 42)]);
  assert.deepEqual(d.new.diagnostics, { error: 3, warning: 0, information: 0, hint: 1 });
});

test('host loads: only hosts whose load changes, old hosts first', () => {
  const d = diffExpansions(
    {
      result: result([]),
      load: new Map([
        ['a', { exclusive: 0.5, normal: 0.1 }],
        ['b', { exclusive: 0.2, normal: 0 }],
      ]),
    },
    {
      result: result([]),
      load: new Map([
        ['c', { exclusive: 0.1, normal: 0 }],
        ['a', { exclusive: 0.75, normal: 0.1 }],
        ['b', { exclusive: 0.2, normal: 0 }],
      ]),
    },
  );
  assert.deepEqual(d.hosts, [
    { host: 'a', exclusiveLoad: { old: 0.5, new: 0.75 }, normalLoad: { old: 0.1, new: 0.1 } },
    { host: 'c', exclusiveLoad: { old: 0, new: 0.1 }, normalLoad: { old: 0, new: 0 } },
  ]);
});

test('agents in the old version’s order, then agents only the new one has', () => {
  const a = [combo('t', 'q', ['q', 'r']), combo('t', 'p', ['p', 'r'])];
  const b = [combo('t', 'n', ['n', 'r']), combo('t', 'p', ['p', 'r2'])];
  const d = diffExpansions({ result: result(a) }, { result: result(b) });
  assert.deepEqual(
    d.agents.map((x) => x.agent),
    ['q', 'p', 'n'],
  );
});

test('parts: key order never makes a change; the agent’s psconfig reference block is not a part', () => {
  const a = combo('t', 'x', ['x', 'y'], {
    pscheduler: { ...task({ a: 1, b: [1, { c: 2, d: 3 }] }), reference: { psconfig: { 'created-by': { uuid: '1' } } } },
  });
  const b = combo('t', 'x', ['x', 'y'], {
    pscheduler: { ...task({ b: [1, { d: 3, c: 2 }], a: 1 }), reference: { psconfig: { 'created-by': { uuid: '2' } } } },
  });
  assert.equal(diffExpansions({ result: result([a]) }, { result: result([b]) }).summary.changed, 0);
  const c = combo('t', 'x', ['x', 'y'], {
    pscheduler: { ...task({ a: 2 }), reference: { 'display-task-name': 'T', psconfig: {} }, tools: ['ping'] },
  });
  assert.deepEqual(diffExpansions({ result: result([a]) }, { result: result([c]) }).agents[0].changed[0].parts, [
    { part: 'test.spec.a', old: 1, new: 2 },
    { part: 'test.spec.b', old: [1, { c: 2, d: 3 }] },
    { part: 'reference', new: { 'display-task-name': 'T' } },
    { part: 'tools', new: ['ping'] },
  ]);
});

test('jsonEqual agrees with canonical JSON on generated values', () => {
  let seed = 7;
  const rnd = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const gen = (depth: number): unknown => {
    const k = rnd(depth > 3 ? 4 : 7);
    if (k === 0) return rnd(3);
    if (k === 1) return ['a', 'b', ''][rnd(3)];
    if (k === 2) return [null, true, false][rnd(3)];
    if (k === 3) return rnd(2) ? 1.5 : '1';
    if (k === 4) return Array.from({ length: rnd(3) }, () => gen(depth + 1));
    const o: Record<string, unknown> = {};
    for (let i = rnd(4); i > 0; i--) o[['x', 'y', 'z', 'w'][rnd(4)]] = gen(depth + 1);
    return o;
  };
  let equal = 0;
  for (let i = 0; i < 5000; i++) {
    const a = gen(0);
    const b = rnd(3) === 0 ? (JSON.parse(JSON.stringify(a)) as typeof a) : gen(0);
    const same = canonicalJson(a) === canonicalJson(b);
    if (same) equal++;
    assert.equal(jsonEqual(a, b), same, `${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
  }
  assert.ok(equal > 1000 && equal < 4000, `${equal} equal pairs`);
});
