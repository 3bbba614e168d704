// Metadata search through the client against the local archive: esmond's own search vectors on its fixture, and
// every filter of the interface on the generated data (what the client sends, and what comes back).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { closeArchiveConnections } from '../../archive-client/http';
import { getMetadata, searchMetadata } from '../../archive-client/search';
import type { SearchFilters } from '../../archive-client/types';
import { FIXTURES } from './helpers';
import { loadDjango } from './server/seed-fixtures';
import { GENERATED_HOSTS } from './server/seed-generated';
import { type ArchiveServerHandle, startArchiveServer } from './server/server';

let fixture: ArchiveServerHandle;
let generated: ArchiveServerHandle;
before(async () => {
  fixture = await startArchiveServer({ seed: false });
  loadDjango(fixture.store, join(FIXTURES, 'esmond/api-fixtures/perfsonar_api_metadata.json'), {
    records: 0,
    points: 0,
    warnings: [],
  });
  // esmond's time-range test first touches event type pk=220 (metadata 67a3c298…, failures) to now().
  const touched = fixture.store.records.get('67a3c298de0b4237abee56b879e03587')?.events.get('failures');
  assert.ok(touched);
  touched.timeUpdated = Math.floor(Date.now() / 1000);
  generated = await startArchiveServer({ seed: { fixtures: false } });
});
after(async () => {
  await closeArchiveConnections();
  await Promise.all([fixture.close(), generated.close()]);
});

test('esmond search vectors on its metadata fixture give the expected counts', async () => {
  const vectors = JSON.parse(readFileSync(join(FIXTURES, 'esmond/derived/test_api_vectors.json'), 'utf8')) as {
    metadata_search: { expected_counts: { params: Record<string, string | number>; count: number }[] };
  };
  const known = new Set([
    'source',
    'destination',
    'event-type',
    'summary-type',
    'summary-window',
    'time',
    'time-start',
    'time-end',
    'time-range',
    'limit',
    'offset',
  ]);
  assert.equal(vectors.metadata_search.expected_counts.length, 22);
  for (const { params, count } of vectors.metadata_search.expected_counts) {
    assert.ok(Object.keys(params).every((k) => known.has(k)));
    const got = await searchMetadata({ url: fixture.url }, params);
    assert.equal(got.metadata.length, count, JSON.stringify(params));
  }
});

test('the first element carries esmond paging fields', async () => {
  const got = await searchMetadata({ url: fixture.url }, { limit: 5, offset: 5 });
  const first = got.metadata[0];
  assert.equal(first['metadata-count-total'], 16);
  assert.match(String(first['metadata-next-page']), /limit=5&offset=10$/);
  assert.match(String(first['metadata-previous-page']), /limit=5&offset=0$/);
  assert.equal(got.metadata[1]['metadata-count-total'], undefined);
  assert.equal(got.total, 16);
});

