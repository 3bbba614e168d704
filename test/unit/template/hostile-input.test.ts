// Linear and iterative: did-you-mean suggestions stay cheap for huge names, and a template nested 10,000 levels
// deep gives one diagnostic (validate) and a clear error (expand), never a stack overflow.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { boundedDistance, closestName, MAX_SUGGEST_LENGTH } from '../../../server/src/template/rules/closest-name';
import { validateTemplate } from '../../../server/src/template/diagnostics';
import { expandText } from '../../../server/src/template/expand/from-text';
import { countCombinations } from '../../../server/src/template/expand';
import { MAX_NESTING, maxNesting } from '../../../server/src/template/nesting';

/** Plain Levenshtein, the reference the banded version must agree with. */
function levenshtein(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++)
      cur.push(Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1)));
    prev = cur;
  }
  return prev[b.length];
}

test('the banded distance equals Levenshtein wherever it is within the band', () => {
  let seed = 7;
  const rand = (n: number): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
  const word = (): string => Array.from({ length: rand(12) }, () => 'abc'[rand(3)]).join('');
  for (let k = 0; k < 3000; k++) {
    const a = word();
    const b = word();
    const max = rand(6);
    const d = levenshtein(a, b);
    assert.equal(boundedDistance(a, b, max), d <= max ? d : Infinity, `${a} ${b} ${max}`);
  }
});

test('suggestions: typos still found, huge names get none and cost no quadratic time', (t) => {
  assert.equal(closestName('mesh-grp', ['mesh-group', 'list']), 'mesh-group');
  assert.equal(closestName('arhcives', ['archives', 'addresses']), 'archives');
  assert.equal(closestName('x', ['completely-different']), undefined);
  const huge = 'a'.repeat(80 * 1024);
  const near = `${huge.slice(0, -1)}b`;
  const started = performance.now();
  assert.equal(closestName(huge, [near, 'a', huge.slice(0, 100)]), undefined);
  assert.equal(closestName(near.slice(0, MAX_SUGGEST_LENGTH + 1), [huge.slice(0, MAX_SUGGEST_LENGTH + 1)]), undefined);
  // The time is printed, not asserted (no timing thresholds in tests): well under 100 ms; 150 s with the quadratic
  // distance. What makes it cheap is asserted above: no suggestion is searched for a name over MAX_SUGGEST_LENGTH.
  t.diagnostic(`80 KB name: ${(performance.now() - started).toFixed(1)} ms`);
});

test('an 80 KB reference next to an 80 KB definition: validated without a quadratic suggestion search', (t) => {
  const name = 'a'.repeat(80 * 1024);
  const template = JSON.stringify({
    addresses: { [name]: { address: 'h1' }, other: { address: 'h2' } },
    groups: { g: { type: 'mesh', addresses: [{ name: `${name.slice(0, -1)}b` }, { name: 'other' }] } },
    tests: { t: { type: 'latencybg', spec: { source: '{% address[0] %}', dest: '{% address[1] %}' } } },
    tasks: { task: { group: 'g', test: 't' } },
  });
  const started = performance.now();
  const { diagnostics } = validateTemplate(template);
  const ms = performance.now() - started;
  const unknown = diagnostics.find((d) => d.code === 'psconfig/unknown-address');
  assert.ok(unknown, 'the misspelt reference is reported');
  assert.doesNotMatch(unknown.message, /did you mean/i);
  // Printed, not asserted: the quadratic search took 150 s here.
  t.diagnostic(`validate with 80 KB names: ${ms.toFixed(0)} ms`);
});

function nested(depth: number, kind: 'object' | 'array'): string {
  return kind === 'object'
    ? `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`
    : `${'['.repeat(depth)}1${']'.repeat(depth)}`;
}

function deepTemplate(inner: string): string {
  return `{"addresses": {"a": {"address": "h1"}, "b": {"address": "h2"}},
  "groups": {"g": {"type": "mesh", "addresses": [{"name": "a"}, {"name": "b"}]}},
  "tests": {"t": {"type": "latencybg", "spec": {"source": "{% address[0] %}", "x": ${inner}}}},
  "tasks": {"task": {"group": "g", "test": "t", "bogus": 1}}}`;
}

for (const kind of ['object', 'array'] as const) {
  test(`nesting of 10,000 levels (${kind}s): one diagnostic at the deepest allowed point, the rest still checked`, () => {
    const text = deepTemplate(nested(10_000, kind));
    const { diagnostics } = validateTemplate(text);
    const deep = diagnostics.filter((d) => d.code === 'psconfig/too-deep');
    assert.equal(deep.length, 1);
    assert.equal(deep[0].severity, 'error');
    assert.match(deep[0].message, /^Nested 10,00\d levels deep: pSConfig cannot read this template/);
    // At level MAX_NESTING + 1: the opening bracket there.
    const opener = kind === 'object' ? '{' : '[';
    let level = 0;
    let at = -1;
    for (let i = 0; i < text.length && at < 0; i++) {
      if (text[i] === '{' || text[i] === '[') level++;
      else if (text[i] === '}' || text[i] === ']') level--;
      if (level === MAX_NESTING + 1) at = i;
    }
    assert.equal(deep[0].start, at);
    assert.equal(text[at], opener);
    // The rest of the template is still checked: the unknown property after the deep value is found.
    assert.ok(diagnostics.some((d) => d.code === 'psconfig/unknown-property' && /`bogus`/.test(d.message)));
    assert.ok(!diagnostics.some((d) => d.code === 'psconfig/syntax'), 'no syntax error for valid JSON');
  });

  test(`nesting of 10,000 levels (${kind}s): expansion refuses it with a clear error`, async () => {
    const text = deepTemplate(nested(10_000, kind));
    const r = await expandText({ uri: 'file:///deep.json', version: 1, text, jqPath: '/nonexistent/jq' });
    assert.match(
      r.error ?? '',
      /^The template nests more than 500 levels deep \(at \.tests\.t\.spec\.x.*\), so it is not expanded/,
    );
    assert.deepEqual(countCombinations(JSON.parse(text)).tasks, []);
  });
}

test('nesting between the limit and what pSConfig reads is a warning, not an error', () => {
  const { diagnostics } = validateTemplate(deepTemplate(nested(700, 'array')));
  const deep = diagnostics.filter((d) => d.code === 'psconfig/too-deep');
  assert.equal(deep.length, 1);
  assert.equal(deep[0].severity, 'warning');
  assert.match(deep[0].message, /nothing below level 500 \(this point\) is checked/);
});

test('the nesting measure never counts less than a scanner that ends unterminated strings at the line end', () => {
  // A byte flip left a quote open: vscode-json-languageservice ends the string at the line break and then sees
  // 3,000 nested arrays; so must the measure that decides whether it may parse the document.
  const text = `{"a": "open\n${'['.repeat(3000)}${']'.repeat(3000)}}`;
  assert.ok(maxNesting(text) >= 3000);
  assert.equal(maxNesting('{"a": "[[[[ in a string ]]"}'), 1);
});
