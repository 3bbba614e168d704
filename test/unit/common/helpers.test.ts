// The small shared helpers of common/ (json.ts, text.ts, task-diff-text.ts): each defined once and read by the server,
// the CLI, the extension and the webview pages, so their wording is pinned here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isObject, jsonText } from '../../../common/json';
import { count, noun, plural, pluralPlain } from '../../../common/text';
import { hostLoadChangeText, loadPercent, taskDiffHeadline } from '../../../common/task-diff-text';

test('isObject: a JSON object, not null, not an array', () => {
  assert.equal(isObject({}), true);
  assert.equal(isObject({ a: 1 }), true);
  for (const v of [null, undefined, [], [1], 'x', 1, true]) assert.equal(isObject(v), false, String(v));
});

test('counts and plurals', () => {
  assert.equal(count(39800), '39,800');
  assert.equal(noun(1, 'task'), 'task');
  assert.equal(noun(0, 'fix', 'fixes'), 'fixes');
  assert.equal(plural(1, 'task'), '1 task');
  assert.equal(plural(0, 'task'), '0 tasks');
  assert.equal(plural(1204, 'address', 'addresses'), '1,204 addresses');
  assert.equal(pluralPlain(1204, 'task'), '1204 tasks');
  assert.equal(pluralPlain(1, 'pScheduler task'), '1 pScheduler task');
});

test("the task diff's headline and load wording", () => {
  assert.equal(taskDiffHeadline({ added: 0, removed: 0, changed: 0, agentsAffected: 0 }), 'no task changes');
  assert.equal(
    taskDiffHeadline({ added: 12, removed: 1204, changed: 3, agentsAffected: 37 }),
    '−1,204 +12 ~3 tasks on 37 agents',
  );
  assert.equal(taskDiffHeadline({ added: 1, removed: 0, changed: 0, agentsAffected: 1 }), '+1 task on 1 agent');
  assert.equal(loadPercent(0.125), '12.5%');
  assert.equal(
    hostLoadChangeText({ host: 'a', exclusiveLoad: { old: 0.125, new: 0.15 }, normalLoad: { old: 0, new: 0 } }),
    'exclusive 12.5% → 15.0%, normal 0.0% → 0.0%',
  );
});

test('jsonText: a string as it is, any other JSON value as JSON text', () => {
  assert.equal(jsonText('ps1.example.net'), 'ps1.example.net');
  assert.equal(jsonText(5), '5');
  assert.equal(jsonText(NaN), 'NaN');
  assert.equal(jsonText(null), 'null');
  assert.equal(jsonText(false), 'false');
  assert.equal(jsonText({ a: 1 }), '{"a":1}');
  assert.equal(jsonText(['a', 'b']), '["a","b"]');
  assert.equal(jsonText(undefined), 'undefined');
});
