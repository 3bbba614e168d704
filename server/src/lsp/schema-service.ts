// Schema-driven key/value completion and hover from vscode-json-languageservice, configured with the official
// pSConfig schema as it is (draft-04, definitions under `pSConfig`). Used where no name or variable applies.
import { getLanguageService, type JSONDocument, type LanguageService } from 'vscode-json-languageservice';
import type { CompletionList, Hover, Position } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { officialSchema } from '../template/schema/schema-source';

const SCHEMA_URI = 'psconfig://schema/psconfig.schema.json';

export class SchemaService {
  private service: LanguageService | undefined;
  private cached: { uri: string; version: number; json: JSONDocument } | undefined;

  private ls(): LanguageService {
    if (!this.service) {
      this.service = getLanguageService({});
      this.service.configure({
        validate: false,
        allowComments: false,
        schemas: [{ uri: SCHEMA_URI, fileMatch: ['*'], schema: officialSchema() as object }],
      });
    }
    return this.service;
  }

  private parsed(doc: TextDocument): JSONDocument {
    if (this.cached?.uri === doc.uri && this.cached.version === doc.version) return this.cached.json;
    const json = this.ls().parseJSONDocument(doc);
    this.cached = { uri: doc.uri, version: doc.version, json };
    return json;
  }

  async complete(doc: TextDocument, position: Position): Promise<CompletionList> {
    const list = await this.ls().doComplete(doc, position, this.parsed(doc));
    return list ?? { isIncomplete: false, items: [] };
  }

  async hover(doc: TextDocument, position: Position): Promise<Hover | null> {
    const h = await this.ls().doHover(doc, position, this.parsed(doc));
    if (!h) return null;
    const contents = Array.isArray(h.contents) ? h.contents : [h.contents];
    const empty = contents.every((c) => (typeof c === 'string' ? c.trim() === '' : c.value.trim() === ''));
    return empty ? null : h;
  }

  forget(uri: string): void {
    if (this.cached?.uri === uri) this.cached = undefined;
  }
}
