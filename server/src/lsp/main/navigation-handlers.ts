// Navigation handlers (completion, hover, definition, references, rename, symbols, code actions): LSP request
// → pure navigation module on the cached analysis → LSP result.
import {
  CodeActionKind,
  ResponseError,
  ErrorCodes,
  type CodeAction,
  type CompletionItem,
  type CompletionList,
  type Hover,
  type Location,
  type WorkspaceEdit,
} from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import {
  completeAt,
  nameDetail,
  type NavCompletionItem,
  type NavCompletionResult,
} from '../../template/navigation/completion';
import { completeInEditedText, completeOutsideEdit } from '../../template/navigation/edited-text';
import { quickFixes } from '../../template/navigation/code-actions';
import { migrationCodeActions } from './migration-actions';
import { documentSymbols } from '../../template/navigation/document-symbols';
import { hoverAt, type ExpansionFacts, type TaskFact } from '../../template/navigation/hover';
import {
  findDefinitions,
  findReferences,
  targetAt,
  prepareRename,
  rename,
  type TextEditOffsets,
} from '../../template/navigation/names';
import type { TemplateModel } from '../../template/model';
import type { HostsResult } from '../../../../common/protocol';
import { taskOnHosts } from '../../template/hosts';
import { plain as markdownText } from '../../template/navigation/markdown';
import { completionKind, toDocumentSymbol, toRange } from './to-lsp';
import { runSafe, withTimeout } from './guard';
import { mergeCompletions, payloadItems } from './completion-merge';
import { openModel, type ServerContext } from './context';
import { meshConfigActions } from './meshconfig-actions';
import type { PiecedDocument } from './pieced-document';

/** Schema completion and hover parse the document a second time (their own AST); skip it for big files. */
const MAX_SCHEMA_SERVICE_CHARS = 1024 * 1024;

/** Above this many names, completion items carry no detail; completionItem/resolve adds it. */
const LAZY_DETAIL_ITEMS = 300;

/** Shared by all items of a long list (itemDefaults.data), read back by completionItem/resolve. */
interface ResolveData {
  uri: string;
  kind: NavCompletionItem['kind'];
}

