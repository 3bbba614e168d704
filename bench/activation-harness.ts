// Child process of activation.bench.ts: loads a client bundle against a stand-in `vscode` module (every API a
// no-op that returns another stand-in; view providers and commands are recorded), activates the extension, then
// resolves the archive explorer view as its first use would, and loads the language client bundle as the first
// template would. Prints one JSON line of timings. With `eager`, the lazily loaded bundles are required before
// activation, as one bundle held them all before they were split out (the baseline).
//   node out/bench/activation-harness.js DIST_DIR [eager]
import Module from 'node:module';
import { join } from 'node:path';

type AnyFn = (...args: unknown[]) => unknown;

/** A value every property, call and `new` of which gives another such value (iteration yields nothing). */
function standIn(): unknown {
  const target = function () {
    /* stand-in */
  };
  const proxy: unknown = new Proxy(target, {
    get(_t, prop) {
      if (prop === Symbol.iterator) return function* () {};
      if (prop === Symbol.toPrimitive) return () => '';
      if (prop === 'then') return undefined; // not a thenable
      if (prop === 'length') return 0;
      return proxy;
    },
    apply: () => proxy,
    construct: () => proxy as object,
  });
  return proxy;
}

const providers = new Map<string, { resolveWebviewView: AnyFn }>();
const commands = new Map<string, AnyFn>();
const any = standIn() as Record<string, unknown>;

class Disposable {
  static from(): Disposable {
    return new Disposable();
  }
  dispose(): void {}
}
class EventEmitter {
  event = (): Disposable => new Disposable();
  fire(): void {}
  dispose(): void {}
}
class TreeItem {
  constructor(readonly label: unknown) {}
}

/** Namespaces and classes the extension and vscode-languageclient touch, each a stand-in (a bundle copies the
 *  module's own properties, so they must exist as keys). */
const NAMES = [
  'Uri',
  'window',
  'workspace',
  'commands',
  'languages',
  'env',
  'extensions',
  'debug',
  'tasks',
  'tests',
  'notebooks',
  'l10n',
  'authentication',
  'comments',
  'scm',
  'chat',
  'lm',
  'ViewColumn',
  'TreeItemCollapsibleState',
  'ThemeColor',
  'ThemeIcon',
  'QuickPickItemKind',
  'ConfigurationTarget',
  'CancellationTokenSource',
  'CancellationError',
  'ProgressLocation',
  'Position',
  'Range',
  'Selection',
  'Location',
  'Diagnostic',
  'DiagnosticSeverity',
  'DiagnosticTag',
  'DiagnosticRelatedInformation',
  'CompletionItem',
  'CompletionItemKind',
  'CompletionList',
  'SnippetString',
  'MarkdownString',
  'Hover',
  'CodeAction',
  'CodeActionKind',
  'CodeLens',
  'WorkspaceEdit',
  'TextEdit',
  'DocumentSymbol',
  'SymbolKind',
  'SymbolInformation',
  'RelativePattern',
  'StatusBarAlignment',
  'EndOfLine',
  'LogLevel',
  'FileType',
  'DocumentLink',
  'Color',
  'ColorInformation',
  'FoldingRange',
  'SemanticTokens',
  'SemanticTokensLegend',
  'TextDocumentSaveReason',
  'SignatureHelp',
  'ParameterInformation',
  'SignatureInformation',
  'CallHierarchyItem',
  'TypeHierarchyItem',
  'InlayHint',
  'InlineValueText',
  'LinkedEditingRanges',
  'SelectionRange',
  'NotebookCellKind',
  'NotebookRange',
  'UIKind',
  'FileSystemError',
];

const vscodeStub: Record<string, unknown> = Object.fromEntries(NAMES.map((n) => [n, any]));
Object.assign(vscodeStub, {
  version: '1.91.0',
  Disposable,
  EventEmitter,
  TreeItem,
  window: new Proxy(
    {
      registerWebviewViewProvider: (id: string, p: { resolveWebviewView: AnyFn }) => {
        providers.set(id, p);
        return new Disposable();
      },
    },
    { get: (t: Record<string, unknown>, p: string) => t[p] ?? any[p] },
  ),
  commands: new Proxy(
    {
      registerCommand: (id: string, fn: AnyFn) => {
        commands.set(id, fn);
        return new Disposable();
      },
    },
    { get: (t: Record<string, unknown>, p: string) => t[p] ?? any[p] },
  ),
  workspace: new Proxy({ textDocuments: [] }, { get: (t: Record<string, unknown>, p: string) => t[p] ?? any[p] }),
});

const load = (Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown })._load;
(Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown })._load = function (
  request: string,
  ...rest: unknown[]
) {
  return request === 'vscode' ? vscodeStub : load.call(this, request, ...rest);
};

async function main(): Promise<void> {
  const dist = process.argv[2];
  const eager = process.argv[3] === 'eager';
  const lazyBundles = ['language-client.js', 'archive-explorer.js'].map((f) => join(dist, f));
  const context = { subscriptions: [] as unknown[], extensionUri: any, secrets: any, globalState: any };
  const t0 = performance.now();
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the built bundles, loaded at run time as the extension host loads them
  if (eager) for (const b of lazyBundles) require(b);
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- as above
  const ext = require(join(dist, 'client.js')) as { activate(c: unknown): unknown };
  const t1 = performance.now();
  ext.activate(context);
  const t2 = performance.now();
  const webviewState: Record<string, unknown> = { cspSource: "'self' https://*.vscode-cdn.net", html: '' };
  const webview = new Proxy(webviewState, {
    get: (t, p: string): unknown => (p in t ? t[p] : any[p]),
    set: (t, p: string, v: unknown) => ((t[p] = v), true),
  });
  const view = { webview, onDidDispose: () => new Disposable(), show: () => undefined };
  await providers.get('psconfig.archiveExplorer')?.resolveWebviewView(view, any, any);
  const t3 = performance.now();
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- as above
  require(lazyBundles[0]);
  const t4 = performance.now();
  console.log(
    JSON.stringify({
      loadMs: t1 - t0,
      activateMs: t2 - t1,
      explorerMs: t3 - t2,
      languageClientMs: t4 - t3,
      commands: commands.size,
      explorerHtml: String(webview.html).length,
    }),
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
