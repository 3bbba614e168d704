// The two archives the explorer is pointed at: the project's local esmond-style archive (test/archive/server,
// seeded from test/fixtures/esmond, plus the dashboard's generated mesh) on a free port, and a URL on which nothing
// listens.
import { freePort } from './code-server';
import type { ArchiveEndpoints } from './workspace';

export interface RunningArchives extends ArchiveEndpoints {
  /** Set when the local archive could not start (the runner counts it as a failure and carries on). */
  problem?: string;
  close(): Promise<void>;
}

export async function startArchives(): Promise<RunningArchives> {
  // A port that was free a moment ago: connections to it are refused.
  const unreachableUrl = `http://127.0.0.1:${await freePort()}/esmond/perfsonar/archive/`;
  try {
    // Loaded lazily (a CommonJS require, like the rest of out/) so a broken archive module fails only the
    // explorer checks, not the whole run.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { startArchiveServer } =
      require('../../archive/server/server') as typeof import('../../archive/server/server');
    // With the dashboard's generated mesh (20 hosts) beside the esmond fixtures and the generated series.
    const archive = await startArchiveServer({ port: 0, host: '127.0.0.1', seed: { mesh: true } });
    return { archiveUrl: archive.url, unreachableUrl, close: () => archive.close() };
  } catch (err) {
    const problem = `the local archive (test/archive/server) did not start: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`;
    return { archiveUrl: unreachableUrl, unreachableUrl, problem, close: async () => undefined };
  }
}
