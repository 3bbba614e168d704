// Template text → ExpandTasksResult: the one entry point the CLI and the language server share.
// Parses, resolves local includes against the template's directory, picks the jq runner, and never throws.
import { readFile } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { emptyExpansionResult, ExpandTasksResult } from '../../../../common/protocol';
import { jqRunnerFor, type JqConfig } from '../jq/config';
import { LineIndex } from '../positions';
import { expandTemplate } from './engine';

export interface ExpandTextInput {
  uri: string;
  version: number | null;
  text: string;
  /** Directory relative `includes` are resolved against (undefined: only absolute paths can be read). */
  baseDir?: string;
  agentAddresses?: string[];
  limit?: number;
  /** The `psconfig.jq.path` setting (empty: JQ_PATH, node-jq's binary, then PATH); `jq` replaces it. */
  jqPath?: string;
  /** jq binary, limits, or the reason jq may not run (restricted workspace). */
  jq?: JqConfig;
  allowRemoteIncludes?: boolean;
  /** Reads include files (default: the file system). */
  readFile?: (path: string) => Promise<string>;
  /** A newer request superseded this one: the expansion stops early with `error: 'cancelled'`. */
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
  const read = input.readFile ?? ((p: string) => readFile(p, 'utf8'));
  const readInclude = async (path: string): Promise<string> => {
    if (isAbsolute(path)) return read(path);
    if (!input.baseDir)
      throw new Error(
        'a relative include path needs a template saved on disk (pSConfig itself expects an absolute path or URL)',
      );
    return read(resolve(input.baseDir, path));
  };
  try {
    const r = await expandTemplate(template, {
      // Every jq run of this expansion is killed when it is cancelled (a newer version of the document).
      jq: jqRunnerFor(input.jq ?? { path: input.jqPath }).cancellable(input.isCancelled),
      agentAddresses: input.agentAddresses,
      limit: input.limit,
      readInclude,
      allowRemoteIncludes: input.allowRemoteIncludes,
      isCancelled: input.isCancelled,
    });
    // Cancelled while jq ran: its runs were killed, so the combinations hold no real values.
    if (input.isCancelled?.()) return empty('cancelled');
    const { jqProcesses: _jq, ...rest } = r;
    return { uri: input.uri, version: input.version, ...rest };
  } catch (e) {
    // A bug in the engine must not take the server down; report it as the expansion's error.
    return empty(`Internal error while expanding: ${(e as Error).stack ?? String(e)}`);
  }
}
