// `includes` merged as pSConfig 5.x merges them (base_connect.py expand_config/_merge_configs, psconfig.md §3.8):
// in order, per section, keys already present win; an included file's own `includes` and `_meta` are ignored.
import { JsonObject, stripHashKeys } from './template-view';
import { TooDeepError } from '../nesting';
import type { IncludeOutcome } from '../includes/loader';
import { isObject } from '../../../../common/json';

export const MERGED_SECTIONS = [
  'addresses',
  'address-classes',
  'archives',
  'contexts',
  'groups',
  'hosts',
  'schedules',
  'subtasks',
  'tasks',
  'tests',
];

/** Reads the entries of `includes` (includes/loader.ts: loadIncludes under a policy). */
export type IncludeLoader = (refs: string[]) => Promise<IncludeOutcome[]>;

export interface IncludeOptions {
  /** Absent: no include is read (each one becomes an error note). */
  loadIncludes?: IncludeLoader;
}

export interface IncludeResult {
  merged: JsonObject;
  /** `Error including <url>: <err>` per include not merged. */
  errors: string[];
  /** Of `errors`, those the agent meets too (a file that cannot be read or is not JSON), not those left unread here. */
  agentErrors: string[];
  /** The includes that were merged. */
  included: string[];
}

export async function mergeIncludes(base: JsonObject, options: IncludeOptions): Promise<IncludeResult> {
  const refs = (Array.isArray(base.includes) ? base.includes : []).filter((r): r is string => typeof r === 'string');
  const errors: string[] = [];
  const included: string[] = [];
  const agentErrors: string[] = [];
  if (!refs.length) return { merged: base, errors, agentErrors, included };
  const outcomes: IncludeOutcome[] = options.loadIncludes
    ? await options.loadIncludes(refs)
    : refs.map((ref) => ({
        ref,
        kind: 'local',
        relative: false,
        status: 'skipped',
        reason: 'includes are not read here',
      }));
  const merged: JsonObject = { ...base };
  for (const o of outcomes) {
    const ref = o.ref;
    if (o.status === 'self') continue; // every name it has is already present
    if (o.status === 'failed') {
      errors.push(`Error including ${ref}: ${o.error}`);
      agentErrors.push(errors[errors.length - 1]);
      continue;
    }
    if (o.status === 'skipped') {
      errors.push(`Error including ${ref}: not read: ${o.reason}`);
      continue;
    }
    let inc: unknown;
    try {
      inc = stripHashKeys(JSON.parse(o.text));
    } catch (e) {
      errors.push(
        e instanceof TooDeepError
          ? `Error including ${ref}: ${e.message}`
          : `Error including ${ref}: not valid JSON (${(e as Error).message})`,
      );
      agentErrors.push(errors[errors.length - 1]);
      continue;
    }
    if (!isObject<JsonObject>(inc)) {
      errors.push(`Error including ${ref}: the file is not a JSON object`);
      agentErrors.push(errors[errors.length - 1]);
      continue;
    }
    mergeInto(merged, inc);
    included.push(ref);
  }
  return { merged, errors, agentErrors, included };
}

/** Adds the sections of `inc` to `merged`, keeping names already present (base_connect.py _merge_configs). */
export function mergeInto(merged: JsonObject, inc: JsonObject): void {
  for (const s of MERGED_SECTIONS) {
    const add = inc[s];
    if (!isObject(add)) continue;
    const target: JsonObject = isObject(merged[s]) ? { ...merged[s] } : {};
    for (const [k, v] of Object.entries(add)) if (!(k in target)) target[k] = v;
    merged[s] = target;
  }
}
