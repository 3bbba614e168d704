// Completion right after an edit (issue 30: the three kinds of edit of `npm run bench -- completion-after-edit`, and
// edits that change what completion reads) must answer what a fresh document with the same text answers. The
// thresholds are lowered so this small template takes the paths a large one takes (answers from the previous parse,
// in-place re-parses).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LspClient, serverForSuite, offsetToPosition } from './lsp-client';

let client: LspClient;
serverForSuite((c) => (client = c), { itemDefaults: true, env: { PSCONFIG_EDITED_TEXT_MIN_CHARS: '1' } });

const base = JSON.stringify(
  {
    addresses: { 'a.example.net': { address: 'a.example.net' }, 'b.example.net': { address: 'b.example.net' } },
    groups: {
      'mesh-1': { type: 'mesh', addresses: [{ name: 'a.example.net' }, { name: 'b.example.net' }] },
      'mesh-2': { type: 'mesh', addresses: [{ name: 'a.example.net' }, { name: 'b.example.net' }] },
    },
    tests: { 'rtt-1': { type: 'rtt', spec: { source: '{% address[0] %}', dest: '{% address[1] %}' } } },
    tasks: {
      'task-1': { group: 'mesh-1', test: 'rtt-1' },
      'task-2': { group: 'mesh-2', test: 'rtt-1' },
    },
  },
  null,
  2,
);

interface List {
  items: { label: string; detail?: string }[];
  itemDefaults?: { editRange?: unknown };
}

const complete = (uri: string, offset: number, t: string): Promise<List | null> =>
  client.request<List | null>('textDocument/completion', {
    textDocument: { uri },
    position: offsetToPosition(t, offset),
  });

/** The end of the group name of task `task` (before its closing quote). */
const groupEnd = (t: string, task: string): number =>
  t.indexOf('"', t.indexOf('"group": "', t.indexOf(`"${task}": {`)) + '"group": "'.length);

let n = 0;
/**
 * Opens `base`, has it analysed, sends `edit` (offsets in `base`) and at once asks for completion at `at` of the
 * edited text; the answer must equal a fresh document's. Returns the labels.
 */
async function afterEdit(edit: [number, number, string], at: (t: string) => number): Promise<string[]> {
  const uri = `file:///tmp/psconfig-after-edit/${++n}.json`;
  await client.open(uri, base);
  await client.request('textDocument/documentSymbol', { textDocument: { uri } });
  const [s, e, ins] = edit;
  const t = base.slice(0, s) + ins + base.slice(e);
  void client.connection.sendNotification('textDocument/didChange', {
    textDocument: { uri, version: 2 },
    contentChanges: [{ range: { start: offsetToPosition(base, s), end: offsetToPosition(base, e) }, text: ins }],
  });
  const got = await complete(uri, at(t), t);
  const freshUri = `${uri}.fresh.json`;
  await client.open(freshUri, t);
  const want = await complete(freshUri, at(t), t);
  assert.deepEqual(got?.items, want?.items);
  assert.deepEqual(got?.itemDefaults?.editRange, want?.itemDefaults?.editRange);
  client.close(uri);
  client.close(freshUri);
  return (got?.items ?? []).map((i) => i.label).sort();
}

test('one character typed in a group name: the groups are offered there', async () => {
  const at = groupEnd(base, 'task-2');
  const labels = await afterEdit([at, at, 'x'], (t) => groupEnd(t, 'task-2'));
  assert.deepEqual(labels, ['mesh-1', 'mesh-2']);
});

test('a new property in a task, then its group slot', async () => {
  const at = base.indexOf('"task-2": {') + '"task-2": {'.length;
  const labels = await afterEdit([at, at, '\n      "x-added": 1,'], (t) => groupEnd(t, 'task-2'));
  assert.deepEqual(labels, ['mesh-1', 'mesh-2']);
});

test('a pasted block of tasks: in a pasted task and in a task after it', async () => {
  const at = base.indexOf('"tasks": {') + '"tasks": {'.length;
  const block = Array.from(
    { length: 5 },
    (_, i) => `\n    "pasted-${i}": {\n      "group": "mesh-${1 + (i % 2)}",\n      "test": "rtt-1"\n    },`,
  ).join('');
  assert.deepEqual(await afterEdit([at, at, block], (t) => groupEnd(t, 'pasted-4')), ['mesh-1', 'mesh-2']);
  assert.deepEqual(await afterEdit([at, at, block], (t) => groupEnd(t, 'task-2')), ['mesh-1', 'mesh-2']);
});

test('edits that change what completion reads: a group renamed, added, removed', async () => {
  // Renaming mesh-2 (its key's last character) offers the new name, not the old one.
  const key = base.indexOf('"mesh-2": {') + '"mesh-'.length;
  assert.deepEqual(await afterEdit([key, key + 1, '9'], (t) => groupEnd(t, 'task-1')), ['mesh-1', 'mesh-9']);
  // A group added before the others.
  const groups = base.indexOf('"groups": {') + '"groups": {'.length;
  assert.deepEqual(
    await afterEdit([groups, groups, '\n    "added": { "type": "mesh", "addresses": [] },'], (t) =>
      groupEnd(t, 'task-1'),
    ),
    ['added', 'mesh-1', 'mesh-2'],
  );
  // mesh-1 removed (its member and the comma after it).
  const from = base.indexOf('"mesh-1": {');
  const to = base.indexOf('"mesh-2": {');
  assert.deepEqual(await afterEdit([from, to, ''], (t) => groupEnd(t, 'task-1')), ['mesh-2']);
  // The task's `group` key renamed to `test`: the slot now offers tests.
  const groupKey = base.indexOf('"group"', base.indexOf('"task-1": {')) + 1;
  assert.deepEqual(
    await afterEdit([groupKey, groupKey + 5, 'test'], (t) => t.indexOf('"mesh-1"', t.indexOf('"task-1": {')) + 7),
    ['rtt-1'],
  );
});

test('edits elsewhere than the cursor and its names: answered from the previous analysis, as a fresh document', async () => {
  // A test added (the `tests` section): a group slot after it and before it.
  const tests = base.indexOf('"tests": {') + '"tests": {'.length;
  const added = '\n    "rtt-2": { "type": "rtt" },';
  assert.deepEqual(await afterEdit([tests, tests, added], (t) => groupEnd(t, 'task-2')), ['mesh-1', 'mesh-2']);
  // The same edit, completing a `test` slot: its names changed, so the current text is analysed.
  const testEnd = (t: string): number => t.indexOf('"', t.indexOf('"test": "', t.indexOf('"task-1": {')) + 9);
  assert.deepEqual(await afterEdit([tests, tests, added], testEnd), ['rtt-1', 'rtt-2']);
  // A property added to task-2, the cursor in task-1 (before the edit) and in task-2 (after it).
  const task2 = base.indexOf('"task-2": {') + '"task-2": {'.length;
  const prop = '\n      "x-added": [1, 2],';
  assert.deepEqual(await afterEdit([task2, task2, prop], (t) => groupEnd(t, 'task-1')), ['mesh-1', 'mesh-2']);
  assert.deepEqual(await afterEdit([task2, task2, prop], (t) => groupEnd(t, 'task-2')), ['mesh-1', 'mesh-2']);
  // An edit that breaks the structure (a brace typed): the current text is analysed.
  assert.deepEqual(await afterEdit([task2, task2, ' {'], (t) => groupEnd(t, 'task-1')), ['mesh-1', 'mesh-2']);
});
