// What each translated test yields once expanded: a test whose task creates no pScheduler task is said, with the
// reason, as a note on that MeshConfig test (the translation itself cannot see it: an address class that selects
// nobody, a group of one host, tools pScheduler refuses, ...). Pure: the translation and the expansion of its template
// (server/src/template/expand/, run by the caller with its jq) in, notes out.
import type { ExpansionResult } from '../expand';
import type { MeshConfigTranslation, NotePath, TranslationNote } from './translate';
import { type JsonObject } from './values';
import { isObject } from '../../../../common/json';

export type TranslationExpansion = Pick<ExpansionResult, 'error' | 'tasks' | 'combinations' | 'notes'>;

/** One note per translated task that creates no task, on the MeshConfig test it came from. */
export function expansionNotes(t: MeshConfigTranslation, r: TranslationExpansion): TranslationNote[] {
  if (r.error !== undefined)
    return [{ path: [], severity: 'warning', message: `The translated template could not be expanded: ${r.error}` }];
  const tasks = isObject(t.template.tasks) ? t.template.tasks : {};
  const out: TranslationNote[] = [];
  for (const [name, task] of Object.entries(tasks)) {
    if (!isObject(task) || task.disabled === true) continue;
    const summary = r.tasks.find((s) => s.task === name);
    if (summary && summary.count > 0) continue;
    const why = reason(name, task, summary, r);
    const path: NotePath = t.taskFrom[name] ?? ['tests'];
    out.push({ path, severity: 'warning', message: `Task "${name}" creates no pScheduler task: ${why}.` });
  }
  return out;
}

function reason(
  name: string,
  task: JsonObject,
  summary: TranslationExpansion['tasks'][number] | undefined,
  r: TranslationExpansion,
): string {
  if (summary?.error) return summary.error;
  const combos = r.combinations.filter((c) => c.task === name);
  if (combos.length === 0) {
    const taskNotes = r.notes.filter((n) => n.task === name).map((n) => n.message);
    return `its group "${String(task.group)}" yields no address combination (an address class that selects no address, or members that all share one host)${taskNotes.length ? `; ${taskNotes.join('; ')}` : ''}`;
  }
  const refused = combos.filter((c) => c.refused !== undefined);
  const failed = combos.filter((c) => c.error !== undefined && c.refused === undefined);
  const identical = combos.filter((c) => c.identicalTo !== undefined);
  const parts: string[] = [];
  if (refused.length > 0)
    parts.push(`pScheduler would refuse ${refused.length} of ${combos.length} (${refused[0].error ?? 'refused'})`);
  if (failed.length > 0)
    parts.push(`${failed.length} of ${combos.length} fail to expand (${failed[0].error ?? 'failed'})`);
  if (identical.length > 0 && identical[0].identicalTo)
    parts.push(
      `${identical.length} of ${combos.length} are identical to a task of "${identical[0].identicalTo.task}" the same agent creates already`,
    );
  return parts.join('; ') || `none of its ${combos.length} combinations is created`;
}
