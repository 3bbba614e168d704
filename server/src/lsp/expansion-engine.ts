// Adapter to the expansion engine (server/src/template/expand): the only file that knows its entry point.
import type { ExpandTasksResult, ServerSettings } from '../../../common/protocol';

export interface EngineInput {
  uri: string;
  version: number | null;
  text: string;
  /** Directory `includes` are resolved against (undefined for untitled / non-file documents). */
  baseDir: string | undefined;
  agentAddresses: string[];
  limit: number | undefined;
  settings: ServerSettings;
  jqPath: string | undefined;
  isCancelled: () => boolean;
}

export async function runEngine(input: EngineInput): Promise<ExpandTasksResult> {
  return {
    uri: input.uri,
    version: input.version,
    error: 'The expansion engine is not available in this build.',
    tasks: [],
    combinations: [],
    truncated: false,
    notes: [],
    agents: [],
    elapsedMs: 0,
  };
}
