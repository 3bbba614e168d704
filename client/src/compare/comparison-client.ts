// The comparison's two requests (common/protocol.ts): compare a template with another version of it, and read one
// side of one task of the latest comparison.
import type * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import {
  CompareTaskJsonRequest,
  CompareTasksRequest,
  type CompareTaskJsonParams,
  type CompareTaskJsonResult,
  type CompareTasksResult,
} from '../../../common/protocol';
import { sendTypedRequest } from '../language/typed-messages';

export class ComparisonClient {
  constructor(private readonly startClient: () => Promise<LanguageClient>) {}

  async compare(
    template: vscode.Uri,
    base: { text: string; source: string },
    summaryOnly: boolean,
    token?: vscode.CancellationToken,
  ): Promise<CompareTasksResult> {
    const client = await this.startClient();
    const uri = client.code2ProtocolConverter.asUri(template);
    return sendTypedRequest(client, CompareTasksRequest, { uri, base, summaryOnly }, token);
  }

  async taskJson(
    params: Omit<CompareTaskJsonParams, 'uri'> & { template: vscode.Uri },
    token?: vscode.CancellationToken,
  ): Promise<CompareTaskJsonResult> {
    const client = await this.startClient();
    const { template, ...rest } = params;
    return sendTypedRequest(
      client,
      CompareTaskJsonRequest,
      { ...rest, uri: client.code2ProtocolConverter.asUri(template) },
      token,
    );
  }
}
