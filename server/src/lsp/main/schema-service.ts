// Schema-driven key/value completion and hover from vscode-json-languageservice, configured with the official
// pSConfig schema as it is (draft-04, definitions under `pSConfig`). Used where no name or variable applies.
import { getLanguageService, type JSONDocument, type LanguageService } from 'vscode-json-languageservice';
import type { CompletionList, Hover, Position } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { officialSchema } from '../../template/schema/schema-source';
import { MAX_NESTING, maxNesting } from '../../template/nesting';

const SCHEMA_URI = 'psconfig://schema/psconfig.schema.json';

export class SchemaService {
  private service: LanguageService | undefined;
  private cached: { uri: string; version: number; json: JSONDocument | undefined } | undefined;

  private ls(): LanguageService {
    if (!this.service) {
      this.service = getLanguageService({});
      this.service.configure({
        validate: false,
        allowComments: false,
        schemas: [{ uri: SCHEMA_URI, fileMatch: ['*'], schema: officialSchema() }],
      });
    }
    return this.service;
  }

  /**
   * The language service's parse, or undefined for a document nested deeper than MAX_NESTING: its parser and
   * walks recurse per level and overflow the stack at some thousands (the diagnostics say why nothing is offered).
   */
  private parsed(doc: TextDocument): JSONDocument | undefined {
    if (this.cached?.uri === doc.uri && this.cached.version === doc.version) return this.cached.json;
    const text = doc.getText();
    let json: JSONDocument | undefined;
    if (maxNesting(text) <= MAX_NESTING) json = tooDeepIsNothing(() => this.ls().parseJSONDocument(doc));
    this.cached = { uri: doc.uri, version: doc.version, json };
    return json;
  }

  async complete(doc: TextDocument, position: Position): Promise<CompletionList> {
    const json = this.parsed(doc);
    const list = json ? await tooDeepIsNothingAsync(() => this.ls().doComplete(doc, position, json)) : null;
    return list ?? { isIncomplete: false, items: [] };
  }

  async hover(doc: TextDocument, position: Position): Promise<Hover | null> {
    const json = this.parsed(doc);
    if (!json) return null;
    const h = await tooDeepIsNothingAsync(() => this.ls().doHover(doc, position, json));
    if (!h) return null;
    const contents = Array.isArray(h.contents) ? h.contents : [h.contents];
    const empty = contents.every((c) => (typeof c === 'string' ? c.trim() === '' : c.value.trim() === ''));
    return empty ? null : h;
  }

  forget(uri: string): void {
    if (this.cached?.uri === uri) this.cached = undefined;
  }

  /** The language service's parse kept (of the document last asked about, while it is open). */
  entryCounts(): Record<string, number> {
    return { schemaParses: this.cached ? 1 : 0 };
  }
}

/** A stack overflow inside the language service (a nesting our scan did not foresee) means "nothing to offer". */
function tooDeepIsNothing<T>(f: () => T): T | undefined {
  try {
    return f();
  } catch (e) {
    if (e instanceof RangeError) return undefined;
    throw e;
  }
}

async function tooDeepIsNothingAsync<T>(f: () => PromiseLike<T>): Promise<T | undefined> {
  try {
    return await f();
  } catch (e) {
    if (e instanceof RangeError) return undefined;
    throw e;
  }
}