test('every filter reaches the archive and selects what it names', async () => {
  const { a, b, c } = GENERATED_HOSTS;
  const archive = { url: generated.url };
  const cases: [SearchFilters, (m: Record<string, unknown>) => boolean, number?][] = [
    [{ source: a.v4 }, (m) => m.source === a.v4],
    [{ destination: b.v4 }, (m) => m.destination === b.v4],
    [{ source: a.v4, destination: b.v4 }, (m) => m.source === a.v4 && m.destination === b.v4, 3],
    [{ 'measurement-agent': c.v4 }, (m) => m['measurement-agent'] === c.v4, 1],
    [{ 'input-source': b.name }, (m) => m['input-source'] === b.name],
    [{ 'input-destination': c.name }, (m) => m['input-destination'] === c.name, 1],
    [{ 'tool-name': 'pscheduler/ping' }, (m) => m['tool-name'] === 'pscheduler/ping', 2],
    [{ fields: { 'ip-transport-protocol': 'tcp' } }, (m) => m['ip-transport-protocol'] === 'tcp', 3],
    [
      { fields: { 'pscheduler-test-type': 'latencybg', 'sample-bucket-width': '0.001' } },
      (m) => m['pscheduler-test-type'] === 'latencybg',
      2,
    ],
    [{ fields: { 'bw-parallel-streams': 2 } }, (m) => m['bw-parallel-streams'] === '2', 3],
    [{ 'event-type': 'packet-trace' }, (m) => m['tool-name'] === 'pscheduler/traceroute', 2],
    [{ 'event-type': 'histogram-rtt', 'summary-type': 'statistics' }, (m) => m['tool-name'] === 'pscheduler/ping', 2],
    [
      { 'event-type': 'histogram-owdelay', 'summary-type': 'statistics', 'summary-window': 300 },
      (m) => m['tool-name'] === 'pscheduler/powstream',
      2,
    ],
    [{ 'event-type': 'histogram-rtt', 'summary-window': 300 }, () => false, 0],
    [{ 'event-type': 'throughput', 'summary-type': 'base' }, (m) => m['tool-name'] === 'pscheduler/iperf3', 3],
    [{ source: a.name }, (m) => m.source === a.v4 || m.source === a.v6],
    [{ source: a.name, 'dns-match-rule': 'only-v6' }, (m) => m.source === a.v6, 1],
    [{ source: a.name, 'dns-match-rule': 'only-v4' }, (m) => m.source === a.v4],
    [{ source: a.name, 'dns-match-rule': 'prefer-v6' }, (m) => m.source === a.v6, 1],
    [{ source: a.name, 'dns-match-rule': 'prefer-v4' }, (m) => m.source === a.v4],
    [{ source: a.v6 }, (m) => m.source === a.v6, 1],
    [{ 'time-range': 3600 }, () => true, 10],
    [{ 'time-start': 0, 'time-end': 1 }, () => false, 0],
    [{ 'time-end': Math.floor(Date.now() / 1000) + 86400 }, () => true, 10],
    [{ 'subject-type': 'network-element' }, () => false, 0],
  ];
  for (const [filters, ok, count] of cases) {
    const before = generated.requests.length;
    const got = await searchMetadata(archive, filters);
    const sent = new URL(generated.requests[before].path, 'http://x').searchParams;
    for (const [k, v] of Object.entries(filters)) {
      if (k === 'fields')
        for (const [fk, fv] of Object.entries(v as object)) assert.equal(sent.get(fk), String(fv), `sent ${fk}`);
      else assert.equal(sent.get(k), String(v), `sent ${k}`);
    }
    if (count !== undefined) assert.equal(got.metadata.length, count, JSON.stringify(filters));
    else assert.ok(got.metadata.length > 0, JSON.stringify(filters));
    assert.ok(got.metadata.every(ok), `every result matches ${JSON.stringify(filters)}`);
  }
});

test('time, limit and offset filters', async () => {
  const archive = { url: generated.url };
  const all = (await searchMetadata(archive, {})).metadata;
  const keys = all.map((m) => m['metadata-key']);
  assert.deepEqual(keys, [...keys].sort(), 'ordered by metadata-key');
  assert.deepEqual(
    (await searchMetadata(archive, { limit: 3, offset: 2 })).metadata.map((m) => m['metadata-key']),
    keys.slice(2, 5),
  );
  const updates = (m: (typeof all)[number]): number[] =>
    (m['event-types'] ?? []).map((e) => Number(e['time-updated'])).filter((t) => t > 0);
  const updated = Math.min(...all.flatMap(updates));
  const exact = await searchMetadata(archive, { time: updated });
  assert.ok(exact.metadata.length > 0);
  assert.ok(exact.metadata.every((m) => updates(m).includes(updated)));
  const since = await searchMetadata(archive, { 'time-start': updated + 1 });
  assert.ok(since.metadata.every((m) => updates(m).some((t) => t > updated)));
  const until = await searchMetadata(archive, { 'time-end': updated, 'time-range': 60 });
  assert.ok(until.metadata.every((m) => updates(m).some((t) => t <= updated && t >= updated - 60)));
});

test('archive errors on bad filters come back as messages from the archive', async () => {
  const archive = { url: generated.url };
  await assert.rejects(
    searchMetadata(archive, { source: 'nowhere.example.org' }),
    /HTTP 400 .*Unable to find address for host nowhere\.example\.org/,
  );
  await assert.rejects(
    searchMetadata(archive, { source: GENERATED_HOSTS.a.v4, 'dns-match-rule': 'v6-only' }),
    /Invalid dns-match-rule parameter v6-only/,
  );
  await assert.rejects(
    searchMetadata(archive, { 'time-start': 10, 'time-end': 5 }),
    /start time must be less than end time/,
  );
  await assert.rejects(searchMetadata(archive, { fields: { time: 'soon' } }), /Time parameter must be an integer/);
});

test('one metadata object by its uri', async () => {
  const md = await getMetadata({ url: fixture.url }, '/esmond/perfsonar/archive/f6b732e9f351487a96126f0c25e5e546/');
  assert.equal(md['metadata-key'], 'f6b732e9f351487a96126f0c25e5e546');
  await assert.rejects(getMetadata({ url: fixture.url }, '/esmond/perfsonar/archive/nope/'), /HTTP 404 .*Not found\./);
});
