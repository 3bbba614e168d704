// The quick pick of "Show Tasks for Agent…": all agents, one of the template's schedulers, or match
// addresses typed by the user (as an agent's `match-addresses` would list them).
import * as vscode from 'vscode';
import { parseAgentAddressInput } from '../language/server-settings';

interface AgentPick extends vscode.QuickPickItem {
  addresses?: string[];
  custom?: boolean;
}

/** The chosen match addresses ([] for all agents), or undefined when the user cancels. */
export async function pickAgentAddresses(agents: string[], current: string[]): Promise<string[] | undefined> {
  const isCurrent = (a: string[]): boolean =>
    a.length === current.length && a.every((x) => current.some((c) => c.toLowerCase() === x.toLowerCase()));
  const items: AgentPick[] = [
    {
      label: '$(globe) All agents',
      description: isCurrent([]) ? 'shown now' : undefined,
      detail: 'Every task the template generates, whichever agent schedules it',
      addresses: [],
    },
    { label: '', kind: vscode.QuickPickItemKind.Separator },
    ...agents.map((a): AgentPick => ({
      label: `$(server) ${a}`,
      description: isCurrent([a]) ? 'shown now' : undefined,
      addresses: [a],
    })),
    { label: '', kind: vscode.QuickPickItemKind.Separator },
    {
      label: '$(edit) Enter match addresses…',
      detail: 'The addresses an agent matches itself by (its match-addresses)',
      custom: true,
    },
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title: 'Show Tasks for Agent',
    placeHolder: 'Whose tasks should the Tasks view show?',
    matchOnDescription: true,
  });
  if (!picked) return undefined;
  if (!picked.custom) return picked.addresses ?? [];
  const typed = await vscode.window.showInputBox({
    title: 'Agent match addresses',
    prompt: 'Addresses or host names, separated by commas or spaces (matched case-insensitively, as the agent does)',
    value: current.join(', '),
    validateInput: (text) => (parseAgentAddressInput(text).length === 0 ? 'Enter at least one address' : undefined),
  });
  return typed === undefined ? undefined : parseAgentAddressInput(typed);
}

/** Stores the choice in `psconfig.preview.agentAddresses` (workspace when a folder is open, else user settings). */
export async function saveAgentAddresses(addresses: string[]): Promise<void> {
  const target = vscode.workspace.workspaceFolders?.length
    ? vscode.ConfigurationTarget.Workspace
    : vscode.ConfigurationTarget.Global;
  await vscode.workspace.getConfiguration('psconfig').update('preview.agentAddresses', addresses, target);
}
