// What the server holds after documents are closed: `psconfig/serverMemory` reports each thread's live heap after a
// full collection. Templates opened, checked, previewed and closed one after another must not stay in memory
// through the strings long-lived caches keep (an address cut from a template is a view into the whole text).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  CompareHostsRequest,
  CompareTasksRequest,
  ExpandTasksRequest,
  ScheduleRequest,
  ServerMemoryRequest,
  type ServerMemoryResult,
} from '../../common/protocol';
import { exampleText, LspClient, serverForSuite } from './lsp-client';

let client: LspClient;

serverForSuite((c) => (client = c));

const memory = (): Promise<ServerMemoryResult> => client.request<ServerMemoryResult>(ServerMemoryRequest.method, {});
const workerHeap = (m: ServerMemoryResult): number => m.heaps.find((h) => h.thread === 'worker')!.heapUsedMb;

/**
 * A mesh of names and addresses unique to template `n` (13-24 characters: cut as views of the text), whose test
 * names a host of `hostChars` characters (a string pScheduler's schema checks, as the fuzzer's long strings).
 */
function template(n: number, hostChars: number): string {
  const names = [0, 1, 2, 3, 4, 5].map((i) => `h${n}-${i}.example.net`);
  return JSON.stringify({
    _meta: { 'display-name': `Template ${n}` },
    addresses: Object.fromEntries(names.map((a) => [a, { address: a }])),
    groups: { g: { type: 'mesh', addresses: names.map((name) => ({ name })) } },
    tests: {
      t: { type: 'latencybg', spec: { source: '{% address[0] %}', dest: `h${n}.`.padEnd(hostChars, 'x') } },
    },
    tasks: { task: { group: 'g', test: 't' } },
  });
}

test('serverMemory: the live heap of the main thread and of the worker, after a full collection', async () => {
  const uri = 'file:///tmp/psconfig-memory/first.json';
  await client.open(uri, template(0, 100)); // the worker starts with the first check
  client.close(uri);
  const m = await memory();
  assert.deepEqual(
    m.heaps.map((h) => h.thread),
    ['main', 'worker'],
  );
  for (const h of m.heaps) {
    assert.equal(h.collected, true, `${h.thread}: a full collection was forced`);
    assert.ok(h.heapUsedMb > 0 && h.heapUsedMb <= h.heapTotalMb, JSON.stringify(h));
  }
  assert.ok(m.rssMb > 0);
});

test('closed templates are not kept alive by the strings cached from them', async () => {
  // 30 templates of 2 MB each, checked and previewed: 60 MB of text (120 MB as V8 strings) if each were still held.
  const count = 30;
  const pad = 2 * 1024 * 1024;
  const warm = 'file:///tmp/psconfig-memory/warm.json';
  await client.open(warm, template(1000, pad));
  await client.request(ExpandTasksRequest.method, { uri: warm, limit: 200 });
  client.close(warm);
  const before = workerHeap(await memory());
  for (let n = 1; n <= count; n++) {
    const uri = `file:///tmp/psconfig-memory/t${n}.json`;
    const diagnostics = await client.open(uri, template(n, pad));
    assert.ok(Array.isArray(diagnostics));
    const preview = await client.request<{ combinations: unknown[] }>(ExpandTasksRequest.method, { uri, limit: 200 });
    assert.ok(preview.combinations.length > 0); // (each carries the 2 MB host: the 4 MB preview bound cuts them)
    client.close(uri);
  }
  const grown = workerHeap(await memory()) - before;
  // One template's worth (4 MB as a V8 string) may remain in a cache of the latest parse; thirty may not.
  assert.ok(grown < 20, `the worker's live heap grew by ${grown} MB over ${count} closed 2 MB templates`);
});

test("closed documents leave no entry in either thread's per-document stores", async () => {
  // Three templates, each asked everything an editor asks (diagnostics, an edit, navigation, lenses and their counts,
  // previews, the schedule, a task comparison, a hosts comparison), then closed.
  const mesh = exampleText('perl-shared--client-psconfig-mesh.json');
  const uris = [0, 1, 2].map((i) => `file:///tmp/psconfig-memory/entries-${i}.psconfig.json`);
  for (const uri of uris) {
    await client.open(uri, mesh);
    const textDocument = { uri };
    await client.change(uri, [
      { range: { start: { line: 1, character: 0 }, end: { line: 1, character: 0 } }, text: ' ' },
    ]);
    await client.request('textDocument/hover', { textDocument, position: { line: 2, character: 6 } });
    await client.request('textDocument/completion', { textDocument, position: { line: 2, character: 6 } });
    await client.request('textDocument/documentSymbol', { textDocument });
    const lenses = await client.request<unknown[]>('textDocument/codeLens', { textDocument });
    for (const lens of lenses ?? []) await client.request('codeLens/resolve', lens);
    await client.request(ExpandTasksRequest.method, { uri });
    await client.request(ExpandTasksRequest.method, { uri, limit: 5 });
    await client.request(ScheduleRequest.method, { uri });
    await client.request(CompareTasksRequest.method, { uri, base: { text: mesh, source: 'HEAD' } });
    await client.request(CompareHostsRequest.method, { uri, reads: [] });
  }
  const open = await memory();
  const main = (m: ServerMemoryResult) => m.heaps.find((h) => h.thread === 'main')!.entries!;
  const worker = (m: ServerMemoryResult) => m.heaps.find((h) => h.thread === 'worker')!.entries!;
  // (Open, each store holds what it holds for these documents: the counts below are read, not guessed.)
  assert.equal(main(open).openDocuments, 3);
  assert.equal(main(open).analyses, 3);
  assert.equal(worker(open).fullExpansions, 3);
  assert.equal(worker(open).comparisons, 3);

  for (const uri of uris) client.close(uri);
  // The request is answered after the closes are handled (one connection, in order), and the worker reads its
  // forget notices before the memory job (one port, in order).
  const closed = await memory();
  const nonZero = (e: Record<string, number>) => Object.fromEntries(Object.entries(e).filter(([, n]) => n !== 0));
  assert.deepEqual(nonZero(main(closed)), {}, 'main thread');
  assert.deepEqual(nonZero(worker(closed)), {}, 'worker thread');
});
