// The Tasks tree as data (client/src/preview/task-tree-model.ts): grouping, labels, ids, paging, messages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ExpandTasksResult, ExpandedCombination } from '../../../common/protocol';
import {
  combinationLabel,
  snapshotTree,
  TaskTreeModel,
  type PreviewState,
  type TaskTreeNode,
} from '../../../client/src/preview/task-tree-model';

const T = 'file:///w/mesh.json';

function combo(
  task: string,
  pair: [string, string],
  agent: string | undefined,
  extra: Partial<ExpandedCombination> = {},
): ExpandedCombination {
  return {
    task,
    addresses: pair,
    addressValues: pair.map((a) => `${a}.example`),
    agent,
    pscheduler: { test: { type: 'throughput', spec: { source: pair[0], dest: pair[1] } }, archives: [], schedule: {} },
    ...extra,
  };
}

function result(combinations: ExpandedCombination[], extra: Partial<ExpandTasksResult> = {}): ExpandTasksResult {
  const agents: string[] = [];
  for (const c of combinations) if (c.agent && !agents.includes(c.agent)) agents.push(c.agent);
  return {
    uri: T,
    version: 1,
    truncated: false,
    notes: [],
    elapsedMs: 1,
    agents,
    combinations,
    tasks: [
      { task: 'tput', testType: 'throughput', group: 'g-mesh', groupType: 'mesh', count: 0, agents: [] },
      { task: 'lat', testType: 'latencybg', group: 'g-mesh', groupType: 'mesh', count: 0, agents: [] },
    ],
    ...extra,
  };
}

const model = (r: ExpandTasksResult, agentAddresses: string[] = [], pageSize?: number): TaskTreeModel =>
  new TaskTreeModel({ kind: 'result', template: T, result: r, agentAddresses }, { pageSize });

/** A full mesh of n addresses with the given tasks, in pSConfig order (task-major, first index major). */
function mesh(n: number, tasks = ['tput']): ExpandTasksResult {
  const names = Array.from({ length: n }, (_, i) => `h${i}`);
  const cs: ExpandedCombination[] = [];
  for (const t of tasks)
    for (const a of names) for (const b of names) if (a !== b) cs.push(combo(t, [a, b], `${a}.example`));
  return result(cs);
}

/** The first `keep` combinations of a one-task mesh, as a limited all-agents request answers (every agent listed). */
const cutOf = (full: ExpandTasksResult, keep: number): ExpandTasksResult =>
  result(full.combinations.slice(0, keep), {
    truncated: true,
    agents: full.agents,
    tasks: [
      { task: 'tput', testType: 'throughput', group: 'g-mesh', count: full.combinations.length, agents: full.agents },
    ],
  });

const labels = (m: TaskTreeModel, nodes: TaskTreeNode[]): string[] => nodes.map((n) => m.item(n).label);

test('agents at the root in first-seen order, their tasks, then combinations a → b', () => {
  const m = model(mesh(3, ['tput', 'lat']));
  const roots = m.roots();
  assert.deepEqual(labels(m, roots), ['h0.example', 'h1.example', 'h2.example']);
  assert.equal(m.item(roots[0]).description, '4 tasks');
  const tasks = m.children(roots[0]);
  assert.deepEqual(labels(m, tasks), ['tput', 'lat']);
  assert.equal(m.item(tasks[0]).description, 'throughput · group g-mesh · 2 tasks');
  const combos = m.children(tasks[0]);
  assert.deepEqual(labels(m, combos), ['h0.example → h1.example', 'h0.example → h2.example']);
  const item = m.item(combos[0]);
  assert.equal(item.collapsible, 'none');
  assert.equal(item.contextValue, 'combination');
  assert.ok(item.openKey);
  assert.equal(m.combinationByKey(item.openKey)?.pscheduler?.test.spec.dest, 'h1');
});

test('flip combinations carry a marker', () => {
  const m = model(result([combo('tput', ['a', 'b'], 'b.example', { flip: true })]));
  const c = m.children(m.children(m.roots()[0])[0])[0];
  assert.equal(m.item(c).description, 'flip');
  assert.equal(m.item(c).icon, 'arrow-swap');
  assert.match(m.item(c).tooltip ?? '', /no-agent/);
});

