// Content detection of templates among plain JSON files (client/src/language/template-detection.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import {
  isAgentConfigFile,
  looksLikeMeshConfig,
  looksLikeTemplate,
  topLevelKeys,
} from '../../../client/src/language/template-detection';
import { exampleFiles, meshconfigDir } from '../../fixtures';
import { readdirSync } from 'node:fs';

import { examplesDir as examples } from '../../fixtures';

test('a top-level object with tasks and groups is a template, in any key order', () => {
  assert.equal(looksLikeTemplate('{"addresses":{},"groups":{},"tests":{},"tasks":{}}'), true);
  assert.equal(looksLikeTemplate('{ "tasks": [], "groups": 3 }'), true, "value types are the server's business");
});

test('one of the two keys is not enough', () => {
  assert.equal(looksLikeTemplate('{"tasks":{}}'), false);
  assert.equal(looksLikeTemplate('{"groups":{},"addresses":{}}'), false);
});

test('keys of nested objects, string values and array items do not count', () => {
  assert.equal(looksLikeTemplate('{"a":{"tasks":{},"groups":{}}}'), false);
  assert.equal(looksLikeTemplate('{"tasks":"groups"}'), false);
  assert.equal(looksLikeTemplate('{"x":["groups"],"tasks":{}}'), false);
  assert.equal(looksLikeTemplate('[{"tasks":{},"groups":{}}]'), false, 'top level must be an object');
});

test('braces, quotes and escapes inside strings do not confuse the scan', () => {
  const text = '{"a": "}{][\\"", "b\\u0022": {"x": "\\\\"}, "groups": {}, "tasks": {}}';
  assert.deepEqual([...topLevelKeys(text)], ['a', 'b"', 'groups', 'tasks']);
  assert.equal(looksLikeTemplate(text), true);
});

test('comments, trailing commas and `#` comment keys are tolerated', () => {
  const text = '// a template\n{ /* note */ "#c": "x", "groups": {}, // g\n "tasks": {}, }';
  assert.equal(looksLikeTemplate(text), true);
  assert.deepEqual([...topLevelKeys(text)], ['#c', 'groups', 'tasks']);
});

test('broken or empty text is never a template and never throws', () => {
  for (const text of ['', '{', '{"tasks":', 'not json', '\u0000\u0001{', '{"groups":{}, "tasks"']) {
    assert.doesNotThrow(() => looksLikeTemplate(text));
  }
  assert.equal(looksLikeTemplate('{"groups":{}, "tasks"'), true, 'a template being typed is still a template');
  assert.equal(looksLikeTemplate(''), false);
});

test('the scan stops at the limit', () => {
  const big =
    '{"addresses":{' +
    Array.from({ length: 2000 }, (_, i) => `"h${i}":{"address":"10.0.${i >> 8}.${i & 255}"}`).join(',') +
    '},"groups":{},"tasks":{}}';
  assert.equal(looksLikeTemplate(big), true);
  assert.equal(looksLikeTemplate(big, 1000), false);
});

test('every shared example template is detected; the partial ones without tasks/groups are not', () => {
  const files = exampleFiles();
  assert.ok(files.length >= 20);
  for (const f of files) {
    const text = readFileSync(path.join(examples, f), 'utf8');
    const parsed = JSON.parse(text) as Record<string, unknown>;
    assert.equal(looksLikeTemplate(text), 'tasks' in parsed && 'groups' in parsed, f);
  }
  assert.equal(looksLikeTemplate(readFileSync(path.join(examples, 'expected-pairs.json'), 'utf8')), false);
});

test('MeshConfig files (organizations and tests, no template sections) are recognised; templates are not', () => {
  for (const f of readdirSync(meshconfigDir).filter((n) => n.endsWith('.json'))) {
    const text = readFileSync(path.join(meshconfigDir, f), 'utf8');
    assert.equal(looksLikeMeshConfig(text), true, f);
    assert.equal(looksLikeTemplate(text), false, f);
  }
  for (const f of exampleFiles())
    assert.equal(looksLikeMeshConfig(readFileSync(path.join(examples, f), 'utf8')), false);
  assert.equal(looksLikeMeshConfig('{"organizations": [], "tests": []}'), true);
  assert.equal(looksLikeMeshConfig('{"organizations": []}'), false);
  assert.equal(looksLikeMeshConfig('{"organizations": [], "tests": [], "addresses": {}}'), false);
});

test("the agents' own configuration files are never templates", () => {
  assert.equal(isAgentConfigFile('/etc/perfsonar/psconfig/grafana-agent.json'), true);
  assert.equal(isAgentConfigFile('/etc/perfsonar/psconfig/pscheduler-agent.json'), true);
  assert.equal(isAgentConfigFile('C:\\ps\\grafana-agent.json'), true);
  assert.equal(isAgentConfigFile('/etc/perfsonar/psconfig/pscheduler.d/mesh.json'), false);
  assert.equal(isAgentConfigFile('/x/my-grafana-agent.json.bak'), false);
});
