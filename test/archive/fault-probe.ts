// Runs one archive read in a process of its own and prints what happened, how long it took and the process's peak
// memory: `node out/test/archive/fault-probe.js '<json>'` with {op: 'search' | 'series', archive, uri?, pageSize?}.
// budgets.test.ts spawns it so that each fault's memory is measured alone.
import { ArchiveError } from '../../archive-client/errors';
import { closeArchiveConnections } from '../../archive-client/http';
import { searchMetadata } from '../../archive-client/search';
import { fetchSeries } from '../../archive-client/series';
import type { ArchiveOptions } from '../../archive-client/types';

export interface ProbeRequest {
  op: 'search' | 'series';
  archive: ArchiveOptions;
  uri?: string;
  pageSize?: number;
}

export interface ProbeReport {
  ok: boolean;
  kind?: string;
  message?: string;
  warning?: string;
  items?: number;
  ms: number;
  maxRssMb: number;
}

async function probe(req: ProbeRequest): Promise<ProbeReport> {
  const t0 = performance.now();
  const done = (r: Omit<ProbeReport, 'ms' | 'maxRssMb'>): ProbeReport => ({
    ...r,
    ms: performance.now() - t0,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
  });
  try {
    if (req.op === 'search') {
      const r = await searchMetadata(req.archive, {}, { all: true, pageSize: req.pageSize });
      return done({ ok: true, warning: r.warning, items: r.metadata.length });
    }
    const r = await fetchSeries(req.archive, req.uri ?? '', { 'time-start': 1_600_000_000, pageSize: req.pageSize });
    return done({ ok: true, warning: r.warning, items: r.points.length });
  } catch (e) {
    if (e instanceof ArchiveError) return done({ ok: false, kind: e.kind, message: e.message });
    return done({ ok: false, kind: 'crash', message: e instanceof Error ? (e.stack ?? e.message) : String(e) });
  } finally {
    await closeArchiveConnections();
  }
}

if (require.main === module) {
  probe(JSON.parse(process.argv[2]) as ProbeRequest).then(
    (r) => process.stdout.write(`${JSON.stringify(r)}\n`),
    (e: unknown) => {
      process.stdout.write(`${JSON.stringify({ ok: false, kind: 'crash', message: String(e), ms: 0, maxRssMb: 0 })}\n`);
    },
  );
}
