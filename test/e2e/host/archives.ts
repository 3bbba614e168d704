// The two archives the explorer is pointed at: the project's local esmond-style archive (test/archive/server,
// seeded from ../shared/esmond-fixtures) on a free port, and a URL on which nothing listens.
import { freePort } from './code-server';
import type { ArchiveEndpoints } from './workspace';

export interface RunningArchives extends ArchiveEndpoints {
  close(): Promise<void>;
}

interface ArchiveServerModule {
  startArchiveServer(options?: { port?: number; host?: string }): Promise<{ url: string; close(): Promise<void> }>;
}

export async function startArchives(): Promise<RunningArchives> {
  // A port that was free a moment ago: connections to it are refused.
  const unreachableUrl = `http://127.0.0.1:${await freePort()}/esmond/perfsonar/archive/`;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const mod = require('../../archive/server') as ArchiveServerModule;
  const archive = await mod.startArchiveServer({ port: 0, host: '127.0.0.1' });
  return { archiveUrl: archive.url, unreachableUrl, close: () => archive.close() };
}
