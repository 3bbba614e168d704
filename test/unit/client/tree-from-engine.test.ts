// The Tasks tree fed with the real expansion engine's output for real example templates: every combination the
// engine yields appears exactly once, under its scheduling agent and its task, in pSConfig order, and opens to
// its own task JSON. (The engine's correctness is tested in test/unit/expand; this checks the tree's contract.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { type ExpandedCombination } from '../../../common/protocol';
import { expandText } from '../../../server/src/template/expand/from-text';
import { snapshotTree, TaskTreeModel, type TaskTreeNode } from '../../../client/src/preview/task-tree-model';
import { formatCombinationDocument, formatTaskArray, pschedulerTaskArray } from '../../../client/src/preview/task-json';

import { examplesDir as examples } from '../../fixtures';
import { identicalText } from '../../../common/combination-text';
const jqPath = process.env.JQ_PATH ?? '/usr/bin/jq';

/**
 * The netsage mesh names `62.40.106.8` in group_2 where its address object is `62.40.106.83`: pSConfig's agent
 * rejects that file whole (validate_refs), so the tree is fed the file with that typo mended.
 */
const MENDED: Record<string, (text: string) => string> = {
  'qa--psconfig-netsage-mesh.json': (t) => t.replace('{"name":"62.40.106.8"}', '{"name":"62.40.106.83"}'),
};

async function expandExample(file: string, agentAddresses: string[] = []): Promise<TaskTreeModel> {
  const raw = readFileSync(path.join(examples, file), 'utf8');
  const text = MENDED[file]?.(raw) ?? raw;
  const uri = `file://${path.join(examples, file)}`;
  const result = await expandText({ uri, version: 1, text, agentAddresses, jqPath });
  return new TaskTreeModel({ kind: 'result', template: uri, result, agentAddresses });
}

/** Every combination node of the tree, walking agents → tasks → combinations (all pages). */
function leaves(m: TaskTreeModel): Extract<TaskTreeNode, { kind: 'combination' }>[] {
  const out: Extract<TaskTreeNode, { kind: 'combination' }>[] = [];
  const walk = (nodes: TaskTreeNode[]): void => {
    for (const n of nodes) {
      if (n.kind === 'combination') out.push(n);
      else if (n.kind === 'agent' || n.kind === 'task') walk(m.children(n));
    }
  };
  walk(m.roots());
  return out;
}

for (const file of [
  'perl-shared--client-psconfig-mesh.json',
  'perl-shared--client-psconfig-noagent.json',
  'psconfig--example-2-testbed.json',
  'qa--psconfig-netsage-mesh.json',
]) {
  test(`${file}: every engine combination appears once, under its agent and task, and opens to its task JSON`, async () => {
    const m = await expandExample(file);
    const r = m.result;
    assert.ok(r && r.error === undefined, r?.error);
    assert.ok(r.combinations.length > 0, 'the example yields combinations');
    const found = leaves(m);
    assert.equal(found.length, r.combinations.length);
    assert.deepEqual(
      found.map((n) => n.index).sort((a, b) => a - b),
      r.combinations.map((_, i) => i),
    );
    for (const n of found) {
      const c: ExpandedCombination = r.combinations[n.index];
      const item = m.item(n);
      assert.equal(item.label, c.addressValues.join(' → '));
      // A duplicate of an earlier task of its agent (the netsage mesh has 16: two tasks share test and pairs) says
      // so instead; it is not created, but its JSON opens.
      if (c.identicalTo !== undefined) assert.equal(item.description, identicalText(c.identicalTo));
      else assert.equal(item.description === 'flip', c.flip === true);
      if (c.error === undefined) assert.equal(m.combinationByKey(item.openKey ?? ''), c);
      else assert.equal(item.icon, 'error');
    }
    // Within each agent and task, the tree keeps the engine's (pSConfig's) order.
    for (const agent of m.roots().filter((n) => n.kind === 'agent')) {
      for (const task of m.children(agent)) {
        const idx = m.children(task).map((n) => (n.kind === 'combination' ? n.index : -1));
        assert.deepEqual(
          idx,
          [...idx].sort((a, b) => a - b),
        );
      }
    }
  });
}

test('the no-agent example shows flip markers where the engine flipped the scheduler', async () => {
  const m = await expandExample('perl-shared--client-psconfig-noagent.json');
  const flips = m.result?.combinations.filter((c) => c.flip) ?? [];
  assert.ok(flips.length > 0, 'the example has flipped combinations');
  const flipItems = leaves(m).filter((n) => m.item(n).description === 'flip');
  assert.equal(flipItems.length, flips.length);
});

