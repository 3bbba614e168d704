// Where the editor's comparisons run (server/src/lsp/task-comparison.ts), in this thread: the base text's expansion
// is kept across edits (the status bar compares every new version with the same HEAD text), and goes on a close.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { EngineInput } from '../../../server/src/lsp/expansion-engine';
import { SharedExpansions } from '../../../server/src/lsp/expansion-shared';
import { TaskComparisons } from '../../../server/src/lsp/task-comparison';
import { commandLineScope } from '../../../server/src/template/includes/scope';
import { meshTemplate } from '../../generated-templates';

const uri = 'file:///tmp/psconfig-comparisons/mesh.json';
const headText = JSON.stringify(meshTemplate(4), null, 2);
const five = JSON.stringify(meshTemplate(5), null, 2);
const input = (version: number, text: string): EngineInput => ({
  uri,
  version,
  text,
  includeScope: commandLineScope(undefined, false),
  agentAddresses: [],
  limit: undefined,
  settings: {},
  jq: { path: process.env.JQ_PATH }, // the mesh's reference runs jq
});
const base = { text: headText, source: 'HEAD' };

test('an edit keeps the base: the next comparison with the same HEAD text expands only the new version', async () => {
  const expansions = new SharedExpansions();
  const c = new TaskComparisons(expansions);
  const first = await c.compare({ input: input(1, five), base, summaryOnly: false });
  assert.equal(first.error, undefined);
  assert.deepEqual(first.diff?.summary, { added: 8, removed: 0, changed: 0, agentsAffected: 5 });
  assert.equal(c.baseRuns, 1);

  // The edit (the worker's 'forget' with edited): the kept comparison goes, the base stays.
  expansions.forget(uri);
  c.edited(uri);
  assert.match(
    c.taskJson({ uri, id: first.id, side: 'new', agent: '', task: '', addresses: [] }).error ?? '',
    /no longer kept/,
  );
  const after = await c.compare({ input: input(2, five + '\n'), base, summaryOnly: true });
  assert.deepEqual(after.diff?.summary, first.diff?.summary);
  assert.equal(c.baseRuns, 1, 'HEAD was not expanded again');

  // A close (or new settings) drops it.
  c.forget(uri);
  await c.compare({ input: input(3, five), base, summaryOnly: true });
  assert.equal(c.baseRuns, 2);
  // Another base text is another run.
  await c.compare({ input: input(3, five), base: { text: five, source: 'file' }, summaryOnly: true });
  assert.equal(c.baseRuns, 3);
});
