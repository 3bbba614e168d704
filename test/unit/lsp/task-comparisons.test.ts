// Where the editor's comparisons run (server/src/lsp/worker/task-comparison.ts), through the language server's expansion
// service with its runner in this thread (no worker): the base text's expansion is kept across edits (the status bar
// compares every new version with the same HEAD text), and goes when the document closes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { BackgroundRunner, ExpansionService, type Logger } from '../../../server/src/lsp/main';
import { meshTemplate } from '../../generated-templates';

const uri = 'file:///tmp/psconfig-comparisons/mesh.json';
const headText = JSON.stringify(meshTemplate(4), null, 2);
const five = JSON.stringify(meshTemplate(5), null, 2);
const base = { text: headText, source: 'HEAD' };
const log: Logger = { error: () => undefined, warn: () => undefined, info: () => undefined };

test('an edit keeps the base: the next comparison with the same HEAD text expands only the new version', async () => {
  const runner = new BackgroundRunner(undefined, log);
  // The mesh's reference runs jq.
  const svc = new ExpansionService(() => ({ jqPath: process.env.JQ_PATH ?? '/usr/bin/jq' }), runner);
  const compare = async (doc: TextDocument, summaryOnly: boolean, b = base) =>
    runner.send('compare', { input: await svc.engineInput(doc, true), base: b, summaryOnly });

  const v1 = TextDocument.create(uri, 'psconfig', 1, five);
  const first = await compare(v1, false);
  assert.equal(first.error, undefined);
  assert.deepEqual(first.diff?.summary, { added: 8, removed: 0, changed: 0, agentsAffected: 5 });
  assert.equal(runner.localBaseRuns, 1);

  // The edit, as the server reports it: the kept comparison goes (its tree is stale), the base stays.
  svc.documentChanged(uri, 2);
  const stale = await runner.send('compareTask', {
    uri,
    id: first.id,
    side: 'new',
    agent: '',
    task: '',
    addresses: [],
  });
  assert.match(stale.error ?? '', /no longer kept/);
  const v2 = TextDocument.create(uri, 'psconfig', 2, five + '\n');
  const after = await compare(v2, true);
  assert.deepEqual(after.diff?.summary, first.diff?.summary);
  assert.equal(runner.localBaseRuns, 1, 'HEAD was not expanded again');

  // Another base text is another run; a close drops the base.
  await compare(v2, true, { text: five, source: 'file' });
  assert.equal(runner.localBaseRuns, 2);
  svc.forget(uri);
  await compare(v2, true);
  assert.equal(runner.localBaseRuns, 3);
  runner.dispose();
});
