// The client's side of common/protocol.ts: typed wrappers that send a RequestDef / listen for a
// NotificationDef through the language client (the defs carry only method names and phantom types).
import type * as vscode from 'vscode';
import type { BaseLanguageClient } from 'vscode-languageclient';
import type { NotificationDef, RequestDef } from '../../../common/protocol';

export function sendTypedRequest<P, R>(
  client: BaseLanguageClient,
  def: RequestDef<P, R>,
  params: P,
  token?: vscode.CancellationToken,
): Promise<R> {
  return client.sendRequest<R>(def.method, params, token);
}

export function onTypedNotification<P>(
  client: BaseLanguageClient,
  def: NotificationDef<P>,
  handler: (params: P) => void,
): vscode.Disposable {
  return client.onNotification(def.method, handler);
}
