// Adapter to the expansion engine (server/src/template/expand): the only file that knows its entry point.
import type { ExpandTasksResult, ServerSettings } from '../../../common/protocol';
import { expandText } from '../template/expand/from-text';
import type { JqConfig } from '../template/jq/config';

export interface EngineInput {
  uri: string;
  version: number | null;
  text: string;
  /** Directory `includes` are resolved against (undefined for untitled / non-file documents). */
  baseDir: string | undefined;
  agentAddresses: string[];
  limit: number | undefined;
  settings: ServerSettings;
  /** jq binary, limits, or why jq may not run (settings.ts jqConfigOf). */
  jq: JqConfig;
}

/** `isCancelled` is polled by the engine between phases; a cancelled run answers `error: 'cancelled'`. */
export function runEngine(input: EngineInput, isCancelled?: () => boolean): Promise<ExpandTasksResult> {
  return expandText({
    uri: input.uri,
    version: input.version,
    text: input.text,
    baseDir: input.baseDir,
    agentAddresses: input.agentAddresses,
    limit: input.limit,
    jq: input.jq,
    // A restricted workspace fetches no remote include, whatever its settings say.
    allowRemoteIncludes: input.settings.includesAllowRemote === true && input.settings.workspaceTrusted !== false,
    isCancelled,
  });
}
