// The merge of our spec / data items with the JSON language service's: the service writes string values with
// their quotes (`"put"`) and may offer what we offer (true, false, an enum value); each shows once, ours first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CompletionItem } from 'vscode-languageserver-protocol';
import { mergeCompletions } from '../../server/src/lsp/main';

test('ours first, theirs after without the labels we already offer (quoted or not)', () => {
  const ours: CompletionItem[] = [
    { label: 'put', sortText: '00000' },
    { label: 'post', sortText: '00001' },
    { label: 'true', sortText: '00002' },
  ];
  const theirs: CompletionItem[] = [
    { label: '"put"' },
    { label: 'true' },
    { label: 'null' },
    { label: '{}', sortText: 'a' },
  ];
  const merged = mergeCompletions(ours, theirs);
  assert.deepEqual(
    merged.map((i) => i.label),
    ['put', 'post', 'true', 'null', '{}'],
  );
  const order = [...merged].sort((a, b) => (a.sortText ?? a.label).localeCompare(b.sortText ?? b.label));
  assert.deepEqual(
    order.map((i) => i.label),
    ['put', 'post', 'true', '{}', 'null'],
    'theirs keep their own order after ours',
  );
});
