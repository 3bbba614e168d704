// The Task Changes tree (pure model) on a real comparison (the engine's diff of two versions of an example), and
// the task document address of a comparison side.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ComparisonTreeModel,
  ENTRIES_PER_AGENT,
  snapshotComparison,
  statusText,
} from '../../../client/src/compare/comparison-tree';
import {
  comparisonDocumentPathAndQuery,
  parseComparisonDocumentQuery,
  parseTaskDocumentQuery,
} from '../../../client/src/preview/task-json';
import type { CompareTasksResult, TaskDiffResult } from '../../../common/protocol';
import { exampleText, type TemplateFixture } from '../../fixtures';
import { diffObjs } from '../task-diff/helpers';

type Obj = TemplateFixture;

async function comparison(): Promise<TaskDiffResult> {
  const before = JSON.parse(exampleText('perl-shared--client-psconfig-mesh.json')) as Obj;
  const after = JSON.parse(JSON.stringify(before)) as Obj;
  delete after.addresses['host-c.perfsonar.net'];
  after.groups['example-group-mesh'].addresses.pop();
  after.tests['example-test-throughput'].spec.duration = 'PT20S';
  // pScheduler 5.x has no tool `iperf` (iperf2): the lead refuses the task (pick_tool, none in common), so none of
  // its combinations is created; a reference to a missing group would make the agent reject the whole template.
  after.tasks['example-task-throughput'].tools = ['iperf'];
  after.tasks.second = { ...before.tasks['example-task-throughput'] };
  return diffObjs(before, after);
}

const result = (diff: TaskDiffResult): CompareTasksResult => ({
  uri: 'file:///t.json',
  version: 3,
  id: '7',
  diff,
  elapsedMs: 1,
});

test('the tree: header, new failures and diagnostics, agents, and each task with what opens side by side', async () => {
  const diff = await comparison();
  const model = new ComparisonTreeModel({
    kind: 'result',
    template: 'file:///t.json',
    base: 'HEAD',
    result: result(diff),
  });
  const tree = snapshotComparison(model, 3);
  assert.equal(tree[0].label, 'HEAD → working copy');
  assert.equal(tree[0].description, model.headline);
  assert.match(tree[0].tooltip ?? '', /^HEAD: 6 tasks, .*\nworking copy: /);
  assert.deepEqual(
    tree.filter((n) => n.contextValue === 'agent').map((n) => [n.label, n.description]),
    diff.agents.map((a) => [
      a.agent,
      [
        a.removed.length && `−${a.removed.length}`,
        a.added.length && `+${a.added.length}`,
        a.changed.length && `~${a.changed.length}`,
      ]
        .filter(Boolean)
        .join(' '),
    ]),
  );
  const diagnostics = tree.find((n) => n.contextValue === 'diagnostics')!;
  assert.ok(diagnostics.children!.some((c) => /no tool `iperf`/.test(c.label)));
  const failures = tree.find((n) => n.contextValue === 'failures');
  assert.equal(failures?.children?.length, 2, 'a → b and b → a of the refused task');
  // The hosts whose load changes (the engine's schedule model): host-c's throughput tasks are gone, the others'
  // runs are shorter, so every host is less busy; one row each, worded as the CLI's text.
  assert.ok(diff.hosts?.length, 'the diff carries host loads');
  const loads = tree.find((n) => n.contextValue === 'loads')!;
  assert.equal(loads.label, `Host load changes (${diff.hosts.length})`);
  assert.equal(loads.description, undefined, 'no host is busier');
  // By hand: iperf3 books 4 + 30 + 3 + 2 = 39 s of a 30 s test and 29 s of a 20 s one (its duration program);
  // every 4 h (14,400 s). Before, each host is in 4 tasks: 4 × 39 / 14,400 = 1.08 %. After, host-a and host-b are
  // in the 2 tasks of `second` (the refused task creates none): 2 × 29 / 14,400 = 0.40 %; host-c in none.
  // Throughput is exclusive: no normal load. Worded as docs/task-diff.md shows the CLI's text.
  assert.deepEqual(
    loads.children!.map((c) => [c.label, c.description]),
    [
      ['host-a.perfsonar.net', 'exclusive 1.1% → 0.4%, normal 0.0% → 0.0%'],
      ['host-b.perfsonar.net', 'exclusive 1.1% → 0.4%, normal 0.0% → 0.0%'],
      ['host-c.perfsonar.net', 'exclusive 1.1% → 0.0%, normal 0.0% → 0.0%'],
    ],
  );
  for (const h of diff.hosts) assert.ok(h.exclusiveLoad.new < h.exclusiveLoad.old, h.host);
  assert.deepEqual(
    tree.map((n) => n.contextValue).filter((c) => c !== 'agent'),
    ['header', 'failures', 'diagnostics', 'loads'],
    'the loads come after the new problems and before the agents',
  );
  // Every entry of every agent, in removed, added, changed order, opens that task of this comparison.
  for (const [i, a] of diff.agents.entries()) {
    const node = tree.filter((n) => n.contextValue === 'agent')[i];
    const kinds = node.children!.map((c) => c.open!.kind);
    assert.deepEqual(kinds, [
      ...a.removed.map(() => 'removed'),
      ...a.added.map(() => 'added'),
      ...a.changed.map(() => 'changed'),
    ]);
    for (const c of node.children!) {
      assert.equal(c.open!.id, '7');
      assert.equal(c.open!.agent, a.agent);
      assert.equal(c.icon, `diff-${c.open!.kind === 'changed' ? 'modified' : c.open!.kind}`);
    }
  }
});