export function registerNavigationHandlers(ctx: ServerContext): void {
  const { connection, documents, cache, log, schema, expansion } = ctx;
  /**
   * Below this size a fresh parse is quick (a few ms per 100 KB): always parse. Above it, completion while typing
   * in a string uses the previous parse (the example templates stay below it, so their tests exercise the plain
   * path).
   */
  const EDITED_TEXT_MIN_CHARS = ctx.options.editedTextMinChars;

  const modelOf = (uri: string) => openModel(ctx, uri);
  /**
   * Name completion from the previous parse when the text changed only inside one string, or elsewhere than the
   * cursor and the names it is offered (edited-text.ts). Both read only the edited stretch of the current text,
   * through the document's pending edits: the whole text is not built before the answer.
   */
  const completeFromEdited = (doc: PiecedDocument, offset: number): NavCompletionResult | undefined => {
    const e = cache.edited(doc);
    if (!e?.analysis.model || doc.length < EDITED_TEXT_MIN_CHARS) return undefined;
    const inserted = doc.slice(e.region.lo, e.region.hiNew);
    return (
      completeInEditedText(e.analysis.model, e.region, inserted, offset) ??
      completeOutsideEdit(e.analysis.model, e.region, (from, to) => doc.slice(from, to), offset)
    );
  };
  const edits = (doc: TextDocument, list: TextEditOffsets[]) =>
    list.map((e) => ({ range: toRange(doc, e.start, e.end), newText: e.newText }));

  connection.onCompletion((params, token) =>
    runSafe<CompletionList | null>(log, 'completion', null, token, async () => {
      const doc = documents.get(params.textDocument.uri);
      if (!doc) return null;
      const offset = doc.offsetAt(params.position);
      // Typing inside a string of a big template: answer from the previous parse instead of parsing again.
      const early = cache.peek(doc) ? undefined : completeFromEdited(doc, offset);
      const model = early ? undefined : modelOf(doc.uri)?.model;
      const nav = early ?? (model ? completeAt(model, offset) : undefined);
      if (!nav) return null;
      const trigger = params.context?.triggerCharacter;
      if (nav.context === 'pscheduler') {
        // A key or value of a spec / data, or a plug-in name: ours first, the official schema's after (it only
        // knows AnyJSON there). A space or `%` typed there opens nothing; `:` opens the values of the key.
        if (trigger === ' ' || trigger === '%' || (trigger === ':' && nav.items.length === 0)) return null;
        const ours = payloadItems(doc, nav.items, ctx.client.snippets);
        const theirs = doc.length > MAX_SCHEMA_SERVICE_CHARS ? [] : (await schema.complete(doc, params.position)).items;
        return { isIncomplete: false, items: mergeCompletions(ours, theirs) };
      }
      if (nav.context !== 'none') {
        // All items of one request replace the same range: send it once (itemDefaults) when the client can take it,
        // which keeps a 2,000-name list small on the wire.
        const first = nav.items[0];
        const shared =
          ctx.client.editRangeDefault &&
          nav.items.length > 0 &&
          (nav.reuse !== undefined ||
            nav.items.every((i) => i.replaceStart === first.replaceStart && i.replaceEnd === first.replaceEnd));
        // Long lists (thousands of addresses) leave details to completionItem/resolve to stay small on the wire.
        const lazy = shared && nav.context === 'reference' && nav.items.length > LAZY_DETAIL_ITEMS;
        // Without positions in them (shared range), a name slot's items are the same at every position of a
        // version: convert them once.
        const items =
          shared && nav.reuse
            ? reusedItems(nav.reuse, lazy, () => toLspItems(doc, nav.items, shared, lazy))
            : toLspItems(doc, nav.items, shared, lazy);
        const list: CompletionList = { isIncomplete: false, items };
        if (shared) list.itemDefaults = { editRange: toRange(doc, first.replaceStart, first.replaceEnd) };
        if (lazy && list.itemDefaults)
          list.itemDefaults.data = { uri: doc.uri, kind: first.kind } satisfies ResolveData;
        return list;
      }
      // Typing a space or `%` only matters inside `{% %}`, and `:` only before a name.
      if (trigger === ' ' || trigger === '%' || trigger === ':') return null;
      if (doc.length > MAX_SCHEMA_SERVICE_CHARS) return null;
      return schema.complete(doc, params.position);
    }),
  );

  connection.onCompletionResolve((item, token) =>
    runSafe<CompletionItem>(log, 'completionItem/resolve', item, token, () => {
      const data = item.data as ResolveData | undefined;
      // only name lists are lazy
      if (
        !data ||
        item.detail ||
        data.kind === 'variable' ||
        data.kind === 'field' ||
        data.kind === 'value' ||
        data.kind === 'plugin'
      )
        return item;
      const doc = documents.get(data.uri);
      if (!doc) return item;
      // A detail from the previous parse is good enough while a big template is being typed in.
      const model =
        cache.peek(doc)?.model ??
        (doc.length >= EDITED_TEXT_MIN_CHARS ? cache.edited(doc)?.analysis.model : undefined) ??
        cache.get(doc).model;
      return model ? { ...item, detail: nameDetail(model, data.kind, item.label) } : item;
    }),
  );

  connection.onDefinition((params, token) =>
    runSafe<Location[]>(log, 'definition', [], token, () => {
      const m = modelOf(params.textDocument.uri);
      if (!m) return [];
      return findDefinitions(m.model, m.doc.offsetAt(params.position)).map((def) => ({
        uri: m.doc.uri,
        range: toRange(m.doc, def.start, def.end),
      }));
    }),
  );

  connection.onReferences((params, token) =>
    runSafe<Location[]>(log, 'references', [], token, () => {
      const m = modelOf(params.textDocument.uri);
      if (!m) return [];
      const ranges = findReferences(m.model, m.doc.offsetAt(params.position), params.context.includeDeclaration);
      return ranges.map((r) => ({ uri: m.doc.uri, range: toRange(m.doc, r.start, r.end) }));
    }),
  );

  connection.onPrepareRename((params, token) =>
    runSafe(log, 'prepareRename', null, token, () => {
      const m = modelOf(params.textDocument.uri);
      if (!m) return null;
      const r = prepareRename(m.model, m.doc.offsetAt(params.position));
      if ('error' in r) throw new ResponseError(ErrorCodes.InvalidRequest, r.error);
      return { range: toRange(m.doc, r.start, r.end), placeholder: r.placeholder };
    }),
  );

  connection.onRenameRequest((params, token) =>
    runSafe<WorkspaceEdit | null>(log, 'rename', null, token, () => {
      const m = modelOf(params.textDocument.uri);
      if (!m) return null;
      const r = rename(m.model, m.doc.offsetAt(params.position), params.newName);
      if ('error' in r) throw new ResponseError(ErrorCodes.InvalidParams, r.error);
      return { changes: { [m.doc.uri]: edits(m.doc, r.edits) } };
    }),
  );

  connection.onHover((params, token) =>
    runSafe<Hover | null>(log, 'hover', null, token, async () => {
      const m = modelOf(params.textDocument.uri);
      if (!m) return null;
      const offset = m.doc.offsetAt(params.position);
      const facts = await factsFor(m.doc, offset, m.model);
      // Two newer versions were analysed while waiting: this version's tree is gone (analysis.ts).
      if (m.model.parsed.tree.released) return null;
      const h = hoverAt(m.model, offset, facts);
      if (h) {
        const hosts = hostsHoverLines(m.model, offset, ctx.hostsResults.get(m.doc.uri));
        return { contents: { kind: 'markdown', value: h.markdown + hosts }, range: toRange(m.doc, h.start, h.end) };
      }
      if (m.doc.length > MAX_SCHEMA_SERVICE_CHARS) return null;
      return schema.hover(m.doc, params.position);
    }),
  );

  /**
   * Counts come from the engine's jq-free count (cheap, cached per version). A variable's value needs a real
   * combination: wait briefly for the full expansion, and show the hover without it if jq is slow.
   */
  const factsFor = async (doc: TextDocument, offset: number, model: TemplateModel): Promise<ExpansionFacts> => {
    // Only group and task hovers show counts, and only a variable's hover a combination.
    const target = targetAt(model, offset);
    const variable = !target && insideVariable(doc.getText(), offset);
    let tasks: TaskFact[] = [];
    if (target?.kind === 'groups' || target?.kind === 'tasks') {
      // Right after an edit, the previous version's counts answer at once if this one's are not quick.
      const latest = expansion.latestCounts(doc.uri);
      const wait = latest ? HOVER_COUNTS_FRESH_MS : HOVER_COUNTS_WAIT_MS;
      tasks = (await withTimeout(expansion.counts(doc), wait)) ?? expansion.latestCounts(doc.uri) ?? [];
    }
    // The simulated schedule's runs a day, when an answer for this version came (the schedule lens asks for it):
    // a hover never starts a simulation (seconds of work for a large mesh).
    const schedule = target?.kind === 'tasks' ? expansion.scheduleSettled(doc) : undefined;
    let result = variable ? expansion.settled(doc) : undefined;
    if (variable && !result) result = await withTimeout(expansion.firstCombinations(doc), HOVER_EXPANSION_WAIT_MS);
    return { tasks, combinations: result?.combinations ?? [], schedule };
  };

  connection.onDocumentSymbol((params, token) =>
    runSafe(log, 'documentSymbol', [], token, () => {
      const m = modelOf(params.textDocument.uri);
      return m ? documentSymbols(m.model).map((s) => toDocumentSymbol(m.doc, s)) : [];
    }),
  );

  connection.onCodeAction((params, token) =>
    runSafe<CodeAction[]>(log, 'codeAction', [], token, () => {
      // Asked on every cursor move: without one of our diagnostics there is nothing to fix and nothing to parse.
      if (!params.context.diagnostics.some((diag) => diag.source === 'psconfig')) return [];
      const m = modelOf(params.textDocument.uri);
      if (!m) return [];
      const out: CodeAction[] = [];
      for (const diag of params.context.diagnostics) {
        if (diag.source !== 'psconfig') continue;
        if ((diag.data as { kind?: unknown } | undefined)?.kind === 'translate-meshconfig') {
          const isOpen = (uri: string): boolean => documents.get(uri) !== undefined;
          out.push(...meshConfigActions(m.doc, m.model.parsed, diag, ctx.client.files, isOpen));
          continue;
        }
        const start = m.doc.offsetAt(diag.range.start);
        const end = m.doc.offsetAt(diag.range.end);
        for (const fix of quickFixes(m.model, {
          start,
          end,
          code: typeof diag.code === 'string' ? diag.code : undefined,
          data: diag.data,
        })) {
          out.push({
            title: fix.title,
            kind: CodeActionKind.QuickFix,
            diagnostics: [diag],
            isPreferred: fix.isPreferred,
            edit: { changes: { [m.doc.uri]: edits(m.doc, fix.edits) } },
          });
        }
      }
      const published = ctx.publisher.published(m.doc.uri, m.doc.version);
      out.push(...migrationCodeActions(m.doc, m.model, params.context.diagnostics, published));
      return out;
    }),
  );
}

