// What the local archive starts with: the esmond fixtures (test/fixtures/esmond in the repository, or
// PSCONFIG_ESMOND_FIXTURES) and generated recent series; each part can be turned off.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { esmondFixturesDir } from '../../fixtures';
import { seedFromFixtures } from './seed-fixtures';
import { seedBenchSeries, seedGenerated } from './seed-generated';
import { seedMesh, type MeshOptions, type MeshScenario } from './seed-mesh';
import type { ArchiveStore } from './store';

export interface SeedOptions {
  /** true (default): test/fixtures/esmond; a string: that directory; false: none. */
  fixtures?: boolean | string;
  /** Generated recent series (default true). */
  generated?: boolean;
  /** Add a throughput series of this many points (benchmark). */
  benchPoints?: number;
  /** Clock for generated data, UNIX seconds (default now). */
  now?: number;
  /** A generated mesh for the dashboard (seed-mesh.ts): true for 20 hosts, or its options. Default off. */
  mesh?: boolean | MeshOptions;
}

export interface SeedReport {
  records: number;
  points: number;
  /** Where data came from, for the start-up message. */
  sources: string[];
  warnings: string[];
  /** metadata-key of the bench series when benchPoints was set. */
  benchKey?: string;
  /** What the generated mesh holds, when one was seeded. */
  mesh?: MeshScenario;
}

export function defaultFixturesDir(): string {
  return process.env.PSCONFIG_ESMOND_FIXTURES ?? esmondFixturesDir;
}

export function seedArchive(store: ArchiveStore, opts: SeedOptions): SeedReport {
  const rep: SeedReport = { records: 0, points: 0, sources: [], warnings: [] };
  const now = opts.now ?? Math.floor(Date.now() / 1000);
  if (opts.fixtures !== false) {
    const dir = typeof opts.fixtures === 'string' ? opts.fixtures : defaultFixturesDir();
    if (existsSync(join(dir, 'esmond'))) {
      const f = seedFromFixtures(store, dir);
      rep.records += f.records;
      rep.points += f.points;
      rep.warnings.push(...f.warnings);
      rep.sources.push(`esmond fixtures from ${dir} (${f.records} metadata, ${f.points} points)`);
    } else {
      rep.warnings.push(
        `esmond fixtures not found at ${dir}; starting with generated data only (set PSCONFIG_ESMOND_FIXTURES to their directory)`,
      );
    }
  }
  if (opts.generated !== false) {
    const g = seedGenerated(store, now);
    rep.records += g.records;
    rep.points += g.points;
    rep.sources.push(`generated series ending now (${g.records} metadata, ${g.points} points)`);
  }
  if (opts.benchPoints) {
    rep.benchKey = seedBenchSeries(store, now, opts.benchPoints).key;
    rep.records++;
    rep.points += opts.benchPoints;
    rep.sources.push(`bench throughput series (${opts.benchPoints} points, key ${rep.benchKey})`);
  }
  if (opts.mesh) {
    const m = seedMesh(store, now, opts.mesh === true ? {} : opts.mesh);
    rep.mesh = m.scenario;
    rep.records += m.records;
    rep.points += m.points;
    rep.sources.push(
      `generated mesh of ${m.scenario.hosts.length} hosts (${m.records} metadata, ${m.points} points; see seed-mesh.ts)`,
    );
  }
  return rep;
}
