// What the expansion engine needs for one run of a document (built on the main thread: main/expansion-service.ts;
// run where the engine runs: worker/expansion-engine.ts), and the part of it that keys caches on both sides.
import type { ServerSettings } from '../../../../common/protocol';
import type { JqConfig } from '../../template/jq/config';
import type { IncludeScope } from '../../template/includes/scope';

export interface EngineInput {
  uri: string;
  /** null: a file that is not open (read from disk), never shared. */
  version: number | null;
  text: string;
  /** How this document's `includes` are read (working directory, folders, remote permission, open files). */
  includeScope: IncludeScope;
  agentAddresses: string[];
  limit: number | undefined;
  settings: ServerSettings;
  /** jq binary, limits, or why jq may not run (main/settings.ts jqConfigOf). */
  jq: JqConfig;
}

/** What of an include scope changes an expansion's result (open files by path and length; the rest as is). */
export function includeScopeKey(scope: IncludeScope): string {
  const { overlays, ...rest } = scope;
  return JSON.stringify([rest, (overlays ?? []).map(([p, t]) => [p, t.length])]);
}
