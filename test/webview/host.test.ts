// The explorer host (pure message handler) against the real local archive, without a browser: every request type,
// the token only on reads when configured, errors as error messages (never an unhandled rejection), prefill.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startArchiveServer, type ArchiveServerHandle } from '../archive/server/server';
import { createExplorerHost, type ExplorerHostDeps } from '../../client/src/explorer/host';
import {
  emptyForm,
  type HostToWebview,
  type MeasurementRow,
  type WebviewToHost,
} from '../../client/src/explorer/messages';

let archive: ArchiveServerHandle;
before(async () => {
  archive = await startArchiveServer({ seed: { fixtures: true, generated: true } });
});
after(async () => {
  await archive?.close();
});

function makeHost(extra: Partial<ExplorerHostDeps> = {}) {
  const out: HostToWebview[] = [];
  const host = createExplorerHost({
    post: (m) => out.push(m),
    archives: () => [{ name: 'local', url: archive.url }],
    credentials: async () => ({ tokenOnReads: false }),
    save: async (_n, text) => ({ text }),
    timeoutMs: 3000,
    ...extra,
  });
  const ask = async <T extends HostToWebview['type']>(
    msg: WebviewToHost,
    type: T,
  ): Promise<Extract<HostToWebview, { type: T }>> => {
    const n = out.length;
    await host.handle(msg);
    const reply = out[n];
    assert.ok(reply, `no reply to ${msg.type}`);
    if (reply.type === 'error' && type !== 'error') assert.fail(`${msg.type} failed: ${reply.error.message}`);
    assert.equal(reply.type, type);
    return reply as Extract<HostToWebview, { type: T }>;
  };
  return { host, out, ask };
}

async function findRow(ask: ReturnType<typeof makeHost>['ask'], tool: string, source: string): Promise<MeasurementRow> {
  const r = await ask(
    {
      type: 'search',
      id: 1,
      archive: archive.url,
      form: { ...emptyForm(), toolName: tool, source },
      time: { preset: '1d' },
    },
    'searchResult',
  );
  assert.equal(r.rows.length, 1, `${tool} from ${source}`);
  return r.rows[0];
}

test('ready → init with the archives and a pending prefill; later prefills are posted', async () => {
  const { host, out, ask } = makeHost();
  host.prefill({ url: archive.url, source: '10.10.0.1', destination: '10.10.0.2', run: true });
  const init = await ask({ type: 'ready' }, 'init');
  assert.deepEqual(init.archives, [{ name: 'local', url: archive.url }]);
  assert.equal(init.prefill?.source, '10.10.0.1');
  host.prefill({ url: archive.url, run: false });
  assert.deepEqual(out.at(-1), { type: 'prefill', prefill: { url: archive.url, run: false } });
  host.archivesChanged();
  assert.equal(out.at(-1)?.type, 'archives');
});

test('series: auto window per range, statistics for latency, loss in %, reverse lookup', async () => {
  const { ask } = makeHost();
  const owamp = await findRow(ask, 'pscheduler/powstream', '10.10.0.1');
  const lat = await ask(
    {
      type: 'series',
      id: 2,
      archive: archive.url,
      row: owamp,
      eventType: 'histogram-owdelay',
      time: { preset: '1d' },
      window: 'auto',
    },
    'seriesResult',
  );
  assert.equal(lat.result.summaryType, 'statistics');
  assert.equal(lat.result.window, 300);
  assert.equal(lat.result.data.kind, 'stats');
  assert.ok(lat.result.data.ts.length > 100);
  const base = await ask(
    {
      type: 'series',
      id: 3,
      archive: archive.url,
      row: owamp,
      eventType: 'histogram-owdelay',
      time: { preset: '1h' },
      window: 'auto',
    },
    'seriesResult',
  );
  assert.equal(base.result.window, 0);
  const loss = await ask(
    {
      type: 'series',
      id: 4,
      archive: archive.url,
      row: owamp,
      eventType: 'packet-loss-rate',
      time: { preset: '1d' },
      window: 3600,
    },
    'seriesResult',
  );
  assert.equal(loss.result.unit, '%');
  assert.equal(loss.result.windowReason, 'chosen: 3600 s window');
  assert.ok(
    loss.result.data.kind === 'number' && loss.result.data.values.every((v) => v === null || (v >= 0 && v <= 100)),
  );
  const rev = await ask({ type: 'reverse', id: 5, archive: archive.url, row: owamp }, 'reverseResult');
  assert.equal(rev.row?.source, owamp.destination);
  assert.equal(rev.row?.destination, owamp.source);
  // Statistics are computed from histograms when the archive has none: strip the statistics summaries.
  const noStats: MeasurementRow = {
    ...owamp,
    eventTypes: owamp.eventTypes.map((e) => ({ ...e, summaries: e.summaries.filter((s) => s.type !== 'statistics') })),
  };
  const computed = await ask(
    {
      type: 'series',
      id: 6,
      archive: archive.url,
      row: noStats,
      eventType: 'histogram-owdelay',
      time: { preset: '1d' },
      window: 'auto',
    },
    'seriesResult',
  );
  assert.ok(computed.result.data.kind === 'stats' && computed.result.data.computed);
  assert.match(computed.result.windowReason, /statistics computed from aggregation histograms/);
  // Same bins, same numbers as the archive's own statistics summary (the server computes them the esmond way).
  assert.ok(lat.result.data.kind === 'stats');
  const i = computed.result.data.ts.indexOf(lat.result.data.ts[5]);
  assert.ok(i >= 0);
  assert.ok(Math.abs((computed.result.data.median[i] ?? NaN) - (lat.result.data.median[5] ?? NaN)) < 1e-3);
});

