// The code lenses in VS Code. The server puts its own commands in every lens (it runs them for editors without this
// extension: server/src/lsp/main/lens-commands.ts); here each becomes the extension's richer command, as the lens
// arrives, so a lens opens the Tasks view, the dashboard panel, the archive explorer or the host timeline and never a
// text file.
// Rewriting on arrival rather than intercepting on click keeps what VS Code shows and runs the extension's command
// itself, whether or not the server is still running when the lens is clicked. Pure: no `vscode` import.
import { ServerCommands, type ShowTasksArgs } from '../../../common/protocol';

/** The fields of a command this file reads and writes (vscode.Command has them). */
export interface LensCommand {
  command: string;
  arguments?: unknown[];
}

/** The extension's command for a lens command of the server (other commands unchanged). */
export function extensionCommandFor<C extends LensCommand>(cmd: C): C {
  switch (cmd.command) {
    case ServerCommands.showTasks: {
      // psconfig.previewTasks takes the template URI (and shows every task of it).
      const uri = (cmd.arguments?.[0] as ShowTasksArgs | undefined)?.uri;
      return { ...cmd, command: 'psconfig.previewTasks', arguments: uri ? [uri] : [] };
    }
    case ServerCommands.showDashboard:
      return { ...cmd, command: 'psconfig.openDashboard' };
    case ServerCommands.openArchive:
      return { ...cmd, command: 'psconfig.openArchiveExplorer' };
    case ServerCommands.showSchedule:
      // psconfig.openSchedule takes the same OpenScheduleArgs: the host timeline, on the lens's task.
      return { ...cmd, command: 'psconfig.openSchedule' };
    case ServerCommands.showHosts:
      // psconfig.showHosts takes the same ShowTasksArgs: the Hosts view, on the lens's task.
      return { ...cmd, command: 'psconfig.showHosts' };
    default:
      return cmd;
  }
}

/** A lens with the extension's command in place of the server's (the lens object is kept: it carries its data). */
export function withExtensionCommand<L extends { command?: LensCommand }>(lens: L): L {
  if (lens.command) lens.command = extensionCommandFor(lens.command);
  return lens;
}