test('failed combinations are error items with the message and no document to open', () => {
  const err = 'task=tput,addresses=a->b,error=Error expanding test specification: Unable to expand variable jq .x';
  const m = model(
    result([
      combo('tput', ['a', 'b'], 'a.example', { error: err, pscheduler: undefined }),
      combo('tput', ['a', 'c'], 'a.example'),
    ]),
  );
  const agent = m.roots()[0];
  assert.equal(m.item(agent).description, '1 task, 1 failed');
  assert.equal(m.item(agent).icon, 'warning');
  const task = m.children(agent)[0];
  assert.match(m.item(task).description ?? '', /1 task, 1 failed/);
  const [bad, good] = m.children(task);
  assert.equal(m.item(bad).icon, 'error');
  assert.equal(m.item(bad).description, err);
  assert.equal(m.item(bad).contextValue, 'combinationError');
  assert.equal(m.item(bad).openKey, undefined);
  assert.ok(m.item(good).openKey);
});

test('a duplicate of an earlier task of its agent: greyed (copy icon), saying what it repeats, not counted, its JSON opens', () => {
  const same = { task: 'tput', addresses: ['a', 'b'], addressValues: ['a.example', 'b.example'] };
  const m = model(
    result([
      combo('tput', ['a', 'b'], 'a.example'),
      combo('tput', ['a', 'c'], 'a.example'),
      combo('tput', ['a', 'b'], 'a.example', { identicalTo: same }),
    ]),
  );
  const agent = m.roots()[0];
  assert.equal(m.item(agent).description, '2 tasks, 1 identical (created once)');
  assert.equal(m.item(agent).icon, 'server', 'not a failure');
  const task = m.children(agent)[0];
  assert.equal(m.item(task).description, 'throughput · group g-mesh · 2 tasks, 1 identical (created once)');
  assert.equal(m.item(task).icon, 'checklist');
  const dup = m.item(m.children(task)[2]);
  assert.equal(dup.icon, 'copy');
  assert.equal(dup.contextValue, 'combinationIdentical');
  assert.equal(dup.description, 'identical to tput a.example → b.example (same task JSON): pSConfig creates it once');
  assert.match(dup.tooltip ?? '', /Not created/);
  assert.equal(m.combinationByKey(dup.openKey ?? '')?.identicalTo, same);
});

test('a failed combination without a scheduling agent gets its own bucket', () => {
  const m = model(
    result([
      combo('tput', ['a', 'b'], undefined, {
        error: 'Unable to find archive defined in task: x',
        pscheduler: undefined,
      }),
    ]),
  );
  assert.deepEqual(labels(m, m.roots()), ['(no scheduling agent)']);
});

test('ids stay the same when an edit shifts positions, so expansion state survives a refresh', () => {
  const before = model(mesh(3));
  const after = model(result([combo('tput', ['x', 'h1'], 'x.example'), ...mesh(3).combinations]));
  const idsOf = (m: TaskTreeModel, agent: string): string[] => {
    const a = m.roots().find((n) => n.kind === 'agent' && n.agent === agent);
    assert.ok(a);
    const t = m.children(a)[0];
    return [a.id, t.id, ...m.children(t).map((c) => c.id)];
  };
  assert.deepEqual(idsOf(after, 'h1.example'), idsOf(before, 'h1.example'));
  const all = snapshotTree(after, 3).flatMap(function flat(n): string[] {
    return [n.id, ...(n.children ?? []).flatMap(flat)];
  });
  assert.equal(new Set(all).size, all.length, 'ids are unique in the whole tree');
});

test('duplicate combinations get distinct keys and ids', () => {
  const m = model(result([combo('tput', ['a', 'b'], 'a.example'), combo('tput', ['a', 'b'], 'a.example')]));
  const cs = m.children(m.children(m.roots()[0])[0]);
  assert.equal(cs.length, 2);
  assert.notEqual(cs[0].id, cs[1].id);
  assert.notEqual(m.item(cs[0]).openKey, m.item(cs[1]).openKey);
});

test('long child lists are paged behind "… N more", and showing more keeps its page across refreshes', () => {
  const r = result(Array.from({ length: 25 }, (_, i) => combo('tput', ['a', `b${i}`], 'a.example')));
  const m = model(r, [], 10);
  const task = m.children(m.roots()[0])[0];
  let cs = m.children(task);
  assert.equal(cs.length, 11);
  const more = cs[10];
  assert.equal(more.kind, 'more');
  assert.equal(m.item(more).label, '… 15 more');
  if (more.kind !== 'more') return;
  assert.equal(m.showMore(more), task.id);
  cs = m.children(task);
  assert.equal(cs.length, 21);
  const next = new TaskTreeModel(
    { kind: 'result', template: T, result: r, agentAddresses: [] },
    { pageSize: 10, pages: m.pages },
  );
  assert.equal(next.children(next.children(next.roots()[0])[0]).length, 21);
});

