// The placeholder → variable table (legacy-variables.ts) against the rewrite perfSONAR itself made: every `$`
// placeholder in the draft examples became the variable perfsonar/psconfig e9bf684 put in its place.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  findLegacyPlaceholders,
  isLoopbackHost,
  replaceLegacyPlaceholders,
  variableForPlaceholder,
} from '../../../server/src/template/legacy-variables';

test('the draft placeholders map to the variables perfSONAR rewrote them to', () => {
  // perfsonar/psconfig e9bf684 (doc/example-*.json), perl-shared 9f0fd7a1 (t/client-psconfig-*.t)
  assert.equal(variableForPlaceholder('$group::0'), '{% address[0] %}');
  assert.equal(variableForPlaceholder('$group::1'), '{% address[1] %}');
  assert.equal(variableForPlaceholder('$requesting-agent'), '{% scheduled_by_address %}');
  assert.equal(variableForPlaceholder('$group::'), undefined);
  assert.equal(variableForPlaceholder('$group'), undefined);
  assert.equal(variableForPlaceholder('$requesting-agents'), undefined);
});

test('placeholders are found with their offsets, embedded or whole, and nothing else is', () => {
  const text = '"$group::0" "x-$group::12/y" "$requesting-agent" "$requesting-agents" "$groups::0" "$group::a"';
  const found = findLegacyPlaceholders(text);
  assert.deepEqual(
    found.map((p) => [text.slice(p.start, p.end), p.text, p.variable]),
    [
      ['$group::0', '$group::0', '{% address[0] %}'],
      ['$group::12', '$group::12', '{% address[12] %}'],
      ['$requesting-agent', '$requesting-agent', '{% scheduled_by_address %}'],
    ],
  );
  // a window of the text
  assert.deepEqual(
    findLegacyPlaceholders(text, 12, 29).map((p) => p.text),
    ['$group::12'],
  );
  assert.deepEqual(findLegacyPlaceholders('no dollars here'), []);
  assert.equal(
    replaceLegacyPlaceholders('https://$requesting-agent/x/$group::1'),
    'https://{% scheduled_by_address %}/x/{% address[1] %}',
  );
});

test('loopback hosts: the names MeshConfigTasks replaced, and the rest of 127/8', () => {
  for (const h of ['localhost', 'LOCALHOST', 'localhost.', '127.0.0.1', '127.1.2.3', '::1', '[::1]', 'a.localhost'])
    assert.ok(isLoopbackHost(h), h);
  for (const h of ['archive.example.net', '128.0.0.1', '::2', 'localhost.example.net', '{% scheduled_by_address %}'])
    assert.ok(!isLoopbackHost(h), h);
});
