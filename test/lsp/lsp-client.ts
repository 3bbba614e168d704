// Test client: spawns the bundled server (`node dist/server.js --stdio`) as a real child process and talks LSP
// to it over its stdin/stdout. Diagnostics and server log messages are collected for assertions.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type Diagnostic,
  type MarkupContent,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
  type InitializeResult,
  type ShowDocumentParams,
} from 'vscode-languageserver-protocol/node';
import type { TemplateChangedParams } from '../../common/protocol';

export const repoRoot = join(__dirname, '..', '..', '..');
/** What LspClient.start can declare to the server and set in its environment. */
export interface StartOptions {
  itemDefaults?: boolean;
  /** Declare completionItem.snippetSupport. */
  snippets?: boolean;
  settings?: Record<string, unknown>;
  watchFiles?: boolean;
  workspaceFolders?: string[];
  /** Extra environment of the server process (replaces the variables it names). */
  env?: Record<string, string>;
  configurationDelayMs?: number;
  /** Declare workspaceEdit.documentChanges with the `create` resource operation (as VS Code does). */
  files?: boolean;
  /** Declare window.showDocument support (the client answers every request with success). */
  showDocument?: boolean;
  /** Declare workspace.codeLens.refreshSupport (the requests are counted in `lensRefreshes`). */
  lensRefresh?: boolean;
  /** The server's command line (default: `node dist/server.js --stdio`), e.g. the packed package's binary. */
  command?: string[];
}

/**
 * One server for the tests of a file: started (with `open` documents opened) before them, stopped after them,
 * having logged no handler errors. `use` receives the client once it runs.
 *
 *   let client: LspClient;
 *   serverForSuite((c) => (client = c));
 */
export function serverForSuite(
  use: (client: LspClient) => void,
  options: StartOptions = {},
  open: [uri: string, text: string][] = [],
): void {
  let client: LspClient | undefined;
  before(async () => {
    client = await LspClient.start(options);
    for (const [uri, text] of open) await client.open(uri, text);
    use(client);
  });
  after(async () => {
    if (!client) return;
    assert.deepEqual(client.loggedErrors(), [], 'the server logged no handler errors');
    await client.stop();
  });
}

/** The bundled server under test (PSCONFIG_SERVER_JS overrides it, e.g. to test a packaged build). */
export const serverJs = process.env.PSCONFIG_SERVER_JS ?? join(repoRoot, 'dist', 'server.js');
export { examplesDir, exampleText, exampleUri } from '../fixtures';

const WAIT_LIMIT_MS = 60000;

interface Waiter {
  uri: string;
  version: number | undefined;
  resolve: (d: Diagnostic[]) => void;
  reject: (e: Error) => void;
}

export class LspClient {
  readonly connection: ProtocolConnection;
  readonly logs: { type: number; message: string }[] = [];
  /** workspace/codeLens/refresh requests received. */
  lensRefreshes = 0;
  readonly templateChanged: TemplateChangedParams[] = [];
  private listeners: { check: () => void; fail: (e: Error) => void }[] = [];
  private readonly diagnostics = new Map<string, PublishDiagnosticsParams>();
  /** Every textDocument/publishDiagnostics received, in order (tests count them per version). */
  readonly publications: PublishDiagnosticsParams[] = [];
  private waiters: Waiter[] = [];
  /** `client/registerCapability` registrations the server asked for (file watchers, …). */
  readonly registrations: { id: string; method: string; registerOptions?: unknown }[] = [];
  /** window/showDocument requests and window/showMessage notifications the server sent. */
  readonly shownDocuments: ShowDocumentParams[] = [];
  readonly messages: { type: number; message: string }[] = [];
  /** What the server answered to `initialize`. */
  initializeResult: InitializeResult | undefined;
  private exited = false;
  private versions = new Map<string, number>();
  /** What the server gets for workspace/configuration section `psconfig` (VS Code's nested shape). */
  /** Answers workspace/configuration this much later (a slow client). */
  configurationDelayMs = 0;
  settings: Record<string, unknown> = {
    jq: { path: process.env.JQ_PATH ?? '/usr/bin/jq' },
    preview: { agentAddresses: [] },
  };

