// Seeds the local archive from test/fixtures/esmond (INDEX.md there): the Django fixtures of esmond's tests
// (metadata with their time-updated), the real 2013-2014 ESnet series of test_data/, the publishing examples of
// esmond's REST doc, and the records pScheduler's esmond archiver would write.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ArchiveStore, type MetadataRecord, StoreError } from './store';
import { SummaryRow } from './summary-bins';

export interface FixtureReport {
  records: number;
  points: number;
  warnings: string[];
}

interface DjangoRow {
  pk: number;
  model: string;
  fields: Record<string, unknown>;
}

const readJson = (p: string): unknown => JSON.parse(readFileSync(p, 'utf8')) as unknown;
const epoch = (iso: unknown): number | null => (typeof iso === 'string' ? Math.floor(Date.parse(iso) / 1000) : null);

/** Metadata records of a Django fixture (ps_metadata, subjects, event types, parameters). */
export function loadDjango(store: ArchiveStore, file: string, rep: FixtureReport): void {
  const rows = readJson(file) as DjangoRow[];
  const byModel = (m: string): DjangoRow[] => rows.filter((r) => r.model === m);
  for (const md of byModel('api.psmetadata')) {
    const subject = rows.find(
      (r) =>
        (r.model === 'api.pspointtopointsubject' || r.model === 'api.psnetworkelementsubject') &&
        r.fields.metadata === md.pk,
    );
    const body: Record<string, unknown> = { 'subject-type': md.fields.subject_type };
    for (const [k, v] of Object.entries(subject?.fields ?? {})) if (k !== 'metadata') body[k.replace(/_/g, '-')] = v;
    for (const p of byModel('api.psmetadataparameters').filter((r) => r.fields.metadata === md.pk))
      body[String(p.fields.parameter_key)] = p.fields.parameter_value;
    const ets = byModel('api.pseventtypes').filter((r) => r.fields.metadata === md.pk);
    const names = [...new Set(ets.map((e) => String(e.fields.event_type)))];
    body['event-types'] = names.map((n) => ({
      'event-type': n,
      summaries: ets
        .filter((e) => e.fields.event_type === n && e.fields.summary_type !== 'base')
        .map((e) => ({ 'summary-type': e.fields.summary_type, 'summary-window': e.fields.summary_window })),
    }));
    try {
      const { record } = store.register(body, String(md.fields.metadata_key), { skipUnknownEventTypes: true });
      for (const n of names)
        if (!record.events.has(n))
          rep.warnings.push(`${file}: metadata ${record.key} event type ${n} is not an esmond type; skipped`);
      for (const e of ets) {
        const row = record.events.get(String(e.fields.event_type));
        if (!row) continue;
        const t = epoch(e.fields.time_updated);
        if (e.fields.summary_type === 'base') row.timeUpdated = t;
        else {
          const s = row.summaries.find(
            (x) => x.type === e.fields.summary_type && x.window === Number(e.fields.summary_window),
          );
          if (s) s.timeUpdated = t;
        }
      }
      rep.records++;
    } catch (err) {
      rep.warnings.push(`${file}: metadata ${String(md.fields.metadata_key)}: ${(err as Error).message}`);
    }
  }
}

/** test_data/*.json: Cassandra rows {path: [ps, et_with_underscores, KEY, (summary, window)], ts: ms, val}. */
function loadTestData(store: ArchiveStore, dir: string, rep: FixtureReport): void {
  for (const name of readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const rows = readJson(join(dir, name)) as { path: string[]; ts: number; val: unknown }[];
    if (!rows.length) continue;
    const [, etRaw, key, summary, window] = rows[0].path;
    const et = etRaw.replace(/_/g, '-');
    const record = store.records.get(key);
    const row = record?.events.get(et);
    if (!record || !row) {
      rep.warnings.push(`${name}: no metadata ${key} with ${et}`);
      continue;
    }
    const keepUpdated = row.timeUpdated;
    if (summary) {
      let s = row.summaries.find((x) => x.type === summary && x.window === Number(window));
      if (!s) row.summaries.push((s = new SummaryRow(summary, Number(window), row.cls)));
      s.verbatim = true;
      for (const r of rows) s.loaded.set(Math.floor(r.ts / 1000), r.val);
    } else {
      for (const r of rows)
        store.write(record, et, Math.floor(r.ts / 1000), r.val, { sumDuplicates: true, at: keepUpdated ?? undefined });
    }
    row.timeUpdated = keepUpdated;
    rep.points += rows.length;
  }
}

