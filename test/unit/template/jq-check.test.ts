// jq compile checks run the real jq binary (JQ_PATH, node-jq's binary or jq on PATH).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkJqExpressions, validateTemplate } from '../../../server/src/template/diagnostics';
import { template } from './helpers';

test('jq that does not compile is an error at the expression; good jq passes', async () => {
  const doc = template({
    tests: {
      t: {
        type: 'rtt',
        spec: {
          dest: '{% address[1] %}',
          good: '{% jq .addresses[0]._meta."display-name" %}',
          bad: '{% jq .addresses[0 | %}',
        },
      },
    },
    'address-classes': {
      k: {
        'data-source': { type: 'current-config' },
        'match-filter': { type: 'jq', jq: { script: ['.tags', '| map(select(. == "x")) | length > 0'] } },
        'exclude-filter': { type: 'jq', jq: { script: 'foo(' } },
      },
    },
    archives: { a: { archiver: 'http', data: {}, transform: { script: '.test | undefined_function_xyz' } } },
    tasks: { task: { group: 'g', test: 't', archives: ['a'] } },
  });
  const text = JSON.stringify(doc, null, 2);
  const { model } = validateTemplate(text);
  const ds = await checkJqExpressions(model);
  const found = ds.map((d) => [d.code, text.slice(d.start, d.end)]);
  assert.deepEqual(
    found.sort(),
    [
      ['psconfig/jq-compile', '.addresses[0 |'],
      ['psconfig/jq-compile', '.test | undefined_function_xyz'],
      ['psconfig/jq-compile', 'foo('],
    ].sort(),
  );
  assert.ok(ds.every((d) => d.severity === 'error' && /does not compile: .+/.test(d.message)));
});

test('no jq programs: no process, no diagnostics', async () => {
  const { model } = validateTemplate(JSON.stringify(template()));
  assert.deepEqual(await checkJqExpressions(model), []);
});
