// Template text → ExpandTasksResult: the one entry point the CLI and the language server share.
// Parses, reads includes under the caller's policy (includes/loader.ts), picks the jq runner, and never throws.
import { emptyExpansionResult, STOPPED, type ExpandTasksResult } from '../../../../common/protocol';
import { jqRunnerFor, type JqConfig } from '../jq/config';
import { LineIndex } from '../positions';
import { expandTemplate } from './engine';
import { loadIncludes, type IncludePolicy } from '../includes/loader';

export interface ExpandTextInput {
  uri: string;
  version: number | null;
  text: string;
  /** How `includes` are read (undefined: not at all; each entry becomes an error note). */
  includes?: IncludePolicy;
  agentAddresses?: string[];
  limit?: number;
  /** The `psconfig.jq.path` setting (empty: JQ_PATH, node-jq's binary, then PATH); `jq` replaces it. */
  jqPath?: string;
  /** jq binary, limits, or the reason jq may not run (restricted workspace). */
  jq?: JqConfig;
  /** A newer request superseded this one: the expansion stops early, `cancelled` set (protocol.ts Stoppable). */
  isCancelled?: () => boolean;
}

export { jqRunnerFor } from '../jq/config';

/** The first JSON syntax error as `line L, column C: message` (1-based, as editors show it). */
export function syntaxErrorOf(text: string): string | undefined {
  try {
    JSON.parse(text);
    return undefined;
  } catch (e) {
    // V8 names the offset ("... in JSON at position 123"); we add line and column.
    const message = (e as Error).message;
    const at = /at position (\d+)/.exec(message);
    const offset = at ? Number(at[1]) : /end of JSON input/.test(message) ? text.length : undefined;
    if (offset === undefined) return `JSON syntax error: ${message}`;
    const p = new LineIndex(text).positionAt(offset);
    return `JSON syntax error at line ${p.line + 1}, column ${p.character + 1}: ${message.replace(/ in JSON at position \d+.*$/, '')}`;
  }
}

export async function expandText(input: ExpandTextInput): Promise<ExpandTasksResult> {
  const empty = (error: string): ExpandTasksResult => emptyExpansionResult(input.uri, input.version, error);
  let template: unknown;
  try {
    template = JSON.parse(input.text);
  } catch {
    return empty(syntaxErrorOf(input.text) ?? 'The template is not valid JSON.');
  }
  const policy = input.includes;
  try {
    const r = await expandTemplate(template, {
      // Every jq run of this expansion is killed when it is cancelled (a newer version of the document).
      jq: jqRunnerFor(input.jq ?? { path: input.jqPath }).cancellable(input.isCancelled),
      agentAddresses: input.agentAddresses,
      limit: input.limit,
      loadIncludes: policy ? (refs) => loadIncludes(refs, policy) : undefined,
      isCancelled: input.isCancelled,
    });
    // Cancelled while jq ran: its runs were killed, so the combinations hold no real values.
    if (input.isCancelled?.()) return { ...empty(STOPPED.error), cancelled: true };
    const { jqProcesses: _jq, ...rest } = r;
    return { uri: input.uri, version: input.version, ...rest };
  } catch (e) {
    // A bug in the engine must not take the server down; report it as the expansion's error.
    return empty(`Internal error while expanding: ${(e as Error).stack ?? String(e)}`);
  }
}