test('a 200-address mesh (39,800 combinations) is indexed lazily: only requested children become nodes', () => {
  const r = mesh(200);
  assert.equal(r.combinations.length, 39800);
  const m = model(r);
  const roots = m.roots();
  assert.equal(roots.length, 200);
  const task = m.children(roots[199])[0];
  assert.equal(m.item(task).description, 'throughput · group g-mesh · 199 tasks');
  const cs = m.children(task);
  assert.equal(cs.length, 199);
  assert.equal(m.item(cs[198]).label, 'h199.example → h198.example');
});

test('message items: no template, loading, request failure, syntax error, empty result, truncation, task errors, notes', () => {
  const one = (state: PreviewState): string[] => {
    const m = new TaskTreeModel(state);
    return m.roots().map((n) => `${m.item(n).icon}:${m.item(n).label}`);
  };
  assert.deepEqual(one({ kind: 'no-template' }), ['info:Open a pSConfig template to preview the tasks it generates.']);
  assert.deepEqual(one({ kind: 'loading', template: T }), ['loading~spin:Expanding tasks…']);
  assert.deepEqual(one({ kind: 'request-failed', template: T, message: 'boom' }), ['error:The task expansion failed.']);
  const syntax = new TaskTreeModel({
    kind: 'result',
    template: T,
    result: result([], { error: 'Expected comma at 3:4' }),
    agentAddresses: [],
  });
  const [s] = syntax.roots();
  assert.equal(syntax.item(s).icon, 'error');
  assert.equal(syntax.item(s).description, 'Expected comma at 3:4');
  assert.deepEqual(one({ kind: 'result', template: T, result: result([]), agentAddresses: ['x.example'] }), [
    'info:No tasks for agent x.example.',
  ]);
  const full = result(mesh(2).combinations, {
    truncated: true,
    tasks: [
      { task: 'tput', testType: 'throughput', group: 'g', count: 2, agents: [] },
      {
        task: 'list-task',
        count: 0,
        agents: [],
        error: 'The scheduled-by property for task list-task is too big. It is set to 1 but must not be bigger than 0',
      },
    ],
    notes: [{ scope: 'task', task: 'tput', message: 'Python 5.x would flatten class selectors' }],
  });
  // A cut result for one agent's scope (the all-agents case is the lazy-agents mode, tested below).
  const m = model(full, ['h0.example', 'h1.example']);
  const roots = m.roots();
  assert.deepEqual(
    roots.map((n) => n.kind),
    ['message', 'message', 'agent', 'agent', 'notes'],
  );
  assert.equal(m.item(roots[0]).icon, 'warning');
  assert.match(m.item(roots[0]).label, /first 2 combinations/);
  assert.match(m.item(roots[1]).description ?? '', /scheduled-by/);
  assert.deepEqual(labels(m, m.children(roots[4])), ['tput: Python 5.x would flatten class selectors']);
});

test('the scope description names the agent filter', () => {
  assert.equal(model(mesh(2)).scopeDescription(), 'all agents');
  assert.equal(model(mesh(2), ['h0.example']).scopeDescription(), 'agent h0.example');
});

test('labels fall back to address names, and lists show one address', () => {
  assert.equal(combinationLabel({ task: 't', addresses: ['a'], addressValues: ['10.0.0.1'] }), '10.0.0.1');
  assert.equal(combinationLabel({ task: 't', addresses: ['a', 'b'], addressValues: [] }), 'a → b');
});

test('snapshotTree opens nodes down to the requested depth', () => {
  const snap = snapshotTree(model(mesh(2)), 3);
  assert.deepEqual(
    snap.map((n) => n.label),
    ['h0.example', 'h1.example'],
  );
  assert.deepEqual(
    snap[0].children?.map((n) => n.label),
    ['tput'],
  );
  assert.deepEqual(
    snap[0].children?.[0].children?.map((n) => n.label),
    ['h0.example → h1.example'],
  );
  assert.equal(snapshotTree(model(mesh(2)), 1)[0].children, undefined);
});