  private constructor(readonly child: ChildProcessWithoutNullStreams) {
    this.connection = createProtocolConnection(
      new StreamMessageReader(child.stdout),
      new StreamMessageWriter(child.stdin),
    );
    child.on('exit', (code, signal) => {
      this.exited = true;
      // A dead server must fail the waiting test with its output, not leave it pending.
      const err = new Error(
        `server exited (code ${code}, signal ${signal}): ${this.logs
          .map((l) => l.message)
          .join('\n')
          .slice(0, 2000)}`,
      );
      for (const w of this.waiters) w.reject(err);
      this.waiters = [];
      for (const l of this.listeners.splice(0)) l.fail(err);
    });
    child.stderr.on('data', (b: Buffer) => {
      this.logs.push({ type: 0, message: b.toString() });
      this.heard();
    });
    this.connection.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
      this.diagnostics.set(p.uri, p);
      this.publications.push(p);
      const ready = this.waiters.filter((w) => w.uri === p.uri && (w.version === undefined || p.version === w.version));
      this.waiters = this.waiters.filter((w) => !ready.includes(w));
      for (const w of ready) w.resolve(p.diagnostics);
      this.heard();
    });
    this.connection.onNotification('window/logMessage', (p: { type: number; message: string }) => {
      this.logs.push(p);
      this.heard();
    });
    this.connection.onNotification('psconfig/templateChanged', (p: TemplateChangedParams) => {
      this.templateChanged.push(p);
      this.heard();
    });
    this.connection.onRequest('workspace/configuration', async (p: { items: { section?: string }[] }) => {
      if (this.configurationDelayMs) await new Promise((r) => setTimeout(r, this.configurationDelayMs));
      return p.items.map((i) => (i.section === 'psconfig' ? this.settings : null));
    });
    this.connection.onRequest(
      'client/registerCapability',
      (p: { registrations: { id: string; method: string; registerOptions?: unknown }[] }) => {
        this.registrations.push(...p.registrations);
        return null;
      },
    );
    this.connection.onRequest('client/unregisterCapability', () => null);
    this.connection.onRequest('workspace/codeLens/refresh', () => {
      this.lensRefreshes++;
      this.heard();
      return null;
    });
    this.connection.onRequest('window/showDocument', (p: ShowDocumentParams) => {
      this.shownDocuments.push(p);
      this.heard();
      return { success: true };
    });
    this.connection.onNotification('window/showMessage', (p: { type: number; message: string }) => {
      this.messages.push(p);
      this.heard();
    });
    this.connection.listen();
  }

  /**
   * `itemDefaults`: declare LSP 3.17 CompletionList.itemDefaults support, as VS Code does. `settings`: the
   * `psconfig` section answered from the start (default: jq.path from JQ_PATH). `watchFiles`: declare dynamic
   * registration of file watchers (relative patterns). `workspaceFolders`: folder URIs.
   */
  static async start(options: StartOptions = {}): Promise<LspClient> {
    const [program, ...args] = options.command ?? [process.execPath, serverJs, '--stdio'];
    const child = spawn(program, args, {
      cwd: repoRoot,
      env: {
        ...process.env,
        PSCONFIG_DIAGNOSTICS_DELAY_MS: '20',
        JQ_PATH: process.env.JQ_PATH ?? '/usr/bin/jq',
        ...options.env,
      },
    });
    const client = new LspClient(child);
    if (options.settings) client.settings = options.settings;
    client.configurationDelayMs = options.configurationDelayMs ?? 0;
    const died = new Promise<never>((_, reject) =>
      child.once('exit', (code) =>
        reject(
          new Error(
            `${args.join(' ')} exited with code ${code} before initializing: ${client.logs
              .map((l) => l.message)
              .join('')
              .slice(0, 2000)}`,
          ),
        ),
      ),
    );
    await Promise.race([died, client.initialize(options)]);
    return client;
  }

  private async initialize(options: StartOptions) {
    const itemDefaults = options.itemDefaults === true;
    const completion = {
      ...(itemDefaults ? { completionList: { itemDefaults: ['editRange'] } } : {}),
      ...(options.snippets ? { completionItem: { snippetSupport: true } } : {}),
    };
    this.initializeResult = await this.connection.sendRequest<InitializeResult>('initialize', {
      processId: process.pid,
      rootUri: null,
      workspaceFolders: options.workspaceFolders?.map((uri, i) => ({ uri, name: `folder-${i}` })) ?? null,
      capabilities: {
        workspace: {
          configuration: true,
          ...(options.lensRefresh ? { codeLens: { refreshSupport: true } } : {}),
          ...(options.files ? { workspaceEdit: { documentChanges: true, resourceOperations: ['create'] } } : {}),
          ...(options.watchFiles
            ? { didChangeWatchedFiles: { dynamicRegistration: true, relativePatternSupport: true } }
            : {}),
        },
        textDocument: {
          rename: { prepareSupport: true },
          ...(Object.keys(completion).length ? { completion } : {}),
        },
        ...(options.showDocument ? { window: { showDocument: { support: true } } } : {}),
      },
    });
    await this.connection.sendNotification('initialized', {});
  }

  get alive(): boolean {
    return !this.exited && this.child.exitCode === null;
  }

  /** Opens a document and resolves with its first diagnostics (within `limitMs`: a 16 MB template wants more). */
  open(uri: string, text: string, languageId = 'psconfig', limitMs = WAIT_LIMIT_MS): Promise<Diagnostic[]> {
    this.versions.set(uri, 1);
    const p = this.nextDiagnostics(uri, 1, limitMs);
    void this.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId, version: 1, text },
    });
    return p;
  }

  /** Replaces the whole text (as one incremental change over the full range) and waits for the new diagnostics. */
  change(
    uri: string,
    changes: {
      range?: { start: { line: number; character: number }; end: { line: number; character: number } };
      text: string;
    }[],
  ): Promise<Diagnostic[]> {
    const version = (this.versions.get(uri) ?? 1) + 1;
    this.versions.set(uri, version);
    const p = this.nextDiagnostics(uri, version);
    void this.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri, version },
      contentChanges: changes,
    });
    return p;
  }

  /**
   * New settings, announced as Neovim and Emacs do: `push` sends them inside didChangeConfiguration, otherwise
   * the notification carries nothing and the server asks with workspace/configuration.
   */
  changeSettings(settings: Record<string, unknown>, push = false): void {
    this.settings = settings;
    void this.connection.sendNotification('workspace/didChangeConfiguration', {
      settings: push ? { psconfig: settings } : null,
    });
  }

  /** The version the last open/change gave `uri`. */
  version(uri: string): number {
    return this.versions.get(uri) ?? 0;
  }

  /** Merges `settings` into the `psconfig` section and pushes it (as VS Code does). */
  setPsconfigSettings(settings: Record<string, unknown>): void {
    this.changeSettings({ ...this.settings, ...settings }, true);
  }

  /** A file changed on disk (the notification an editor's file watcher sends). type: 1 created, 2 changed, 3 deleted. */
  fileChanged(uri: string, type: 1 | 2 | 3 = 2): void {
    void this.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri, type }] });
  }

  close(uri: string): void {
    void this.connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
  }

  nextDiagnostics(uri: string, version?: number, limitMs = WAIT_LIMIT_MS): Promise<Diagnostic[]> {
    return new Promise((resolve, reject) => {
      if (!this.alive) {
        reject(new Error('server is not running'));
        return;
      }
      // Fail (rather than hang) if the server never publishes for this version.
      const timer = setTimeout(
        () => reject(new Error(`no diagnostics for ${uri} version ${version} within ${limitMs} ms`)),
        limitMs,
      );
      const done = (d: Diagnostic[]): void => {
        clearTimeout(timer);
        resolve(d);
      };
      this.waiters.push({ uri, version, resolve: done, reject: (e) => (clearTimeout(timer), reject(e)) });
    });
  }

  /** Resolves with the first published diagnostics of `uri` (the latest, or a later one) that satisfy `ok`. */
  async diagnosticsWhere(
    uri: string,
    ok: (d: Diagnostic[]) => boolean,
    what = 'the expected diagnostics',
  ): Promise<Diagnostic[]> {
    const deadline = Date.now() + WAIT_LIMIT_MS;
    for (;;) {
      const last = this.lastDiagnostics(uri);
      if (last && ok(last)) return last;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${what} for ${uri} within ${WAIT_LIMIT_MS} ms: ${JSON.stringify(last)}`);
      const next = this.nextDiagnostics(uri);
      next.catch(() => undefined); // a later publication, or none: the loop looks again either way
      await Promise.race([next, new Promise((r) => setTimeout(r, Math.min(left, 1000)))]);
    }
  }

  /**
   * Resolves once `ok()` holds, looked at again whenever the server says anything (a notification, a request, a log
   * line): an event, never a timer. Rejects if the server exits first; the test's own timeout bounds the wait.
   */
  until(ok: () => boolean, what: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = (): void => {
        if (ok()) resolve();
        else this.listeners.push({ check, fail: (e) => reject(new Error(`${what}: ${e.message}`)) });
      };
      if (!this.alive) reject(new Error(`${what}: the server is not running`));
      else check();
    });
  }

  /** Something came from the server: the `until` waiters look again. */
  private heard(): void {
    for (const l of this.listeners.splice(0)) l.check();
  }

  lastDiagnostics(uri: string): Diagnostic[] | undefined {
    return this.diagnostics.get(uri)?.diagnostics;
  }

  request<R>(method: string, params: unknown): Promise<R> {
    return this.connection.sendRequest<R>(method, params);
  }

  /** Errors the server logged (handler exceptions become log lines, never a dead server). */
  loggedErrors(): string[] {
    return this.logs.filter((l) => l.type === 1).map((l) => l.message);
  }

  async stop(): Promise<void> {
    if (this.alive) {
      const exited = new Promise<void>((r) => this.child.once('exit', () => r()));
      try {
        await this.connection.sendRequest('shutdown');
        await this.connection.sendNotification('exit');
      } catch {
        this.child.kill();
      }
      await exited;
    }
    this.connection.dispose();
  }
}

/** Position (0-based line/character) of the n-th occurrence of `needle` in `text`, plus `delta` characters. */
export function positionOf(
  text: string,
  needle: string,
  delta = 0,
  occurrence = 0,
): { line: number; character: number } {
  let at = -1;
  for (let i = 0; i <= occurrence; i++) {
    at = text.indexOf(needle, at + 1);
    if (at < 0) throw new Error(`"${needle}" (occurrence ${occurrence}) not found`);
  }
  return offsetToPosition(text, at + delta);
}

export function offsetToPosition(text: string, offset: number): { line: number; character: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length - 1;
  return { line, character: offset - (before.lastIndexOf('\n') + 1) };
}

export function positionToOffset(text: string, pos: { line: number; character: number }): number {
  const lines = text.split('\n');
  let off = 0;
  for (let i = 0; i < pos.line; i++) off += lines[i].length + 1;
  return off + pos.character;
}

/** Applies non-overlapping text edits (LSP ranges) to a text. */
export function applyEdits(
  text: string,
  edits: {
    range: { start: { line: number; character: number }; end: { line: number; character: number } };
    newText: string;
  }[],
): string {
  const sorted = edits
    .map((e) => ({ s: positionToOffset(text, e.range.start), e: positionToOffset(text, e.range.end), t: e.newText }))
    .sort((a, b) => b.s - a.s);
  let out = text;
  for (const e of sorted) out = out.slice(0, e.s) + e.t + out.slice(e.e);
  return out;
}

/** A diagnostic's message as text (this server sends plain strings; the protocol also allows MarkupContent). */
export function messageText(m: string | MarkupContent | undefined): string {
  return m === undefined ? 'undefined' : typeof m === 'string' ? m : m.value;
}
