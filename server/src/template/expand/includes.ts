// `includes` merged as pSConfig 5.x merges them (base_connect.py expand_config/_merge_configs, psconfig.md §3.8):
// in order, per section, keys already present win; an included file's own `includes` and `_meta` are ignored.
import { isObject, JsonObject, stripHashKeys } from './template-view';

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

/** Reads a local include (an absolute path; `file://` already removed). Injected so tests and the editor decide. */
export type IncludeReader = (path: string) => Promise<string>;

export interface IncludeOptions {
  readInclude?: IncludeReader;
  allowRemoteIncludes?: boolean;
  /** Used for remote includes when allowed (defaults to global fetch with a 10 s limit, as `--timeout` does). */
  fetchText?: (url: string) => Promise<string>;
}

export interface IncludeResult {
  merged: JsonObject;
  /** `Error including <url>: <err>` per failed include. */
  errors: string[];
  /** The includes that were merged. */
  included: string[];
}

async function defaultFetch(url: string): Promise<string> {
  const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  if (!res.ok) throw new Error(`HTTP ${res.status} ${res.statusText}`);
  return res.text();
}

export async function mergeIncludes(base: JsonObject, options: IncludeOptions): Promise<IncludeResult> {
  const refs = Array.isArray(base.includes) ? base.includes : [];
  const errors: string[] = [];
  const included: string[] = [];
  if (!refs.length) return { merged: base, errors, included };
  const merged: JsonObject = { ...base };
  for (const ref of refs) {
    if (typeof ref !== 'string') continue;
    let text: string;
    try {
      if (/^https?:\/\//i.test(ref)) {
        if (!options.allowRemoteIncludes)
          throw new Error('remote includes are not fetched (enable the setting psconfig.includes.allowRemote)');
        text = await (options.fetchText ?? defaultFetch)(ref);
      } else {
        if (!options.readInclude) throw new Error('reading local include files is not available here');
        text = await options.readInclude(ref.replace(/^file:\/\//i, ''));
      }
    } catch (e) {
      errors.push(`Error including ${ref}: ${(e as Error).message}`);
      continue;
    }
    let inc: unknown;
    try {
      inc = stripHashKeys(JSON.parse(text));
    } catch (e) {
      errors.push(`Error including ${ref}: not valid JSON (${(e as Error).message})`);
      continue;
    }
    if (!isObject(inc)) {
      errors.push(`Error including ${ref}: the file is not a JSON object`);
      continue;
    }
    for (const s of MERGED_SECTIONS) {
      const add = inc[s];
      if (!isObject(add)) continue;
      const target: JsonObject = isObject(merged[s]) ? { ...(merged[s] as JsonObject) } : {};
      for (const [k, v] of Object.entries(add)) if (!(k in target)) target[k] = v;
      merged[s] = target;
    }
    included.push(ref);
  }
  return { merged, errors, included };
}