test('an agent with more tasks than a page shows the first ones and counts the rest', () => {
  const removed = Array.from({ length: ENTRIES_PER_AGENT + 7 }, (_, i) => ({ task: 't', addresses: ['a', `b${i}`] }));
  const diff: TaskDiffResult = {
    summary: { added: 0, removed: removed.length, changed: 0, agentsAffected: 1 },
    agents: [{ agent: 'a', added: [], removed, changed: [] }],
    old: { tasks: removed.length, failed: 0, refused: 0, taskErrors: 0 },
    new: { tasks: 0, failed: 0, refused: 0, taskErrors: 0 },
    newFailures: [],
    newDiagnostics: [],
    resolvedDiagnostics: [],
  };
  const model = new ComparisonTreeModel({ kind: 'result', template: 'x', base: 'HEAD', result: result(diff) });
  const agent = snapshotComparison(model, 2)[1];
  assert.equal(agent.children!.length, ENTRIES_PER_AGENT + 1);
  assert.equal(agent.children!.at(-1)!.label, '… 7 more tasks');
});

test('a host whose exclusive runs would need more than all of its time is a warning', () => {
  const hosts = [
    { host: 'busy.example', exclusiveLoad: { old: 0.6, new: 1.25 }, normalLoad: { old: 0, new: 0 } },
    { host: 'calm.example', exclusiveLoad: { old: 0.2, new: 0.1 }, normalLoad: { old: 0.01, new: 0.01 } },
  ];
  const diff: TaskDiffResult = {
    summary: { added: 1, removed: 0, changed: 0, agentsAffected: 1 },
    agents: [{ agent: 'busy.example', added: [{ task: 't', addresses: ['busy', 'calm'] }], removed: [], changed: [] }],
    old: { tasks: 1, failed: 0, refused: 0, taskErrors: 0 },
    new: { tasks: 2, failed: 0, refused: 0, taskErrors: 0 },
    newFailures: [],
    newDiagnostics: [],
    resolvedDiagnostics: [],
    hosts,
  };
  const model = new ComparisonTreeModel({ kind: 'result', template: 'x', base: 'HEAD', result: result(diff) });
  const loads = snapshotComparison(model, 2).find((n) => n.contextValue === 'loads')!;
  assert.deepEqual([loads.icon, loads.description], ['warning', '1 busier']);
  assert.deepEqual(
    loads.children!.map((c) => [c.icon, c.label, c.description]),
    [
      ['warning', 'busy.example', 'exclusive 60.0% → 125.0%, normal 0.0% → 0.0%'],
      ['server', 'calm.example', 'exclusive 20.0% → 10.0%, normal 1.0% → 1.0%'],
    ],
  );
  assert.match(loads.children![0].tooltip!, /would need 125\.0% of its time/);
});

test('loading, failed and empty states are one message each', () => {
  const one = (m: ComparisonTreeModel) => snapshotComparison(m, 1).map((n) => [n.icon, n.label]);
  assert.deepEqual(one(new ComparisonTreeModel({ kind: 'loading', template: 'x', base: 'HEAD' })), [
    ['loading~spin', 'Comparing with HEAD…'],
  ]);
  assert.deepEqual(one(new ComparisonTreeModel({ kind: 'failed', template: 'x', base: 'HEAD', message: 'no git' })), [
    ['error', 'Cannot compare with HEAD'],
  ]);
  assert.deepEqual(one(new ComparisonTreeModel({ kind: 'none' })), [
    ['info', 'No comparison yet: run Compare Tasks with HEAD.'],
  ]);
});

test('the status-bar text: the headline when tasks change or errors appear, nothing otherwise', async () => {
  const diff = await comparison();
  const s = statusText(diff)!;
  // The refused task's 6 are removed (4 with host-c, 2 refused); new errors: the one on its `tools` and its two
  // refused combinations (new failures). Its copy under a new name, without tools and shorter, adds 2.
  assert.equal(s.text, '$(git-compare) −6 +2 tasks on 3 agents, 3 new errors');
  assert.equal(s.warn, true);
  const same: TaskDiffResult = {
    ...diff,
    summary: { added: 0, removed: 0, changed: 0, agentsAffected: 0 },
    newDiagnostics: [],
    resolvedDiagnostics: [],
    newFailures: [],
  };
  assert.equal(statusText(same), undefined);
});

test('a comparison side’s task document address round-trips and is not a plain task document', () => {
  const a = {
    template: 'file:///w/mesh.psconfig.json',
    id: '12',
    side: 'old' as const,
    label: 'HEAD',
    agent: 'host-a',
    task: 'mesh & co',
    addresses: ['host-a', 'host-b?x#y'],
  };
  const { path, query } = comparisonDocumentPathAndQuery(a);
  assert.equal(path, '/mesh & co host-a → host-b_x_y (HEAD).json');
  assert.deepEqual(parseComparisonDocumentQuery(query), a);
  assert.equal(parseComparisonDocumentQuery('template=x&key=1&agents=[]'), undefined);
  assert.equal(parseTaskDocumentQuery(query), undefined);
});
