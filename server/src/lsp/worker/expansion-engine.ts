// Adapter to the expansion engine (server/src/template/expand): the only file that knows its entry point.
import type { ExpandTasksResult } from '../../../../common/protocol';
import { expandText } from '../../template/expand/from-text';
import { policyFor } from '../../template/includes/scope';
import type { EngineInput } from '../jobs/engine-input';

/** `isCancelled` is polled by the engine between phases; a cancelled run answers with `cancelled` set (protocol.ts Stoppable). */
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
