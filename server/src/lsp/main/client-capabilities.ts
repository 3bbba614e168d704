// What the client said it can do, read once from `initialize` into one object the handlers read when they run.
import type { ClientCapabilities as LspClientCapabilities } from 'vscode-languageserver/node';
import type { ClientFileCapabilities } from './meshconfig-actions';

export interface ClientCapabilities {
  /** workspace/configuration: settings are asked for (else initializationOptions are all there is). */
  configuration: boolean;
  /** workspace folders and their change notifications. */
  workspaceFolders: boolean;
  /** File watchers for included files (dynamic registration), with relative patterns or plain globs. */
  watchers: 'none' | 'glob' | 'relative';
  /** CompletionList.itemDefaults.editRange (LSP 3.17). */
  editRangeDefault: boolean;
  /** completionItem.snippetSupport. */
  snippets: boolean;
  /** Files created by a workspace edit, and window/showDocument (the MeshConfig translation, the lens commands). */
  files: ClientFileCapabilities;
  /** workspace/codeLens/refresh (LSP 3.16 refreshSupport). */
  lensRefresh: boolean;
}

/** Before `initialize`: nothing. */
export function noClientCapabilities(): ClientCapabilities {
  return {
    configuration: false,
    workspaceFolders: false,
    watchers: 'none',
    editRangeDefault: false,
    snippets: false,
    files: { createFiles: false, showDocument: false },
    lensRefresh: false,
  };
}

export function readClientCapabilities(c: LspClientCapabilities): ClientCapabilities {
  const watch = c.workspace?.didChangeWatchedFiles;
  const editCaps = c.workspace?.workspaceEdit;
  return {
    configuration: c.workspace?.configuration === true,
    workspaceFolders: c.workspace?.workspaceFolders === true,
    watchers: watch?.dynamicRegistration ? (watch.relativePatternSupport ? 'relative' : 'glob') : 'none',
    editRangeDefault: c.textDocument?.completion?.completionList?.itemDefaults?.includes('editRange') === true,
    snippets: c.textDocument?.completion?.completionItem?.snippetSupport === true,
    files: {
      createFiles: editCaps?.documentChanges === true && editCaps.resourceOperations?.includes('create') === true,
      showDocument: c.window?.showDocument?.support === true,
    },
    lensRefresh: c.workspace?.codeLens?.refreshSupport === true,
  };
}
