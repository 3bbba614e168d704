// Malformed input never throws and still yields a usable result.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateTemplate } from '../../../server/src/template/diagnostics';
import { parseTemplate, propertyValue } from '../../../server/src/template/parse';
import { scanVariables } from '../../../server/src/template/variables';
import { examplesDir } from './helpers';

const example = readFileSync(join(examplesDir, 'psconfig--example-2-testbed.json'), 'utf8');

test('every truncation of a real template validates without throwing', () => {
  for (let n = 0; n < example.length; n += 331) {
    const r = validateTemplate(example.slice(0, n));
    if (n > 0)
      assert.ok(
        r.diagnostics.some((d) => d.code === 'psconfig/syntax'),
        `truncated at ${n}`,
      );
    for (const d of r.diagnostics)
      assert.ok(d.start >= 0 && d.end >= d.start && d.start <= n, `range inside the text at ${n}`);
  }
});

test('random bytes and random JSON-ish tokens never throw', () => {
  let seed = 42;
  const rand = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const alphabet = '{}[]:,"\\ \n\t0123456789-.eEtruefalsn#{%}ab/*';
  for (let i = 0; i < 300; i++) {
    const len = Math.floor(rand() * 400);
    let s = '';
    for (let k = 0; k < len; k++)
      s +=
        rand() < 0.5
          ? alphabet[Math.floor(rand() * alphabet.length)]
          : String.fromCharCode(Math.floor(rand() * 0xffff));
    validateTemplate(s);
  }
});

test('a 10 MB template of random bytes and a deeply nested one finish', () => {
  const big = Buffer.alloc(10 * 1024 * 1024);
  let x = 7;
  for (let i = 0; i < big.length; i++) big[i] = x = (x * 33 + 11) & 0xff;
  const r = validateTemplate(big.toString('latin1'));
  assert.ok(r.diagnostics.length > 0 && r.diagnostics.length <= 101);
  const deep = '['.repeat(200000);
  assert.ok(validateTemplate(deep).diagnostics.length > 0);
  assert.ok(validateTemplate('{"a":'.repeat(100000)).diagnostics.length > 0);
});

test('recovery keeps the tree around errors (missing comma, trailing comma, comments, bare words)', () => {
  const text =
    '{\n // note\n "addresses": {"a": {"address": "x"} "b": {"address": y}},\n "tasks": {"t": {"group": "g",},},\n}';
  const p = parseTemplate(text);
  const msgs = p.syntaxErrors.map((e) => e.message);
  assert.ok(msgs.some((m) => /Comments are not allowed/.test(m)));
  assert.ok(msgs.some((m) => /Expected a comma/.test(m)));
  assert.ok(msgs.some((m) => /Trailing comma/.test(m)));
  assert.ok(msgs.some((m) => /Invalid value `y`/.test(m)));
  const addresses = propertyValue(p.root, 'addresses');
  assert.ok(propertyValue(addresses, 'a') && propertyValue(addresses, 'b'));
  assert.equal(propertyValue(propertyValue(propertyValue(p.root, 'tasks'), 't'), 'group')?.value, 'g');
});

test("the {% %} scanner agrees with pSConfig's regex and stays linear on hostile strings", () => {
  let seed = 7;
  const rand = (n: number): number => Math.floor(((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) * n);
  const alphabet = ['{%', '%}', ' ', 'a', '[0]', '{', '%', '}', 'jq .x'];
  let compared = 0;
  for (let i = 0; i < 3000; i++) {
    let s = '';
    for (let k = rand(12); k > 0; k--) s += alphabet[rand(alphabet.length)];
    const expected = [...s.matchAll(/\{%\s+(.+?)\s+%\}/g)].map((m) => [m.index, m.index + m[0].length, m[1].trim()]);
    if (expected.some((e) => e[2] === '')) continue; // whitespace-only groups: a regex backtracking corner pSConfig never meets
    const got = scanVariables(s)
      .filter((v) => !v.malformed)
      .map((v) => [v.start, v.end, v.text]);
    assert.deepEqual(got, expected, JSON.stringify(s));
    compared++;
  }
  assert.ok(compared > 2000);
  for (const piece of ['{% ', '{%', '{% a%}', '%} ', '{% {% x']) {
    const hostile = piece.repeat(200_000);
    assert.ok(Array.isArray(scanVariables(hostile)));
    const doc = JSON.stringify({
      addresses: {},
      groups: {},
      tasks: {},
      tests: { t: { type: 'x', spec: { s: hostile } } },
    });
    assert.ok(Array.isArray(validateTemplate(doc).diagnostics));
  }
});