/** Fill what a liberal archive can infer from an incomplete publishing example (doc bodies omit some fields). */
function completeRegistration(body: Record<string, unknown>): Record<string, unknown> {
  const b = { ...body };
  b['subject-type'] ??= 'point-to-point';
  b['input-source'] ??= b.source;
  b['input-destination'] ??= b.destination;
  b['measurement-agent'] ??= b.source;
  return b;
}

function registerAndPut(
  store: ArchiveStore,
  label: string,
  metadata: unknown,
  data: unknown,
  rep: FixtureReport,
): void {
  let record: MetadataRecord;
  try {
    record = store.register(completeRegistration(metadata as Record<string, unknown>)).record;
  } catch (err) {
    rep.warnings.push(`${label}: ${(err as Error).message}`);
    return;
  }
  rep.records++;
  for (const item of (Array.isArray(data) ? data : []) as {
    ts: number;
    val: { 'event-type': string; val: unknown }[];
  }[]) {
    for (const v of item.val ?? []) {
      try {
        store.write(record, v['event-type'], Number(item.ts), v.val, { sumDuplicates: true, at: Number(item.ts) });
        rep.points++;
      } catch (err) {
        if (!(err instanceof StoreError)) throw err;
        rep.warnings.push(`${label}: ${v['event-type']} at ${item.ts}: ${err.message}`);
      }
    }
  }
}

export function seedFromFixtures(store: ArchiveStore, root: string): FixtureReport {
  const rep: FixtureReport = { records: 0, points: 0, warnings: [] };
  const esm = join(root, 'esmond');
  for (const f of ['perfsonar_api_metadata.json', 'perfsonar_client_metadata.json']) {
    const p = join(esm, 'api-fixtures', f);
    if (existsSync(p)) loadDjango(store, p, rep);
  }
  if (existsSync(join(esm, 'test_data'))) loadTestData(store, join(esm, 'test_data'), rep);
  const docs = join(esm, 'docs-rest');
  const pairs: [string, string][] = [
    ['L1133_post-metadata-request_bwctl-iperf3.json', 'L1170_put-bulk-request_bwctl-iperf3.json'],
    ['L1304_post-metadata-request_bwctl-ping.json', 'L1462_put-bulk-request_bwctl-ping.json'],
    ['L1378_post-metadata-request_powstream.json', 'L1512_put-bulk-request_powstream.json'],
    ['L1583_post-metadata-request_bwctl-tracepath.json', 'L1609_put-bulk-request_bwctl-tracepath.json'],
  ];
  for (const [md, put] of pairs) {
    if (!existsSync(join(docs, md)) || !existsSync(join(docs, put))) continue;
    registerAndPut(store, md, readJson(join(docs, md)), (readJson(join(docs, put)) as { data?: unknown }).data, rep);
  }
  const cases = join(root, 'pscheduler', 'archiver-esmond', 'cases');
  if (existsSync(cases)) {
    for (const f of readdirSync(cases)
      .filter((n) => n.endsWith('.json'))
      .sort()) {
      const c = readJson(join(cases, f)) as { expected_metadata?: unknown; expected_data?: unknown };
      if (c.expected_metadata) registerAndPut(store, f, c.expected_metadata, c.expected_data, rep);
    }
  }
  return rep;
}