test('the token is sent on reads only when the user said so', async () => {
  const before = archive.requests.length;
  const off = makeHost({ credentials: async () => ({ token: archive.token, tokenOnReads: false }) });
  await off.ask(
    { type: 'search', id: 1, archive: archive.url, form: emptyForm(), time: { preset: '1d' } },
    'searchResult',
  );
  assert.ok(archive.requests.slice(before).every((r) => r.authorization === undefined));
  const mark = archive.requests.length;
  const on = makeHost({ credentials: async () => ({ token: archive.token, tokenOnReads: true }) });
  await on.ask(
    { type: 'search', id: 1, archive: archive.url, form: emptyForm(), time: { preset: '1d' } },
    'searchResult',
  );
  assert.ok(archive.requests.slice(mark).every((r) => r.authorization === `Token ${archive.token}`));
});

test('failures answer with an error message naming what happened; nothing is thrown', async () => {
  const logs: string[] = [];
  const { ask } = makeHost({ log: (_l, t) => logs.push(t) });
  const cases: [string, RegExp, string][] = [
    [archive.faultUrl('404'), /HTTP 404 .*Not found/, 'http'],
    [archive.faultUrl('401'), /HTTP 401 .*Invalid token/, 'http'],
    [archive.faultUrl('500-html'), /HTTP 500 .*non-JSON body/, 'http'],
    [archive.faultUrl('malformed-json'), /not JSON/, 'not-json'],
    [archive.faultUrl('not-a-list'), /did not return a list/, 'not-json'],
    [archive.faultUrl('redirect'), /301 redirecting/, 'redirect'],
    ['http://127.0.0.1:9/', /connection refused/, 'refused'],
    ['ftp://example.net/', /must be http or https/, 'bad-url'],
  ];
  for (const [url, re, kind] of cases) {
    const r = await ask({ type: 'search', id: 9, archive: url, form: emptyForm(), time: { preset: '1d' } }, 'error');
    assert.match(r.error.message, re, url);
    assert.equal(r.error.kind, kind);
    assert.equal(r.request, 'search');
  }
  assert.equal(logs.length, cases.length);
  // A request the host cannot serve (the event type is not on the measurement) is an error message too.
  const err = await ask(
    {
      type: 'series',
      id: 10,
      archive: archive.url,
      row: {
        key: 'k',
        uri: '',
        subjectType: '',
        source: '',
        destination: '',
        measurementAgent: '',
        toolName: '',
        inputSource: '',
        inputDestination: '',
        eventTypes: [],
        lastUpdate: null,
        fields: {},
      },
      eventType: 'throughput',
      time: { preset: '1d' },
      window: 'auto',
    },
    'error',
  );
  assert.match(err.error.message, /has no event type throughput/);
  assert.equal(err.error.kind, 'internal');
});

test('a hung archive times out with a clear message', async () => {
  const { ask } = makeHost({ timeoutMs: 300 });
  const r = await ask(
    { type: 'search', id: 1, archive: archive.faultUrl('hang'), form: emptyForm(), time: { preset: '1d' } },
    'error',
  );
  assert.equal(r.error.kind, 'timeout');
  assert.match(r.error.message, /no response .* within (300|900) ms/);
});

test('export returns CSV and JSON text through the save dependency', async () => {
  const saved: string[] = [];
  const { ask } = makeHost({ save: async (name) => (saved.push(name), { path: `/tmp/${name}` }) });
  const shown = [
    {
      direction: 'forward' as const,
      source: 'a',
      destination: 'b',
      result: {
        eventType: 'throughput',
        summaryType: 'base',
        window: 0,
        windowReason: 'auto',
        uri: '/x',
        unit: 'bps' as const,
        data: { kind: 'number' as const, ts: [1], values: [2] },
        received: 1,
        pages: 1,
        fetchMs: 0,
        transformMs: 0,
        skipped: 0,
      },
    },
  ];
  const r = await ask(
    { type: 'export', id: 1, format: 'csv', suggestedName: 'x.csv', shown, range: { start: 0, end: 2 } },
    'exported',
  );
  assert.equal(r.path, '/tmp/x.csv');
  assert.ok(r.bytes > 50);
  const cancelled = makeHost({ save: async () => undefined });
  const c = await cancelled.ask(
    { type: 'export', id: 2, format: 'json', suggestedName: 'x.json', shown, range: { start: 0, end: 2 } },
    'exported',
  );
  assert.equal(c.cancelled, true);
});
