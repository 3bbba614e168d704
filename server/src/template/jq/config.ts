// Which jq runner a request gets: one per (binary setting, memory limit, disabled reason), so compile checks stay
// cached and a changed setting takes effect at once. Shared by the CLI, the language server and its worker.
import { setJqConcurrency } from './limits';
import { createJqRunner, type JqRunner } from './runner';

export interface JqConfig {
  /** The `psconfig.jq.path` setting (empty: JQ_PATH, node-jq's binary, then PATH; a bare name: PATH). */
  path?: string;
  /** `psconfig.jq.memoryLimitMb` (default 256; 0: no limit). */
  memoryLimitMb?: number;
  /** `psconfig.jq.maxConcurrent`: jq processes at once in this process (default 2). */
  maxConcurrent?: number;
  /** When set, no jq runs and this is the reason given (a restricted workspace). */
  disabled?: string;
  /** Time limit of one run (default 10 s, as Perl's perfSONAR_PS::Utils::JQ); a batch adds 1 ms per combination. */
  timeoutMs?: number;
}

/** What a restricted (untrusted) workspace is told instead of jq results. */
export const JQ_RESTRICTED =
  'jq does not run in a restricted workspace (trust the workspace to check and expand jq programs)';

const runners = new Map<string, JqRunner>();

export function jqRunnerFor(config: JqConfig | string | undefined): JqRunner {
  const c: JqConfig = typeof config === 'string' ? { path: config } : (config ?? {});
  if (c.maxConcurrent !== undefined) setJqConcurrency(c.maxConcurrent);
  const memoryLimitMb =
    typeof c.memoryLimitMb === 'number' && Number.isFinite(c.memoryLimitMb) && c.memoryLimitMb >= 0
      ? c.memoryLimitMb
      : undefined;
  const timeoutMs = typeof c.timeoutMs === 'number' && c.timeoutMs > 0 ? c.timeoutMs : undefined;
  const key = JSON.stringify([c.path ?? '', memoryLimitMb ?? null, c.disabled ?? '', timeoutMs ?? null]);
  let r = runners.get(key);
  // A binary that was missing may have been installed since: resolve again.
  if (!r || (r.unavailable && !c.disabled)) {
    r = createJqRunner({ jqPath: c.path, memoryLimitMb, disabled: c.disabled, timeoutMs });
    runners.set(key, r);
  }
  return r;
}
