// pScheduler's checks of a test, archive or context depend only on that object's text, on the addresses and hosts
// text, and (for strings holding variables) on the tasks using it: the same object is not checked again while
// those are unchanged. A keystroke in one test re-checks that test only; the rest of a large mesh is read back.
import type { TaskInfo, TemplateModel } from '../model';
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
  check(
    /** The object's index in the parse tree. */
    obj: number,
    section: string,
    context: string,
    users: () => readonly TaskInfo[],
    run: (found: TemplateDiagnostic[]) => { plugin: string; clean: boolean } | undefined,
  ): CheckedObject;
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
  const { text, tree } = model.parsed;
  return {
    check(obj, section, context, users, run) {
      const body = text.slice(tree.start[obj], tree.end[obj]);
      const key = body.includes('{%')
        ? `${section}\u0000${context}\u0000${usersSignature(model, users())}`
        : `${section}\u0000${context}`;
      let byBody = store.get(key);
      if (!byBody) store.set(key, (byBody = new Map()));
      let entry = byBody.get(body);
      if (!entry) {
        const found: TemplateDiagnostic[] = [];
        const r = run(found);
        const base = tree.start[obj];
        entry = {
          diags: found.map((d) => ({ ...d, start: d.start - base, end: d.end - base })),
          plugin: r?.plugin,
          clean: r?.clean ?? false,
        };
        byBody.set(body, entry);
        stored++;
      }
      return entry;
    },
    emit(entry, obj, out) {
      if (!entry.diags.length) return;
      const base = tree.start[obj];
      for (const d of entry.diags) out.push({ ...d, start: d.start + base, end: d.end + base });
    },
  };
}
