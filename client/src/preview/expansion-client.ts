// Asks the language server to expand a template (the one typed request of common/protocol.ts) and relays
// its "template changed" notifications. The language client starts lazily, on first use.
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import {
  CompareHostsRequest,
  type CompareHostsResult,
  type HostRead,
  DashboardPairsRequest,
  ExpandTasksRequest,
  ScheduleRequest,
  type DashboardPairsResult,
  type ScheduleParams,
  type ScheduleResult,
  TemplateChangedNotification,
  type ExpandTasksResult,
  type TemplateChangedParams,
} from '../../../common/protocol';
import { onTypedNotification, sendTypedRequest } from '../language/typed-messages';

export interface ExpansionRequestOptions {
  agentAddresses: string[];
  limit?: number;
}

export class ExpansionClient implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<TemplateChangedParams>();
  /** The server says a template's previews are stale (uri as the server knows it). */
  readonly onTemplateChanged = this.changed.event;
  private listening: vscode.Disposable | undefined;

  constructor(private readonly startClient: () => Promise<LanguageClient>) {}

  /** Wires the notification once the client exists (called by the activation code right after creating it). */
  attach(client: LanguageClient): void {
    this.listening?.dispose();
    this.listening = onTypedNotification(client, TemplateChangedNotification, (p) => this.changed.fire(p));
  }

  /** The server's name for a document (the same conversion the client uses in didOpen). */
  async serverUri(uri: vscode.Uri): Promise<string> {
    return (await this.startClient()).code2ProtocolConverter.asUri(uri);
  }

  async expand(
    template: vscode.Uri,
    options: ExpansionRequestOptions,
    token?: vscode.CancellationToken,
  ): Promise<ExpandTasksResult> {
    const client = await this.startClient();
    const uri = client.code2ProtocolConverter.asUri(template);
    return sendTypedRequest(
      client,
      ExpandTasksRequest,
      { uri, agentAddresses: options.agentAddresses, limit: options.limit },
      token,
    );
  }

  /** The dashboard grids of a template (psconfig/dashboardPairs): configured directions per task, compactly. */
  async dashboardPairs(
    template: vscode.Uri,
    tasks: string[] | undefined,
    token?: vscode.CancellationToken,
  ): Promise<DashboardPairsResult> {
    const client = await this.startClient();
    const uri = client.code2ProtocolConverter.asUri(template);
    return sendTypedRequest(client, DashboardPairsRequest, { uri, tasks }, token);
  }

  /** The simulated schedule of a template (psconfig/schedule): loads, per-task counts and, when asked, its runs. */
  async schedule(
    template: vscode.Uri,
    options: Omit<ScheduleParams, 'uri'>,
    token?: vscode.CancellationToken,
  ): Promise<ScheduleResult> {
    const client = await this.startClient();
    const uri = client.code2ProtocolConverter.asUri(template);
    return sendTypedRequest(client, ScheduleRequest, { ...options, uri }, token);
  }

  /**
   * What the hosts read run, against the template's full expansion (psconfig/compareHosts); without `reads`, only
   * the template's agents. The server keeps the comparison for the task lenses and hovers.
   */
  async hosts(template: vscode.Uri, reads?: HostRead[], token?: vscode.CancellationToken): Promise<CompareHostsResult> {
    const client = await this.startClient();
    const uri = client.code2ProtocolConverter.asUri(template);
    return sendTypedRequest(client, CompareHostsRequest, reads ? { uri, reads } : { uri }, token);
  }

  dispose(): void {
    this.listening?.dispose();
    this.changed.dispose();
  }
}
