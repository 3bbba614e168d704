import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jqResultType } from '../../../server/src/template/rules/jq-result-type';

test('jq result types read from the last pipe stage', () => {
  const cases: [string, string | undefined][] = [
    ['.addresses | length', 'number'],
    ['42', 'number'],
    ['.a.b == "x"', 'boolean'],
    ['.a and .b', 'boolean'],
    ['.a | test("x")', 'boolean'],
    ['{a: .x}', 'object'],
    ['[.addresses[].address]', 'array'],
    ['.x | keys', 'array'],
    ['.x | tostring', 'string'],
    ['"\\(.x)-y"', 'string'],
    ['.a | @base64', 'string'],
    ['.addresses | map(.address) | join(",")', 'string'],
    ['null', 'null'],
    // not obvious from the text: no verdict
    ['.addresses[0]._meta."display-name"', undefined],
    ['.a, .b', undefined],
    ['.a |= 1', undefined],
    ['if .a then 1 else "x" end', undefined],
    ['{a: 1} | .a', undefined],
    ['.ifspeed', undefined],
    ['[1] | .[0]', undefined],
    ['.x + 1', undefined],
  ];
  for (const [script, want] of cases) assert.equal(jqResultType(script), want, script);
});
