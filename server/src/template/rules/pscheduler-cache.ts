// pScheduler's checks of a test, archive or context depend only on that object's text, on the addresses and hosts
// text, and (for strings holding variables) on the tasks using it: the same object is not checked again while
// those are unchanged. A keystroke in one test re-checks that test only; the rest of a large mesh is read back.
import { analyseTemplate, type TemplateModel } from '../model';
import { KEEP_ALIVE } from '../tree';
import { expansionGeneration, usersSignature } from '../pscheduler/template-expansion';
import type { TemplateDiagnostic } from './diagnostic';

export interface CheckedObject {
  /** Diagnostics with offsets relative to the object's first character. */
  diags: TemplateDiagnostic[];
  /** Test plug-in name and whether its spec had no errors (for the task `tools` check). */
  plugin?: string;
  clean: boolean;
}

export interface ResultCache {
  /**
   * The stored result for the object at tree index `obj` (a test, archive or context named `name`), or undefined:
   * then the caller checks it and hands the findings to store(), which files them under this lookup's key.
   */
  lookup(
    obj: number,
    section: 'tests' | 'archives' | 'contexts',
    context: string,
    name: string,
  ): CheckedObject | undefined;
  store(obj: number, found: TemplateDiagnostic[], r: { plugin: string; clean: boolean } | undefined): CheckedObject;
  emit(entry: CheckedObject, obj: number, out: TemplateDiagnostic[]): void;
}

/** context key -> object text -> result; emptied when the expansion cache's generation changes. */
const store = new Map<string, Map<string, CheckedObject>>();
let generation = -1;
let stored = 0;
const MAX_STORED = 20_000;

export function clearResultCache(): void {
  store.clear();
  stored = 0;
}

export function resultCache(model: TemplateModel): ResultCache {
  const gen = expansionGeneration(model);
  if (gen !== generation || stored > MAX_STORED) {
    clearResultCache();
    generation = gen;
  }
  return new ModelResults(model);
}

/** A class rather than an object of closures made per check: V8 keeps a function's optimized code only while a
 *  closure of it lives, so per-check closures were compiled again on every version checked. */
class ModelResults implements ResultCache {
  private pending: { byBody: Map<string, CheckedObject>; body: string } | undefined;

  constructor(private readonly model: TemplateModel) {}

  lookup(
    obj: number,
    section: 'tests' | 'archives' | 'contexts',
    context: string,
    name: string,
  ): CheckedObject | undefined {
    const { text, tree } = this.model.parsed;
    const body = text.slice(tree.start[obj], tree.end[obj]);
    // strings holding variables expand per using task: those tasks are part of the key
    const key = body.includes('{%')
      ? `${section}\u0000${context}\u0000${usersSignature(this.model, this.model.usersOf(section, name))}`
      : `${section}\u0000${context}`;
    let byBody = store.get(key);
    if (!byBody) store.set(key, (byBody = new Map<string, CheckedObject>()));
    const entry = byBody.get(body);
    this.pending = entry ? undefined : { byBody, body };
    return entry;
  }

  store(obj: number, found: TemplateDiagnostic[], r: { plugin: string; clean: boolean } | undefined): CheckedObject {
    const base = this.model.parsed.tree.start[obj];
    const entry: CheckedObject = {
      diags: found.map((d) => ({ ...d, start: d.start - base, end: d.end - base })),
      plugin: r?.plugin,
      clean: r?.clean ?? false,
    };
    if (this.pending) {
      this.pending.byBody.set(this.pending.body, entry);
      this.pending = undefined;
      stored++;
    }
    return entry;
  }

  emit(entry: CheckedObject, obj: number, out: TemplateDiagnostic[]): void {
    if (!entry.diags.length) return;
    const base = this.model.parsed.tree.start[obj];
    for (const d of entry.diags) out.push({ ...d, start: d.start + base, end: d.end + base });
  }
}

// see tree.ts: one instance of the per-check class stays alive
KEEP_ALIVE.push(new ModelResults(analyseTemplate('{}')));