/** LSP items converted from a cached candidate list (see NavCompletionResult.reuse), per quoting and laziness. */
const convertedItems = new WeakMap<object, Map<string, CompletionItem[]>>();

function reusedItems(
  reuse: { source: object; quoted: boolean },
  lazy: boolean,
  convert: () => CompletionItem[],
): CompletionItem[] {
  let perSource = convertedItems.get(reuse.source);
  if (!perSource) convertedItems.set(reuse.source, (perSource = new Map<string, CompletionItem[]>()));
  const key = `${reuse.quoted}|${lazy}`;
  let items = perSource.get(key);
  if (!items) perSource.set(key, (items = convert()));
  return items;
}

function toLspItems(
  doc: TextDocument,
  navItems: NavCompletionItem[],
  shared: boolean,
  lazy: boolean,
): CompletionItem[] {
  return navItems.map((i) => {
    const item: CompletionItem = { label: i.label, kind: completionKind(i.kind) };
    if (shared) {
      if (i.insertText !== i.label) item.textEditText = i.insertText;
    } else item.textEdit = { range: toRange(doc, i.replaceStart, i.replaceEnd), newText: i.insertText };
    if (i.insertText !== i.label) item.filterText = i.insertText;
    if (i.detail && !lazy) item.detail = i.detail;
    if (i.documentation) item.documentation = { kind: 'markdown', value: i.documentation };
    // A lazy list's default order is the label order: sortText only for the names sorted last.
    if (i.sortText && !(lazy && i.sortText === `0${i.label}`)) item.sortText = i.sortText;
    return item;
  });
}

/** How long a hover waits for figures it would like to show before answering without them. */
const HOVER_COUNTS_WAIT_MS = 500;
/** How long it waits for the current version's counts when an earlier version's are there to show. */
const HOVER_COUNTS_FRESH_MS = 30;
const HOVER_EXPANSION_WAIT_MS = 1500;

function insideVariable(text: string, offset: number): boolean {
  const open = text.lastIndexOf('{%', offset);
  if (open < 0 || offset - open > 4000) return false;
  const close = text.indexOf('%}', open);
  return close >= offset - 2 && !text.slice(open, offset).includes('\n');
}

/** A task's hover, continued with how it went on its hosts when they were read (Markdown, or ''). */
function hostsHoverLines(model: TemplateModel, offset: number, result: HostsResult | undefined): string {
  const target = result && targetAt(model, offset);
  if (!result || target?.kind !== 'tasks') return '';
  const on = taskOnHosts(result, target.name);
  if (!on) return '';
  const read = result.hosts.map((h) => h.host).join(', ');
  return `\n\n**On its hosts** (${read}; runs of the last ${result.since}):\n${on.lines.map((l) => `- ${markdownText(l)}`).join('\n')}`;
}
