// workspace/executeCommand: the server's commands for every client (Neovim, Emacs, Helix have no custom requests):
// the lens commands (lens-commands.ts), the task preview as JSON or text, the MeshConfig translation.
import { ResponseError, ErrorCodes } from 'vscode-languageserver/node';
import {
  ServerCommands,
  type ExpandTasksParams,
  type ExpandTasksResult,
  type LensCommandResult,
  type PreviewTasksText,
  type TranslateMeshConfigResult,
} from '../../../../common/protocol';
import { previewText } from '../../template/expand/preview-text';
import { grafanaExplanation } from '../../template/grafana/agent-view';
import { taskOnHosts } from '../../template/hosts';
import type { ServerContext } from './context';
import type { TemplateRequests } from './expansion-handlers';
import { runSafe } from './guard';
import { LENS_COMMANDS, LensCommands } from './lens-commands';
import { openTranslation, translateToFile } from './meshconfig-actions';

/** Registers the commands; the lens commands' files are removed by the LensCommands returned (dispose). */
export function registerCommandHandlers(ctx: ServerContext, requests: TemplateRequests): LensCommands {
  const { connection, documents, log } = ctx;

  // What every code lens runs (lens-commands.ts).
  const lensCommands = new LensCommands({
    connection,
    log,
    canShowDocument: () => ctx.client.files.showDocument,
    expand: requests.expand,
    dashboardPairs: (uri, tasks) => requests.dashboardPairs({ uri, tasks }),
    schedule: (uri, token) => requests.schedule({ uri, noTasks: true }, token),
    grafana: (uri, task) => {
      const doc = documents.get(uri);
      const model = doc && ctx.cache.get(doc).model;
      return model ? grafanaExplanation(model, task) : undefined;
    },
    hosts: (uri, task) => {
      const result = ctx.hostsResults.get(uri);
      return result && taskOnHosts(result, task)?.lines;
    },
  });

  // The same for clients without our custom request (Neovim, Emacs, Helix): workspace/executeCommand.
  connection.onExecuteCommand((params, token) =>
    runSafe<ExpandTasksResult | PreviewTasksText | TranslateMeshConfigResult | LensCommandResult | null>(
      log,
      'executeCommand',
      null,
      token,
      async () => {
        const arg: unknown = params.arguments?.[0];
        const lastTouched = ctx.lastTouched;
        // Without an argument (Helix's :lsp-workspace-command): the document last opened or edited, as below.
        if (LENS_COMMANDS.includes(params.command))
          return lensCommands.run(params.command, arg ?? (lastTouched ? { uri: lastTouched } : undefined), token);
        // Without an argument (Helix's :lsp-workspace-command passes none): the document last opened or edited.
        const request: ExpandTasksParams =
          typeof arg === 'string' ? { uri: arg } : ((arg ?? { uri: lastTouched ?? '' }) as ExpandTasksParams);
        if (params.command === ServerCommands.expandTasks) return requests.expand(request, token);
        if (params.command === ServerCommands.previewTasks) return previewText(await requests.expand(request, token));
        if (params.command === ServerCommands.openTranslation)
          return openTranslation(connection, ctx.client.files, arg);
        if (params.command === ServerCommands.translateMeshConfig)
          return translateToFile(connection, documents, ctx.client.files, arg);
        throw new ResponseError(ErrorCodes.InvalidParams, `unknown command ${params.command}`);
      },
    ),
  );
  return lensCommands;
}
