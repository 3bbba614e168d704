// The local archive itself, spoken to in raw HTTP: esmond's URL forms, status codes and error texts, the real
// ESnet series of esmond's test data with their expected counts, and a graceful start without fixtures.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { FIXTURES } from './helpers';
import { type ArchiveServerHandle, startArchiveServer } from './server/server';

let server: ArchiveServerHandle;
const TOKEN = 'local-archive-token-0001';
before(async () => {
  // esmond's own status codes, bodies and page sizes: this file checks the esmond mode; the seed mode differs where
  // the seed says otherwise (test/archive/archive-modes.test.ts).
  server = await startArchiveServer({ seed: { generated: false }, tokens: [TOKEN], mode: 'esmond' });
});
after(async () => {
  await server.close();
});

async function http(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await request(`${server.origin}${path}`, {
    method,
    headers: {
      accept: 'application/json',
      ...(body !== undefined ? { 'content-type': 'application/json', authorization: `Token ${TOKEN}` } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, text, json: text ? (JSON.parse(text) as unknown) : undefined };
}

const A = '/esmond/perfsonar/archive/';

test('URL forms: trailing slash redirect, API root, detail, event-type detail, summary listing', async () => {
  const r = await http('GET', '/esmond/perfsonar/archive?source=10.0.0.1');
  assert.equal(r.status, 301);
  assert.equal(r.headers.location, `${A}?source=10.0.0.1`);
  assert.deepEqual((await http('GET', '/esmond/perfsonar/')).json, { archive: `${server.origin}${A}` });
  const key = '0CB19291FB6D40EAA1955376772BF5D2';
  const detail = (await http('GET', `${A}${key}/`)).json as Record<string, unknown>;
  assert.equal(detail['metadata-key'], key);
  assert.equal(detail.url, `${server.origin}${A}${key}/`);
  assert.equal(detail['metadata-count-total'], undefined);
  const missing = await http('GET', `${A}nosuchkey/`);
  assert.equal(missing.status, 404);
  assert.deepEqual(missing.json, { error: 'Not found.', detail: 'Not found.' });
  assert.equal(((await http('GET', `${A}${key}/histogram-owdelay/`)).json as unknown[]).length, 1);
  assert.deepEqual((await http('GET', `${A}${key}/throughput/`)).json, []);
  const listing = (await http('GET', `${A}${key}/histogram-owdelay/aggregations/`)).json as Record<string, unknown>[];
  assert.deepEqual(
    listing.map((s) => [s['summary-type'], s['summary-window']]),
    [['aggregation', '86400']],
  );
  assert.equal((await http('GET', `${A}${key}/histogram-owdelay/statistics/`)).status, 404);
  // The same data under the Django test server's path, without /esmond.
  assert.equal(
    ((await http('GET', `/perfsonar/archive/${key}/packet-count-sent/base?limit=3`)).json as unknown[]).length,
    3,
  );
});

test("esmond test_data series with the counts and end points esmond's tests expect", async () => {
  const expected = JSON.parse(readFileSync(join(FIXTURES, 'esmond/derived/test_data_expected.json'), 'utf8')) as {
    query_window: { 'time-start': number; 'time-end': number };
    series: { file: string; rest_path: string; count_in_window: number; first: unknown; last?: unknown }[];
  };
  const w = expected.query_window;
  for (const s of expected.series) {
    const got = (await http('GET', `${s.rest_path}?time-start=${w['time-start']}&time-end=${w['time-end']}`))
      .json as unknown[];
    assert.equal(got.length, s.count_in_window, s.file);
    const ends = [[got[0], s.first], ...(s.last ? [[got[got.length - 1], s.last]] : [])];
    for (const [point, want] of ends as [{ ts: number; val: Record<string, unknown> }, Record<string, unknown>][]) {
      if ('val_note' in want) {
        // The transcription notes a duplicate key '203' in esmond's literal (Python keeps the last, 330).
        assert.equal(point.ts, want.ts, s.file);
        assert.equal(point.val['203'], 330, s.file);
      } else assert.deepEqual(point, want, s.file);
    }
  }
});

test("esmond's status codes and messages for bad requests", async () => {
  const key = 'f6b732e9f351487a96126f0c25e5e546';
  const cases: [Awaited<ReturnType<typeof http>>, number, string][] = [
    [await http('GET', `${A}?time-start=yesterday`), 400, 'Time parameter must be an integer'],
    [
      await http('GET', `${A}${key}/throughput/base?time-start=10&time-end=5`),
      400,
      'Requested start time must be less than end time',
    ],
    [await http('GET', `${A}${key}/throughput/averages/day`), 400, 'Summary window parameter must be an integer'],
    [await http('GET', `${A}${key}/bogus/base`), 400, "Unsupported event type 'bogus' provided"],
    [await http('POST', A, { 'event-types': [] }), 400, 'Missing subject-type field in request'],
    [await http('POST', A, { 'subject-type': 'point-to-point' }), 400, 'Missing event-types field in request'],
    [await http('POST', A, { 'subject-type': 'p2p', 'event-types': [] }), 400, 'Invalid subject type p2p'],
    [await http('POST', A, '{"subject-type":', {}), 400, 'JSON parse error - '],
    [
      await http('POST', A, 'x=1', { 'content-type': 'text/plain' }),
      415,
      'Unsupported media type "text/plain" in request.',
    ],
    [
      await http('POST', A, { 'subject-type': 'point-to-point', 'event-types': [] }, { authorization: '' }),
      401,
      'Authentication credentials were not provided.',
    ],
    [
      await http('POST', `${A}${key}/throughput/base`, 'x', { 'content-type': 'text/plain' }),
      400,
      'Must post content-type: application/json header and json-formatted payload.',
    ],
    [
      await http('POST', `${A}${key}/throughput/aggregations/3600`, { ts: 1, val: 1 }),
      400,
      'Only base summary-type allowed for writing. Cannot use aggregations',
    ],
    [await http('POST', `${A}${key}/throughput/base`, { val: 1 }), 400, 'Required field ts not provided in request'],
    [await http('POST', `${A}${key}/throughput/base`, { ts: 'noon', val: 1 }), 400, 'Time must be a unix timestamp'],
    [await http('PUT', `${A}${key}/`, { items: [] }), 400, "Request must contain 'data' element"],
    [await http('PUT', `${A}${key}/`, { data: {} }), 400, "The 'data' element must be an array"],
    [
      await http('PUT', `${A}${key}/`, { data: [{ ts: 1, val: [{ val: 1 }] }] }),
      400,
      'Missing event-type field at data item 1 in value 1 ',
    ],
    [
      await http('PUT', `${A}${key}/`, { data: [{ ts: 1, val: 5 }] }),
      400,
      "'val' field must be an array in provided data list at position 1",
    ],
    [
      await http('DELETE', `${A}${key}/`, undefined, { authorization: `Token ${TOKEN}` }),
      405,
      'Method "DELETE" not allowed.',
    ],
    [await http('GET', A, undefined, { authorization: 'Token wrong' }), 401, 'Invalid token.'],
  ];
  for (const [res, status, message] of cases) {
    assert.equal(res.status, status, res.text);
    const body = res.json as { error: string; detail: string };
    assert.ok(body.error.startsWith(message), `${body.error} vs ${message}`);
    assert.equal(body.detail, body.error);
  }
});

test('writes: 201 with "" body, float truncation, a failed bulk PUT stores nothing', async () => {
  const key = '67a3c298de0b4237abee56b879e03587';
  const post = await http('POST', `${A}${key}/time-error-estimates/base`, { ts: 1500000000, val: '0.000124' });
  assert.equal(post.status, 201);
  assert.equal(post.text, '""');
  assert.deepEqual((await http('GET', `${A}${key}/time-error-estimates/base?time=1500000000`)).json, [
    { ts: 1500000000, val: 0.0001 },
  ]);
  const bad = await http('PUT', `${A}${key}/`, {
    data: [
      { ts: 1500000100, val: [{ 'event-type': 'time-error-estimates', val: 1 }] },
      { ts: 1500000200, val: [{ 'event-type': 'time-error-estimates', val: 'x' }] },
    ],
  });
  assert.equal(bad.status, 400);
  assert.deepEqual((await http('GET', `${A}${key}/time-error-estimates/base?time=1500000100`)).json, []);
  const created = await http('POST', A, {
    'subject-type': 'point-to-point',
    source: '10.9.9.1',
    destination: '10.9.9.2',
    'measurement-agent': '10.9.9.1',
    'input-source': 'a',
    'input-destination': 'b',
    'tool-name': 't',
    'event-types': [{ 'event-type': 'throughput', summaries: [{ 'summary-type': 'average', 'summary-window': 60 }] }],
  });
  assert.equal(created.status, 201);
  assert.equal(created.headers.location, (created.json as { url: string }).url);
  assert.equal(
    (
      await http('POST', A, {
        'subject-type': 'point-to-point',
        source: 'host.example',
        destination: '10.9.9.2',
        'measurement-agent': '10.9.9.1',
        'input-source': 'a',
        'input-destination': 'b',
        'tool-name': 't',
        'event-types': [],
      })
    ).status,
    400,
    'addresses must be IPs (esmond would 500)',
  );
});

test('pScheduler archiver records are seeded as the archiver would write them', async () => {
  const traces = (await http('GET', `${A}?tool-name=traceroute`)).json as {
    'event-types': { 'event-type': string; 'base-uri': string }[];
  }[];
  assert.ok(traces.length >= 1);
  const uri = traces[0]['event-types'].find((e) => e['event-type'] === 'packet-trace')?.['base-uri'];
  const hops = ((await http('GET', `${uri}?time-start=0`)).json as { val: { as?: { number: number } }[] }[])[0].val;
  assert.equal(hops[0].as?.number, 292);
  assert.ok(((await http('GET', `${A}?pscheduler-test-type=rtt`)).json as unknown[]).length >= 1);
});

test('without fixtures the archive still starts, says why, and serves generated data', async () => {
  const bare = await startArchiveServer({ seed: { fixtures: '/nonexistent/esmond-fixtures' } });
  try {
    assert.match(
      bare.seed.warnings.join('\n'),
      /esmond fixtures not found at \/nonexistent\/esmond-fixtures; starting with generated data only/,
    );
    const list = (await request(`${bare.url}?time-range=3600`)).body;
    assert.ok(((await list.json()) as unknown[]).length >= 10);
  } finally {
    await bare.close();
  }
});