test('lazy agents: a cut all-agents result lists every agent, and each agent opens from its own expansion', () => {
  const fullMesh = mesh(4);
  const cut = cutOf(fullMesh, 2);
  const m = model(cut);
  assert.equal(m.lazyAgents, true);
  const roots = m.roots();
  assert.equal(m.item(roots[0]).label, '12 tasks for 4 agents.');
  const agents = roots.filter((n) => n.kind === 'agent');
  assert.deepEqual(labels(m, agents), fullMesh.agents, 'every agent, also those beyond the cut');
  const h2 = agents[2];
  assert.equal(m.item(h2).description, '1 template task');
  assert.equal(m.needsAgentResult(h2), true);
  assert.deepEqual(m.children(h2), [], 'nothing until the agent is loaded');
  const own = result(
    fullMesh.combinations.filter((c) => c.agent === 'h2.example'),
    { agents: ['h2.example'] },
  );
  m.setAgentResult('h2.example', own);
  assert.equal(m.needsAgentResult(h2), false);
  assert.equal(m.item(h2).description, '3 tasks');
  const task = m.children(h2)[0];
  const combos = m.children(task);
  assert.deepEqual(labels(m, combos), [
    'h2.example → h0.example',
    'h2.example → h1.example',
    'h2.example → h3.example',
  ]);
  const key = m.item(combos[1]).openKey ?? '';
  assert.equal(m.combinationByKey(key)?.pscheduler?.test.spec.dest, 'h1');
  // Same ids as the eager tree of the full result, so expansion state carries over either way.
  const eager = model(fullMesh);
  const eagerAgent = eager.roots().find((n) => n.kind === 'agent' && n.agent === 'h2.example');
  assert.ok(eagerAgent);
  const eagerTask = eager.children(eagerAgent)[0];
  assert.deepEqual(
    [h2.id, task.id, ...combos.map((c) => c.id)],
    [eagerAgent.id, eagerTask.id, ...eager.children(eagerTask).map((c) => c.id)],
  );
  // A failed per-agent expansion shows as an error under the agent.
  m.setAgentResult('h3.example', result([], { error: 'Request cancelled' }));
  const [err] = m.children(agents[3]);
  assert.equal(m.item(err).icon, 'error');
  assert.equal(m.item(err).description, 'Request cancelled');
});

test('lazy agents: an agent whose own answer was cut says so above its tasks', () => {
  const fullMesh = mesh(4);
  const m = model(
    result(fullMesh.combinations.slice(0, 2), {
      truncated: true,
      agents: fullMesh.agents,
      tasks: [{ task: 'tput', testType: 'throughput', group: 'g-mesh', count: 12, agents: fullMesh.agents }],
    }),
  );
  const h1 = m.roots().find((n) => n.kind === 'agent' && n.agent === 'h1.example');
  assert.ok(h1);
  // the server stopped this agent's answer after two of its three combinations (its limit or 4 MB of task JSON)
  const own = fullMesh.combinations.filter((c) => c.agent === 'h1.example');
  m.setAgentResult('h1.example', result(own.slice(0, 2), { truncated: true, agents: ['h1.example'] }));
  const [first, task] = m.children(h1);
  assert.equal(m.item(first).icon, 'warning');
  assert.equal(m.item(first).label, "Showing the first 2 of this agent's combinations.");
  assert.equal(task.kind, 'task');
  assert.equal(m.children(task).length, 2);
  // an answer that was not cut shows its tasks only
  m.setAgentResult(
    'h2.example',
    result(
      fullMesh.combinations.filter((c) => c.agent === 'h2.example'),
      {},
    ),
  );
  const h2 = m.roots().find((n) => n.kind === 'agent' && n.agent === 'h2.example');
  assert.ok(h2);
  assert.deepEqual(
    m.children(h2).map((n) => n.kind),
    ['task'],
  );
});

test("each agent's exclusive load from the simulated schedule beside it; over the day a warning", () => {
  const m = model(mesh(3));
  const agents = m.roots().filter((n) => n.kind === 'agent');
  assert.equal(m.item(agents[0]).description, '2 tasks');
  m.setLoads([
    { agent: 'h0.example', hosts: ['h0'], exclusiveLoad: 0.4213, normalLoad: 0.05 },
    { agent: 'h1.example', hosts: ['h1'], exclusiveLoad: 1.5, normalLoad: 0 },
  ]);
  const h0 = m.item(agents[0]);
  assert.equal(h0.description, '2 tasks · exclusive load 42%');
  assert.match(h0.tooltip ?? '', /Exclusive load 42% on h0: the share of the day .* normal \(latency\) load 5%\.$/);
  assert.equal(h0.icon, 'server');
  const h1 = m.item(agents[1]);
  assert.equal(h1.icon, 'warning');
  assert.match(h1.tooltip ?? '', /more than the day has: runs will not start/);
  // An agent the schedule does not know keeps its plain description.
  assert.equal(m.item(agents[2]).description, '2 tasks');

  // Lazy agents: the load shows before and after the agent's own expansion is loaded.
  const full = mesh(3);
  const lazy = model(cutOf(full, 1));
  lazy.setLoads([{ agent: 'h2.example', hosts: ['h2'], exclusiveLoad: 0.1, normalLoad: 0 }]);
  const h2 = lazy.roots().filter((n) => n.kind === 'agent')[2];
  assert.equal(lazy.item(h2).description, '1 template task · exclusive load 10%');
  lazy.setAgentResult('h2.example', result(full.combinations.filter((c) => c.agent === 'h2.example')));
  assert.equal(lazy.item(h2).description, '2 tasks · exclusive load 10%');
});
