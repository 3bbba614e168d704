// Malformed input never throws and still yields a usable result.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateTemplate } from '../../../server/src/template/diagnostics';
import { parseTemplate, propertyValue } from '../../../server/src/template/parse';
import { examplesDir } from './helpers';

const example = readFileSync(join(examplesDir, 'psconfig--example-2-testbed.json'), 'utf8');

test('every truncation of a real template validates without throwing', () => {
  for (let n = 0; n < example.length; n += 331) {
    const r = validateTemplate(example.slice(0, n));
    if (n > 0) assert.ok(r.diagnostics.some((d) => d.code === 'psconfig/syntax'), `truncated at ${n}`);
    for (const d of r.diagnostics) assert.ok(d.start >= 0 && d.end >= d.start && d.start <= n, `range inside the text at ${n}`);
  }
});

test('random bytes and random JSON-ish tokens never throw', () => {
  let seed = 42;
  const rand = (): number => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const alphabet = '{}[]:,"\\ \n\t0123456789-.eEtruefalsn#{%}ab/*';
  for (let i = 0; i < 300; i++) {
    const len = Math.floor(rand() * 400);
    let s = '';
    for (let k = 0; k < len; k++) s += rand() < 0.5 ? alphabet[Math.floor(rand() * alphabet.length)] : String.fromCharCode(Math.floor(rand() * 0xffff));
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
  const text = '{\n // note\n "addresses": {"a": {"address": "x"} "b": {"address": y}},\n "tasks": {"t": {"group": "g",},},\n}';
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
