// Long-lived caches keep copies of short strings and nothing long (own-string.ts); a key too long to be a typo gets
// no "did you mean" (validate.ts closestKey), however it splits.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cacheKey, MAX_CACHED_KEY_CHARS, ownString } from '../../../server/src/template/own-string';
import { closestKey } from '../../../server/src/template/pscheduler/validate';
import type { Schema } from '../../../server/src/template/pscheduler/catalog';

test('cacheKey: an equal string up to the bound, none beyond it', () => {
  const text = `{"name": "${'a'.repeat(40)}-host.example.net", "pad": "${'x'.repeat(100_000)}"}`;
  const cut = text.slice(10, 30);
  assert.equal(cacheKey(cut), cut);
  assert.equal(ownString(cut), cut);
  assert.equal(cacheKey('short'), 'short');
  assert.equal(cacheKey('y'.repeat(MAX_CACHED_KEY_CHARS)), 'y'.repeat(MAX_CACHED_KEY_CHARS));
  assert.equal(cacheKey('y'.repeat(MAX_CACHED_KEY_CHARS + 1)), undefined);
});

test('closestKey: a near miss is suggested; a 60 KB key is not compared or split', () => {
  const declared = { duration: {}, 'packet-count': {} } as Record<string, Schema>;
  assert.equal(closestKey('duraton', declared), 'duration');
  assert.equal(closestKey('my-duration', declared), 'duration'); // a part of the key names a declared one
  assert.equal(closestKey(`${'host-a.example.net-'.repeat(3000)}duration`, declared), undefined);
});
