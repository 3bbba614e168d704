// The two archives the explorer is pointed at: the project's local esmond-style archive (test/archive/server,
// seeded from test/fixtures/esmond, plus the dashboard's generated mesh) on a free port, and a URL on which nothing
// listens; and the pScheduler hosts the Hosts view reads (recorded answers of real instances, replayed).
import { freePort } from './code-server';
import type { ArchiveEndpoints } from './workspace';

export interface RunningArchives extends ArchiveEndpoints {
  /** Set when the local archive could not start (the runner counts it as a failure and carries on). */
  problem?: string;
  close(): Promise<void>;
}

/**
 * The pScheduler hosts the Hosts view reads: what two real instances answered (test/fixtures/pscheduler-hosts/wire.json,
 * recorded by the live suite), replayed with its times moved to now, so the runs are of the last hour again.
 */
async function startPSchedulerReplay(): Promise<{ urls: Record<string, string>; close: () => Promise<void> }> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const replay = require('../../pscheduler-replay/server') as typeof import('../../pscheduler-replay/server');
  const wire = replay.loadWire();
  return replay.startReplay(wire, { shiftMs: Date.now() - Date.parse(wire.readAt) });
}

export async function startArchives(): Promise<RunningArchives> {
  const hosts = await startPSchedulerReplay();
  const withHosts = (r: Omit<RunningArchives, 'pschedulerUrls'>): RunningArchives => ({
    ...r,
    pschedulerUrls: hosts.urls,
    close: async () => {
      await r.close();
      await hosts.close();
    },
  });
  // A port that was free a moment ago: connections to it are refused.
  const unreachableUrl = `http://127.0.0.1:${await freePort()}/esmond/perfsonar/archive/`;
  try {
    // Loaded lazily (a CommonJS require, like the rest of out/) so a broken archive module fails only the
    // explorer checks, not the whole run.
    const { startArchiveServer } =
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded lazily, as said above
      require('../../archive/server/server') as typeof import('../../archive/server/server');
    // With the dashboard's generated mesh (20 hosts) beside the esmond fixtures and the generated series.
    const archive = await startArchiveServer({ port: 0, host: '127.0.0.1', seed: { mesh: true } });
    return withHosts({ archiveUrl: archive.url, unreachableUrl, close: () => archive.close() });
  } catch (err) {
    const problem = `the local archive (test/archive/server) did not start: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`;
    return withHosts({ archiveUrl: unreachableUrl, unreachableUrl, problem, close: async () => undefined });
  }
}
