// The requests answered from a template's expansion: psconfig/expandTasks (the Tasks view, previews),
// psconfig/dashboardPairs (the mesh dashboard's grids) and psconfig/schedule (the simulated schedule: host timeline,
// agents' loads). Each takes an open document (shared per version) or the file on disk; the same functions serve the
// server commands and lens commands (command-handlers.ts).
import { ResponseError, ErrorCodes, type CancellationToken } from 'vscode-languageserver/node';
import {
  emptyExpansionResult,
  emptyScheduleResult,
  DashboardPairsRequest,
  ExpandTasksRequest,
  ScheduleRequest,
  type DashboardPairsParams,
  type DashboardPairsResult,
  type ExpandTasksParams,
  type ExpandTasksResult,
  type ScheduleParams,
  type ScheduleResult,
} from '../../../../common/protocol';
import type { ServerContext } from './context';
import { runSafe } from './guard';
import { templateFor } from './template-source';

/** The answers of the three requests, for the commands that show them. */
export interface TemplateRequests {
  expand: (params: ExpandTasksParams, token?: CancellationToken) => Promise<ExpandTasksResult>;
  dashboardPairs: (params: DashboardPairsParams) => Promise<DashboardPairsResult>;
  schedule: (params: ScheduleParams, token?: CancellationToken) => Promise<ScheduleResult>;
}

export function registerExpansionHandlers(ctx: ServerContext): TemplateRequests {
  const { connection, documents, expansion, log } = ctx;

  /** The expansion of an open document (or the file on disk), for the request and the server command alike. */
  const expandFor = async (params: ExpandTasksParams, token?: CancellationToken): Promise<ExpandTasksResult> => {
    if (!params || typeof params.uri !== 'string')
      throw new ResponseError(ErrorCodes.InvalidParams, 'expandTasks needs { uri }');
    const t = await templateFor(documents, params.uri);
    if ('error' in t) return emptyExpansionResult(params.uri, null, t.error);
    // Not open in the editor: the file on disk, expanded for this request alone.
    return t.open ? expansion.expand(t.doc, params, token) : expansion.expandUncached(t.doc, params);
  };

  /** The dashboard pairs of an open document (or the file on disk), for the request and the Dashboard lens alike. */
  const dashboardPairsFor = async (params: DashboardPairsParams): Promise<DashboardPairsResult> => {
    if (!params || typeof params.uri !== 'string')
      throw new ResponseError(ErrorCodes.InvalidParams, 'dashboardPairs needs { uri }');
    const tasks = Array.isArray(params.tasks) ? params.tasks.filter((t) => typeof t === 'string') : undefined;
    const t = await templateFor(documents, params.uri);
    if ('error' in t) return { uri: params.uri, version: null, error: t.error, tasks: [], elapsedMs: 0 };
    return expansion.dashboardPairs(t.doc, tasks, t.open);
  };

  /** The simulated schedule of an open document (or the file on disk): the request, the lenses, the hovers. */
  const scheduleFor = async (params: ScheduleParams, token?: CancellationToken): Promise<ScheduleResult> => {
    if (!params || typeof params.uri !== 'string')
      throw new ResponseError(ErrorCodes.InvalidParams, 'schedule needs { uri }');
    const strings = (v: unknown): string[] | undefined =>
      Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined;
    const clean: ScheduleParams = {
      uri: params.uri,
      runs: params.runs === true,
      noTasks: params.noTasks === true,
      hosts: strings(params.hosts),
      task: typeof params.task === 'string' ? params.task : undefined,
      agent: typeof params.agent === 'string' ? params.agent : undefined,
    };
    const t = await templateFor(documents, params.uri);
    if ('error' in t) return emptyScheduleResult(params.uri, t.error);
    return expansion.schedule(t.doc, clean, t.open, token);
  };

  connection.onRequest(ExpandTasksRequest.method, (params: ExpandTasksParams, token: CancellationToken) =>
    runSafe<ExpandTasksResult>(
      log,
      'expandTasks',
      emptyExpansionResult(params?.uri ?? '', null, 'internal error while expanding (see the server log)'),
      token,
      () => expandFor(params, token),
    ),
  );

  connection.onRequest(ScheduleRequest.method, (params: ScheduleParams, token: CancellationToken) =>
    runSafe<ScheduleResult>(
      log,
      'schedule',
      emptyScheduleResult(params?.uri ?? '', 'internal error (see the server log)'),
      token,
      () => scheduleFor(params, token),
    ),
  );

  connection.onRequest(DashboardPairsRequest.method, (params: DashboardPairsParams, token: CancellationToken) =>
    runSafe<DashboardPairsResult>(
      log,
      'dashboardPairs',
      { uri: params?.uri ?? '', version: null, error: 'internal error (see the server log)', tasks: [], elapsedMs: 0 },
      token,
      () => dashboardPairsFor(params),
    ),
  );

  return { expand: expandFor, dashboardPairs: dashboardPairsFor, schedule: scheduleFor };
}
