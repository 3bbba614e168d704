// psconfig/compareHosts: the editor's Hosts view (client/src/hosts/). The client reads the hosts' pScheduler (on
// demand, in the extension host); the comparison runs where the engine runs, on the document's full expansion
// (expansion-shared.ts `hosts`). The last answer per document is kept here, on the main thread, for the task lenses
// and hovers ("how did this task's last day go on its hosts"); it is dropped when the document closes.
import { CodeLensRefreshRequest, ResponseError, ErrorCodes, type CancellationToken } from 'vscode-languageserver/node';
import {
  CompareHostsRequest,
  type CompareHostsParams,
  type CompareHostsResult,
  type HostRead,
  type HostsResult,
} from '../../../../common/protocol';
import type { ServerContext } from './context';
import { runSafe } from './guard';
import { templateFor } from './template-source';

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

/** Registers psconfig/compareHosts; its answers are kept in `ctx.hostsResults` while the document is open. */
export function registerHostsHandlers(ctx: ServerContext): void {
  const { connection, documents, expansion, log } = ctx;
  const kept: Map<string, HostsResult> = ctx.hostsResults;
  documents.onDidClose((e) => kept.delete(e.document.uri));

  connection.onRequest(CompareHostsRequest.method, (params: CompareHostsParams, token: CancellationToken) =>
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
            // The task lenses now have a line to add: the client asks for them again.
            if (ctx.client.lensRefresh) connection.sendRequest(CodeLensRefreshRequest.type).catch(() => undefined);
          }
        }
        return answer;
      },
    ),
  );
}
