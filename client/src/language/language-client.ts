// Starts the pSConfig language server (dist/server.js over Node IPC) and forwards the `psconfig` settings
// to it as the flat ServerSettings of common/protocol.ts, both when the server pulls them
// (workspace/configuration) and when they change (workspace/didChangeConfiguration). Bundled on its own
// (dist/language-client.js with vscode-languageclient), loaded when the first template needs the server.
import * as vscode from 'vscode';
import {
  DidChangeConfigurationNotification,
  LanguageClient,
  ResponseError,
  TransportKind,
  type DocumentSelector,
  type LanguageClientOptions,
  type ServerOptions,
} from 'vscode-languageclient/node';
import { ServerCommands, type ServerSettings } from '../../../common/protocol';
import { SERVER_PROCESS_ENV } from '../../../common/server-env';
import { LANGUAGE_ID } from './language-id';
import { withExtensionCommand } from './lens-commands';
import { SERVER_SETTING_KEYS, serverSettingsFrom } from './server-settings';

export { LANGUAGE_ID } from './language-id';
const SECTION = 'psconfig';

export function currentServerSettings(scope?: vscode.Uri): ServerSettings {
  const config = vscode.workspace.getConfiguration(SECTION, scope);
  return serverSettingsFrom(
    (key) => config.get(key),
    vscode.workspace.isTrusted,
    (key) => config.inspect(key)?.globalValue,
  );
}

/** Templates by language, plus JSON documents matched by `psconfig.files` that the user keeps as plain JSON. */
export function templateDocumentSelector(globs: readonly string[]): DocumentSelector {
  return [{ language: LANGUAGE_ID }, ...globs.map((pattern) => ({ language: 'json', pattern }))];
}

export function createLanguageClient(
  context: vscode.ExtensionContext,
  output: vscode.LogOutputChannel,
): LanguageClient {
  const module = context.asAbsolutePath('dist/server.js');
  const serverOptions: ServerOptions = {
    // (The client adds its own environment to `env`: these only fix malloc's thresholds, common/server-env.ts.)
    run: { module, transport: TransportKind.ipc, options: { env: { ...SERVER_PROCESS_ENV } } },
    debug: {
      module,
      transport: TransportKind.ipc,
      options: { env: { ...SERVER_PROCESS_ENV }, execArgv: ['--nolazy', '--inspect=6019'] },
    },
  };
  const globs = vscode.workspace.getConfiguration(SECTION).get<string[]>('files') ?? [];
  // `client` is assigned below; the middleware only runs after start.
  // eslint-disable-next-line prefer-const -- the middleware below reads it before the assignment
  let client: LanguageClient | undefined;
  const clientOptions: LanguageClientOptions = {
    documentSelector: templateDocumentSelector(globs),
    outputChannel: output,
    // The settings (trust included) from the first message on; the server also pulls them after `initialized`.
    initializationOptions: () => ({ settings: currentServerSettings() }),
    // Only the settings the server reads (not, say, psconfig.archives) make it recompute previews.
    synchronize: { configurationSection: SERVER_SETTING_KEYS.map((key) => `${SECTION}.${key}`) },
    middleware: {
      // The MeshConfig translation's quick fix ends with openTranslation: the server would ask for the file with
      // window/showDocument (in the active column); here it opens beside the MeshConfig file instead.
      executeCommand: async (command, args, next) => {
        if (command === ServerCommands.openTranslation && typeof args[0] === 'string') {
          await vscode.window.showTextDocument(vscode.Uri.parse(args[0]), {
            viewColumn: vscode.ViewColumn.Beside,
            preview: false,
          });
          return null;
        }
        return next(command, args) as unknown;
      },
      // The server's lens commands become the extension's views (lens-commands.ts).
      provideCodeLenses: async (document, token, next) => (await next(document, token))?.map(withExtensionCommand),
      resolveCodeLens: async (lens, token, next) => {
        const resolved = await next(lens, token);
        return resolved && withExtensionCommand(resolved);
      },
      workspace: {
        configuration: async (params, token, next) => {
          const base: unknown[] | ResponseError<void> = await next(params, token);
          if (base instanceof ResponseError) return base;
          return params.items.map((item, i): unknown =>
            item.section === SECTION
              ? currentServerSettings(item.scopeUri ? vscode.Uri.parse(item.scopeUri) : undefined)
              : base[i],
          );
        },
        // Send ServerSettings' flat shape instead of VS Code's nested view of the section.
        didChangeConfiguration: async () => {
          await client?.sendNotification(DidChangeConfigurationNotification.type, {
            settings: { [SECTION]: currentServerSettings() },
          });
        },
      },
    },
  };
  client = new LanguageClient('psconfig', 'pSConfig Language Server', serverOptions, clientOptions);
  // Trust is part of ServerSettings (remote includes need it): granting it is a settings change for the server.
  context.subscriptions.push(
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      if (client?.isRunning())
        void client.sendNotification(DidChangeConfigurationNotification.type, {
          settings: { [SECTION]: currentServerSettings() },
        });
    }),
  );
  return client;
}
