// Loads the official pSConfig schema (schemas/psconfig.schema.json, byte-exact from perfsonar/psconfig).
//
// The file is found by walking up from this module, which works from the sources, the transpiled tests (out/),
// the bundles (dist/) and an installed extension alike, and keeps one copy of the schema in the repository.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  patternProperties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  required?: string[];
  enum?: unknown[];
  pattern?: string;
  minimum?: number;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  format?: string;
  description?: string;
  'x-invalid-message'?: string;
  pSConfig?: Record<string, JsonSchema>;
}

let cached: JsonSchema | undefined;

/** The official schema document. Throws if the file cannot be found (a packaging bug). */
export function officialSchema(): JsonSchema {
  if (cached) return cached;
  let dir = __dirname;
  for (let i = 0; i < 8; i++) {
    const p = join(dir, 'schemas', 'psconfig.schema.json');
    if (existsSync(p)) {
      cached = JSON.parse(readFileSync(p, 'utf8')) as JsonSchema;
      return cached;
    }
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  throw new Error(`schemas/psconfig.schema.json not found above ${__dirname}`);
}

/** Use a given schema document instead of the file (tests, or a host that loads it differently). */
export function setOfficialSchema(schema: JsonSchema): void {
  cached = schema;
}
