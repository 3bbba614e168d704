// psconfig/compareTasks and psconfig/compareTaskJson: the editor's task comparison (client/src/compare). The work
// runs where the engine runs (worker/task-comparison.ts); here the document is found (an open one's current
// text, else the file on disk) and a comparison superseded by an edit is asked again on the newer text.
import { ResponseError, ErrorCodes, type CancellationToken } from 'vscode-languageserver/node';
import {
  CompareTaskJsonRequest,
  CompareTasksRequest,
  type CompareTaskJsonParams,
  type CompareTaskJsonResult,
  type CompareTasksParams,
  type CompareTasksResult,
} from '../../../../common/protocol';
import type { ServerContext } from './context';
import { runSafe } from './guard';
import { templateFor } from './template-source';

export function registerCompareHandlers(ctx: ServerContext): void {
  const { connection, documents, expansion, runner, log } = ctx;
  const failed = (uri: string, error: string): CompareTasksResult => ({
    uri,
    version: null,
    id: '',
    error,
    elapsedMs: 0,
  });

  connection.onRequest(CompareTasksRequest.method, (params: CompareTasksParams, token: CancellationToken) =>
    runSafe<CompareTasksResult>(
      log,
      'compareTasks',
      failed(params?.uri ?? '', 'internal error while comparing (see the server log)'),
      token,
      async () => {
        if (!params || typeof params.uri !== 'string' || typeof params.base?.text !== 'string')
          throw new ResponseError(ErrorCodes.InvalidParams, 'compareTasks needs { uri, base: { text, source } }');
        const base = { text: params.base.text, source: String(params.base.source ?? 'base') };
        const summaryOnly = params.summaryOnly === true;
        const t = await templateFor(documents, params.uri);
        if ('error' in t) return failed(params.uri, t.error);
        const { doc } = t;
        if (!t.open)
          return runner.send('compare', { input: await expansion.engineInput(doc, false), base, summaryOnly });
        let r = await runner.send('compare', { input: await expansion.engineInput(doc, true), base, summaryOnly });
        // An edit superseded the run: once more on the newer text.
        const now = documents.get(params.uri);
        if (r.cancelled && now && now.version !== doc.version && !token.isCancellationRequested)
          r = await runner.send('compare', { input: await expansion.engineInput(now, true), base, summaryOnly });
        return r;
      },
    ),
  );

  connection.onRequest(CompareTaskJsonRequest.method, (params: CompareTaskJsonParams, token: CancellationToken) =>
    runSafe<CompareTaskJsonResult>(
      log,
      'compareTaskJson',
      { error: 'internal error (see the server log)' },
      token,
      () => {
        if (!params || typeof params.uri !== 'string' || typeof params.id !== 'string')
          throw new ResponseError(
            ErrorCodes.InvalidParams,
            'compareTaskJson needs { uri, id, side, agent, task, addresses }',
          );
        return runner.send('compareTask', params);
      },
    ),
  );
}
