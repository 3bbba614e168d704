// The checks stop between their passes once `isCancelled` says so (the server's worker passes the cancel flag an
// edit sets), and run to the same result when it never does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChecksCancelled, validateTemplate } from '../../../server/src/template/diagnostics';
import { exampleText } from '../../fixtures';

const text = exampleText('psconfig--example-2-testbed.json');

test('a cancelled check throws ChecksCancelled at the next pass boundary, not at the end', () => {
  let polls = 0;
  assert.throws(
    () =>
      validateTemplate(text, {
        isCancelled: () => {
          polls++;
          return polls >= 2;
        },
      }),
    ChecksCancelled,
  );
  assert.equal(polls, 2, 'stopped at the second boundary');
});

test('a check never cancelled gives what a check without the option gives', () => {
  let polls = 0;
  const polled = validateTemplate(text, { isCancelled: () => (polls++, false) }).diagnostics;
  const plain = validateTemplate(text).diagnostics;
  assert.deepEqual(polled, plain);
  assert.ok(polls >= 8, `${polls} boundaries`);
});
