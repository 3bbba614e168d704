// Adapter to the expansion engine (server/src/template/expand): the only file that knows its entry point.
import type { ExpandTasksResult, ServerSettings } from '../../../common/protocol';
import { expandText } from '../template/expand/from-text';
import type { JqConfig } from '../template/jq/config';
import { policyFor, type IncludeScope } from '../template/includes/scope';

export interface EngineInput {
  uri: string;
  version: number | null;
  text: string;
  /** How this document's `includes` are read (working directory, folders, remote permission, open files). */
  includeScope: IncludeScope;
  agentAddresses: string[];
  limit: number | undefined;
  settings: ServerSettings;
  /** jq binary, limits, or why jq may not run (settings.ts jqConfigOf). */
  jq: JqConfig;
}

/** `isCancelled` is polled by the engine between phases; a cancelled run answers `error: 'cancelled'`. */
export async function runEngine(input: EngineInput, isCancelled?: () => boolean): Promise<ExpandTasksResult> {
  return expandText({
    uri: input.uri,
    version: input.version,
    text: input.text,
    includes: await policyFor(input.includeScope),
    agentAddresses: input.agentAddresses,
    limit: input.limit,
    jq: input.jq,
    isCancelled,
  });
}

/** What of an include scope changes an expansion's result (open files by path and length; the rest as is). */
export function includeScopeKey(scope: IncludeScope): string {
  const { overlays, ...rest } = scope;
  return JSON.stringify([rest, (overlays ?? []).map(([p, t]) => [p, t.length])]);
}
