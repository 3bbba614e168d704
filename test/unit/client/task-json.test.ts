// Export array and task-document addresses (client/src/preview/task-json.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ExpandTasksResult, ExpandedCombination } from '../../../common/protocol';
import {
  formatCombinationDocument,
  formatTaskArray,
  parseTaskDocumentQuery,
  pschedulerTaskArray,
  taskDocumentPathAndQuery,
} from '../../../client/src/preview/task-json';

const ok = (dest: string): ExpandedCombination => ({
  task: 't',
  addresses: ['a', dest],
  addressValues: ['10.0.0.1', dest],
  agent: '10.0.0.1',
  pscheduler: {
    test: { type: 'latencybg', spec: { source: '10.0.0.1', dest } },
    archives: [{ archiver: 'http', data: {} }],
    schedule: {},
  },
});

test('the export is the bare array of task JSON in pSConfig order, without failed combinations', () => {
  const r: ExpandTasksResult = {
    uri: 'file:///t.json',
    version: 1,
    tasks: [],
    truncated: false,
    notes: [],
    agents: ['10.0.0.1'],
    elapsedMs: 0,
    combinations: [ok('b'), { task: 't', addresses: ['a', 'c'], addressValues: [], error: 'bad' }, ok('d')],
  };
  const tasks = pschedulerTaskArray(r);
  assert.deepEqual(
    tasks.map((t) => t.test.spec.dest),
    ['b', 'd'],
  );
  const text = formatTaskArray(tasks);
  assert.ok(text.startsWith('[\n  {\n    "test"'), 'indented by 2 like psconfig pscheduler-tasks');
  assert.ok(text.endsWith(']\n'));
  assert.deepEqual(JSON.parse(text), tasks);
});

test('a task document shows the task JSON, or why there is none', () => {
  assert.deepEqual(JSON.parse(formatCombinationDocument(ok('b'), 'gone')), ok('b').pscheduler);
  assert.deepEqual(JSON.parse(formatCombinationDocument(undefined, 'gone')), { error: 'gone' });
  assert.equal(
    (
      JSON.parse(formatCombinationDocument({ task: 't', addresses: ['a'], addressValues: [], error: 'x' }, 'gone')) as {
        error: unknown;
      }
    ).error,
    'x',
  );
});

test('task document addresses round-trip through the URI query, with a readable .json title', () => {
  const address = {
    template: 'file:///w/my mesh.json?x#y',
    agentAddresses: ['::1', 'h.example'],
    key: '["t",["a","b"],0]',
  };
  const { path, query } = taskDocumentPathAndQuery(address, { ...ok('fe80::1'), task: 'a/b task' });
  assert.equal(path, '/a_b task 10.0.0.1 → fe80::1.json');
  assert.deepEqual(parseTaskDocumentQuery(query), address);
  assert.equal(taskDocumentPathAndQuery(address).path, '/task.json');
  assert.equal(parseTaskDocumentQuery('template=x'), undefined);
  assert.deepEqual(parseTaskDocumentQuery('template=x&key=k&agents=oops')?.agentAddresses, []);
});