test('agent scope: the tree for one agent holds exactly that agent, and the export is its task array', async () => {
  const all = await expandExample('perl-shared--client-psconfig-mesh.json');
  const agent = all.agents()[1];
  const one = await expandExample('perl-shared--client-psconfig-mesh.json', [agent]);
  assert.deepEqual(
    snapshotTree(one, 1).map((n) => n.label),
    [agent],
  );
  const expected = all.result?.combinations.filter((c) => c.agent === agent).map((c) => c.pscheduler);
  assert.deepEqual(JSON.parse(formatTaskArray(pschedulerTaskArray(one.result!))), JSON.parse(JSON.stringify(expected)));
});

test('lazy agents on a real template: the per-agent expansions together show exactly the full expansion', async () => {
  const file = 'psconfig--example-2-testbed.json';
  const full = await expandExample(file);
  const text = readFileSync(path.join(examples, file), 'utf8');
  const uri = `file://${path.join(examples, file)}`;
  const cut = await expandText({ uri, version: 1, text, agentAddresses: [], jqPath, limit: 5 });
  assert.equal(cut.truncated, true);
  const m = new TaskTreeModel({ kind: 'result', template: uri, result: cut, agentAddresses: [] });
  assert.equal(m.lazyAgents, true);
  for (const agent of m.roots()) {
    if (!m.needsAgentResult(agent)) continue;
    m.setAgentResult(agent.agent, await expandText({ uri, version: 1, text, agentAddresses: [agent.agent], jqPath }));
  }
  // Multisets of (task, addresses, agent, task JSON) of the combinations the agents' nodes hold.
  const sig = (c: ExpandedCombination): string =>
    JSON.stringify([c.task, c.addresses, c.agent, c.pscheduler ?? c.error]);
  const shown = leaves(m).map((n) => {
    const item = m.item(n);
    const c = item.openKey ? m.combinationByKey(item.openKey) : undefined;
    return c ? sig(c) : `error:${item.label}`;
  });
  // Refused combinations open their task JSON like created ones; expansion errors have nothing to open.
  const expected = full.result!.combinations.map((c) =>
    c.error === undefined || c.refused ? sig(c) : `error:${c.addressValues.join(' → ')}`,
  );
  assert.deepEqual(shown.sort(), expected.sort());
});

test('tasks pScheduler would refuse: failed items with the reason, counted per task and agent, opening to the reason and the JSON; left out of the export', async () => {
  // throughput3: two hosts add an esmond archive whose url is not a URL, so only the tasks they schedule are refused.
  const m = await expandExample('qa--throughput3-psconfig.json');
  const r = m.result!;
  const refused = r.combinations.filter((c) => c.refused);
  assert.ok(refused.length > 0 && refused.length < r.combinations.length);
  for (const n of leaves(m)) {
    const c = r.combinations[n.index];
    const item = m.item(n);
    if (!c.refused) continue;
    assert.equal(item.icon, 'error');
    assert.equal(item.contextValue, 'combinationRefused');
    assert.equal(item.description, c.error);
    assert.match(
      item.tooltip ?? '',
      /pScheduler would refuse this task:\n• archive host-additional-archive\d \(esmond\): `url` must be a URL/,
    );
    assert.equal(m.combinationByKey(item.openKey ?? ''), c, 'a refused combination still opens');
    const doc = JSON.parse(formatCombinationDocument(c, 'gone')) as Record<string, unknown>;
    assert.deepEqual(Object.keys(doc), ['task', 'addresses', 'error', 'refused', 'pscheduler']);
    assert.deepEqual(doc.pscheduler, c.pscheduler);
  }
  // Per task and per agent: "N tasks, F failed (… refused by pScheduler)"
  for (const agent of m.roots().filter((n) => n.kind === 'agent')) {
    const mine = r.combinations.filter((c) => c.agent === (agent.kind === 'agent' ? agent.agent : ''));
    const bad = mine.filter((c) => c.refused).length;
    const d = m.item(agent).description ?? '';
    if (bad)
      assert.match(d, new RegExp(`${mine.length - bad} tasks?, ${bad} failed \\((all )?refused by pScheduler\\)`));
    for (const task of m.children(agent)) {
      if (task.kind !== 'task') continue;
      const n = mine.filter((c) => c.task === task.task);
      const b = n.filter((c) => c.refused).length;
      if (b) assert.match(m.item(task).description ?? '', /\d+ tasks?, \d+ failed \((all )?refused by pScheduler\)/);
      else assert.doesNotMatch(m.item(task).description ?? '', /failed/);
    }
  }
  // Export: only the tasks pScheduler would create
  const exported = pschedulerTaskArray(r);
  assert.equal(exported.length, r.combinations.length - refused.length);
  const bad = new Set(refused.map((c) => c.agent));
  assert.deepEqual(
    exported,
    r.combinations.filter((c) => !bad.has(c.agent)).map((c) => c.pscheduler),
  );
});
