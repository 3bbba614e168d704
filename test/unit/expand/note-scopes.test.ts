// Each expansion note says what it depends on (scope), so an agent-filtered slice of a full expansion
// (server/src/lsp/worker/expansion-slice.ts) can tell which notes follow the combinations it keeps.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addrs, expand, sel, template } from './helpers';

test('notes carry their scope: template (includes, classes), task (planning), combination (filled values)', async () => {
  const r = await expand(
    {
      ...template({
        addresses: addrs('a', 'b'),
        groups: { g: { type: 'mesh', addresses: sel('a', 'b') } },
        tasks: {
          zero: { group: 'g', test: 'pair', priority: 0 },
          local: { group: 'g', test: 'lh' },
        },
      }),
      tests: {
        pair: { type: 'throughput', spec: { source: '{% address[0] %}', dest: '{% address[1] %}' } },
        lh: { type: 'rtt', spec: { dest: 'h', note: '{% jq null %}' } },
      },
      includes: ['/nonexistent/psconfig-include.json'],
    },
    {
      loadIncludes: async (refs) =>
        // not read here (a failed read would make the agent reject the template: no notes but that)
        refs.map((ref) => ({ ref, kind: 'local', relative: false, status: 'skipped', reason: 'not allowed' })),
    },
  );
  const scopeOf = (re: RegExp): string | undefined => r.notes.find((n) => re.test(n.message))?.scope;
  assert.equal(scopeOf(/psconfig-include/), 'template');
  assert.equal(scopeOf(/priority is 0/), 'task');
  assert.equal(scopeOf(/returned null: kept as JSON null/), 'combination');
  for (const n of r.notes) assert.equal(n.task === undefined, n.scope === 'template', JSON.stringify(n));
});
