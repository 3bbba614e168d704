// psconfig/compareHosts: the editor's Hosts view (client/src/hosts/). The client reads the hosts' pScheduler (on
// demand, in the extension host); the comparison runs where the engine runs, on the document's full expansion
// (expansion-shared.ts `hosts`). The last answer per document is kept here, on the main thread, for the task lenses
// and hovers ("how did this task's last day go on its hosts"); it is dropped when the document closes.
import { ResponseError, ErrorCodes, type Connection, type TextDocuments } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import {
  CompareHostsRequest,
  type CompareHostsParams,
  type CompareHostsResult,
  type HostRead,
  type HostsResult,
} from '../../../common/protocol';
import type { ExpansionService } from './expansion-service';
import { runSafe, type Logger } from './guard';
import { templateFor } from './template-source';

export interface HostsDeps {
  connection: Connection;
  documents: TextDocuments<TextDocument>;
  expansion: ExpansionService;
  log: Logger;
  /** Ask the client for lenses again (when it supports workspace/codeLens/refresh). */
  refreshLenses: () => void;
}

/** The last comparison of each open document, for its lenses and hovers. */
export interface HostsResults {
  of(uri: string): HostsResult | undefined;
}

/** A read as the client sent it, kept only if it has the shape the comparison reads. */
function isRead(v: unknown): v is HostRead {
  const r = v as Partial<HostRead> | null;
  return (
    typeof r === 'object' &&
    r !== null &&
    typeof r.host === 'string' &&
    typeof r.url === 'string' &&
    typeof r.readAt === 'string' &&
    typeof r.since === 'string' &&
    Array.isArray(r.tasks)
  );
}

export function registerHostsHandlers(d: HostsDeps): HostsResults {
  const { connection, documents, expansion, log } = d;
  const kept = new Map<string, HostsResult>();
  documents.onDidClose((e) => kept.delete(e.document.uri));

  connection.onRequest(CompareHostsRequest.method, (params: CompareHostsParams, token) =>
    runSafe<CompareHostsResult>(
      log,
      'compareHosts',
      { uri: params?.uri ?? '', version: null, agents: [], error: 'internal error (see the server log)', elapsedMs: 0 },
      token,
      async () => {
        const started = performance.now();
        if (!params || typeof params.uri !== 'string')
          throw new ResponseError(ErrorCodes.InvalidParams, 'compareHosts needs { uri, reads? }');
        if (params.reads !== undefined && !(Array.isArray(params.reads) && params.reads.every(isRead)))
          throw new ResponseError(ErrorCodes.InvalidParams, 'compareHosts: reads must be HostRead objects');
        const t = await templateFor(documents, params.uri);
        if ('error' in t) return { uri: params.uri, version: null, agents: [], error: t.error, elapsedMs: 0 };
        const c = await expansion.hosts(t.doc, params.reads ?? [], t.open);
        const answer: CompareHostsResult = {
          uri: params.uri,
          version: t.open ? t.doc.version : null,
          agents: c.agents,
          elapsedMs: Math.round(performance.now() - started),
        };
        if (c.error !== undefined) answer.error = c.error;
        if (params.reads) {
          answer.result = c.result;
          if (t.open) {
            kept.set(params.uri, c.result);
            d.refreshLenses();
          }
        }
        return answer;
      },
    ),
  );
  return { of: (uri) => kept.get(uri) };
}
